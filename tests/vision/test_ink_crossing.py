"""Stage 4, where ink meets a drawn line: a piece of the line is given back to the writing only when writing
reaches it from two sides, and the line's own fringe (the line drawn wider than its mask) is not writing.

Small synthetic sheets: the truth is where the test put each stroke.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision._line_sheet import ink_of, sheet_with_line


def test_a_line_wider_than_its_mask_on_both_sides_is_not_given_back() -> None:
    # For 30 px the line is drawn 15 px thick (rows 594-608): 3 px of it stand out above its mask and
    # 4 px below. Both slivers touch the masked line, but they are the line's own ink, not writing
    # crossing it: nothing there is writing.
    darkness, lines = sheet_with_line()
    darkness[594:609, 600:630] = 0.6
    mask = ink_of(darkness, lines)
    assert not mask[580:630, 580:650].any(), f"{int(np.count_nonzero(mask[580:630, 580:650]))} px kept"


def test_a_stroke_crossing_the_line_stays_whole() -> None:
    # A 4 px stroke from 40 px above the line to 8 px below its mask (rows 560-612, x 700-703): writing
    # reaches the line from both sides, so the line's piece under it is the stroke's and it stays one blob.
    darkness, lines = sheet_with_line()
    darkness[560:613, 700:704] = 0.6
    mask = ink_of(darkness, lines)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    assert count - 1 == 1, f"{count - 1} blobs"
    top, height = int(stats[1, cv2.CC_STAT_TOP]), int(stats[1, cv2.CC_STAT_HEIGHT])
    assert top <= 561 and top + height >= 612, f"rows {top}-{top + height - 1}"
