"""Stage 4, `_lines.shrunk`: a ruling's darkness and the half-size lines shrink a sheet by whole blocks,
whatever its size."""

from __future__ import annotations

import numpy as np

from sheetscan.vision._lines import shrunk


def _block_means(image: np.ndarray, factor: int) -> np.ndarray:
    """The mean of each whole `factor` × `factor` block from the top left corner."""
    rows, cols = image.shape[0] // factor, image.shape[1] // factor
    blocks = image[:rows * factor, :cols * factor].astype(np.float64).reshape(rows, factor, cols, factor)
    return np.asarray(blocks.mean(axis=(1, 3)), np.float64)


def test_a_sheet_a_few_rows_past_whole_blocks_is_shrunk_by_whole_blocks() -> None:
    # 1739 rows is 434 blocks of 4 and 3 rows more: each pixel must still be one block's mean, not a mean over
    # 4.007 rows that drifts a row off by the bottom.
    rng = np.random.default_rng(8)
    for height, width, factor in ((1739, 2000, 4), (1739, 1893, 2), (411, 530, 16), (63, 70, 4)):
        image = rng.integers(0, 256, (height, width)).astype(np.uint8)
        small = shrunk(image, factor)
        assert small.shape == (height // factor, width // factor)
        assert np.abs(small - _block_means(image, factor)).max() <= 0.5  # rounded to a whole level
