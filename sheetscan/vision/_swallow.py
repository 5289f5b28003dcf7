"""A "1" run into the digit beside it (stage 5, `_totals.choose_cuts`): the network is trained to read a
digit with bits of its neighbours touching it, so it reads "13" written as one glyph as a sure 3. Which
digit boxes are wide enough to hold such a "1" (`may_swallow`), the ways of cutting that look for it
(`wide_ways`), and the cost to a way that swallowed one another way finds (`absorbed`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from sheetscan.vision import _group
from sheetscan.vision._steps import LONGEST, Choice
from sheetscan.vision._tokens import first_way

if TYPE_CHECKING:
    from sheetscan.vision.numbers import NumberToken

__all__ = ["Way", "absorbed", "finds_a_one", "may_swallow", "one_boxes", "stroke_bend", "swallows_a_one",
           "wide_ways", "wide_ways_ones"]

_ONE_TALL = 0.75
"""A "1" cut off a glyph stands at least this share of the tallest digit beside it."""
_SWALLOW_WIDE = 1.2
"""A digit box wider than this many of the writer's typical digit widths may hold a "1" run into
the digit beside it (about the 95th percentile of single digits' widths on rendered sheets)..."""
_SWALLOW_HIGH = 0.9
"""... or wider than this share of the digit height (see `_swallow_limit`)."""
_SWALLOWED_TALL = 0.8
"""A "1" that makes the way without it worth less (`absorbed`) stands at least this share of its way's
tallest box.

Decision: 0.8 (above `_ONE_TALL`), because a "1" run into its digit is written as tall as the digits
beside it, while the side of a digit cut off (a 4's open arm, a 6's curve) stands lower and reads as
a sure "1" all the same. On the rendered benches (seeds 1000-4000, 12 photos each) the "1"s of the
ways that made another worth less stood at 0.8 or more of their way's tallest box in 90 of 91 ways
where the truth has the "1" (median 1.0), in 100 of 115 where it has not (median 0.93): 0.8 leaves
lone 4s first in their zones read "14" no more (seeds 3011, 4011) and changes no other reading, 0.85
also lost a right "12" and "18" (seed 1009)."""
_ONE_SURE = 0.9
"""How sure a box must read "1" to count as a "1" run into its digit (`absorbed`, `finds_a_one`)."""
_ONE_NARROW = 0.6
"""A box cut off a glyph that may be a "1" is narrower than this many typical digit widths."""
_JOINT_BACK = 0.1
"""How far before a "1"'s cut, in digit heights, the joint with its digit may lie (`_cut_at_joints`)."""
_BOW = 0.45
"""A box cut off a glyph whose ink bows out to the left by more than this is a slice of a round digit's
side, not a "1" (`_bows`): the bend of its rows' leftmost ink, the second-order coefficient of that ink's
middle across the rows, in digit heights over the box's height.

Decision: 0.45, because on the rendered benches (seeds 1000-4000, 60 photos, the swallow width lowered to
0.9 typical digits to see more) of the ways `absorbed` made worth less for a "1" another way found, the
"1" bent more than 0.45 in 4 of 99 where the truth has it (a "1" written as a "(", with a long flag or
foot) and in 41 of 97 where it has not (the left side of a 0 in "30" cut as "310", of a lone 6 cut as
"16"); 0.4 took 6 of the real ones (3003's curved "1" of a first "10" among them: read "0"), 0.5 left 62
of the slices."""
_HABIT_WIDE = 0.6
"""In a zone whose writer runs "1"s into their digits, a box wider than this share of the digit
height may hold one (see `_swallow_limit`)."""
_REST_LOSS = 0.02
"""How much less surely (log-probability) the digit a "1" was cut off may read without it than with it,
for that "1" to count as one run into the digit (`_rest_as_sure`).

Decision: 0.02, because the network reads a digit with a bit of its neighbour touching it as surely as
the digit alone, so a "1" cut off the digit it was run into leaves that digit reading as surely as
before or more (on the rendered benches, seed 1000 and small 30000, every "1" `absorbed` counted where
the truth has it: down by 0.000 at most, up by as much as 3.1), while a stroke cut off the digit itself
(a 4's upright arm, the left of a 2's or a 0's loop) leaves a damaged digit that reads less surely (the
truth without the "1": down by 0.047 to 0.58; usual 33003: a "4" drawn as "L" and a stem, its arm cut
off as a sure "1", the rest "4" at 0.94 against 1.00 whole, read "14")."""


Way = tuple[tuple[_group.Box, ...], ...]
"""A way of cutting a number: each glyph's digit boxes, left to right."""


def finds_a_one(first: Choice, chosen: Choice, *, sure: float = _ONE_SURE) -> bool:
    """Whether `chosen` reads `first`'s digits with "1"s inserted, each read at least `sure`."""
    short, long = _digit_text(first), _digit_text(chosen)
    return (short is not None and long is not None and len(long[0]) > len(short[0])
            and _inserted_sure(short[0], long, sure))


def absorbed(choices: list[Choice], *, sure: float = _ONE_SURE, cost: float = 1.5,
              habit: bool = False) -> list[Choice]:
    """`choices` with the ways that swallow a "1" another way finds made less likely by `cost`.

    The network is trained to read a digit with bits of its neighbours touching it, so it reads a "1"
    run into the next digit ("13" as one glyph) as that digit alone, as surely as the digit by itself.
    When another way of cutting reads the same digits plus a "1" it is sure of (at least `sure`, in a
    box of its own) and the way without it has a box wider than `_SWALLOW_WIDE` typical digits, that ink is a
    "1": the way that swallowed it is worth less. Only a "1": a slice off the side of a wide digit
    (a 4's stem, a 6's belly) can read as another digit just as surely, and a "4" or "9" cut at its
    stem reads "1" and the digit again, which the width tells apart. Nor a way of more digits than
    any written number (`LONGEST`): it reads no number, and finds no "1" of one (seed 4004: "200" cut
    as "2100" made the right "200" worth less than a "210"). Nor a "1" cut off through two strokes
    (`_cut_at_joints`), nor one whose ink bows like the side of a round digit (`_bows`): a slice of the
    digit's own curve. Nor a "1" whose digit reads less surely without it than with it
    (`_rest_as_sure`): a stroke of the digit itself.

    Decision: a "1" found after the number's last digit does not make the way without it worth less,
    because the right side of a 4, a 9 or a 0 is a straight stroke that, cut off, reads as a sure "1"
    while the rest still reads as the digit (a wide "4" read "41"), while a "1" run into its digit is
    written before it, as a number's "1"s mostly are (10-19, 100-199). On the rendered benches (seeds
    1000 and 2000, 36 photos) every "1" this rule rightly found stood before a digit, and two lone 4s
    took a wrong "1" after. (The totals may still choose such a "1", and once they do, the writer is
    read for "1"s everywhere: `finds_a_one` counts it.)
    """
    return [(choice[0], choice[1] - cost) if swallowed else choice
            for choice, swallowed in zip(choices, _swallowers(choices, sure=sure, habit=habit), strict=True)]


def swallows_a_one(choices: list[Choice], *, habit: bool = False) -> bool:
    """Whether a way of `choices` (one number's ways, as read) swallowed a "1" another way finds, as
    `absorbed` judges it: a sure "1", as tall as its digits, cut off before its digit at a joint, not
    the side of a round digit, that digit reading as surely without it."""
    return any(_swallowers(choices, sure=_ONE_SURE, habit=habit))


def _swallowers(choices: list[Choice], *, sure: float, habit: bool) -> list[bool]:
    """For each of `choices`, whether it swallowed a "1" another of them finds (`absorbed`)."""
    # (A box lower than `_SWALLOWED_TALL` of its way's tallest reads at probability 0: no "1".)
    texts = [_digit_text(choice, tall=_SWALLOWED_TALL) for choice in choices]
    return [text is not None and may_swallow(choice[0][0][0], habit=habit) and any(
        other is not None and len(text[0]) < len(other[0]) <= LONGEST
        and _inserted_sure(text[0], other, sure, after=False)
        and _cut_off_ones(choice, found, _inserted(text[0], other[0]))
        for found, other in zip(choices, texts, strict=True))
        for choice, text in zip(choices, texts, strict=True)]


def _cut_off_ones(whole: Choice, cut: Choice, ones: list[int]) -> bool:
    """Whether the boxes `ones` of `cut` (the digits `whole` does not read) are "1"s cut off their digit,
    not strokes of it: cut off at joints (`_cut_at_joints`), not bowing like a round digit's side
    (`_bows`), and leaving the digit reading as surely (`_rest_as_sure`)."""
    token = cut[0][0][0]
    return _cut_at_joints(token, ones) and not _bows(token, ones) and _rest_as_sure(whole, cut, ones)


def _rest_as_sure(whole: Choice, cut: Choice, ones: list[int], *, loss: float = _REST_LOSS) -> bool:
    """Whether the digit after each "1" of `cut` at the positions `ones` (of its digits; those not in
    `whole`, `_inserted`) reads in `cut` at least as surely as the same digit reads in `whole`, less
    `loss` (log-probability): the digit the "1" was cut off is whole without it. Both are one-part
    choices read one digit per box (`_digit_text`)."""
    ((_, short),), ((_, long),) = whole[0], cut[0]
    long_text, short_text = str(long.value), str(short.value)
    # Each digit of `cut` not in `ones` is the next digit of `whole`, in order.
    kept = [k for k in range(len(long_text)) if k not in ones]
    for one in ones:
        after = next((k for k in kept if k > one), None)
        if after is None:
            continue
        j = kept.index(after)
        with_one = dict(short.digits[j].candidates).get(int(short_text[j]), 0.0)
        without = dict(long.digits[after].candidates).get(int(long_text[after]), 0.0)
        if math.log(max(without, 1e-9)) < math.log(max(with_one, 1e-9)) - loss:
            return False
    return True


def _inserted(short: str, long: str) -> list[int]:
    """The positions in `long` of the digits not in `short` (the first fitting alignment, as
    `_inserted_sure` takes it)."""
    out, i = [], 0
    for k, digit in enumerate(long):
        if i < len(short) and digit == short[i]:
            i += 1
        else:
            out.append(k)
    return out


def _cut_at_joints(token: NumberToken, ones: list[int]) -> bool:
    """Whether each box of `ones` (the token's digit boxes) is cut off the box after it where some
    column, from the cut back `_JOINT_BACK` digit heights, crosses at most one stroke: where a "1" run
    into its digit joins it (or a space).

    Decision: a "1" cut off through two strokes is a slice of a digit's own curve, not a "1" run into
    it, because a "1" touches the digit beside it at one joint (a serif, a foot, a bar), while a
    column just inside a 6's or a 0's left side crosses the digit's curve above and below its loop;
    that slice reads as a sure "1" all the same (a lone 6 or 10 at a zone's end read "16", "110":
    seeds 4007, 4000, 11007, 6007). The look-back, because a real "1"'s cut may fall just inside its
    digit's side (with the cut column alone, "10", "15" and "16" first in their zones lost their "1":
    seeds 5000, 5003, 6003, 11000 big, a whole zone of small 11001)."""
    boxes = token.image.digit_boxes
    ink = token.image.gray > 0
    for k in ones:
        if k + 1 >= len(boxes):
            continue
        (x, y, w, h), (nx, ny, _, nh) = boxes[k], boxes[k + 1]
        column = x + w
        if nx != column or not 0 <= column < ink.shape[1]:
            continue  # not cut off the box after it: a glyph of its own
        top, bottom = max(0, min(y, ny)), min(ink.shape[0], max(y + h, ny + nh))
        # The cut may fall a little past the joint, inside the digit's side: the columns up to
        # `_JOINT_BACK` of the digit height before it count too.
        back = max(1, round(_JOINT_BACK * token.digit_size[0]))
        piece = ink[top:bottom, max(x + 1, column - back):column + 1]
        if piece.size == 0:
            continue
        if int(_group.column_runs(piece).min()) > 1:
            return False
    return True


def _bows(token: NumberToken, ones: list[int]) -> bool:
    """Whether the ink of one of the boxes `ones` (the token's digit boxes) bows out to the left like the
    side of a round digit (a "(": a 0's, a 6's): the middles of each row's leftmost run of ink (past a
    tip narrower than half the stroke, `_stroke_runs`), fitted by a parabola across the box's rows,
    bend by more than `_BOW` (in digit heights over the box's height: a "(" of a 0 bends about 0.8, a
    straight "1", upright or slanted, about 0).

    Decision: only a bend to the left, because every slice cut off the left side of a round digit is a
    "(" (the left side of a 0 in a "30" read "310", of a lone 6 read "16"), while a bend the other way
    is as much a real "1"'s (a flag and a foot drawn to the left, the joint's rows pulling the middle
    right: down to -0.53 among the right ways of seeds 1000-4000) as a slice's."""
    return any(_bows_at(token.image.gray, token.image.digit_boxes[k], token.digit_size[0]) for k in ones)


def _bows_at(gray: npt.NDArray[np.uint8], box: _group.Box, height: float) -> bool:
    """`_bows` of one box of the number image `gray` (only the box's ink is looked at)."""
    x, y, w, h = box
    return stroke_bend(gray[max(y, 0):y + h, max(x, 0):x + w] > 0, height, h) > _BOW


def stroke_bend(piece: npt.NDArray[np.bool_], height: float, span: int) -> float:
    """How much the stroke in `piece` (True: ink) bends across its rows: the second-order coefficient of
    the parabola through the middles of each row's leftmost run of ink (`_stroke_runs`), in digit heights
    (`height`) over `span` rows (the box's height); 0 for fewer than five rows of ink. A "(" of a 0 bends
    about 0.8 (positive: out to the left), a straight "1", upright or slanted, about 0 (`_bows`,
    `_digit_cuts._two_strokes`)."""
    rows = np.flatnonzero(piece.any(axis=1))
    if rows.size < 5 or height <= 0:
        return 0.0
    first, end = _stroke_runs(piece[rows])
    middles = (first + end - 1) / 2 / height
    return _bend((rows - rows.mean()) / max(span, 1), middles)


def _stroke_runs(piece: npt.NDArray[np.bool_]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The start and the end (first blank column past it) of each row's leftmost run of ink at least
    half as wide as the rows' median leftmost run; the leftmost run where the row has no such run.
    Every row holds ink.

    Why: a pen crosses each row at least about half its width, so a narrower run left of the stroke is
    the tip of another stroke's end (a "1"'s foot or serif drawn out to the left, a speck), not the side
    of the stroke whose bend `_bows` measures. Bench 1016: a "16" whose "1" (a stroke about 13 px wide)
    has points of ink 1-4 px wide left of it in a few rows, a foot's among them below the joint, bent
    0.46 (a "(") and was read "6"; past the points it bends 0.41 and reads "16". On the rendered benches
    (seed 1000, 24 photos; seeds 30000 and 34000 usual and small, 31000 thin and dark, 30000 thin, 8
    each) that is the only reading it changes; on dark 30000 two more "1"s are found ("14", "18" read "4",
    "8" before: 30001)."""
    columns = np.arange(piece.shape[1])[None, :]
    first = piece.argmax(axis=1)
    # The end of each row's first run: its first blank column at or after the run's start.
    after = ~piece & (columns >= first[:, None])
    end = np.where(after.any(axis=1), after.argmax(axis=1), piece.shape[1])
    more = (piece & (columns >= end[:, None])).any(axis=1)
    if not more.any():
        return first, end
    least = 0.5 * float(np.median(end - first))
    # Rows whose first run is narrow and that hold more ink past it: a few a box, looked at one by one.
    for i in np.flatnonzero((end - first < least) & more):
        edges = np.diff(np.r_[False, piece[i], False].astype(np.int8))
        starts, stops = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
        wide = np.flatnonzero(stops - starts >= least)
        if wide.size:
            first[i], end[i] = starts[wide[0]], stops[wide[0]]
    return first, end


def _bend(across: npt.NDArray[np.float64], values: npt.NDArray[np.float64]) -> float:
    """The second-order coefficient of the least-squares parabola through (`across`, `values`), `across`
    centred on 0 (as `np.polyfit(across, values, 2)[0]` gives it, from the normal equations: `_bows`
    asks for it about a hundred times a photo, where polyfit's overhead would cost more than the fit)."""
    squares = across * across
    n, s2 = float(across.size), float(squares.sum())
    s3, s4 = float((squares * across).sum()), float((squares * squares).sum())
    t0, t1, t2 = float(values.sum()), float((across * values).sum()), float((squares * values).sum())
    # [[n, 0, s2], [0, s2, s3], [s2, s3, s4]] (c0, c1, c2) = (t0, t1, t2), by Cramer's rule for c2.
    det = n * (s2 * s4 - s3 * s3) - s2 * s2 * s2
    if abs(det) < 1e-12:
        return 0.0
    return (n * (s2 * t2 - s3 * t1) - s2 * s2 * t0) / det


def _swallow_limit(token: NumberToken, *, habit: bool = False) -> float:
    """The width beyond which a digit box may hold a "1" run into its digit: `_SWALLOW_WIDE` of the
    writer's typical digit width, or `_SWALLOW_HIGH` of the digit height when that is less (a writer
    who runs every "1" into its digit makes those pairs the typical width); `_HABIT_WIDE` of the
    digit height in a zone whose writer is known to do so (`choose_cuts`)."""
    height, width = token.digit_size
    return _HABIT_WIDE * height if habit else min(_SWALLOW_WIDE * width, _SWALLOW_HIGH * height)


def may_swallow(token: NumberToken, *, habit: bool = False) -> bool:
    """Whether a digit box of the token is wide enough to have swallowed a "1" (`absorbed`)."""
    limit = _swallow_limit(token, habit=habit)
    return limit > 0 and len(token.glyph_cuts) > 0 and any(box[2] > limit for box in token.image.digit_boxes)


def wide_ways(token: NumberToken, *, narrow: float = _ONE_NARROW, tall: float = _ONE_TALL,
              habit: bool = False) -> list[Way]:
    """The token's first way, and each other cut of a glyph wider than `_swallow_limit` that cuts off
    a box narrower than `narrow` typical digits and at least `tall` of the way's tallest box (a "1";
    `absorbed` takes nothing shorter for one) whose ink does not bow like a round digit's side
    (`_bows`), the other glyphs cut the first way.

    Decision: no way whose "1" bows is offered, because `absorbed` counts no such "1", and these ways
    are read only to find one (the number is read surely and in step already): on the rendered
    benches (truth zones, seeds 1000-4000 and bench_styles 16000 usual and small) every reading stays
    the same and the network reads 3 % fewer crops (434.1 -> 421.8 a photo on seed 1000, 408.0 ->
    395.2 on 3000)."""
    return [way for way, _ in wide_ways_ones(token, narrow=narrow, tall=tall, habit=habit)]


def wide_ways_ones(token: NumberToken, *, narrow: float = _ONE_NARROW, tall: float = _ONE_TALL,
                   habit: bool = False) -> list[tuple[Way, tuple[_group.Box, ...]]]:
    """`wide_ways`, each way with its `one_boxes` (none for the first way).

    Decision: the boxes that made a way worth offering are handed on with it, because `one_boxes` of a
    way finds them again (the glyph the way cuts otherwise than the first, then `_ones` of its cut,
    a parabola fitted to each box's ink): the same boxes, found once. (Where a glyph's other cut is its
    first cut again, the way is the first way and `one_boxes` finds no glyph cut otherwise: none.)"""
    first = first_way(token)
    ways: list[tuple[Way, tuple[_group.Box, ...]]] = [(first, ())]
    for g, boxes in enumerate(first):
        # (Only a wide glyph's other ways are asked for: a `GlyphCuts` finds no other glyph's.)
        if max(box[2] for box in boxes) > _swallow_limit(token, habit=habit):
            for option in token.glyph_cuts[g][1:]:
                way = (*first[:g], tuple(option), *first[g + 1:])
                ones = _ones(token, way, option, narrow=narrow, tall=tall)
                if ones:
                    ways.append((way, ones if tuple(option) != first[g] else ()))
    return ways


def one_boxes(token: NumberToken, way: Way) -> tuple[_group.Box, ...]:
    """The boxes of `way`, one of the token's `wide_ways` other than its first, that may be the "1"
    it looks for (those `wide_ways` chose it for)."""
    first = tuple(tuple(cuts[0]) for cuts in token.glyph_cuts)
    option = next((glyph for glyph, usual in zip(way, first, strict=True) if glyph != usual), ())
    return _ones(token, way, option, narrow=_ONE_NARROW, tall=_ONE_TALL)


def _ones(token: NumberToken, way: Way, option: tuple[_group.Box, ...], *, narrow: float,
          tall: float) -> tuple[_group.Box, ...]:
    """The boxes of `option` (a glyph's cut in `way`) narrower than `narrow` typical digits and at
    least `tall` of the way's tallest box, whose ink does not bow like a round digit's side (`_bows`)."""
    width = token.digit_size[1]
    top = max(box[3] for glyph in way for box in glyph)
    return tuple(box for box in option if box[2] < narrow * width and box[3] >= tall * top
                 and not _bows_at(token.image.gray, box, token.digit_size[0]))


def _digit_text(choice: Choice, *, tall: float = _ONE_TALL) -> tuple[str, tuple[float, ...]] | None:
    """The digits of a one-part choice as read, each with its box's probability of that digit (0 for
    a box less than `tall` of the way's tallest: no "1" of the number, a slice of a digit's bar);
    None for a split choice or when a box was left out of the value (read as noise)."""
    if len(choice[0]) != 1:
        return None
    token, reading = choice[0][0]
    boxes = token.image.digit_boxes
    # A recogniser that reads whole numbers may give one reading per character, not per box.
    if reading.value is None or not len(str(reading.value)) == len(reading.digits) == len(boxes):
        return None
    text = str(reading.value)
    top = max((box[3] for box in boxes), default=0)
    sure = tuple(dict(d.candidates).get(int(c), 0.0) if box[3] >= tall * top else 0.0
                 for c, d, box in zip(text, reading.digits, boxes, strict=True))
    return text, sure


def _inserted_sure(short: str, long: tuple[str, tuple[float, ...]], sure: float, *,
                   after: bool = True) -> bool:
    """Whether `long` is `short` with "1"s inserted, each read at least `sure` (the first fitting
    alignment); with `after` False, none after `short`'s last digit (one after a last "1" is taken for
    one before it)."""
    text, probabilities = long
    i = 0
    trailing = False
    for digit, probability in zip(text, probabilities, strict=True):
        if i < len(short) and digit == short[i]:
            i += 1
        elif digit != "1" or probability < sure:
            return False
        else:
            trailing = trailing or i == len(short)
    return i == len(short) and (after or not trailing or short.endswith("1"))
