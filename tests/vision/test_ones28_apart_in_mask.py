"""Stage 4: ink apart from all other ink that lies within the zone stage's line mask, no longer than a digit,
is handwriting the mask took in and is kept (`_line_removal._apart_in_lines`, and `_line_pieces` judging it
against the mask less itself), when the mask around it holds nothing more (`_line_removal._island`) and a
digit lies beside it, past it from the line (`_line_removal._writing_beside`): a line's mask runs on out of a
digit's neighbourhood (past a piece of a line drawn twice, out of the crossing of two pale lines), and a
line's parallel fringe strip has no digit beside it.

The truth is where each test draws its strokes: a level line, its mask, and a level "1" written just under
it, with paper between, that the mask's band took in (as the zone stage's mask takes in a stroke within its
reach: bench_styles usual and small 45007, a "10" written sideways under a line read 0), with the "0" of its
number under it.
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision._line_removal import remove_lines
from sheetscan.vision.ink import find_ink

_ONE = (slice(207, 210), slice(180, 206))
"""The "1": rows 207-209, x 180-205 (26 px long, 3 px thick), 4 rows of paper (203-206) below the line."""


def _ring(mask: np.ndarray, top: int, left: int, size: int, value: int = 255) -> None:
    """A "0": a square ring `size` px across, 3 px thick, its top-left corner at (`left`, `top`)."""
    mask[top:top + size, left:left + size] = value
    mask[top + 3:top + size - 3, left + 3:left + size - 3] = 0 if value == 255 else 200


def _line_and_one(*, zero_at: int | None = 213) -> tuple[np.ndarray, np.ndarray]:
    """Ink (255) of a level line (rows 199-202, all across a 1000 px sheet, whose digits may be up to 0.3 of
    0.2 of its side long), the "1" under it and (from row `zero_at`, under the "1"; None: none) the "0" of
    its number, off the mask; and the line's mask (rows 198-203) and a piece of mask of its own around the
    "1" (rows 205-210, x 176-209), as the zone stage's mask took it in on 45007."""
    mask = np.zeros((1000, 1000), np.uint8)
    mask[199:203, :] = 255
    mask[_ONE] = 255
    if zero_at is not None:
        _ring(mask, zero_at, 181, 24)
    drawn = np.zeros_like(mask)
    drawn[198:204, :] = 1
    drawn[205:211, 176:210] = 1
    return mask, drawn


def _kept(out: np.ndarray) -> float:
    return float(np.mean(out[_ONE] > 0))


def test_a_one_apart_from_the_line_within_its_mask_is_kept_beside_its_digit() -> None:
    mask, drawn = _line_and_one()
    out = remove_lines(mask, drawn * 255, drawn=drawn, drawn_width=7, line_length=200.0)
    assert _kept(out) >= 0.9, f"{_kept(out):.0%} of the 1 kept"
    assert not out[199:203, :170].any() and not out[199:203, 220:].any(), "the line was kept"


def test_a_strip_within_the_mask_with_no_digit_beside_it_goes() -> None:
    # The same stroke with nothing written near it: a line's parallel fringe strip (a blank sheet's lines).
    mask, drawn = _line_and_one(zero_at=None)
    out = remove_lines(mask, drawn * 255, drawn=drawn, drawn_width=7, line_length=200.0)
    assert _kept(out) == 0.0, f"{_kept(out):.0%} of the strip kept"


def test_a_strip_with_a_digit_across_the_line_goes() -> None:
    # A digit on the line's other side (above it) is no number the strip below it belongs to.
    mask, drawn = _line_and_one(zero_at=None)
    _ring(mask, 170, 181, 24)
    out = remove_lines(mask, drawn * 255, drawn=drawn, drawn_width=7, line_length=200.0)
    assert _kept(out) == 0.0, f"{_kept(out):.0%} of the strip kept"


def test_a_piece_between_a_line_s_two_strokes_goes_with_the_line() -> None:
    # A line drawn twice: strokes along rows 195-197 and 208-210, the mask over rows 194-211 all across; a
    # third strand between them (rows 201-203, x 150-179: where squared paper's ruling crosses between the two
    # strokes, or the pen wavered) is apart from both, within the mask, and the mask runs on out of its
    # neighbourhood along the line: it is line, and goes (a digit under the line drawn twice notwithstanding).
    mask = np.zeros((1000, 1000), np.uint8)
    mask[195:198, :] = 255
    mask[208:211, :] = 255
    mask[201:204, 150:180] = 255
    _ring(mask, 216, 152, 24)
    drawn = np.zeros_like(mask)
    drawn[194:212, :] = 1
    out = remove_lines(mask, drawn * 255, drawn=drawn, drawn_width=7, line_length=200.0)
    kept = int(np.count_nonzero(out[201:204, 150:180]))
    assert kept == 0, f"{kept} px of the strand kept"


def test_the_ink_keeps_the_one_the_line_mask_took_in() -> None:
    # The whole ink stage on a grey sheet: paper 200, the line 40, the "1" and its "0" 60 (a pen's stroke).
    # Kept through the line removal, the "1" is judged as a line's piece against the mask less itself: beside
    # the line, not running on into it nor along it, it stays.
    _, drawn = _line_and_one()
    image = np.full((1000, 1000), 200, np.uint8)
    image[199:203, :] = 40
    image[_ONE] = 60
    _ring(image, 213, 181, 24, value=60)
    ink = find_ink(image, line_mask=drawn * 255)
    assert _kept(ink.mask) >= 0.9, f"{_kept(ink.mask):.0%} of the 1 kept"
