"""Stage 5: a run of numbers misread the same way (`_confusion.shared_confusions`, through
`_totals.choose_cuts`). The readings are given; nothing is read again, so the recogniser is never asked."""

from __future__ import annotations

import math

import numpy as np

from sheetscan.vision._totals import choose_cuts
from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading


class _NeverAsked:
    name = "never-asked"

    def read_numbers(self, numbers: list[NumberImage]) -> list[NumberReading]:
        raise AssertionError("no crop should be read")


def _token(x: int) -> NumberToken:
    """A one-glyph number at `x` (a single way of cutting it: only its readings can change)."""
    box = (0, 0, 26, 40)
    quad = ((float(x), 0.0), (x + 26.0, 0.0), (x + 26.0, 40.0), (float(x), 40.0))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False, glyph_cuts=(((box,),),),
                       image=NumberImage(gray=np.zeros((40, 28), np.uint8), digit_boxes=(box,)),
                       digit_size=(40.0, 26.0))


def _values(sequence: list[NumberToken], readings: dict[int, NumberReading]) -> list[int | None]:
    parts = choose_cuts(_NeverAsked(), [(True, True, sequence)], readings)
    return [r.value for t in sequence for _, r in parts.get(id(t), ((t, readings[id(t)]),))]


def test_a_run_misread_the_same_way_is_read_back_at_the_cost_of_one_swap() -> None:
    # 6, 10, 12, 14 by a writer whose "1" the network reads as 7: 6, 70 (0.96; 10 at 0.03), 72 (0.95; 12
    # at 0.03), 14. As read the steps cost 6 -> 70 (64 > 40: 0.5 + 2 ln(64/40) = 1.44) and 72 -> 14
    # (back: 4), 5.44 in all. Each number read as its alternative costs ln(0.96/0.03) + 1 = 4.47 and
    # ln(0.95/0.03) + 1 = 4.46 (`_ALTERNATIVE_COST` 1), 8.92 for both: more than the steps, and alone
    # either leaves a step back. As one swap (7 -> 1) the run costs its dearest, 4.47 < 5.44: 10, 12.
    digit = DigitReading(((7, 0.96), (1, 0.03)), 0.0)
    sequence = [_token(x) for x in (0, 40, 80, 120)]
    readings = {id(sequence[0]): NumberReading(((6, 0.99),), ()),
                id(sequence[1]): NumberReading(((70, 0.96), (10, 0.03)), (digit, digit)),
                id(sequence[2]): NumberReading(((72, 0.95), (12, 0.03)), (digit, digit)),
                id(sequence[3]): NumberReading(((14, 0.99),), ())}
    assert math.log(0.96 / 0.03) + 1 < 1.44 + 4 < math.log(0.96 / 0.03) + math.log(0.95 / 0.03) + 2
    assert _values(sequence, readings) == [6, 10, 12, 14]
    # Read surely (10 at 0.001: ln(960) + 1 = 7.87 > 5.44), the run stays as read.
    readings[id(sequence[1])] = NumberReading(((70, 0.96), (10, 0.001)), (digit, digit))
    assert _values(sequence, readings) == [6, 70, 72, 14]


def test_a_run_of_three_misread_the_same_way_is_read_back_whole() -> None:
    # 6, 10, 12, 14, 16 read 6, 70, 72, 74, 16: one step of 64 (1.44) and one back (74 -> 16: 4), 5.44.
    # Swapped alone or two at a time a step back stays (10, 72, 74, 16 ... 10, 12, 74, 16); the three as
    # one swap cost the dearest, ln(0.96/0.03) + 1 = 4.47 < 5.44, and every step then rises.
    digit = DigitReading(((7, 0.96), (1, 0.03)), 0.0)
    sequence = [_token(x) for x in (0, 40, 80, 120, 160)]
    readings = {id(sequence[0]): NumberReading(((6, 0.99),), ()),
                id(sequence[1]): NumberReading(((70, 0.96), (10, 0.03)), (digit, digit)),
                id(sequence[2]): NumberReading(((72, 0.95), (12, 0.03)), (digit, digit)),
                id(sequence[3]): NumberReading(((74, 0.95), (14, 0.03)), (digit, digit)),
                id(sequence[4]): NumberReading(((16, 0.99),), ())}
    assert _values(sequence, readings) == [6, 10, 12, 14, 16]
    # A different swap in each (7 -> 1, 7 -> 2, 7 -> 4) is no one writer's one glyph: each costs its own.
    readings[id(sequence[2])] = NumberReading(((72, 0.95), (22, 0.03)), (digit, digit))
    assert _values(sequence, readings) == [6, 70, 72, 74, 16]
