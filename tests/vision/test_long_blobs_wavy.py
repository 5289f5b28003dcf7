"""A wavy freehand line the zone stage did not give goes, and the digit written against it stays
(`_long_blobs.cut_long_blobs`, `_wavy_lines`).

A divider drawn in one go bows both ways: no stretch of it is straight for as long as `straight_lines`
takes a line to be, so no straight stretch can be cut out of it, and before the rule the whole blob went,
the digit joined to it too.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision._long_blobs import cut_long_blobs

SIZE = (700, 400)  # rows, columns
STRAIGHT = 120.0  # no straight stretch shorter than this is a line's (as `grid_length` of a 2000 px sheet)


def _wavy_line(mask: npt.NDArray[np.uint8]) -> None:
    """An upright line 600 px long, 7 px wide, bowing 12 px either way every 150 px."""
    ys = np.arange(50, 650)
    xs = 100 + 12 * np.sin(2 * np.pi * ys / 150)
    points = np.stack([xs, ys], axis=1).round().astype(np.int32)
    cv2.polylines(mask, [points], False, 255, 7)


def _zero(mask: npt.NDArray[np.uint8], x: int) -> None:
    """A "0" 48 px tall and 40 wide written with its left side at column `x` (5 px strokes): as large
    against the line as the photo's "8" was (42 x 45 px against a line 8 px wide)."""
    cv2.ellipse(mask, (x + 20, 300), (18, 22), 0, 0, 360, 255, 5)


def test_a_digit_against_a_wavy_line_stays_and_the_line_goes() -> None:
    mask = np.zeros(SIZE, np.uint8)
    _wavy_line(mask)
    line_at = round(100 + 12 * np.sin(2 * np.pi * 300 / 150))  # the line's middle at row 300
    _zero(mask, line_at + 1)  # touching the line
    digit = np.zeros_like(mask)
    _zero(digit, line_at + 1)
    out = cut_long_blobs(mask, max_length=0.2 * 2000, straight=STRAIGHT)
    course = 100 + 12 * np.sin(2 * np.pi * np.arange(SIZE[0]) / 150)  # the line's middle, row by row
    beside = digit.astype(bool) & (np.abs(np.arange(SIZE[1])[None, :] - course[:, None]) > 7)
    # The digit's ink away from the line's stroke is kept (all but a few pixels of its edge).
    assert np.count_nonzero(out[beside]) >= 0.9 * np.count_nonzero(beside)
    # And no piece of the line is left: nothing outside the digit's box.
    out[260:340, line_at - 10:line_at + 50] = 0
    assert not out.any()


def test_a_lone_wavy_line_leaves_nothing() -> None:
    mask = np.zeros(SIZE, np.uint8)
    _wavy_line(mask)
    assert not cut_long_blobs(mask, max_length=0.2 * 2000, straight=STRAIGHT).any()
