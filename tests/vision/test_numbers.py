"""Stage 5, numbers: grouping, dots, rows, orientation, crossing out (small synthetic zones).

Every expected value is what `_handwriting` wrote (MNIST test digits placed by the test); the
recogniser is `TemplateReader`, which knows the written digit images, so these tests check the cutting
and the choice of angle, not the trained network.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from sheetscan.vision import _group, _strikes
from sheetscan.vision._digit_cache import DigitCache
from sheetscan.vision._recog_types import crop_digits
from sheetscan.vision._steps import monotone_picks
from sheetscan.vision._totals import choose_cuts, part_token
from sheetscan.vision._zone_ink import _blocks, line_remnants
from sheetscan.vision.ink import find_ink
from sheetscan.vision.numbers import (
    NumberToken,
    ZoneTokens,
    _candidate_angles,
    _without_print,
    find_numbers,
    read_numbers,
)
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, read_number
from tests.vision._handwriting import TemplateReader, Writer, blank, to_bgr, whole, write_line

VALUES = [2, 4, 6, 10, 14, 128, 140]


def _two_rows(seed: int = 1) -> tuple[np.ndarray, Writer, list[tuple[int, int, int, int]]]:
    """'2.4.6.10.14' wrapping to '128.140' on a second line, as running totals are written."""
    writer = Writer(height=30, seed=seed)
    canvas = blank(170, 520)
    boxes = write_line(canvas, "2.4.6.10.14", 12, 22, writer)
    boxes += write_line(canvas, "128.140", 12, 96, writer)
    return to_bgr(canvas), writer, boxes


def test_numbers_are_split_at_dots_and_ordered_by_rows() -> None:
    image, _, boxes = _two_rows()
    tokens = find_numbers(find_ink(image), whole(image, (0,)))
    angle, numbers = tokens.blocks[0].candidates[0]
    assert angle == 0
    assert [len(t.image.digit_boxes) for t in numbers] == [len(str(v)) for v in VALUES]
    assert [t.row for t in numbers] == [0, 0, 0, 0, 0, 1, 1]
    assert not any(t.crossed_out for t in numbers)
    # Each number's box lies on the box it was written in (centres within a few pixels).
    for token, (x, y, w, h) in zip(numbers, boxes, strict=True):
        qx = sum(p[0] for p in token.quad) / 4
        qy = sum(p[1] for p in token.quad) / 4
        assert abs(qx - (x + w / 2)) < 4 and abs(qy - (y + h / 2)) < 4


@pytest.mark.parametrize(("turns", "angle"), [(0, 0), (1, -90), (2, 180), (3, 90)])
def test_the_writing_angle_is_found_and_the_totals_read_in_order(turns: int, angle: int) -> None:
    image, writer, _ = _two_rows(seed=4)
    turned = np.ascontiguousarray(np.rot90(image, turns))  # np.rot90 turns counter-clockwise
    # The zone says only "written from the bottom edge"; 180° is always tried, and the side angles
    # are given as the zone's usual angle, as the layout would.
    usual = angle if turns % 2 else 0
    result = read_numbers(find_numbers(find_ink(turned), whole(turned, (usual,))), TemplateReader([writer]))
    (zone,) = result.zones
    assert zone.angles == (angle,)
    assert [n.value for n in zone.numbers] == VALUES


def test_quads_map_back_onto_the_turned_sheet() -> None:
    image, _, boxes = _two_rows()
    turned = np.ascontiguousarray(np.rot90(image, 1))  # (x, y) → (y, W − x)
    width = image.shape[1]
    tokens = find_numbers(find_ink(turned), whole(turned, (-90,)))
    numbers = dict(tokens.blocks[0].candidates)[-90]
    for token, (x, y, w, h) in zip(numbers, boxes, strict=True):
        qx = sum(p[0] for p in token.quad) / 4
        qy = sum(p[1] for p in token.quad) / 4
        assert abs(qx - (y + h / 2)) < 4 and abs(qy - (width - x - w / 2)) < 4


def test_a_crossed_out_number_is_kept_and_marked() -> None:
    writer = Writer(height=30, seed=3)
    canvas = blank(120, 520)
    boxes = write_line(canvas, "2.4.16.17.20", 12, 30, writer)
    x, y, w, h = boxes[3]
    strike = np.zeros(canvas.shape[:2])
    cv2.line(strike, (x - 5, y + h // 2 + 5), (x + w + 5, y + h // 2 - 3), 1.0, 3)
    canvas = canvas * (1 - 0.9 * strike[..., None])
    image = to_bgr(canvas)
    tokens = find_numbers(find_ink(image, max_extent=1.0), whole(image))
    result = read_numbers(tokens, TemplateReader([writer]))
    numbers = result.zones[0].numbers
    assert [n.token.crossed_out for n in numbers] == [False, False, False, True, False]
    assert [n.value for n in numbers if not n.token.crossed_out] == [2, 4, 16, 20]


def test_a_strike_is_nearly_level_and_a_slanting_line_through_digits_is_none() -> None:
    # Two touching "0"s 30 px tall (the digit height), run through by one straight stroke 61 px long
    # that reaches past both: drawn at 8° it is a strike; at 20° it is the kind of line the curves of
    # touching digits make, and marks nothing (the limit is 15°).
    def strikes(rise: int) -> list[tuple[int, int, int, int]]:
        mask = np.zeros((60, 90), np.uint8)
        cv2.ellipse(mask, (30, 30), (12, 15), 0, 0, 360, 255, 2)
        cv2.ellipse(mask, (55, 30), (12, 15), 0, 0, 360, 255, 2)
        cv2.line(mask, (12, 30 - rise), (73, 30 + rise), 255, 2)
        _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        blobs = _group.blobs_of(stats)
        return _strikes.find_strikes(mask, blobs, height=30, stroke=2)

    # tan 8° x 61 px / 2 = 4 px either side of the middle; tan 20° x 61 / 2 = 11 px.
    assert len(strikes(4)) == 1
    assert strikes(11) == []


def test_a_dot_is_told_from_a_speck_and_from_a_digit() -> None:
    dot = _group.Blob(1, 0, 0, 5, 5, 19)
    speck = _group.Blob(2, 0, 0, 1, 1, 1)
    one = _group.Blob(3, 0, 0, 5, 30, 120)
    assert _group.is_dot(dot, height=30, stroke=4)
    assert _group.is_speck(speck, height=30, stroke=4)
    assert not _group.is_dot(one, height=30, stroke=4)


def test_candidate_angles_add_the_half_turns() -> None:
    assert _candidate_angles((90, 0)) == (90, 0, -90, 180)
    assert _candidate_angles((-90,)) == (-90, 90)
    assert _candidate_angles((180,)) == (180, 0)


def test_an_l_shaped_zone_is_read_as_its_two_arms() -> None:
    # The left seat's pulka of standard-3 (LAYOUT.md): down the left side, then along the top.
    polygon = np.array([(500, 40), (40, 40), (40, 600), (120, 600), (120, 120), (500, 120)], float)
    first, second = _blocks(polygon)
    assert {tuple(p) for p in first} == {(40, 40), (40, 600), (120, 600), (120, 120)}
    assert {tuple(p) for p in second} == {(120, 120), (500, 120), (500, 40), (40, 40)}
    square = np.array([(0, 0), (10, 0), (10, 10), (0, 10)], float)
    assert len(_blocks(square)) == 1


def _token(boxes: tuple[tuple[int, int, int, int], ...] = ((0, 0, 10, 20),)) -> NumberToken:
    quad = ((0.0, 0.0), (100.0, 0.0), (100.0, 20.0), (0.0, 20.0))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False,
                       image=NumberImage(gray=np.zeros((20, 100), np.uint8), digit_boxes=boxes))


def _choice(*values: tuple[int, float]) -> tuple[tuple[tuple[NumberToken, NumberReading], ...], float]:
    """One way of reading a token: its parts' values, each with its confidence."""
    parts = tuple((_token(), NumberReading(((v, p),), ())) for v, p in values)
    return parts, sum(float(np.log(p)) for _, p in values)


def test_running_totals_choose_how_touching_digits_are_cut() -> None:
    # 12, then a glyph read whole as 5 (0.99) or cut as 15 (0.98), then 18: only 15 keeps the totals
    # rising (12 < 15 < 18), so the cut wins although it reads a little less surely on its own.
    choices = [[_choice((12, 0.99))], [_choice((5, 0.99)), _choice((15, 0.98))], [_choice((18, 0.99))]]
    assert monotone_picks(choices, rising=True) == [0, 1, 0]
    # With nothing around it to go by, the surer reading stays.
    assert monotone_picks([choices[1]], rising=True) == [0]


def test_a_lost_dot_is_found_when_the_totals_call_for_it() -> None:
    # "2.8" with its dot lost reads as 28; the next total is 12. Read as two numbers, 2 < 8 < 12
    # rise; read as one, 28 > 12 goes back.
    choices = [[_choice((28, 0.99)), _choice((2, 0.99), (8, 0.99))], [_choice((12, 0.99))]]
    assert monotone_picks(choices, rising=True) == [1, 0]


def test_a_number_read_as_nothing_breaks_no_step() -> None:
    # 12, then a number read as nothing (or, as likely, 30), then 10. The steps are taken between
    # neighbours' values only: nothing is known of an unread number, so 12 -> (nothing) -> 10 costs no
    # step, while 12 -> 30 -> 10 goes back once; the unread choice stays. (Were a missing value to cost
    # a step, both steps around it would, and 30 would win.)
    unread = ((_token(), NumberReading((), ())),), 0.0
    choices = [[_choice((12, 0.99))], [unread, _choice((30, 1.0))], [_choice((10, 0.99))]]
    assert monotone_picks(choices, rising=True) == [0, 0, 0]


def test_jumps_of_hundreds_are_not_taken_for_totals() -> None:
    # 26, then 28 (0.95) or, with a stray stroke cut off as a trailing "1", 281 (0.99), the zone's
    # last number. Both rise, but 26 → 281 moves by 255 at once, far more than any running total
    # moves in one deal (the sample games' steps are at most 60), so 28 is kept.
    choices = [[_choice((26, 0.99))], [_choice((28, 0.95)), _choice((281, 0.99))]]
    assert monotone_picks(choices, rising=True) == [0, 0]


def test_a_pulka_counted_down_may_fall_but_a_mountain_only_rises() -> None:
    # 20, then 16 (0.9) or 76 (0.95), then 10: falling 20 > 16 > 10 is a pulka counted down.
    choices = [[_choice((20, 0.99))], [_choice((76, 0.95)), _choice((16, 0.9))], [_choice((10, 0.99))]]
    assert monotone_picks(choices, rising=False) == [0, 1, 0]


def test_a_part_of_a_number_gets_its_share_of_the_quad() -> None:
    # Digit boxes at x 10–30 and 50–90 of a number whose digits span 10–90 (80 px) on a quad 100
    # wide: the second part starts at (50 − 10) / 80 = 0.5 of the way and ends at 1.0.
    token = _token(((10, 0, 20, 20), (50, 0, 40, 20)))
    part = part_token(token, ((50, 0, 40, 20),))
    assert part.quad == ((50.0, 0.0), (100.0, 0.0), (100.0, 20.0), (50.0, 20.0))
    assert part.image.digit_boxes == ((50, 0, 40, 20),)


def test_a_one_along_the_zone_edge_beside_its_digit_is_not_taken_for_the_line() -> None:
    # A zone from x = 10 to 190; two strokes run along its left edge, 5 px inside it: a lone bit of
    # the line (y = 20 … 60), and a "1" (y = 100 … 140) with a "5"-sized blob 8 px to its right.
    mask = np.zeros((200, 200), np.uint8)
    cv2.line(mask, (15, 20), (15, 60), 255, 3)
    cv2.line(mask, (15, 100), (15, 140), 255, 3)
    cv2.rectangle(mask, (25, 100), (50, 140), 255, 3)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    outline = np.array([[10, 10], [190, 10], [190, 190], [10, 190]], dtype=np.float64)
    removed = set(line_remnants(labels, stats, np.arange(1, count), outline, 3.0).tolist())
    assert removed == {int(labels[40, 15])}


class _WidthReader:
    """Reads a digit crop by its width alone: narrower than 12 px is a "1", wider a "5", each at the
    given probability; counts the crops it is shown."""

    name = "width"
    reads_by_digit = True

    def __init__(self, one: float = 0.99, five: float = 0.99, whole: float | None = None) -> None:
        self.one, self.five, self.whole = one, five, whole
        self.crops = 0

    def read_digits(self, crops: list[np.ndarray]) -> list[DigitReading]:
        self.crops += len(crops)
        out = []
        for crop in crops:
            width = crop.shape[1]
            if width < 12:
                out.append(DigitReading(((1, self.one),), 1.0 - self.one))
            else:
                p = self.whole if self.whole is not None and width > 40 else self.five
                out.append(DigitReading(((5, p),), 1.0 - p))
        return out

    def read_numbers(self, numbers: list[NumberImage]) -> list[NumberReading]:
        return [read_number(self.read_digits(crop_digits(n))) for n in numbers]


def _glyph_token(whole: bool = True, digit_width: float = 28.0, digit_height: float = 40.0) -> NumberToken:
    """A token of one glyph 44 px wide and 40 tall (the writer's digits are `digit_width` px wide and
    `digit_height` tall): a "1" 10 px wide run into a "5", offered whole and cut after the "1";
    `whole`: the whole glyph is the way in its image."""
    glyph = ((0, 0, 44, 40),)
    cut = ((0, 0, 10, 40), (10, 0, 34, 40))
    ways = (glyph, cut) if whole else (cut, glyph)
    quad = ((0.0, 0.0), (44.0, 0.0), (44.0, 40.0), (0.0, 40.0))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False, glyph_cuts=(ways,),
                       image=NumberImage(gray=np.full((40, 44), 200, np.uint8), digit_boxes=ways[0]),
                       digit_size=(digit_height, digit_width))


def test_each_distinct_digit_crop_goes_through_the_recogniser_once() -> None:
    reader = _WidthReader()
    cache = DigitCache(reader)
    token = _glyph_token()
    cut = replace(token, image=NumberImage(gray=token.image.gray, digit_boxes=token.glyph_cuts[0][1]))
    first = cache.read([token, cut, cut])
    assert reader.crops == 3  # the whole glyph, the "1" and the "5": the repeated way is read once
    assert [r.value for r in first] == [5, 15, 15]
    assert [r.value for r in cache.read([cut, token])] == [15, 5]
    assert reader.crops == 3


class _LineReader(_WidthReader):
    """Has `read_digits` but reads a number as one line (like Tesseract): "15" for any image."""

    reads_by_digit = False

    def __init__(self) -> None:
        super().__init__()
        self.lines = 0

    def read_numbers(self, numbers: list[NumberImage]) -> list[NumberReading]:
        self.lines += len(numbers)
        return [NumberReading(((15, 0.9),), ()) for _ in numbers]


def test_a_recogniser_that_reads_whole_lines_is_given_whole_numbers() -> None:
    # Tesseract reads single digits far worse than a line: the cache must not cut its numbers up.
    reader = _LineReader()
    token = _glyph_token()
    assert [r.value for r in DigitCache(reader).read([token, token])] == [15, 15]
    assert reader.lines == 2 and reader.crops == 0


def test_a_sure_number_whose_totals_step_well_is_not_cut_again() -> None:
    # 12, 5 and 18, each a glyph that could also be cut; read 0.99 each. 12 → 5 goes back: the two
    # numbers beside that step are read every way; 5 → 18 rises by 13, a usual step, so 18 is not.
    # With 16 in place of 5, no step is refused and nothing is read again. (This writer's digits are
    # 40 px wide and 50 tall, so no glyph is wide enough to have swallowed a "1".)
    def sequence(middle: int) -> tuple[list[NumberToken], dict[int, NumberReading]]:
        tokens = [_glyph_token(digit_width=40.0, digit_height=50.0) for _ in range(3)]
        values = (12, middle, 18)
        readings = {id(t): NumberReading(((v, 0.99),), ()) for t, v in zip(tokens, values, strict=True)}
        return tokens, readings

    # (The "1" reads 0.8, below what takes it for a "1" run into its digit: such a writer's other
    # numbers would be read for one as well.)
    reader = _WidthReader(one=0.8)
    tokens, readings = sequence(16)
    assert choose_cuts(reader, [(True, True, tokens)], readings) == {}
    assert reader.crops == 0
    tokens, readings = sequence(5)
    choose_cuts(reader, [(True, True, tokens)], readings)
    assert reader.crops == 2 * 3  # the whole glyph, the "1" and the "5" of 12 and of 5


def test_a_one_run_into_the_next_digit_is_cut_off_when_another_way_reads_it_surely() -> None:
    # The whole glyph reads "5" at 0.94 (unsure, so its other ways are read); cut after the "1" it
    # reads "1" (0.97) and "5" (0.97): 0.94 is the likelier reading alone, but the cut finds a "1"
    # the whole glyph swallowed, in a box 44 px wide where this writer's digits are 28: it is 15.
    reader = _WidthReader(one=0.97, five=0.97, whole=0.94)
    token = _glyph_token()
    readings = {id(token): reader.read_numbers([token.image])[0]}
    assert readings[id(token)].value == 5
    parts = choose_cuts(reader, [(True, True, [token])], readings)
    ((_, reading),) = parts[id(token)]
    assert reading.value == 15
    # A glyph no wider than the writer's digits (40 px wide, 50 tall) keeps its surer whole reading.
    narrow = replace(token, digit_size=(50.0, 40.0))
    assert choose_cuts(reader, [(True, True, [narrow])], {id(narrow): readings[id(token)]}) == {}
    # Read surely whole (0.99) and nothing around it to go by, the wide glyph's cut is still read.
    # So it is when the writer's typical digit is as wide as the glyph (every "1" run into its digit)
    # but the glyph is wider than 0.9 of the digit height (44 > 36). (The "5" cut off the "1" reads
    # as surely as the whole glyph, as a digit a "1" was run into does: `_swallow._rest_as_sure`.)
    sure = _WidthReader(one=0.97, five=0.99, whole=0.99)
    readings = {id(token): sure.read_numbers([token.image])[0]}
    ((_, reading),) = choose_cuts(sure, [(True, True, [token])], readings)[id(token)]
    assert reading.value == 15
    every = replace(token, digit_size=(40.0, 44.0))
    ((_, reading),) = choose_cuts(sure, [(True, True, [every])], {id(every): readings[id(token)]})[id(every)]
    assert reading.value == 15


def _inked(level: int, height: int, digit_height: float = 30.0) -> NumberToken:
    """A token whose strokes are `level` dark, one digit box `height` tall in a block whose digits
    stand `digit_height`."""
    gray = np.zeros((height + 8, 24), np.uint8)
    gray[4:4 + height, 8:14] = level
    quad = ((0.0, 0.0), (24.0, 0.0), (24.0, height + 8.0), (0.0, height + 8.0))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False,
                       image=NumberImage(gray=gray, digit_boxes=((8, 4, 6, height),)),
                       digit_size=(digit_height, 18.0))


def test_a_pale_writer_on_a_form_is_kept_and_its_grey_labels_are_dropped() -> None:
    # Six numbers in a dark pen (200), three in a pale one (100: half the sheet's typical ink, as
    # faint as the form's grey print) with digits 28 px tall where the block's digits stand 30, and a
    # printed label as faint (90) whose letters stand 16 px: only the label goes.
    dark = [_inked(200, 30) for _ in range(6)]
    pale = [_inked(100, 28) for _ in range(3)]
    label = _inked(90, 16)
    blocks = [ZoneTokens(zone=0, block=0, candidates=((0, (*dark, label)),)),
              ZoneTokens(zone=1, block=0, candidates=((0, tuple(pale)),))]
    kept = _without_print(blocks, {})
    assert tuple(kept[0].candidates[0][1]) == tuple(dark)
    assert tuple(kept[1].candidates[0][1]) == tuple(pale)


def test_on_its_label_a_faint_token_goes_however_tall_its_letters() -> None:
    # Zone 0's label is printed where its tokens lie (their middle is (12, 22)); its letters stand as
    # tall as a small writer's digits (28 of 30 px), so only the place tells it from writing. A dark
    # number there stays, and so does a faint one in zone 1, which has no label there.
    dark = [_inked(200, 30) for _ in range(6)]
    label = _inked(90, 28, digit_height=30.0)
    label_middle = ((12.0, 22.0), 0.0, 10.0)
    pale = [replace(_inked(100, 28), zone=1) for _ in range(3)]
    blocks = [ZoneTokens(zone=0, block=0, candidates=((0, (*dark, label)),)),
              ZoneTokens(zone=1, block=0, candidates=((0, tuple(pale)),))]
    assert tuple(_without_print(blocks, {})[0].candidates[0][1]) == (*dark, label)
    kept = _without_print(blocks, {0: label_middle})
    assert tuple(kept[0].candidates[0][1]) == tuple(dark)
    assert tuple(kept[1].candidates[0][1]) == tuple(pale)
