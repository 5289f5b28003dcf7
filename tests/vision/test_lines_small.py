"""Stage 4, small writing against a drawn line: a digit that touches a line (or stands close to it) and leaves
it is writing, even when most of it lies within the line mask's width of the line; a piece of the line itself
where its mask has a gap is not.

Small synthetic sheets (`_line_sheet`: a 4 px line, rows 599-602, under an 8 px mask, rows 597-604, whose
measured width, `_line_removal.line_width`, is 11 px): the truth is where the test put each stroke.
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision._line_removal import line_width
from tests.vision._line_sheet import ink_of, sheet_with_line


def test_the_sheets_line_mask_is_11_px_wide() -> None:
    # What the cases below are built on: the mask's half-width is 4 px (distance to its edge at its middle
    # rows), so its width is 2 × 4 + 2 = 10, made odd: 11.
    _, lines = sheet_with_line()
    assert line_width((lines > 0).astype(np.uint8)) == 11


def test_a_small_one_standing_on_the_line_is_kept() -> None:
    # A "1" 4 px wide from row 582 down onto the line's ink (row 599). Off the mask (dilated by a pixel: rows
    # from 596 up) it is 14 px long; 10 of its 14 rows lie within the mask's width of the mask (rows 586-595),
    # and it is joined to the line. But it reaches 15 px from the mask and touches it over 4 px of its 14.
    darkness, lines = sheet_with_line()
    darkness[582:599, 500:504] = 0.6
    mask = ink_of(darkness, lines)
    kept = np.count_nonzero(mask[582:596, 500:504]) / (14 * 4)
    assert kept >= 0.9, f"only {kept:.0%} of the digit kept"


def test_a_small_one_hanging_just_below_the_line_is_kept() -> None:
    # A "1" 4 px wide and 12 px tall, rows 606-617, with paper (rows 603-605) between it and the line's ink:
    # shorter than twice the mask's width and 10 of its 12 rows within that width, but it stands off the line
    # by 13 px (row 617 from the mask's last row, 604).
    darkness, lines = sheet_with_line()
    darkness[606:618, 700:704] = 0.6
    mask = ink_of(darkness, lines)
    kept = np.count_nonzero(mask[606:618, 700:704]) / (12 * 4)
    assert kept >= 0.9, f"only {kept:.0%} of the digit kept"


def test_a_wavy_line_where_its_mask_has_a_gap_is_dropped() -> None:
    # A freehand line wavering 4 px up and down every 40 px (so no straight run finds it), 4 px thick, under
    # an 8 px mask that follows it (measured 9 px wide), except for 20 px (x 600-619) the zone stage left
    # out. Off the mask dilated by a pixel, that piece of line is 18 px long (x 601-618) and reaches 10 px
    # from the mask, as far as a small digit standing on a line; but it touches the mask at both ends,
    # along all its length: it is the line's, not writing.
    darkness, _ = sheet_with_line()
    darkness[:] = 0.0
    lines = np.zeros((1200, 1200), np.uint8)
    for x in range(300, 900):
        y = 600 + round(4 * np.sin(2 * np.pi * x / 40))
        darkness[y - 2:y + 2, x] = 0.6
        lines[y - 4:y + 4, x] = 255
    lines[:, 600:620] = 0
    assert line_width((lines > 0).astype(np.uint8)) == 9
    mask = ink_of(darkness, lines)
    assert not mask[585:615, 590:630].any(), f"{int(np.count_nonzero(mask[585:615, 590:630]))} px kept"


def test_a_line_overshooting_the_line_it_meets_is_dropped() -> None:
    # A short upright line (4 px, x 600-603, 66 px: too short for a ruling) comes up to the level line and
    # overshoots it by 14 px (rows 583-598); its mask ends at the level line (rows 597-650, x 598-605). The
    # stub beyond stands off the mask as far as the small "1" above, but the line it belongs to goes on right
    # on the other side of the level line: it is the line's end, not writing.
    darkness, lines = sheet_with_line()
    darkness[583:650, 600:604] = 0.6
    lines[597:651, 598:606] = 255
    assert line_width((lines > 0).astype(np.uint8)) == 11
    mask = ink_of(darkness, lines)
    assert not mask[575:597, 590:615].any(), f"{int(np.count_nonzero(mask[575:597, 590:615]))} px kept"
