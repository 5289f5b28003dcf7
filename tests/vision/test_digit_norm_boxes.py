"""Speed (issue 5), session 14: a digit crop of one piece of ink is boxed by that piece, as a crop of
several is by the union of theirs (`_digit_norm`: the one piece's box read from its statistics at once).

Truth: the boxes of bars drawn by hand, fitted into MNIST's 20 × 20 keeping their proportions.
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision._digit_norm import normalise_digit


def _spans(image: np.ndarray) -> tuple[int, int]:
    """How many rows and columns the normalised image's ink spans."""
    rows = np.flatnonzero(image.max(axis=1) > 0.05)
    columns = np.flatnonzero(image.max(axis=0) > 0.05)
    return int(rows[-1] - rows[0] + 1), int(columns[-1] - columns[0] + 1)


def test_one_piece_is_boxed_by_itself_wherever_it_lies() -> None:
    # An "L" 30 px tall and 15 wide (a box of 15 × 30): fitted into 20 × 20 it is 20 tall and 10 wide
    # (one more either way for the bilinear shift's spill), wherever it lies in the crop, at its edges too.
    for top, left, size in ((0, 0, 30), (5, 9, 40), (10, 25, 40)):
        crop = np.zeros((size, size), np.uint8)
        crop[top:top + 30, left:left + 3] = 255
        crop[top + 27:top + 30, left:left + 15] = 255
        height, width = _spans(normalise_digit(crop))
        assert height in (20, 21)
        assert width in (10, 11)
    # The same "L" in a bigger crop reads the same: only its box counts.
    small = np.zeros((30, 15), np.uint8)
    small[:, :3] = small[27:, :] = 255
    big = np.zeros((60, 50), np.uint8)
    big[20:50, 30:45] = small
    assert np.array_equal(normalise_digit(small), normalise_digit(big))
