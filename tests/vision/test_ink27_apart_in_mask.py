"""Stage 4: ink apart from all other ink that lies within the zone stage's line mask, no longer than a digit,
is handwriting the mask took in and is kept (`_line_removal._apart_in_lines`, and `_line_pieces` judging it
against the mask less itself), when the mask around it holds nothing more (`_line_removal._island`): a line's
mask runs on out of a digit's neighbourhood (past a piece of a line drawn twice, out of the crossing of two
pale lines).

The truth is where each test draws its strokes: a level line, its mask, and a level "1" written just under
it, with paper between, that the mask's band took in (as the zone stage's traced bands take in what lies
within their reach: bench_styles small 40007, "10" read 0).
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision._line_removal import remove_lines
from sheetscan.vision.ink import find_ink

_ONE = (slice(207, 210), slice(180, 206))
"""The "1": rows 207-209, x 180-205 (26 px long, 3 px thick), 4 rows of paper (203-206) below the line."""


def _line_and_one() -> tuple[np.ndarray, np.ndarray]:
    """Ink (255) of a level line (rows 199-202, all across a 1000 px sheet, whose digits may be up to 0.3 of
    0.2 of its side long) and the "1" under it, and the
    line's mask (rows 198-203) and a piece of mask of its own around the "1" (rows 205-210, x 176-209), as
    the zone stage's mask took it in on 40007."""
    mask = np.zeros((1000, 1000), np.uint8)
    mask[199:203, :] = 255
    mask[_ONE] = 255
    drawn = np.zeros_like(mask)
    drawn[198:204, :] = 1
    drawn[205:211, 176:210] = 1
    return mask, drawn


def test_a_one_apart_from_the_line_within_its_mask_is_kept() -> None:
    mask, drawn = _line_and_one()
    out = remove_lines(mask, drawn * 255, drawn=drawn, drawn_width=7, line_length=200.0)
    kept = float(np.mean(out[_ONE] > 0))
    assert kept >= 0.9, f"{kept:.0%} of the 1 kept"
    assert not out[199:203, :170].any() and not out[199:203, 220:].any(), "the line was kept"


def test_a_piece_between_a_line_s_two_strokes_goes_with_the_line() -> None:
    # A line drawn twice: strokes along rows 195-197 and 208-210, the mask over rows 194-211 all across; a
    # third strand between them (rows 201-203, x 150-179: where squared paper's ruling crosses between the two
    # strokes, or the pen wavered) is apart from both, within the mask, and the mask runs on out of its
    # neighbourhood along the line: it is line, and goes.
    mask = np.zeros((1000, 1000), np.uint8)
    mask[195:198, :] = 255
    mask[208:211, :] = 255
    mask[201:204, 150:180] = 255
    drawn = np.zeros_like(mask)
    drawn[194:212, :] = 1
    out = remove_lines(mask, drawn * 255, drawn=drawn, drawn_width=7, line_length=200.0)
    kept = int(np.count_nonzero(out[201:204, 150:180]))
    assert kept == 0, f"{kept} px of the strand kept"


def test_the_ink_keeps_the_one_the_line_mask_took_in() -> None:
    # The whole ink stage on a grey sheet: paper 200, the line 40, the "1" 60 (as dark as a pen's stroke).
    # Kept through the line removal, the "1" is judged as a line's piece against the mask less itself: beside
    # the line, not running on into it nor along it, it stays.
    _, drawn = _line_and_one()
    image = np.full((1000, 1000), 200, np.uint8)
    image[199:203, :] = 40
    image[_ONE] = 60
    ink = find_ink(image, line_mask=drawn * 255)
    kept = float(np.mean(ink.mask[_ONE] > 0))
    assert kept >= 0.9, f"{kept:.0%} of the 1 kept"
