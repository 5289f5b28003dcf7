"""The digit normalisation's ink box is the union of every component kept, specks left out, however
the crops are batched (`_digit_norm`: the box is taken from the components' statistics)."""

from __future__ import annotations

import numpy as np

from sheetscan.vision._digit_norm import normalise_digit, normalise_digits


def _bars(size: int = 30) -> np.ndarray:
    """An "=": two bars 3 px thick and 24 px long, 27 px apart top to bottom (a box of 24 × 30 px)."""
    image = np.zeros((size, size), np.uint8)
    image[0:3, 3:27] = 255
    image[27:30, 3:27] = 255
    return image


def test_the_ink_box_spans_every_component_and_no_speck() -> None:
    # The box is 30 px tall and 24 wide: fitted into 20 × 20 it becomes 20 tall and 16 wide, so the
    # ink spans 20 rows (21 with the bilinear shift's spill) and 16 columns (17).
    plain = np.zeros((70, 70), np.uint8)
    plain[:30, :30] = _bars()
    specked = plain.copy()
    specked[66, 66] = 255  # one pixel: 1 / 145 of the ink, under 3 %: dropped
    for out in (normalise_digit(plain), normalise_digit(specked)):
        rows = np.flatnonzero(out.max(axis=1) > 0.05)
        columns = np.flatnonzero(out.max(axis=0) > 0.05)
        assert rows[-1] - rows[0] + 1 in (20, 21)
        assert columns[-1] - columns[0] + 1 in (16, 17)
    assert np.array_equal(normalise_digit(plain), normalise_digit(specked))


def test_a_batch_is_its_crops_one_by_one() -> None:
    crops = [_bars(), np.zeros((0, 4), np.uint8), np.full((9, 9), 10, np.uint8), _bars()[:, :20]]
    blob = normalise_digits(crops)
    assert blob.shape == (4, 1, 28, 28)
    for crop, image in zip(crops, blob[:, 0], strict=True):
        assert np.array_equal(image, normalise_digit(crop))
    assert not blob[1].any() and not blob[2].any()
