"""`_straight.past_line_ends`: a straight run's end sticking out past a drawn line it runs along."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._straight import past_line_ends, straight_lines


def _near(drawn: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.dilate(drawn, np.ones((5, 5), np.uint8)), np.uint8)


def test_a_level_stroke_in_line_with_a_drawn_line_is_past_its_end_but_the_line_is_not() -> None:
    drawn = np.zeros((120, 400), np.uint8)
    drawn[60:64, 150:380] = 255  # a drawn line, 230 px long
    ink = drawn.copy()
    ink[60:63, 110:150] = 255  # a level "1", 40 px long, written in line with the line's end
    level, upright, _ = straight_lines(ink, length=120)
    assert (level[60:63, 112:150] > 0).all()  # with the line, it is one straight run
    ends = past_line_ends(level, upright, _near(drawn), length=120, shortest=10)
    assert (ends[60:63, 112:146] > 0).all()  # the "1", but for what lies within the line's widened mask
    assert not (ends[:, 150:] > 0).any()


def test_a_ruling_crossing_or_beside_a_drawn_line_and_a_lines_short_tail_are_not_past_its_end() -> None:
    drawn = np.zeros((120, 400), np.uint8)
    drawn[:, 200:204] = 255  # an upright drawn line
    drawn[90:94, 150:380] = 255  # a level drawn line
    ink = drawn.copy()
    ink[30, :] = 255  # a ruling crossing the upright line: lies within its mask for its width only
    ink[90:94, 142:150] = 255  # the level line's tail past its mask, 8 px long
    ink[95, 100:380] = 255  # a ruling 1 px thick running along the level line and 50 px past its end
    level, upright, _ = straight_lines(ink, length=120)
    ends = past_line_ends(level, upright, _near(drawn), length=120, shortest=10)
    assert not ends.any()
