"""Stage 5: a "1" run into two touching digits ("120" written as one glyph) is offered cut into its
three digits, and a way of more digits than any written number finds no swallowed "1".

Synthetic glyphs drawn with OpenCV and a stand-in recogniser that reads a digit box by its width, so
the tests check which ways are offered and chosen, not the network.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision import _digit_cuts, _group
from sheetscan.vision._swallow import absorbed
from sheetscan.vision._totals import choose_cuts
from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, read_number
from tests.vision._width_reader import WidthReader

Box = tuple[int, int, int, int]


def _one_glyph(mask: np.ndarray) -> _group.Glyph:
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    (blob,) = _group.blobs_of(stats)
    return _group.Glyph((blob,))


def _one_two_zero() -> np.ndarray:
    """ "120" as one glyph, digits 40 px tall: a "1" (x = 5) joined by a short stroke to a "2"
    (x 12 … 36) whose base runs on into a "0" (x 40 … 66)."""
    mask = np.zeros((50, 75), np.uint8)
    cv2.line(mask, (5, 5), (5, 44), 255, 3)  # the "1"
    cv2.line(mask, (5, 41), (14, 41), 255, 2)  # touching the 2's foot
    cv2.ellipse(mask, (24, 15), (11, 10), 0, 180, 360, 255, 3)  # the 2's hook
    cv2.line(mask, (35, 15), (13, 44), 255, 3)  # its diagonal
    cv2.line(mask, (13, 44), (47, 43), 255, 3)  # its base, run into the "0"
    cv2.ellipse(mask, (53, 25), (12, 19), 0, 0, 360, 255, 3)  # the "0"
    return mask


def test_a_one_run_into_two_touching_digits_is_offered_cut_into_three() -> None:
    # Width alone cuts the 70 px glyph in two or in even thirds: neither gives the narrow "1" a box of
    # its own and the "2" and "0" one each. Some way must: a first box no wider than 8 px standing the
    # glyph's height, a second box starting by the 2 (x <= 14) and ending before the 0's middle, and a
    # third holding the 0's right side.
    mask = _one_two_zero()
    glyph = _one_glyph(mask)
    x, _, w, h = glyph.box
    options = _digit_cuts.cut_options(glyph, mask, height=40, width=26, narrowest=0.75)
    three = [o for o in options if len(o) == 3 and o[0][2] <= 8 and o[0][3] >= 0.9 * h
             and o[1][0] <= 14 and o[1][0] + o[1][2] < 53 and o[2][0] + o[2][2] == x + w]
    assert three, options
    # The rest of the options are those the glyph had before: still at most five of them.
    assert len([o for o in options if o not in three]) <= 5


def test_only_a_numbers_leading_glyph_is_offered_a_one_and_two_more() -> None:
    # The same glyph after another glyph of its number (a "2" before it: "2120"): a "1" and two more
    # digits there make a number of four digits, which no written total has (LONGEST), so no option
    # cuts it into three.
    mask = _one_two_zero()
    glyph = _one_glyph(mask)
    options = _digit_cuts.cut_options(glyph, mask, height=40, width=26, narrowest=0.75, leading=False)
    assert not [o for o in options if len(o) == 3 and o[0][2] <= 8], options
    assert options  # still read whole and cut as before


def test_two_touching_zeros_are_not_offered_a_one() -> None:
    # "00" written touching (two rings, 56 px): no stroke stands at either side, so no way cuts a
    # narrow "1" off it, and no way cuts it in three with one.
    mask = np.zeros((50, 70), np.uint8)
    cv2.ellipse(mask, (18, 25), (12, 19), 0, 0, 360, 255, 3)
    cv2.ellipse(mask, (44, 25), (12, 19), 0, 0, 360, 255, 3)
    glyph = _one_glyph(mask)
    options = _digit_cuts.cut_options(glyph, mask, height=40, width=26, narrowest=0.75)
    assert not [o for o in options if len(o) == 3 and min(b[2] for b in o) <= 8]


def _token(boxes: tuple[Box, ...], cuts: tuple[tuple[tuple[Box, ...], ...], ...]) -> NumberToken:
    right = max(x + w for x, _, w, _ in boxes)
    quad = ((0.0, 0.0), (float(right), 0.0), (float(right), 40.0), (0.0, 40.0))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False, glyph_cuts=cuts,
                       image=NumberImage(gray=np.full((40, right + 2), 200, np.uint8), digit_boxes=boxes),
                       digit_size=(40.0, 26.0))


def _read(digits: list[tuple[int, float]]) -> NumberReading:
    return read_number(tuple(DigitReading(((d, p),), 1.0 - p) for d, p in digits))


def test_a_way_of_four_digits_finds_no_swallowed_one() -> None:
    # "200": a "2" (26 px) and "00" as one glyph cut in two boxes of 32 px (wider than a "1" could be
    # swallowed in: 1.2 x 26 = 31.2 px). Another way cuts a 10 px slice off the first 0, which reads
    # as a sure "1": "2100". No written number has four digits (`_steps.LONGEST`): that way finds no
    # "1" the first one swallowed, and the first keeps its score. A way of three digits that finds one
    # ("120" against "20") still makes the way without it worth 1.5 less.
    first = ((0, 0, 26, 40), (26, 0, 32, 40), (58, 0, 32, 40))
    sliced = ((0, 0, 26, 40), (26, 0, 10, 40), (36, 0, 22, 40), (58, 0, 32, 40))
    cuts = (((first[0],),), (first[1:], sliced[1:]))
    token = _token(first, cuts)
    plain = (((token, _read([(2, 0.99), (0, 0.99), (0, 0.99)])),), -0.03)
    four = (((_token(sliced, cuts), _read([(2, 0.99), (1, 0.95), (0, 0.6), (0, 0.99)])),), -3.6)
    assert absorbed([plain, four]) == [plain, four]
    two = _token(first[1:], ((first[1:], sliced[1:]),))
    twenty = (((two, _read([(2, 0.99), (0, 0.99)])),), -0.02)
    # (The 2 reads as surely with the "1" cut off as without: `_swallow._rest_as_sure`.)
    hundred = (((_token(sliced[1:], two.glyph_cuts), _read([(1, 0.95), (2, 0.99), (0, 0.99)])),), -0.12)
    assert absorbed([twenty, hundred]) == [(twenty[0], twenty[1] - 1.5), hundred]


def test_the_running_totals_choose_the_three_digits_of_a_one_run_into_two() -> None:
    # A zone 90, "120", 130 (rising). "120" is the glyph above; cut by width in two (35 + 30 px) it
    # reads "20" surely, a step back from 90; its "1" cut off, the rest whole (6 + 59 px), "10", back
    # too. Only the cut into three (6 + 29 + 30 px) reads 120, in step: the totals take it.
    mask = _one_two_zero()
    options = _digit_cuts.cut_options(_one_glyph(mask), mask, height=40, width=26, narrowest=0.75)
    assert [b[2] for b in options[0]] == [35, 30]
    assert [6, 29, 30] in [[b[2] for b in o] for o in options]
    table = {w: (0, 0.5) for o in options for _, _, w, _ in o}
    table.update({35: (2, 0.99), 30: (0, 0.99), 6: (1, 0.99), 29: (2, 0.99)})
    table.update({40: (9, 0.99), 44: (0, 0.99), 7: (1, 0.99), 43: (3, 0.99)})
    reader = WidthReader(table)
    gray = np.full((50, 120), 200, np.uint8)
    quad = ((0.0, 0.0), (75.0, 0.0), (75.0, 50.0), (0.0, 50.0))

    def number(boxes: tuple[Box, ...], cuts: tuple[tuple[tuple[Box, ...], ...], ...] = ()) -> NumberToken:
        return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False, glyph_cuts=cuts,
                           image=NumberImage(gray=gray, digit_boxes=boxes), digit_size=(40.0, 26.0))

    ninety = number(((0, 3, 40, 44), (40, 3, 44, 44)))
    token = number(tuple(options[0]), (tuple(tuple(o) for o in options),))
    last = number(((0, 3, 7, 44), (7, 3, 43, 44), (50, 3, 44, 44)))
    sequence = [ninety, token, last]
    readings = dict(zip(map(id, sequence), reader.read_numbers([t.image for t in sequence]), strict=True))
    assert [readings[id(t)].value for t in sequence] == [90, 20, 130]
    ((_, chosen),) = choose_cuts(reader, [(True, True, sequence)], readings)[id(token)]
    assert chosen.value == 120


def test_a_one_lower_than_the_digits_beside_it_was_not_swallowed() -> None:
    # A lone 4 (a box 34 px wide, wider than a "1" could be swallowed in: 1.2 x 26 = 31.2 px), and a
    # way that cuts its left arm off (10 px) and reads it as a sure "1": "14". A "1" run into its
    # digit stands as tall as the digit; an arm cut off a 4 stands lower. Standing 31 px beside a
    # 40 px box (0.78), it makes the whole 4 worth no less; standing 36 px (0.9), 1.5 less.
    whole = ((0, 0, 34, 40),)
    cuts = ((whole, ((0, 9, 10, 31), (10, 0, 24, 40))),)
    four = (((_token(whole, cuts), _read([(4, 0.99)])),), -0.01)
    # (The 4 reads as surely with the arm cut off as whole, so only the height tells: see
    # `_swallow._rest_as_sure`.)
    low = (((_token(cuts[0][1], cuts), _read([(1, 0.99), (4, 0.99)])),), -0.07)
    assert absorbed([four, low]) == [four, low]
    tall = ((0, 4, 10, 36), (10, 0, 24, 40))
    high = (((_token(tall, ((whole, tall),)), _read([(1, 0.99), (4, 0.99)])),), -0.07)
    assert absorbed([four, high]) == [(four[0], four[1] - 1.5), high]


def _one_four_zero() -> np.ndarray:
    """ "140" as one glyph 30 px tall and 39 wide: a "1" (x 0 … 2) crossed by the 4's bar (rows 17, 18,
    x 3 … 14), the 4's arm (x 6 … 8, rows 0 … 19) and stem (x 15 … 17), joined by a 4 px stroke
    (rows 14 … 17, x 18 … 20) to a "0" 3 px thick (x 21 … 38, rows 2 … 29); 5 px of paper around."""
    mask = np.zeros((30, 39), np.uint8)
    mask[:, 0:3] = 255  # the "1"
    mask[17:19, 3:15] = 255  # the 4's bar, through to the "1"
    mask[0:20, 6:9] = 255  # its arm
    mask[:, 15:18] = 255  # its stem
    mask[14:18, 18:21] = 255  # where the 4 touches the 0
    mask[2:30, 21:39] = 255  # the 0: a ring 3 px thick
    mask[5:27, 24:36] = 0
    return np.pad(mask, 5)


def test_a_one_run_into_digits_the_first_way_cuts_apart_is_offered_cut_off() -> None:
    # The first way cuts at the 4's joint with the 0 (x 20: the thinnest column outside the 0's loop
    # near the middle) and leaves the "1" in the 4's box. The "1" comes off at x 3 (the bar, 2 px),
    # and the rest cut anew at its thinnest column falls on the 4's own bar (x 14), not at its joint:
    # only the "1" cut off with the first way's cut kept holds the three digits.
    mask = _one_four_zero()
    glyph = _one_glyph(mask)
    x, _, w, h = glyph.box
    assert (w, h) == (39, 30)
    options = _digit_cuts.cut_options(glyph, mask, height=30, width=21, narrowest=0.75, edges=0.4)
    assert [b[0] - x for b in options[0]] == [0, 20], options[0]
    starts = [[b[0] - x for b in o] for o in options]
    assert [0, 3, 20] in starts, starts
    # Not in a glyph after the number's first: a "1" there would make a number of four digits.
    later = _digit_cuts.cut_options(glyph, mask, height=30, width=21, narrowest=0.75, edges=0.4,
                                    leading=False)
    assert [0, 3, 20] not in [[b[0] - x for b in o] for o in later]
