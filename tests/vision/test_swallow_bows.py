"""Stage 5: a box cut off a glyph whose ink bows out to the left like the side of a round digit (a "(")
is a slice of that digit, not a "1" run into it: reading it as a sure "1" makes the way without it worth
no less (`_swallow.absorbed`), and no way is cut to look for a "1" there (`_swallow.wide_ways`); a
straight "1", upright or slanted, still does both.

Synthetic glyphs drawn with numpy and OpenCV, readings given by hand: the tests check the geometry and
the cost, not the network.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from sheetscan.vision._steps import Choice
from sheetscan.vision._swallow import _BOW, _bend, _bows, absorbed, wide_ways
from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import DigitReading, NumberImage, read_number

Box = tuple[int, int, int, int]
HEIGHT = 40
"""The digits' height (px), and the token's typical digit height."""


def _token(gray: np.ndarray, boxes: tuple[Box, ...]) -> NumberToken:
    right = float(gray.shape[1])
    quad = ((0.0, 0.0), (right, 0.0), (right, float(HEIGHT)), (0.0, float(HEIGHT)))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False, glyph_cuts=((boxes,),),
                       image=NumberImage(gray=gray, digit_boxes=boxes), digit_size=(float(HEIGHT), 26.0))


def _choice(gray: np.ndarray, boxes: tuple[Box, ...], digits: list[tuple[int, float]],
            score: float) -> Choice:
    reading = read_number(tuple(DigitReading(((d, p),), 1.0 - p) for d, p in digits))
    return (((_token(gray, boxes), reading),), score)


def _glyph(first: str) -> np.ndarray:
    """A glyph 40 px tall, 44 wide: a first stroke in x 0 … 11 (`first`: "straight" an upright bar
    x 4 … 7, "slanted" a bar 4 px thick from (10, 0) down to (2, 39), "curve" the left half of an
    ellipse centred (11, 19.5), 9 px across and 19.5 px up and down, 4 px thick: a "("), joined at one
    joint (rows 18 … 21, up to x 12) to a block standing for a digit (x 12 … 43, a frame 4 px thick)."""
    gray = np.zeros((HEIGHT, 44), np.uint8)
    if first == "straight":
        gray[:, 4:8] = 200
    elif first == "slanted":
        cv2.line(gray, (10, 0), (2, HEIGHT - 1), 200, 4)
    else:
        cv2.ellipse(gray, (11, 20), (9, 19), 0, 90, 270, 200, 4)
    gray[18:22, 6:12] = 200  # the joint
    gray[:, 12:16] = 200
    gray[:, 40:44] = 200
    gray[0:4, 12:44] = 200
    gray[HEIGHT - 4:, 12:44] = 200
    return gray


def test_a_straight_one_does_not_bow_and_a_curve_does() -> None:
    # The middle of each row's leftmost run of ink, fitted by a parabola across the box's rows: for a bar,
    # upright or slanted, the middles lie on a line (second-order coefficient near 0: the joint's four
    # rows, whose runs reach the cut, pull the middle right, -0.07); for the "(" the middles of a half
    # ellipse 9 px across run from x 11 - 9 + 2 = 4 at mid-height out to the flattened top and bottom
    # rows (runs towards x 11): about 7 px / 40 px over a quarter of the box's height squared, 0.7
    # digit heights (0.73 fitted), above `_BOW` (0.45).
    box = ((0, 0, 12, HEIGHT),)
    assert not _bows(_token(_glyph("straight"), box), [0])
    assert not _bows(_token(_glyph("slanted"), box), [0])
    assert _bows(_token(_glyph("curve"), box), [0])
    assert _BOW < 0.7


def test_a_bow_to_the_right_is_no_slice_of_a_round_digits_left_side() -> None:
    # The same half ellipse mirrored (a ")", as a "1"'s flag and foot bent right may be) bends the
    # other way: a negative coefficient, not a "(".
    gray = np.ascontiguousarray(_glyph("curve")[:, :12][:, ::-1])
    assert not _bows(_token(gray, ((0, 0, 12, HEIGHT),)), [0])


def test_a_narrow_tip_left_of_a_straight_one_does_not_make_it_bow() -> None:
    # An upright bar 5 px wide (x 10 ... 14) with the 2 px tip of a foot drawn out to its left (x 0, 1)
    # in rows 20 ... 29, as a "1"'s foot run into the digit beside it leaves it (bench 1016: "16" read
    # "6"): the leftmost runs of those rows sit 11 px left of the bar's middle, and a parabola through
    # them bends about 0.8 digit heights, a "(". The tip is narrower than half the bar, so no side of
    # the stroke: the bar's own middles lie on a line.
    gray = np.zeros((HEIGHT, 16), np.uint8)
    gray[:, 10:15] = 200
    gray[20:30, 0:2] = 200
    assert not _bows(_token(gray, ((0, 0, 16, HEIGHT),)), [0])


def test_a_curved_slice_read_as_a_sure_one_makes_the_whole_digit_worth_no_less() -> None:
    # Each glyph is 44 px wide, wider than a "1" could be swallowed in (1.2 × 26 = 31.2 px); a way cuts
    # it at x = 12 (its column crosses the joint alone: `_cut_at_joints` lets it through) and reads
    # the first box as a sure "1" ("16" against "6"). The straight and the slanted bar are "1"s run
    # into their digit: the way without them is worth 1.5 less. The "(" is a round digit's side: both
    # ways keep their scores, and the reading and the totals choose. (The 6 reads as surely cut as
    # whole, as a digit a "1" was run into does: `_swallow._rest_as_sure`.)
    boxes_whole: tuple[Box, ...] = ((0, 0, 44, HEIGHT),)
    boxes_cut: tuple[Box, ...] = ((0, 0, 12, HEIGHT), (12, 0, 32, HEIGHT))
    for first, costs in (("straight", 1.5), ("slanted", 1.5), ("curve", 0.0)):
        gray = _glyph(first)
        whole = _choice(gray, boxes_whole, [(6, 0.99)], -0.01)
        cut = _choice(gray, boxes_cut, [(1, 0.99), (6, 0.99)], -0.06)
        assert absorbed([whole, cut]) == [(whole[0], whole[1] - costs), cut], first


def test_no_way_is_cut_to_look_for_a_one_in_a_curve() -> None:
    # The same glyphs as one-glyph tokens whose first way is the whole glyph (44 px, wider than the
    # swallow width 31.2 px) and whose other way cuts it at x = 12: `wide_ways` offers that way (to be
    # read for a "1" run into the digit) when its first box is a bar, upright or slanted, and not when
    # it is a "(", which no reading can make a "1" `absorbed` would count.
    whole: tuple[Box, ...] = ((0, 0, 44, HEIGHT),)
    cut: tuple[Box, ...] = ((0, 0, 12, HEIGHT), (12, 0, 32, HEIGHT))
    for first, ways in (("straight", 2), ("slanted", 2), ("curve", 1)):
        token = replace(_token(_glyph(first), whole), glyph_cuts=((whole, cut),))
        found = wide_ways(token)
        assert len(found) == ways, first
        assert found[0] == (whole,)
        if ways == 2:
            assert found[1] == (cut,)


def test_the_bend_is_the_parabolas_second_order_coefficient() -> None:
    # Points on 2 a² + 0.5 a + 1 (a = -0.5 … 0.5 in 11 steps, centred) lie on that parabola: the
    # least-squares fit is the parabola itself, its bend 2; on a line (0.3 a - 1) the bend is 0, and on
    # -a² it is -1. Rows need not be evenly spaced: a taken at -0.4, -0.3, 0, 0.2, 0.5 (mean 0) too.
    across = np.linspace(-0.5, 0.5, 11)
    assert abs(_bend(across, 2 * across**2 + 0.5 * across + 1) - 2.0) < 1e-9
    assert abs(_bend(across, 0.3 * across - 1)) < 1e-9
    assert abs(_bend(across, -(across**2)) + 1.0) < 1e-9
    uneven = np.array([-0.4, -0.3, 0.0, 0.2, 0.5])
    assert abs(_bend(uneven, 2 * uneven**2 + 0.5 * uneven + 1) - 2.0) < 1e-9
