"""Stage 5, numbers: a long strike (`_strikes.find_strikes`) sticks out on its own at both ends; a digit's
own level stroke run long starts at a corner of its digit. Small synthetic masks whose answer is evident
by construction."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision import _group, _strikes

HEIGHT = 30  # the digit height of every mask below: strokes from y = 10 to y = 40

# Two "4"s written the way some hands do, like a "Ц": the arm comes straight down to the bar, the stem
# stands full height to its right. The first 4's bar runs on through the second 4 (the pen did not
# lift) and 6 px past its stem: one level stroke 42 px (1.4 digit heights) long at two thirds of the
# number's height, across all the number's other ink.
FOURS = [((20, 10), (20, 30)), ((32, 10), (32, 40)), ((44, 10), (44, 30)), ((56, 10), (56, 40)),
         ((20, 30), (62, 30))]


def _strikes_in(strokes: list[tuple[tuple[int, int], tuple[int, int]]]) -> list[tuple[int, int, int, int]]:
    """The long strikes found in a 60 x 90 mask holding the given 2 px strokes."""
    mask = np.zeros((60, 90), np.uint8)
    for start, end in strokes:
        cv2.line(mask, start, end, 255, 2)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    return _strikes.find_strikes(mask, _group.blobs_of(stats), height=HEIGHT, stroke=2)


def test_a_fours_bar_run_through_the_next_digit_is_no_strike() -> None:
    # The bar's left end is the foot of the first 4's arm: other ink at once (0 px on its own), where a
    # strike would stick out at least 0.06 digit heights (2 px).
    assert _strikes_in(FOURS) == []


def test_a_strike_through_the_same_fours_is_found() -> None:
    # Struck at y = 20 from x = 12 to x = 68: 7 px past the first arm and 11 px past the last stem,
    # touching nothing there. The strike is found, not the bar (y = 30).
    found = _strikes_in([*FOURS, ((12, 20), (68, 20))])
    assert len(found) == 1
    x0, y0, x1, y1 = found[0]
    assert abs(y0 - 20) <= 2 and abs(y1 - 20) <= 2
    assert min(x0, x1) <= 16 and max(x0, x1) >= 64


def test_a_strike_drawn_only_just_past_the_number_is_still_found() -> None:
    # Two "0"s (ink from x = 19 to x = 66) struck at mid-height, falling 2 px, from x = 16 to x = 69:
    # 3 px (0.1 digit heights, a hurried strike) past the number on either side, touching nothing
    # there, which is more than the 0.06 digit heights (1.8 px) asked for.
    mask = np.zeros((60, 90), np.uint8)
    cv2.ellipse(mask, (30, 25), (10, 15), 0, 0, 360, 255, 2)
    cv2.ellipse(mask, (55, 25), (10, 15), 0, 0, 360, 255, 2)
    cv2.line(mask, (16, 25), (69, 27), 255, 2)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    assert len(_strikes.find_strikes(mask, _group.blobs_of(stats), height=HEIGHT, stroke=2)) == 1


def test_a_level_line_with_nothing_under_it_is_no_strike() -> None:
    # A level line 50 px (1.7 digit heights) long and 4 px thick, touching nothing: a "1" written long
    # and seen from a quarter turn, or a bit of ruling. With it taken out nothing of it is left, so it
    # crosses nothing out.
    mask = np.zeros((60, 90), np.uint8)
    cv2.line(mask, (10, 20), (60, 20), 255, 4)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    assert _strikes.find_strikes(mask, _group.blobs_of(stats), height=HEIGHT, stroke=2) == []
