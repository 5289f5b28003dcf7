"""Stage 4, the stretches of a drawn line the zone stage's mask left out (`_line_gaps.line_gaps`): a digit
lying in line with a line's end, between two ends of the mask, is no lost stretch of the line where paper
parts it from the line at one end. A line's lost stretch is the line's own ink: it runs on into the line's
ink at both ends with no paper between.

Small synthetic sheets (600 × 900) as in `test_line_gaps`: a line slanting 4°, its mask leaving out a
stretch; the truth is where the test drew each stroke.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision.ink import find_ink
from tests.vision._handwriting import blank, to_bgr

HEIGHT, WIDTH = 600, 900
START, END = (20, 250), (880, 310)  # the drawn line: 60 px down over 860 px, 4.0°
GAP = (330, 415)  # the line is drawn and masked up to 330 and from 415: a real gap in the line
PAPER = 6  # px of paper between the line's left end and the digit written in line with it


def _line_y(x: float) -> float:
    return START[1] + (END[1] - START[1]) * (x - START[0]) / (END[0] - START[0])


def _sheet() -> tuple[np.ndarray, np.ndarray]:
    """The darkness of a frame and the slanting line, broken over `GAP`, and the lines' mask (8 px)."""
    darkness = np.zeros((HEIGHT, WIDTH))
    cv2.rectangle(darkness, (20, 20), (WIDTH - 21, HEIGHT - 21), 0.6, 4)
    lines = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.rectangle(lines, (20, 20), (WIDTH - 21, HEIGHT - 21), 255, 8)
    for x0, x1 in ((START[0], GAP[0]), (GAP[1], END[0])):
        ends = (x0, round(_line_y(x0))), (x1, round(_line_y(x1)))
        cv2.line(darkness, *ends, 0.6, 5)
        cv2.line(lines, *ends, 255, 8)
    return darkness, lines


def _two(left: int, right: int) -> tuple[np.ndarray, np.ndarray]:
    """A "2" whose base lies level in the line's gap, in line with it, from `left` to `right` (x), and its
    base alone."""
    base = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.line(base, (left, round(_line_y(left))), (right, round(_line_y(right))), 1, 5)
    two = base.copy()
    foot = (left, round(_line_y(left)))
    shoulder = (left + 34, foot[1] - 38)
    cv2.line(two, foot, shoulder, 1, 5)
    cv2.ellipse(two, (left + 20, foot[1] - 46), (16, 13), 0, -200, 40, 1, 5)
    return two, base


def _kept(darkness: np.ndarray, lines: np.ndarray, own: np.ndarray) -> float:
    mask = find_ink(to_bgr(blank(HEIGHT, WIDTH) * (1.0 - darkness)[..., None]), line_mask=lines,
                    grid_length=0.25).mask > 0
    own = (own > 0) & (cv2.dilate(lines, np.ones((5, 5), np.uint8)) == 0)
    return np.count_nonzero(mask & own) / np.count_nonzero(own)


def test_a_digit_in_line_with_a_line_end_stays_where_paper_parts_it_from_the_line() -> None:
    # The 2 touches the line's right end, and paper parts it from the left end (the line's ink ends 2 px
    # past x = 330, its round cap).
    darkness, lines = _sheet()
    two, base = _two(GAP[0] + 3 + PAPER, GAP[1])
    darkness[two > 0] = 0.6
    kept = _kept(darkness, lines, base)
    assert kept >= 0.9, f"only {kept:.0%} of the 2's base kept"


def test_the_digits_hanging_from_a_lost_stretch_keep_their_ends() -> None:
    # The line's own ink runs on over the gap (the mask alone leaves it out), and a "1" hangs from it: the
    # stretch goes, and the 1 keeps its pixels more than 2 px off the line's stroke (the mask is 8 px wide,
    # the line 5 px: a stretch taken out as wide as the mask would take 2-4 px off the 1's top).
    darkness, lines = _sheet()
    cv2.line(darkness, (GAP[0], round(_line_y(GAP[0]))), (GAP[1], round(_line_y(GAP[1]))), 0.6, 5)
    line = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.line(line, START, END, 1, 5)
    one = np.zeros((HEIGHT, WIDTH), np.uint8)
    x = (GAP[0] + GAP[1]) // 2
    cv2.line(one, (x, round(_line_y(x))), (x, round(_line_y(x)) + 45), 1, 5)
    darkness[one > 0] = 0.6
    mask = find_ink(to_bgr(blank(HEIGHT, WIDTH) * (1.0 - darkness)[..., None]), line_mask=lines,
                    grid_length=0.25).mask > 0
    own = (one > 0) & (cv2.dilate(line, np.ones((5, 5), np.uint8)) == 0)  # more than 2 px off the line
    kept = np.count_nonzero(mask & own) / np.count_nonzero(own)
    assert kept >= 0.95, f"only {kept:.0%} of the 1 kept"
    stretch = cv2.dilate(line, np.ones((3, 3), np.uint8)) > 0
    stretch[:, :GAP[0] + 10] = False
    stretch[:, GAP[1] - 10:] = False
    stretch &= cv2.dilate(one, np.ones((9, 9), np.uint8)) == 0
    assert not (mask & stretch).any(), "the lost stretch stayed"
