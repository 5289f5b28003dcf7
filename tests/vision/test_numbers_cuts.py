"""Stage 5: the ways a written number may be cut, and how the zone's running totals choose among them.

Small synthetic glyphs and a stand-in recogniser that reads a digit box by its width (each box in
these tests has its own width), so the tests check which ways are offered and chosen, not the network.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision import _digit_cuts, _group
from sheetscan.vision._recog_types import crop_digits
from sheetscan.vision._swallow import wide_ways
from sheetscan.vision._totals import choose_cuts
from sheetscan.vision.ink import find_ink
from sheetscan.vision.numbers import NumberToken, find_numbers
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, read_number
from tests.vision._handwriting import whole

Box = tuple[int, int, int, int]


class _ByWidth:
    """Reads a digit box by its width: `table[width]` is (digit, probability)."""

    name = "by-width"
    reads_by_digit = True

    def __init__(self, table: dict[int, tuple[int, float]]) -> None:
        self.table = table
        self.crops = 0

    def read_digits(self, crops: list[np.ndarray]) -> list[DigitReading]:
        self.crops += len(crops)
        out = []
        for crop in crops:
            digit, p = self.table[crop.shape[1]]
            out.append(DigitReading(((digit, p),), 1.0 - p))
        return out

    def read_numbers(self, numbers: list[NumberImage]) -> list[NumberReading]:
        return [read_number(self.read_digits(crop_digits(n))) for n in numbers]


def _token(cuts: tuple[tuple[tuple[Box, ...], ...], ...], *, joins: tuple[tuple[int, Box], ...] = (),
           size: tuple[float, float] = (40.0, 26.0)) -> NumberToken:
    first = tuple(box for glyph in cuts for box in glyph[0])
    right = max(x + w for glyph in cuts for option in glyph for x, _, w, _ in option)
    quad = ((0.0, 0.0), (float(right), 0.0), (float(right), 40.0), (0.0, 40.0))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False, glyph_cuts=cuts,
                       image=NumberImage(gray=np.full((40, right + 2), 200, np.uint8), digit_boxes=first),
                       digit_size=size, glyph_joins=joins)


def _number(value: int, width: int) -> tuple[NumberToken, NumberReading]:
    """A number read surely as `value`, one box `width` px wide."""
    box = (0, 0, width, 40)
    token = _token((((box,),),))
    return token, NumberReading(((value, 0.99),), ())


def test_pieces_of_a_broken_digit_are_read_as_one_when_the_totals_call_for_it() -> None:
    # 32, then "4", "(", ")": a pale 0 broken into two arcs that overlap. Read as three glyphs it is
    # "411" (each arc a sure-looking "1"), 32 -> 411 a jump of hundreds; joined, the arcs read "0"
    # and 32 -> 40 is a usual step.
    reader = _ByWidth({24: (4, 0.99), 11: (1, 0.9), 12: (1, 0.9), 21: (0, 0.95), 30: (3, 0.99)})
    four, left, right = (0, 0, 24, 40), (28, 0, 11, 40), (37, 0, 12, 40)
    joined = (28, 0, 21, 40)
    before, before_reading = _number(32, 30)
    broken = _token((((four,),), ((left,),), ((right,),)), joins=((1, joined),))
    readings = {id(before): before_reading, id(broken): reader.read_numbers([broken.image])[0]}
    assert readings[id(broken)].value == 411
    parts = choose_cuts(reader, [(True, True, [before, broken])], readings)
    ((_, reading),) = parts[id(broken)]
    assert reading.value == 40


def test_a_glyph_is_told_from_pieces_of_one_digit_by_its_space() -> None:
    # Drawn on paper: a 0 broken into two arcs whose boxes overlap by a few pixels (too little to be
    # taken for one glyph), then a "1" and a "0" 6 px apart. Only the arcs are offered joined.
    image = np.full((120, 260, 3), 235, np.uint8)
    pen = (120, 50, 20)
    cv2.ellipse(image, (60, 60), (14, 22), 0, 120, 310, pen, 3)  # the 0's left side and bottom
    cv2.ellipse(image, (60, 60), (14, 22), 0, -30, 40, pen, 3)  # its right side, apart from it
    cv2.line(image, (92, 38), (92, 82), pen, 3)  # "1"
    cv2.ellipse(image, (116, 60), (13, 22), 0, 0, 360, pen, 3)  # "0"
    broken, ten = tokens = tuple(find_numbers(find_ink(image, max_extent=1.0), whole(image)).blocks[0]
                                 .candidates[0][1])
    assert [len(t.glyph_cuts) for t in tokens] == [2, 2]
    ((first, (x, y, w, h)),) = broken.glyph_joins
    (left,), (right,) = (glyph[0] for glyph in broken.glyph_cuts)
    assert first == 0 and left[0] + left[2] > right[0]  # the arcs' boxes overlap
    assert (x, x + w) == (left[0], right[0] + right[2])
    assert (y, y + h) == (min(left[1], right[1]), max(left[1] + left[3], right[1] + right[3]))
    assert ten.glyph_joins == ()


def test_pieces_of_a_digit_a_hair_apart_are_offered_joined() -> None:
    # "14" whose 4 is drawn in two strokes: its arm and bar end 1 px short of its stem (49 px digits: a
    # space of 0.1 digit heights is 4.9 px), 11 px after the "1". The arm and the stem are offered
    # joined (a 4 broken at its bar, not two digits); the "1" and the arm are not.
    image = np.full((120, 260, 3), 235, np.uint8)
    pen = (120, 50, 20)
    cv2.line(image, (70, 38), (70, 82), pen, 3)  # "1"
    cv2.line(image, (96, 38), (86, 66), pen, 3)  # the 4's arm
    cv2.line(image, (86, 66), (100, 66), pen, 3)  # its bar, ending short of the stem
    cv2.line(image, (106, 38), (106, 82), pen, 3)  # its stem
    (token,) = find_numbers(find_ink(image, max_extent=1.0), whole(image)).blocks[0].candidates[0][1]
    _, (arm,), (stem,) = (glyph[0] for glyph in token.glyph_cuts)
    assert arm[0] + arm[2] < stem[0] and stem[0] - (arm[0] + arm[2]) <= 0.1 * token.digit_size[0]
    ((first, (x, _, w, _)),) = token.glyph_joins
    assert first == 1 and (x, x + w) == (arm[0], stem[0] + stem[2])


def test_two_digits_a_hair_apart_are_not_offered_joined() -> None:
    # "11" whose "1"s stand 2-3 px apart, each as tall as a digit: two digits, not pieces of one.
    image = np.full((120, 260, 3), 235, np.uint8)
    pen = (120, 50, 20)
    cv2.line(image, (70, 38), (70, 82), pen, 3)
    cv2.line(image, (76, 38), (76, 82), pen, 3)
    (token,) = find_numbers(find_ink(image, max_extent=1.0), whole(image)).blocks[0].candidates[0][1]
    (left,), (right,) = (glyph[0] for glyph in token.glyph_cuts)
    assert left[0] + left[2] < right[0] and right[0] - (left[0] + left[2]) <= 0.1 * token.digit_size[0]
    assert token.glyph_joins == ()


def test_a_number_whose_dot_was_lost_splits_also_where_a_glyph_is_cut_another_way() -> None:
    # 8, then "16 20" written without a dot: "16" is one glyph read whole as "6" first (the 1 run
    # into the 6), "2" and "0" may each be cut in two as well. Only "16" | "20", the "16" glyph cut,
    # keeps 8 -> 16 -> 20 rising: the split must be tried on a way other than the first, and that
    # way must be among those read although the "2" and "0" have cuts of their own (read in product
    # order, every cut of the last glyphs came first and 620 was read, a jump of hundreds).
    unsure = (1, 0.3)
    reader = _ByWidth({30: (6, 0.99), 8: (1, 0.99), 21: (6, 0.99), 24: (2, 0.99), 26: (0, 0.99),
                       29: (8, 0.99), 13: unsure, 11: unsure, 10: unsure, 14: unsure, 7: unsure,
                       9: unsure, 12: unsure, 17: unsure, 6: unsure})
    sixteen = (((0, 0, 30, 40),), ((0, 0, 8, 40), (9, 0, 21, 40)))
    two = (((40, 0, 24, 40),), ((40, 0, 13, 40), (53, 0, 11, 40)), ((40, 0, 10, 40), (50, 0, 14, 40)),
           ((40, 0, 7, 40), (47, 0, 7, 40), (54, 0, 10, 40)))
    zero = (((66, 0, 26, 40),), ((66, 0, 14, 40), (80, 0, 12, 40)), ((66, 0, 9, 40), (75, 0, 17, 40)),
            ((66, 0, 6, 40), (72, 0, 6, 40), (78, 0, 14, 40)))
    before, before_reading = _number(8, 29)
    token = _token((sixteen, two, zero), size=(40.0, 24.0))
    readings = {id(before): before_reading, id(token): reader.read_numbers([token.image])[0]}
    assert readings[id(token)].value == 620
    parts = choose_cuts(reader, [(True, True, [before, token])], readings)
    assert [reading.value for _, reading in parts.get(id(token), ())] == [16, 20]


def test_a_short_slice_of_a_wide_glyph_is_not_read_for_a_swallowed_one() -> None:
    # A glyph 44 px wide where this writer's digits are 28 (wide enough to hold a "1" run into its
    # digit) is offered cut after a slice 8 px wide: when the slice stands the glyph's full height it
    # may be a "1" and is read; when it stands 12 of 40 px (a bar's end) it cannot be one.
    glyph = ((0, 0, 44, 40),)
    tall = ((0, 0, 8, 40), (8, 0, 36, 40))
    short = ((0, 20, 8, 12), (8, 0, 36, 40))
    assert len(wide_ways(_token(((glyph, tall),), size=(40.0, 28.0)))) == 2
    assert wide_ways(_token(((glyph, short),), size=(40.0, 28.0))) == [(glyph,)]
    reader = _ByWidth({44: (5, 0.99), 8: (1, 0.99), 36: (5, 0.99)})
    token = _token(((glyph, short),), size=(40.0, 28.0))
    assert choose_cuts(reader, [(True, True, [token])], {id(token): NumberReading(((5, 0.99),), ())}) == {}
    assert reader.crops == 0


def test_a_one_run_into_the_side_of_a_wide_digit_is_offered_cut_off() -> None:
    # A "1" (x 3..5) touching a wide "0" (x 9..53) by a short stroke: the joint lies at a tenth of the
    # glyph's width, outside the middle part where the thinnest columns are looked for, yet a "1" run
    # into its digit is just there. Some way must cut the "1" off whole: a box no wider than 8 px that
    # stands the glyph's height, and the rest.
    mask = np.zeros((50, 60), np.uint8)
    cv2.line(mask, (4, 5), (4, 44), 255, 3)  # the "1"
    cv2.ellipse(mask, (31, 25), (21, 19), 0, 0, 360, 255, 3)  # a wide "0"
    cv2.line(mask, (4, 25), (10, 25), 255, 2)  # touching it
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    (blob,) = _group.blobs_of(stats)
    glyph = _group.Glyph((blob,))
    x, _, w, h = glyph.box
    options = _digit_cuts.cut_options(glyph, mask, height=40, width=30, narrowest=0.75)
    ones = [o for o in options if len(o) == 2 and o[0][2] <= 8 and o[0][3] >= 0.75 * h]
    assert ones and ones[0][1][0] + ones[0][1][2] == x + w
    # A plain wide "0" has no such cut: its thin left edge is no stroke of its own.
    ring = np.zeros((50, 60), np.uint8)
    cv2.ellipse(ring, (31, 25), (21, 19), 0, 0, 360, 255, 3)
    _, _, stats, _ = cv2.connectedComponentsWithStats(ring)
    (blob,) = _group.blobs_of(stats)
    plain = _digit_cuts.cut_options(_group.Glyph((blob,)), ring, height=40, width=30, narrowest=0.75)
    assert not [o for o in plain if len(o) == 2 and min(o[0][2], o[1][2]) <= 10]


def test_a_narrow_pair_of_ones_is_offered_cut_in_two() -> None:
    # "11" written with the two strokes joined by their top serif: 16 px wide where digits stand 40 px
    # tall, narrower than any glyph offered the middle cuts (0.75 digit heights), yet two "1"s. Offered
    # the cuts that take a "1" off a side (`edges`), some way holds two boxes each standing the glyph's
    # height; without `edges` the glyph has its one way only.
    mask = np.zeros((50, 30), np.uint8)
    cv2.line(mask, (7, 5), (7, 44), 255, 3)
    cv2.line(mask, (19, 5), (19, 44), 255, 3)
    cv2.line(mask, (7, 5), (19, 5), 255, 2)  # the serifs touching
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    (blob,) = _group.blobs_of(stats)
    glyph = _group.Glyph((blob,))
    _, _, w, h = glyph.box
    assert w < 0.75 * 40
    assert _digit_cuts.cut_options(glyph, mask, height=40, width=30, narrowest=0.75) == [[glyph.box]]
    options = _digit_cuts.cut_options(glyph, mask, height=40, width=30, narrowest=0.75, edges=0.4)
    assert [o for o in options if len(o) == 2 and all(box[3] >= 0.9 * h for box in o)]
    # A lone "1" (one stroke, 3 px wide) is narrower than `edges` allows: its one way only.
    one = np.zeros((50, 30), np.uint8)
    cv2.line(one, (7, 5), (7, 44), 255, 3)
    _, _, stats, _ = cv2.connectedComponentsWithStats(one)
    (blob,) = _group.blobs_of(stats)
    lone = _group.Glyph((blob,))
    assert _digit_cuts.cut_options(lone, one, height=40, width=30, narrowest=0.75, edges=0.4) == [[lone.box]]


def test_a_writer_who_runs_one_1_into_its_digit_is_read_for_it_everywhere() -> None:
    # 8, "12", "13", 16 by a writer who runs every "1" into its digit. "12" is wider than a digit
    # (40 px where the writer's digits are 30 wide and 40 tall): read whole it is a sure 2, 8 -> 2 goes
    # back, and its cut finds the "1": 12. "13" (34 px) is no wider than a single wide digit and reads
    # a sure 3 where it stands (2 -> 3 -> 16 rise); but once the zone's totals have taken a "1" run
    # into its digit, "13" is read for one too, and 8, 12, 13, 16 rise where 8, 12, 3, 16 fall back.
    reader = _ByWidth({29: (8, 0.99), 40: (2, 0.99), 8: (1, 0.99), 32: (2, 0.99), 34: (3, 0.99),
                       7: (1, 0.99), 27: (3, 0.99), 26: (6, 0.99)})
    size = (40.0, 30.0)
    eight = _token(((((0, 0, 29, 40),),),), size=size)
    twelve = _token(((((0, 0, 40, 40),), ((0, 0, 8, 40), (8, 0, 32, 40))),), size=size)
    thirteen = _token(((((0, 0, 34, 40),), ((0, 0, 7, 40), (7, 0, 27, 40))),), size=size)
    sixteen = _token(((((0, 0, 8, 40),),), (((9, 0, 26, 40),),)), size=size)
    sequence = [eight, twelve, thirteen, sixteen]
    read = reader.read_numbers([t.image for t in sequence])
    readings = {id(t): r for t, r in zip(sequence, read, strict=True)}
    assert [readings[id(t)].value for t in sequence] == [8, 2, 3, 16]
    parts = choose_cuts(reader, [(True, True, sequence)], readings)
    values = [parts[id(t)][0][1].value if id(t) in parts else readings[id(t)].value for t in sequence]
    assert values == [8, 12, 13, 16]


def test_the_totals_may_choose_a_reading_other_than_the_likeliest() -> None:
    # 6, then "22" whose first 2 is pale: its box reads "2" at 0.3 and "not a digit" at 0.7, the
    # second a sure 2 (0.99). As digits, the number is "2" at 0.7 × 0.99 + 0.3 × 0.01 = 0.696 (either
    # box left out) or "22" at 0.3 × 0.99 = 0.297. Then 30. Read "2", 6 -> 2 goes back; "22" keeps
    # 6 < 22 < 30, worth more than the likelier reading: log 0.297 = -1.21 against log 0.696 - 4 (a
    # step back costs 4).
    reader = _ByWidth({29: (6, 0.99), 18: (2, 0.3), 24: (2, 0.99), 31: (3, 0.99), 26: (0, 0.99)})
    six = _token(((((0, 0, 29, 40),),),))
    pale = _token(((((0, 0, 18, 40),),), (((22, 0, 24, 40),),)))
    thirty = _token(((((0, 0, 31, 40),),), (((35, 0, 26, 40),),)))
    sequence = [six, pale, thirty]
    readings = dict(zip(map(id, sequence), reader.read_numbers([t.image for t in sequence]), strict=True))
    assert [v for v, _ in readings[id(pale)].candidates[:2]] == [2, 22]
    parts = choose_cuts(reader, [(True, True, sequence)], readings)
    ((_, reading),) = parts[id(pale)]
    assert reading.value == 22 and reading.confidence == pytest.approx(0.297)
    assert reading.candidates[1] == (2, pytest.approx(0.696))  # the likeliest, now the first alternative
    # With 1 before it, "2" is in step and stays: no reason to take the less likely reading.
    one = _token(((((0, 0, 9, 40),),),))
    reader.table[9] = (1, 0.99)
    sequence = [one, pale, thirty]
    readings = dict(zip(map(id, sequence), reader.read_numbers([t.image for t in sequence]), strict=True))
    assert id(pale) not in choose_cuts(reader, [(True, True, sequence)], readings)


def test_the_totals_do_not_rewrite_two_readings_to_fit_around_one() -> None:
    # 40 (0.78, or 4 at 0.16), 46 (0.56, or 5 at 0.14), then a sure 6 (a 61 whose 1 was lost). Read
    # 4, 5, 6 the totals rise, but that takes two readings other than the likeliest to mend one step
    # back: log(0.16 / 0.78) + log(0.14 / 0.56) - 2 x 1.0 (`_ALTERNATIVE_COST`) = -4.97 < -4.
    reader = _ByWidth({29: (6, 0.99)})
    forty, forty_six, six = (_token(((((0, 0, w, 40),),),)) for w in (30, 31, 29))
    readings = {id(forty): NumberReading(((40, 0.78), (4, 0.16)), ()),
                id(forty_six): NumberReading(((46, 0.56), (5, 0.14)), ()),
                id(six): NumberReading(((6, 0.99),), ())}
    assert choose_cuts(reader, [(True, True, [forty, forty_six, six])], readings) == {}
    # One alternative mending the step is taken: 40, then 46 read 4 (0.56) or 46 (0.3), then 50.
    fifty = _token(((((0, 0, 29, 40),),),))
    readings[id(forty_six)] = NumberReading(((4, 0.56), (46, 0.3)), ())
    readings[id(fifty)] = NumberReading(((50, 0.99),), ())
    parts = choose_cuts(reader, [(True, True, [forty, forty_six, fifty])], readings)
    assert {key: [r.value for _, r in found] for key, found in parts.items()} == {id(forty_six): [46]}


def test_a_one_is_looked_for_before_a_wide_digit_not_after_it() -> None:
    # A lone glyph 44 px wide where this writer's digits are 28 wide (wide enough to hold a "1" run into
    # its digit) reads a sure 4. Cut 8 px off its left side it reads "1" and "4", both sure: the "1" of
    # 14 run into its 4, so 14. Cut 8 px off its right side it reads "4" and "1" just as surely, but
    # that is a wide 4's stem cut off (the rest still reads 4), not a "1" written after it: 4 stays.
    glyph = ((0, 0, 44, 40),)
    reader = _ByWidth({44: (4, 0.99), 36: (4, 0.99), 8: (1, 0.99)})
    front = _token(((glyph, ((0, 0, 8, 40), (8, 0, 36, 40))),), size=(40.0, 28.0))
    back = _token(((glyph, ((0, 0, 36, 40), (36, 0, 8, 40))),), size=(40.0, 28.0))
    for token, value in ((front, 14), (back, None)):
        parts = choose_cuts(reader, [(True, True, [token])], {id(token): NumberReading(((4, 0.99),), ())})
        assert [r.value for _, r in parts.get(id(token), ())] == ([value] if value else [])


def test_a_number_is_read_with_two_of_its_glyphs_cut_their_last_ways() -> None:
    # 15, then "16" and "18" whose dot was lost (30 px apart, 0.75 digit heights: split cost 0.5), each a
    # "1" run into its digit: glyphs of 30 and 33 px read whole as a sure 6 and 8, each with three other
    # cuts, the "1" cut off by the last (8 | 22 px and 9 | 24 px). The two glyphs' cuts make 16 ways;
    # the way cutting both the last way is the sixteenth, after the seven that cut one glyph otherwise,
    # and reads no crop those did not. 15, 16 | 18, 19 rises freely (about -0.6); the best of the first
    # twelve ways, "6" crossed out and 18 (a struck number run into its correction), costs about -1.2.
    nuisance = (9, 0.5)
    reader = _ByWidth({20: (1, 0.99), 25: (5, 0.99), 27: (9, 0.99), 30: (6, 0.99), 33: (8, 0.99),
                       8: (1, 0.99), 22: (6, 0.99), 9: (1, 0.99), 24: (8, 0.99), 14: nuisance, 16: nuisance,
                       12: nuisance, 18: nuisance, 10: nuisance, 23: nuisance, 13: nuisance, 21: nuisance})
    h = 40
    fifteen = _token(((((0, 0, 20, h),),), (((22, 0, 25, h),),)))
    nineteen = _token(((((0, 0, 20, h),),), (((22, 0, 27, h),),)))
    first = (((0, 0, 30, h),), ((0, 0, 14, h), (14, 0, 16, h)), ((0, 0, 12, h), (12, 0, 18, h)),
             ((0, 0, 8, h), (8, 0, 22, h)))
    second = (((60, 0, 33, h),), ((60, 0, 10, h), (70, 0, 23, h)), ((60, 0, 13, h), (73, 0, 21, h)),
              ((60, 0, 9, h), (69, 0, 24, h)))
    pair = _token((first, second))
    sequence = [fifteen, pair, nineteen]
    readings = {id(t): reader.read_numbers([t.image])[0] for t in sequence}
    assert [readings[id(t)].value for t in sequence] == [15, 68, 19]
    parts = choose_cuts(reader, [(True, True, sequence)], readings)
    got = [(reading.value, token.crossed_out) for token, reading in parts[id(pair)]]
    assert got == [(16, False), (18, False)]
