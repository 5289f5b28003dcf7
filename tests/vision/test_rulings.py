"""Whether an outline's inside is ruled at one pitch (`_rulings.ruled_ways`).

Synthetic masks, 600 × 600 px; the outline 100..500 both ways, so that the inside mapped to the 256 px
square is scaled by 0.64 (a 20 px pitch repeats every 12.8 px there, within the 3..40 px looked at).
"""
from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._arrays import U8, f64
from sheetscan.vision._rulings import ruled_ways

SIZE = 600
_QUAD = f64([[100, 100], [500, 100], [500, 500], [100, 500]])


def _outlined() -> U8:
    mask = np.zeros((SIZE, SIZE), np.uint8)
    cv2.polylines(mask, [np.round(_QUAD).astype(np.int32)], True, 255, 2)
    return mask


def test_a_printed_grid_repeats_both_ways_and_lined_paper_one_way() -> None:
    grid = _outlined()
    lined = _outlined()
    for v in range(100, 501, 20):
        grid[v:v + 2, 100:500] = 255
        grid[100:500, v:v + 2] = 255
        lined[v:v + 2, 100:500] = 255
    assert ruled_ways(grid, _QUAD) == 2
    assert ruled_ways(lined, _QUAD) == 1


def test_a_drawn_sheet_with_writing_does_not_repeat() -> None:
    # The nested rectangles (at 20 % and 35 % in from the frame: not one pitch), two diagonals and
    # 300 short strokes at random places (digits).
    mask = _outlined()
    for inset in (80, 140):
        cv2.rectangle(mask, (100 + inset, 100 + inset), (500 - inset, 500 - inset), 255, 2)
    cv2.line(mask, (100, 100), (500, 500), 255, 2)
    cv2.line(mask, (500, 100), (100, 500), 255, 2)
    rng = np.random.default_rng(3)
    for x, y in rng.integers(110, 480, size=(300, 2)):
        cv2.line(mask, (int(x), int(y)), (int(x) + 6, int(y) + 12), 255, 2)
    assert ruled_ways(mask, _QUAD) == 0
    # An empty inside repeats nothing either.
    assert ruled_ways(np.zeros((SIZE, SIZE), np.uint8), _QUAD) == 0


# A grid seen from afar: its lines broken into 40 px pieces (three in ten kept) among 1200 strokes of
# writing, on an outline 560 × 400 px (not square, so the two ways' lags in the 256 px square differ:
# a 14 px pitch repeats at 6.4 and 9.0 px there).
_WIDE = f64([[100, 100], [660, 100], [660, 500], [100, 500]])


def _broken_grid(across: int, down: int) -> U8:
    """The outline `_WIDE` with grid lines every `across` px (vertical ones) and `down` px (horizontal
    ones), each 40 px piece of them kept with a chance of 0.3, and 1200 short strokes."""
    rng = np.random.default_rng(1)
    mask = np.zeros((600, 800), np.uint8)
    for x in range(100, 660, across):
        for y in range(100, 500, 40):
            if rng.random() < 0.3:
                mask[y:y + 40, x:x + 2] = 255
    for y in range(100, 500, down):
        for x in range(100, 660, 40):
            if rng.random() < 0.3:
                mask[y:y + 2, x:x + 40] = 255
    for x, y in rng.integers(110, 490, size=(1200, 2)):
        cv2.line(mask, (int(x) + 80, int(y)), (int(x) + 86, int(y) + 12), 255, 2)
    cv2.polylines(mask, [np.round(_WIDE).astype(np.int32)], True, 255, 2)
    return mask


def test_a_broken_up_grid_repeats_both_ways_at_one_fine_pitch() -> None:
    # Its autocorrelation stays under the repeat's bar one way; the fine pitch is the same both ways
    # once measured along the outline's sides.
    assert ruled_ways(_broken_grid(14, 14), _WIDE) == 2


def test_two_fine_pitches_on_the_paper_are_not_one_grid() -> None:
    # 14 px one way and 10 px the other: both repeat at 6.4 px in the square, but not at one pitch on
    # the paper.
    assert ruled_ways(_broken_grid(14, 10), _WIDE) == 1
