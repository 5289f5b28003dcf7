"""`sheet._min_pooled`: the photo reduced keeping each block's darkest value in each channel, which stage 2
looks for thin pencil lines in."""

from __future__ import annotations

import numpy as np
import pytest

from sheetscan.vision.photo import Photo
from sheetscan.vision.sheet import _min_pooled


def _photo(image: np.ndarray) -> Photo:
    return Photo(image=image, width=image.shape[1], height=image.shape[0], sha256="", name="<test>")


def _block_minima(image: np.ndarray, shape: tuple[int, int], factor: int) -> np.ndarray:
    """Each `factor` × `factor` block from the top-left corner (cut by the image's edge) at its darkest."""
    out = np.zeros((*shape, image.shape[2]), np.uint8)
    for y in range(shape[0]):
        for x in range(shape[1]):
            block = image[y * factor: (y + 1) * factor, x * factor: (x + 1) * factor]
            out[y, x] = block.reshape(-1, image.shape[2]).min(axis=0)
    return out


@pytest.mark.parametrize(("height", "width", "shape", "factor"), [
    (96, 128, (24, 32), 4),  # blocks tile the photo
    (100, 131, (33, 43), 3),  # a strip past the last blocks is left out
    (301, 401, (43, 57), 7),
    (11, 23, (3, 6), 4),  # the last row of blocks runs off the photo's bottom edge: cut by it
])
def test_each_block_keeps_its_darkest_value_per_channel(height: int, width: int, shape: tuple[int, int],
                                                        factor: int) -> None:
    image = np.random.default_rng(height).integers(0, 256, (height, width, 3), dtype=np.uint8)
    pooled = _min_pooled(_photo(image), shape)
    assert pooled.shape == (*shape, 3) and pooled.flags.c_contiguous
    assert np.array_equal(pooled, _block_minima(image, shape, factor))


def test_a_thin_dark_line_keeps_its_full_darkness() -> None:
    image = np.full((120, 160, 3), 220, np.uint8)
    image[61, :, 1] = 40  # one pixel wide, in one channel, between the sampled rows
    pooled = _min_pooled(_photo(image), (30, 40))
    assert (pooled[15, :, 1] == 40).all() and (pooled[15, :, 0] == 220).all()
    assert (np.delete(pooled, 15, axis=0) == 220).all()
