"""Stage 5: a way of cutting that looks for a "1" run into its digit (`_swallow.wide_ways`) is read in
full only when what it cuts off reads as a 1 (`_totals._read_ones`).

A stand-in recogniser reads a digit box by its width and notes every width it is asked for, so the
tests check which crops are read, not the network.
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision._totals import choose_cuts
from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import NumberImage, NumberReading
from tests.vision._width_reader import WidthReader

Box = tuple[int, int, int, int]


def _wide_five() -> NumberToken:
    """One glyph 44 px wide and 40 tall where this writer's digits are 40 × 28 (wide enough to hold a
    "1" run into its digit: 44 > min(1.2 × 28, 0.9 × 40) = 33.6), read whole first, or cut after a
    slice 8 px wide that stands its full height (a "1" it may have swallowed)."""
    whole: tuple[Box, ...] = ((0, 0, 44, 40),)
    cut: tuple[Box, ...] = ((0, 0, 8, 40), (8, 0, 36, 40))
    image = NumberImage(gray=np.full((40, 46), 200, np.uint8), digit_boxes=whole)
    quad = ((0.0, 0.0), (46.0, 0.0), (46.0, 40.0), (0.0, 40.0))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False, image=image,
                       glyph_cuts=((whole, cut),), digit_size=(40.0, 28.0))


def test_a_slice_that_reads_as_another_digit_is_not_read_further() -> None:
    # The glyph reads 5 at 0.99: sure (>= 0.951) and alone, so only its "1"-seeking way could be read.
    # Its slice reads 7: that way is dropped before the rest of it (36 px) is read, no way is left to
    # read (not even the first), and nothing changes.
    reader = WidthReader({44: (5, 0.99), 8: (7, 0.99), 36: (5, 0.99)})
    token = _wide_five()
    readings = {id(token): NumberReading(((5, 0.99),), ())}
    assert choose_cuts(reader, [(True, True, [token])], readings) == {}
    assert sorted(set(reader.widths)) == [8]


def test_a_slice_that_reads_as_a_one_has_its_way_read() -> None:
    # The slice reads 1 at 0.99 and the rest 5 at 0.99: "15" (log 0.9801 = -0.020, less 0.05 for a way
    # other than the first: -0.070) against the first way's "5" (log 0.99 = -0.010), which swallowed a
    # sure "1" another way finds and so loses 1.5 (`_swallow.absorbed`): -1.51. "15" is chosen.
    reader = WidthReader({44: (5, 0.99), 8: (1, 0.99), 36: (5, 0.99)})
    token = _wide_five()
    parts = choose_cuts(reader, [(True, True, [token])], {id(token): NumberReading(((5, 0.99),), ())})
    assert [reading.value for _, reading in parts[id(token)]] == [15]
    assert sorted(set(reader.widths)) == [8, 36, 44]  # (the first way too, with the others)
    # Read as a 1 but unsure (0.6 < 0.9): the way is still read, for the totals to weigh, but it
    # swallows nothing: "15" scores log(0.6 × 0.99) - 0.05 = -0.57 against -0.01, and "5" stays.
    reader = WidthReader({44: (5, 0.99), 8: (1, 0.6), 36: (5, 0.99)})
    token = _wide_five()
    assert choose_cuts(reader, [(True, True, [token])], {id(token): NumberReading(((5, 0.99),), ())}) == {}
    assert sorted(set(reader.widths)) == [8, 36, 44]


class _Whole:
    """Reads whole numbers only (as Tesseract does): a number by the widths of its digit boxes."""

    name = "whole"
    reads_by_digit = False

    def __init__(self, table: dict[tuple[int, ...], tuple[int, float]]) -> None:
        self.table = table
        self.asked: list[tuple[int, ...]] = []

    def read_numbers(self, numbers: list[NumberImage]) -> list[NumberReading]:
        out = []
        for number in numbers:
            widths = tuple(box[2] for box in number.digit_boxes)
            self.asked.append(widths)
            value, p = self.table[widths]
            out.append(NumberReading(((value, p),), ()))
        return out


def test_a_recogniser_that_reads_whole_numbers_reads_every_way_whole() -> None:
    # It reads no box alone, so the "1" cannot be read first: both ways are read as whole numbers.
    reader = _Whole({(44,): (5, 0.99), (8, 36): (75, 0.99)})
    token = _wide_five()
    assert choose_cuts(reader, [(True, True, [token])], {id(token): NumberReading(((5, 0.99),), ())}) == {}
    assert sorted(reader.asked) == [(8, 36), (44,)]
