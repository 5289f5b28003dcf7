"""Stage 5: a block's numbers at an angle are cut only as far as the reading asks for them.

The digits are MNIST test digits placed by `_handwriting`; `TemplateReader` knows them, so these tests
check which numbers get cut and that the reading is complete, not the trained network.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from sheetscan.vision import _cut_block
from sheetscan.vision._angles import choose_angles
from sheetscan.vision._digit_cache import DigitCache
from sheetscan.vision.ink import find_ink
from sheetscan.vision.numbers import NumberToken, find_numbers, read_numbers
from sheetscan.vision.recognise import NumberImage
from tests.vision._handwriting import TemplateReader, Writer, blank, to_bgr, whole, write_line
from tests.vision._width_reader import WidthReader

# Twelve running totals in two rows: more than the ten a block is sampled on to choose its angle.
ROWS = ("2.4.6.10.14.18", "22.26.30.34.40.46")
VALUES = [2, 4, 6, 10, 14, 18, 22, 26, 30, 34, 40, 46]


def _sheet(turns: int) -> tuple[np.ndarray, Writer]:
    writer = Writer(height=30, seed=5)
    canvas = blank(170, 560)
    write_line(canvas, ROWS[0], 12, 22, writer)
    write_line(canvas, ROWS[1], 12, 96, writer)
    return np.ascontiguousarray(np.rot90(to_bgr(canvas), turns)), writer


def test_numbers_at_an_angle_are_cut_only_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    image, _ = _sheet(0)
    made: list[int] = []
    original = _cut_block._number_image

    def counting(*args: Any, **kwargs: Any) -> Any:
        made.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(_cut_block, "_number_image", counting)
    tokens = find_numbers(find_ink(image), whole(image, (0,)))
    assert made == []  # nothing is cut before it is asked for
    at_180 = dict(tokens.blocks[0].candidates)[180]
    first = at_180[:3]
    assert len(made) == 3
    # Asking again gives the same numbers (not cut again); asking for all cuts the rest.
    assert at_180[:3] == first and len(made) == 3
    assert len(at_180) >= 3 and tuple(at_180)[:3] == first


def test_a_block_written_upside_down_is_read_in_full() -> None:
    # Read at 180°, which the reading samples on its first numbers only: every number is still read.
    image, writer = _sheet(2)
    result = read_numbers(find_numbers(find_ink(image), whole(image, (0,))), TemplateReader([writer]))
    (zone,) = result.zones
    assert zone.angles == (180,)
    assert [n.value for n in zone.numbers] == VALUES


def _one_box(width: int) -> NumberToken:
    quad = ((0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0))
    image = NumberImage(gray=np.full((40, 40), 200, np.uint8), digit_boxes=((0, 0, width, 40),))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False, image=image,
                       digit_size=(40.0, 24.0))


def test_another_angle_is_read_no_further_than_it_could_matter() -> None:
    # The usual angle reads 2, 4, 6, 8 surely and in order: mean log-confidence ln 0.99 = -0.01, all
    # steps up (+1), one digit each (+0): 0.99, with the usual angle's bonus 1.24. Turned, the first
    # number reads at 0.001: even if the next two read surely and in order, that angle's peek scores at
    # most ln(0.001) / 3 + 1 = -1.3, far below 1.24 - 0.6: its other numbers are never read. When its
    # first reads surely, its peek (3, 5, 7) scores 0.99 > 0.64 and it competes; but even were its
    # fourth number (9) read surely too, its sample could score at most 3 ln(0.99) / 4 + 1 = 0.99,
    # below 1.24: the fourth is not read. Against a usual angle read at 0.5 (ln 0.5 + 1 + 0.25 = 0.56)
    # the turned one could win: it is read in full, and wins (3, 5, 7, 9: 0.99).
    table = {20: (2, 0.99), 21: (4, 0.99), 22: (6, 0.99), 23: (8, 0.99), 30: (1, 0.001), 31: (5, 0.99),
             32: (7, 0.99), 33: (9, 0.99), 34: (3, 0.99), 24: (2, 0.5), 25: (4, 0.5), 26: (6, 0.5),
             27: (8, 0.5)}
    for usual_widths, first, read_widths, chosen in (((20, 21, 22, 23), 30, set(), 0),
                                                     ((20, 21, 22, 23), 34, {31, 32}, 0),
                                                     ((24, 25, 26, 27), 34, {31, 32, 33}, 180)):
        reader = WidthReader(table)
        usual = tuple(_one_box(w) for w in usual_widths)
        turned = tuple(_one_box(w) for w in (first, 31, 32, 33))
        ((angle, _),) = choose_angles([(((0, usual), (180, turned)), False)], DigitCache(reader),
                                      clear=math.inf)
        assert angle == chosen
        assert {31, 32, 33} & set(reader.widths) == read_widths


def test_an_angle_whose_read_totals_go_back_is_dropped_before_its_peek_is_read() -> None:
    # A mountain zone (totals only rise); the usual angle reads 2, 4, 6, 8 surely: 1.24 as above.
    # Turned, the first two numbers read 5 and 3 at 0.99: a step back. Were the third read surely and
    # above 3, the peek could score at most (2 ln 0.99) / 3 + 1/2 (one of its two steps up) = 0.49,
    # below 1.24 - 0.6: the third number (7) is never read.
    table = {20: (2, 0.99), 21: (4, 0.99), 22: (6, 0.99), 23: (8, 0.99), 31: (5, 0.99), 34: (3, 0.99),
             32: (7, 0.99), 33: (9, 0.99)}
    reader = WidthReader(table)
    usual = tuple(_one_box(w) for w in (20, 21, 22, 23))
    turned = tuple(_one_box(w) for w in (31, 34, 32, 33))
    ((angle, _),) = choose_angles([(((0, usual), (180, turned)), True)], DigitCache(reader),
                                  clear=math.inf)
    assert angle == 0
    assert {31, 34, 32, 33} & set(reader.widths) == {31, 34}
