"""Stage 4, small writing on a drawn line: a digit whose foot lies along the line (touching it over its whole
length) is writing when it rises off the line by the line mask's width; a piece of the line itself, running
along the line as thick as the pen, is not.

The small synthetic sheet of `_line_sheet` (a 4 px line, rows 599-602, x 300-899, under an 8 px mask, rows
597-604, measured 11 px wide): the truth is where the test put each stroke.
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision._line_removal import line_width
from tests.vision._line_sheet import ink_of, sheet_with_line


def test_a_small_two_with_its_foot_on_the_line_is_kept() -> None:
    # A small "2", 16 px wide (x 500-515), 4 px strokes: its top bar rows 584-587, its slant from the top
    # bar's right end down to the foot's left end, its foot rows 595-598 lying on the line's ink (rows
    # 599-602). Off the mask (dilated by a pixel: rows up to 595) it is 16 px long either way and touches the
    # mask all along its 16 px (spread = length), like a piece of line; most of it (rows 587-595 of 584-595)
    # lies within the mask's width. But it rises 12 px (rows 584-595) across the course along which it
    # touches: more than the mask's width (11 px), which a piece of line as thick as its pen never does.
    darkness, lines = sheet_with_line()
    assert line_width((lines > 0).astype(np.uint8)) == 11
    darkness[584:588, 500:516] = 0.6
    darkness[595:599, 500:516] = 0.6
    for row in range(588, 595):
        x = round(515 - (row - 587) * 15 / 8)
        darkness[row, max(500, x - 3):x + 1] = 0.6
    mask = ink_of(darkness, lines)
    kept = np.count_nonzero(mask[584:596, 500:516]) / np.count_nonzero(darkness[584:596, 500:516])
    assert kept >= 0.9, f"only {kept:.0%} of the digit kept"
