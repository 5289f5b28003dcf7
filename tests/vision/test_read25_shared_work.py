"""Stage 5's shared work reads as the work done afresh: the numbers `_digit_cache.DigitCache` reads from
shared digit crops read as their digits define (every text the digits may spell, a digit that may be
noise left out at its noise probability, leading zeros dropped, likeliest first and the smaller value
among equals: `read_number` turns only the likeliest texts into numbers); the step
costs one table keeps for every Viterbi pass are `step_cost`'s own for each zone's usual step
(`_steps`); and a way offered to look for a "1" carries the boxes `one_boxes` finds in it (`_swallow`).

The truth here is worked out from the definitions (a brute-force sum over every way the digits may
read), not from the code under test.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import numpy as np

from sheetscan.vision._digit_cache import DigitCache
from sheetscan.vision._steps import PULKA_STEP, USUAL_STEP, monotone_picks, step_cost
from sheetscan.vision._swallow import one_boxes, wide_ways_ones
from sheetscan.vision._tokens import NumberToken
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, read_number

Box = tuple[int, int, int, int]


class _BoxReader:
    """Reads each digit crop as the `DigitReading` given for its width (the crops are `width` px wide,
    blank), and counts the crops it is asked to read."""

    name = "boxes"
    reads_by_digit = True

    def __init__(self, by_width: dict[int, DigitReading]) -> None:
        self.by_width = by_width
        self.crops = 0

    def read_digits(self, crops: Sequence[np.ndarray]) -> list[DigitReading]:
        self.crops += len(crops)
        return [self.by_width[crop.shape[1]] for crop in crops]

    def read_numbers(self, numbers: Sequence[NumberImage]) -> list[NumberReading]:
        raise AssertionError("a reader by digit is asked digit by digit")


def _brute_force(digits: Sequence[DigitReading], top: int = 5) -> list[tuple[int, float]]:
    """The number's likeliest values from the definition: each digit read as one of its candidates or
    (at its noise probability) left out; texts of two or more digits starting with 0 dropped; the
    likeliest first, the smaller value first among equals. Exact only while no beam would be cut (at
    most three digits: at most 64 texts)."""
    totals: dict[str, float] = {}
    for picks in itertools.product(*[[*r.candidates, (None, r.noise)] for r in digits]):
        text = "".join(str(d) for d, _ in picks if d is not None)
        p = 1.0
        for _, q in picks:
            p *= q
        totals[text] = totals.get(text, 0.0) + p
    values = [(int(t), p) for t, p in totals.items() if t and (t[0] != "0" or len(t) == 1)]
    return sorted(values, key=lambda v: (-v[1], v[0]))[:top]


def _reading(rng: random.Random) -> DigitReading:
    digits = rng.sample(range(10), 3)
    weights = [rng.random() ** 3 for _ in range(4)]
    total = sum(weights)
    probabilities = sorted((w / total for w in weights[:3]), reverse=True)
    return DigitReading(tuple(zip(digits, probabilities, strict=True)), weights[3] / total)


def _token(gray: np.ndarray, boxes: tuple[Box, ...]) -> NumberToken:
    quad = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False,
                       image=NumberImage(gray=gray, digit_boxes=boxes))


def test_numbers_sharing_digit_crops_read_as_their_digits_define() -> None:
    rng = random.Random(25)
    for _ in range(40):
        widths = [5, 7, 9]
        reader = _BoxReader({w: _reading(rng) for w in widths})
        gray = np.zeros((10, 40), np.uint8)
        boxes = {w: (sum(widths[:k]), 0, w, 10) for k, w in enumerate(widths)}
        cache = DigitCache(reader)
        # The ways of cutting a number and its parts share their crops.
        ways = [(5, 7, 9), (5, 7), (5,), (5, 9), (7, 9), (9,)]
        tokens = [_token(gray, tuple(boxes[w] for w in way)) for way in ways]
        for way, reading in zip(ways, cache.read(tokens), strict=True):
            expected = _brute_force([reader.by_width[w] for w in way])
            assert [v for v, _ in reading.candidates] == [v for v, _ in expected], (way, reading)
            assert np.allclose([p for _, p in reading.candidates], [p for _, p in expected], rtol=1e-12)
        assert reader.crops == 3  # each distinct crop once


def test_the_top_values_among_equal_probabilities_are_the_smaller_ones() -> None:
    # One digit read as six digits, four of them tied at the fifth place: the five likeliest are the
    # two surer ones, then the three smallest of the tied (the tie goes to the smaller value).
    digit = DigitReading(((4, 0.3), (1, 0.2), (9, 0.05), (7, 0.05), (3, 0.05), (5, 0.05)), 0.3)
    assert [v for v, _ in read_number([digit]).candidates] == [4, 1, 3, 5, 7]
    assert [v for v, _ in read_number([digit], top=2).candidates] == [4, 1]
    assert [v for v, _ in read_number([digit], top=3).candidates] == [4, 1, 3]


def test_the_shared_step_costs_are_each_zones_own() -> None:
    # A pulka steps freely up to PULKA_STEP, another zone up to USUAL_STEP: 10 -> 35 is free in one and
    # costs in the other, whichever was read before (the table is kept by the usual step).
    assert PULKA_STEP < 25 <= USUAL_STEP
    assert step_cost(25, 4.0, usual=USUAL_STEP) == 0.0 < step_cost(25, 4.0, usual=PULKA_STEP)

    def zone(first_value: int) -> list[list[tuple[tuple[tuple[NumberToken, NumberReading], ...], float]]]:
        token = _token(np.zeros((4, 4), np.uint8), ((0, 0, 4, 4),))
        # The second number reads 35 a little likelier than 14: a step of 25 or of 4 from 10.
        second = [(((token, NumberReading(((35, 0.6),), ())),), np.log(0.6)),
                  (((token, NumberReading(((14, 0.4),), ())),), np.log(0.4))]
        return [[(((token, NumberReading(((first_value, 0.99),), ())),), np.log(0.99))], second]

    for _ in range(2):
        assert monotone_picks(zone(10), rising=True, usual=USUAL_STEP) == [0, 0]
        assert monotone_picks(zone(10), rising=True, usual=PULKA_STEP) == [0, 1]


def test_a_way_offered_for_a_one_carries_the_boxes_one_boxes_finds() -> None:
    # One glyph 44 px wide where digits are 40 x 28, cut whole, after a full-height slice 8 px wide
    # (a "1" it may have swallowed: a straight stroke), or in two halves 22 px wide (no "1": each wider than
    # 0.6 of a digit's width).
    gray = np.zeros((40, 46), np.uint8)
    gray[:, 2:8] = 200  # the straight stroke
    gray[5:35, 12:40] = 200
    whole: tuple[Box, ...] = ((0, 0, 44, 40),)
    one: tuple[Box, ...] = ((0, 0, 8, 40), (8, 0, 36, 40))
    wide: tuple[Box, ...] = ((0, 0, 22, 40), (22, 0, 22, 40))
    quad = ((0.0, 0.0), (46.0, 0.0), (46.0, 40.0), (0.0, 40.0))
    token = NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False,
                        image=NumberImage(gray=gray, digit_boxes=whole), glyph_cuts=((whole, one, wide),),
                        digit_size=(40.0, 28.0))
    found = wide_ways_ones(token)
    assert [way for way, _ in found] == [(whole,), (one,)]
    assert found[1][1] == ((0, 0, 8, 40),) == one_boxes(token, (one,))
