"""Stage 4: the two strands of a line drawn twice where the zone stage's mask missed them (an eye lying along
the line between two places where its strokes cross) go as a piece of the line; a digit touching a line at
both ends of its length stays (`_line_pieces.without_line_pieces`, `_TWICE_LONG`, `_TWICE_BESIDE`).

Synthetic strength images (0 = paper, 255 = black), 400 x 400 px, strokes 6 px wide (the stroke width given)
drawn by cv2; the ink mask is the strokes off the drawn mask. The truth is the geometry each test draws.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._line_pieces import without_line_pieces

STROKE = 6.0


def _line_at(row: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A level drawn line along `row` (8 px, strength 120, all of it in the drawn mask): strength, an empty
    ink mask and the drawn mask."""
    strength = np.zeros((400, 400), np.uint8)
    drawn = np.zeros_like(strength)
    cv2.line(drawn, (20, row), (380, row), 1, 8)
    strength[drawn > 0] = 120
    return strength, np.zeros_like(strength), drawn


def _silent(drawn: np.ndarray) -> np.ndarray:
    """The band around the drawn lines that says nothing about ridges past a stroke's ends."""
    return np.asarray(cv2.dilate(drawn, np.ones((23, 23), np.uint8)), np.uint8)


def test_the_two_strands_of_a_line_drawn_twice_go() -> None:
    # Under the line at row 200, the pen went over it twice more, apart from it: two flat arcs leaving the
    # line at x 120 and meeting it again at x 190, one down to row 209, one down to row 218, crossing each
    # other only at their ends (an eye lying along the line, shorter than the 80 px a blob may be, 0.2 of
    # the sheet, to be looked at as a line's piece). Off the mask they are one blob of two strokes side by
    # side, touching the mask at both ends and lying within 3 strokes of it all along: line, gone.
    strength, mask, drawn = _line_at(200)
    for depth in (9, 18):
        arc = np.array([(120, 200), (138, 200 + depth * 2 // 3), (155, 200 + depth),
                        (172, 200 + depth * 2 // 3), (190, 200)], np.int32)
        cv2.polylines(strength, [arc], False, 120, 6)
        cv2.polylines(mask, [arc], False, 255, 6)
    mask[drawn > 0] = 0
    out = without_line_pieces(mask, strength, stroke=STROKE, silent=_silent(drawn), drawn=drawn)
    assert not out.any(), f"{int(np.count_nonzero(out))} px of the strands left"


def test_a_zero_hanging_from_a_line_by_both_ends_of_its_width_stays() -> None:
    # A flat "0" 60 px wide and 30 px tall (5 strokes) written against the line at row 200, its top touching
    # the line over its width: its ink reaches 5 strokes below the line, more than two strands of a line
    # drawn twice lie off it. It stays.
    strength, mask, drawn = _line_at(200)
    cv2.ellipse(strength, (160, 218), (30, 15), 0, 0, 360, 120, 6)
    cv2.ellipse(mask, (160, 218), (30, 15), 0, 0, 360, 255, 6)
    mask[drawn > 0] = 0
    out = without_line_pieces(mask, strength, stroke=STROKE, silent=_silent(drawn), drawn=drawn)
    assert np.array_equal(out, mask), f"{int(np.count_nonzero(out != mask))} px differ"


def test_a_round_zero_crossed_by_a_line_through_its_middle_stays() -> None:
    # A "0" 36 px wide and 30 px tall, centred on the line at row 200: the line crosses it at its widest, so
    # its main axis lies along the line and both its ends touch it, and all of it lies within 3 strokes of
    # it. It holds the pieces of the line where its strokes cross it (given back by the line removal): it is
    # writing crossing the line, and stays whole.
    strength, mask, drawn = _line_at(200)
    cv2.ellipse(strength, (160, 200), (18, 15), 0, 0, 360, 120, 6)
    cv2.ellipse(mask, (160, 200), (18, 15), 0, 0, 360, 255, 6)
    out = without_line_pieces(mask, strength, stroke=STROKE, silent=_silent(drawn), drawn=drawn)
    assert np.array_equal(out, mask), f"{int(np.count_nonzero(out != mask))} px differ"
