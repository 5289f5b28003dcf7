"""Stage 5: a "1" cut off a glyph counts as one run into the digit after it (`_swallow.absorbed` makes
the way that swallowed it worth less) only when that digit reads as surely without it as with it
(`_swallow._rest_as_sure`): a "1" run into a digit is no part of it, while a stroke cut off the digit
itself (a 4's upright arm) leaves a digit that reads less surely.

Synthetic glyphs drawn with numpy, readings given by hand: the tests check the rule, not the network.
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision._steps import Choice
from sheetscan.vision._swallow import _REST_LOSS, _rest_as_sure, absorbed
from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import DigitReading, NumberImage, read_number

Box = tuple[int, int, int, int]
HEIGHT = 40
"""The digits' height (px), and the token's typical digit height."""
WHOLE: tuple[Box, ...] = ((0, 0, 44, HEIGHT),)
CUT: tuple[Box, ...] = ((0, 0, 12, HEIGHT), (12, 0, 32, HEIGHT))


def _glyph() -> np.ndarray:
    """A glyph 40 px tall, 44 wide (wider than the swallow width, 1.2 × 26 px): an upright bar x 4 … 7,
    joined at one joint (rows 18 … 21) to a frame 4 px thick standing for a digit (x 12 … 43)."""
    gray = np.zeros((HEIGHT, 44), np.uint8)
    gray[:, 4:8] = 200
    gray[18:22, 6:12] = 200
    gray[:, 12:16] = 200
    gray[:, 40:44] = 200
    gray[0:4, 12:44] = 200
    gray[HEIGHT - 4:, 12:44] = 200
    return gray


def _choice(boxes: tuple[Box, ...], digits: list[tuple[int, float]], score: float) -> Choice:
    gray = _glyph()
    right = float(gray.shape[1])
    token = NumberToken(zone=0, angle=0, row=0, quad=((0.0, 0.0), (right, 0.0), (right, float(HEIGHT)),
                                                       (0.0, float(HEIGHT))),
                        crossed_out=False, glyph_cuts=((boxes,),),
                        image=NumberImage(gray=gray, digit_boxes=boxes), digit_size=(float(HEIGHT), 26.0))
    reading = read_number(tuple(DigitReading(((d, p),), 1.0 - p) for d, p in digits))
    return (((token, reading),), score)


def test_a_one_whose_digit_reads_as_surely_without_it_makes_the_whole_worth_less() -> None:
    # "4" read whole at 0.999, and cut "1" | "4" with the 4 at 0.9995: the "1" was run into the 4.
    whole = _choice(WHOLE, [(4, 0.999)], -0.001)
    cut = _choice(CUT, [(1, 0.99), (4, 0.9995)], -0.06)
    assert absorbed([whole, cut]) == [(whole[0], whole[1] - 1.5), cut]


def test_a_one_whose_digit_reads_less_surely_without_it_is_a_stroke_of_that_digit() -> None:
    # The same cut, the 4 reading 0.94 without the "1" (usual 33003: a 4 drawn as an "L" and a stem,
    # its arm cut off as a sure "1", read "14"): both ways keep their scores.
    whole = _choice(WHOLE, [(4, 0.9998)], -0.0002)
    cut = _choice(CUT, [(1, 0.99), (4, 0.94)], -0.12)
    assert absorbed([whole, cut]) == [whole, cut]


def test_the_digit_compared_is_the_one_after_the_one() -> None:
    # "25" and "125": the "1" at position 0 is compared through the 2 after it, not the 5.
    whole = _choice(WHOLE, [(2, 0.99), (5, 0.5)], 0.0)
    sure = _choice(CUT, [(1, 0.99), (2, 0.99), (5, 0.2)], 0.0)
    unsure = _choice(CUT, [(1, 0.99), (2, 0.99 * np.exp(-2 * _REST_LOSS)), (5, 0.99)], 0.0)
    assert _rest_as_sure(whole, sure, [0])
    assert not _rest_as_sure(whole, unsure, [0])
