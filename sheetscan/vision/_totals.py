"""Choosing how to cut each written number by the running totals of its zone (stage 5, with the
recogniser; `choose_cuts`): every way of cutting a number's glyphs into digits (joining two that may be
pieces of one digit, too), and of reading it as two numbers whose dot was lost, is read in one batch;
along each zone the ways are chosen together (Viterbi, `_steps`) for the most likely readings whose
totals move the zone's way, in steps no bigger than totals move.
Only numbers that could change are read again, and a way that swallowed a "1" another way finds is
worth less (`_swallow`: the network reads "13" run together as a sure 3). Digits that landed in the
neighbouring number may then move (`_regroup`), and last the totals choose among the other candidate
readings of the unsure or out-of-step numbers too (a pale digit read as "not a digit").
Each block's writing angle is chosen before (`_angles`); every digit crop is read once
(`_digit_cache`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from sheetscan.vision import _group
from sheetscan.vision._confusion import shared_confusions
from sheetscan.vision._digit_cache import DigitCache
from sheetscan.vision._steps import (
    LONGEST,
    STEP_BACK,
    USUAL_STEP,
    Choice,
    Part,
    monotone_picks,
    step_cost,
)
from sheetscan.vision._swallow import (
    Way,
    absorbed,
    finds_a_one,
    may_swallow,
    swallows_a_one,
    wide_ways_ones,
)
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, Recognizer

if TYPE_CHECKING:
    from sheetscan.vision.numbers import NumberToken

__all__ = ["Moves", "choice_score", "choose_cuts", "part_token", "split_cost"]


Moves = Callable[[list[tuple[bool, bool, list["NumberToken"]]], dict[int, tuple[Part, ...]],
                  dict[int, NumberReading], Mapping[int, float],
                  Mapping[int, tuple[list[Choice], int]]], dict[int, tuple[Part, ...]]]
"""Changes to the chosen parts of a zone's numbers across tokens (`_regroup.regroup`): given the
sequences, the parts chosen so far (by token id), the first readings, the zones' largest free steps
(`choose_cuts`' `steps`) and the ways read of each token with the one chosen (by token id), the parts
after it."""
OTHER_WAY = -0.05
"""Log-likelihood prior of a way of cutting other than the first (the likeliest by width)."""
_ALTERNATIVE_COST = 1.0
"""Log-likelihood cost of reading a number as other than the recogniser's likeliest value (see
`_alternatives`)."""
_SPLIT_COST = 2.0
"""Log-likelihood cost of reading one token as two numbers (their dot lost or run into a digit) where
the space between the two is no wider than the writer's spaces between digits (`_NEAR_GAP`)."""
_WIDE_SPLIT_COST = -1.0
"""The same where the space between the two is wide (`_WIDE_GAP` or more), a gain: see `split_cost`."""
_NEAR_GAP = 0.25
"""A space between two glyphs of one token up to this many digit heights is one between digits."""
_WIDE_GAP = 0.5
"""A space between two glyphs of one token of at least this many digit heights is most likely the
space after a number whose dot was lost, or after a crossed-out number whose strike was not seen."""
_MOST_WAYS = 36
"""The most ways of cutting one number `choose_cuts` reads (`cut_ways`).

Decision: 36, not `cut_ways`' 12, because every way that cuts one glyph otherwise comes first and
reads each glyph's every cut, so the ways that combine those cuts read no new digit crop (the cache
knows them) and cost only choices; with 12, a token of two glyphs of five or six cuts each kept the
one-glyph ways and two of the twenty-odd combinations, and "16.18." (a "1" run into each, the dots
lost) could never be read "1|6", "1|8": small 21006, 15, 6, 8, 19."""
_UNWRITTEN_COST = 1.0
"""Log-likelihood cost of the choice that a read number is ink where nothing is written (`_unwritten`).

Decision: 1.0, as an alternative reading's (`_ALTERNATIVE_COST`), because it too overrules the
recogniser's likeliest value: a number read likelier as noise than as its value is left out where it
breaks a step of the totals (a step back costs 4), and where it stands in step only when it reads
e (2.7) times likelier as noise."""
_FIRST_STEP = 100.0
"""The largest first total of a mountain or whists zone that costs nothing as a step from 0 (`_from_zero`).

Decision: 100, not a step's usual 40 (`USUAL_STEP`), because the first number read is not always the
first written (the numbers before it lost in the ink) and a first deal may write more than a usual
step (the sample games' zones start at up to 48: a first "48" read "18" at 40, usual 37001), while a
first total of hundreds is what no first deal writes: ten tricks at the highest price, 10, are 100."""
_TALL_BOX = 0.75
"""A digit box at least this share of the digit height tall stands as tall as a digit (`_noise_digits`)."""
_WIDE_BOX = 1.5
"""A digit box at least this many typical digit widths wide holds more ink than one digit
(`_noise_digits`): two touching digits, not a speck, a dot or half a digit.

Decision: 1.5, because a digit broken in two leaves pieces of about one digit width or less, which the
network rightly reads as noise beside the piece it reads (usual 26002: a "0" in boxes of 30 and 19 px,
its digit width 28, "40" read from 4 | noise | 0), while two digits run together are about two widths
(bench 1003: "50" 51 px, its digit width 24)."""
_NOISE_DIGIT_COST = 2.0
"""Log-likelihood cost of each box wider than a digit that a reading leaves out as noise (`_noise_digits`).

Decision: 2.0, the cost of a split at no space (`_SPLIT_COST`), because the network reads a box of two
touching digits as noise, and surely, and a reading that leaves it out then reads the rest at no cost
(bench 1003: "30.50" cut 3 | 0 | 50 read 30 at 0.92, the "50", 51 px wide where a digit is 24, taken
for noise), while a speck, a dot or a piece of a digit or of a line stays narrower; with
the cost, such a way no longer beats the digits read one by one, split in two numbers (30 | 50 at
-2.05), and the totals choose. (A cost by the box's width alone, with no noise, cost more than it
mended: single digits written wide reach 1.45 digit heights, as wide as two touching ones.)"""
_PART_NOISE_COST = 0.5
"""Log-likelihood cost of each piece of a digit a way cuts off and leaves out as noise, where the digit
without it reads as another digit (`_part_noise`)."""
_WHOLE_SURE = 0.9
"""How surely a digit must read whole for a way that cuts a piece off it and reads the rest as another
digit to pay `_PART_NOISE_COST`.

Decision: 0.9, sure, because a digit the network reads whole less surely may be misread whole and right
without the piece: bench 1005, a "2" whose hook, touching, read "7" at 0.62 whole and "2" with the hook
cut off as noise (with 0.5, "82" was read 87)."""
_STRUCK_GAP = 0.4
"""A token split at a space this wide (digit heights) or wider may be read as a crossed-out number run
into the one written after it (`_read_ways`)."""
_STRUCK_COST = 0.6
"""Log-likelihood cost, on top of the split's, of reading the first of two numbers run together as
crossed out (it then takes no step of the totals: see `_read_ways`).

Decision: 0.6, because a reading that takes written ink out of the totals must not be cheaper than one
more number read at the same space ("2 8 10" with two dots lost stays three numbers rather than 28 struck
and 10), and no more, because the benches' numbers run together across a wide space are more often a
struck number and its correction than two written ones (23 of 37 on seeds 1000-4000) and the other
readings' alternatives compete with it (4010: 15, [10 struck, 30], 50 took an "18" for the 30 at 1.0)."""


def choose_cuts(recognizer: Recognizer, sequences: list[tuple[bool, bool, list[NumberToken]]],
                 readings: dict[int, NumberReading], *, cache: DigitCache | None = None,
                 sure: float = 0.95, alternatives: bool = True,
                moves: Moves | None = None,
                steps: Mapping[int, float] | None = None) -> dict[int, tuple[Part, ...]]:
    """For each number whose glyphs can be cut more than one way, the cut to keep: every way of
    cutting it is read (all in one batch), and along each zone's sequence of numbers the ways are
    chosen together (Viterbi) for the most likely readings with running totals that never go back.
    In a sequence whose first flag is True (a zone, not the circle), a token of two or more glyphs may
    also be read as two numbers whose dot was lost, when the totals call for it: any of its ways split
    between any two glyphs (a "16" read as one glyph and "6" still splits as "16" | "20"; the parts'
    digit crops are the whole's, so this costs no reading by the network); the second flag says the
    totals only rise.

    Only numbers that could change are read again: a number read at least `sure` (its first way,
    `readings`) whose totals step well from and to its neighbours keeps its first way, since any
    other way scores below it (see `_needs_ways`), unless a glyph of it is wide enough to have
    swallowed a "1" (`_swallow.absorbed`): then those of that glyph's other cuts whose "1" reads as a 1
    are read (`_read_ones`), in a zone only. `cache` reads each digit crop once across calls.

    Decision: not in the circle, because a "1" found in a sure glyph is taken only where running
    totals can confirm it, and the circle has none: its round 0s were cut as "10" (bench seeds 1000
    and 2000, 26 photos: the pulka target read right 20 -> 24 times, three of them "110" or "210").

    `moves` (`_regroup.regroup`) may then move digits between neighbouring numbers of a zone; last,
    with `alternatives`, the numbers that needed their ways read are read as each of their readings'
    other candidates too (`_alternatives`), and the totals choose again (the moved ones keep what
    `moves` made of them).

    `steps`: by zone index, the largest step between the zone's totals that costs nothing
    (`_steps.PULKA_STEP` for a pulka; `_steps.USUAL_STEP` for a zone not in it).

    Returns, by the id of the token they replace, the parts of the tokens whose cut or reading changed.
    """
    steps = steps or {}

    def usual(sequence: list[NumberToken]) -> float:
        return steps.get(sequence[0].zone, USUAL_STEP) if sequence else USUAL_STEP

    def first(token: NumberToken) -> list[Choice]:
        # A number whose other ways were not read keeps its first reading, scored as a read way is.
        return [(((token, readings[id(token)]),), _noise_cost(token, readings[id(token)]))]

    jobs: list[tuple[int, int, NumberToken, float, int]] = []
    split_ok = {id(t) for splits, _, sequence in sequences if splits for t in sequence}
    needed = set().union(*(_needs_ways(sequence, readings, rising=rising, sure=sure, usual=usual(sequence))
                           for _, rising, sequence in sequences))
    cache = cache or DigitCache(recognizer)
    tokens = [t for _, _, sequence in sequences for t in sequence]
    # Sure and in step, but a glyph may have swallowed a "1": only that glyph's cuts whose "1" reads as one
    # (in a zone: `split_ok` holds the tokens of zones).
    swallowing = [t for t in tokens if id(t) not in needed and id(t) in split_ok and may_swallow(t)]
    wide = dict(zip(map(id, swallowing), _read_ones([(t, wide_ways_ones(t)) for t in swallowing], cache),
                    strict=True))
    for token in tokens:
        if id(token) in needed:
            ways = cut_ways(token, most=_MOST_WAYS)
            splittable = id(token) in split_ok and not token.crossed_out and len(token.glyph_cuts) > 1
        elif id(token) in wide:
            ways, splittable = wide[id(token)], False
        else:
            continue
        if len(ways) == 1 and not splittable:
            continue
        ends: dict[tuple[_group.Box, ...], int] = {}  # (the token's ways share their first parts)
        for w, way in enumerate(ways):
            jobs.append((id(token), 2 * w, way_token(token, way), 0.0, 1))
            if splittable:
                for sides, cost in _splits(token, way, ends):
                    jobs.extend((id(token), 2 * w + 1, part_token(token, part), cost, len(sides))
                                for part in sides)
    struck: dict[int, Part] = {}
    options = _read_ways(jobs, cache, struck=struck)
    out: dict[int, tuple[Part, ...]] = {}
    for splits, rising, sequence in sequences:
        choices = [options.get(id(t)) or first(t) for t in sequence]
        free = usual(sequence)
        picks = _zone_picks(choices, rising=rising, usual=free)
        # Decision: a writer who runs one "1" into its digit runs them all in, so once the totals
        # have chosen a way that finds such a "1", every glyph of the zone that could hold one is
        # read for it (not only the ones wider than `_swallow.may_swallow`), because that writer's "13"
        # is as narrow as a digit and reads as a sure 3; the totals still choose.
        confirmed = any(pick > 0 and finds_a_one(found[0], found[pick])
                        for found, pick in zip(choices, picks, strict=True)) or _one_would_mend(
                            choices, picks, rising=rising, usual=free)
        if confirmed or (splits and _one_swallowed(choices)):
            habitual = [t for t in sequence if id(t) not in options and not t.crossed_out and t.glyph_cuts]
            found_ones = [(t, wide_ways_ones(t, habit=True)) for t in habitual]
            habit = dict(zip(map(id, habitual), _read_ones(found_ones, cache), strict=True))
            more = [(id(t), 2 * w, way_token(t, way), 0.0, 1) for t in sequence
                    if len(habit.get(id(t), ())) > 1 for w, way in enumerate(habit[id(t)])]
            if more:
                habit_ways = _read_ways(more, cache, habit=True)
                # (On a "1" the totals turned down, only "1"s as sure as it: see `_one_swallowed`.)
                options.update(habit_ways if confirmed else {key: ways for key, ways in habit_ways.items()
                                                             if swallows_a_one(ways, habit=True)})
                choices = [options.get(id(t)) or first(t) for t in sequence]
                picks = _zone_picks(choices, rising=rising, usual=free)
        fixed: dict[int, tuple[Part, ...]] = {}
        if moves is not None:
            chosen = {id(t): found[pick][0] for t, found, pick in zip(sequence, choices, picks, strict=True)
                      if pick > 0}
            read = {id(t): (found, pick) for t, found, pick in zip(sequence, choices, picks, strict=True)
                    if len(found) > 1}
            moved = moves([(splits, rising, sequence)], chosen, readings, steps, read)
            fixed = {key: parts for key, parts in moved.items() if chosen.get(key) != parts}
        if alternatives or fixed:
            # Decision: the totals choose among a number's other readings too (a pale digit read as
            # "not a digit", a 1 read as 7), each at its own probability, because that is what the
            # recogniser's candidates are for; only for the numbers that are unsure or out of step
            # (`_needs_ways`), after `moves` (its pairs keep what it made of them: a wrong way read
            # in order would hide a digit on the wrong side of a lost dot).
            others = {id(t) for t in sequence if alternatives and id(t) in needed and not t.crossed_out}
            choices = [[(fixed[id(t)], 0.0)] if id(t) in fixed else found + _alternatives(found)
                       + _unwritten(t, readings[id(t)], found, splits)
                       if id(t) in others else found for t, found in zip(sequence, choices, strict=True)]
            # (A token `moves` read as one with the number before it keeps no part: it takes no step.)
            kept = [k for k, found in enumerate(choices) if found[0][0]]
            picks = [0] * len(choices)
            for k, pick in zip(kept, _zone_picks([choices[k] for k in kept], rising=rising, usual=free),
                               strict=True):
                picks[k] = pick
            # A run of numbers misread the same way costs its dearest swap (`_confusion`); ink read as
            # nothing written is in no run.
            kept = [k for k in kept if choices[k][picks[k]][0]]
            runs = shared_confusions([choices[k][picks[k]] for k in kept], rising=rising,
                                     open_to=[id(sequence[k]) in others and id(sequence[k]) not in fixed
                                              for k in kept],
                                     alternative_cost=_ALTERNATIVE_COST, usual=free)
            swapped = {id(sequence[kept[position]]): choice for position, choice in runs.items()}
        else:
            swapped = {}
        for token, found, pick in zip(sequence, choices, picks, strict=True):
            if id(token) in swapped:
                out[id(token)] = _with_struck(swapped[id(token)][0], struck)
            elif pick > 0 or id(token) in fixed:
                out[id(token)] = _with_struck(found[pick][0], struck)
    return out


def _splits(token: NumberToken, way: Way,
            ends: dict[tuple[_group.Box, ...], int]) -> list[tuple[list[tuple[_group.Box, ...]], float]]:
    """The ways of reading `way` of the token as several numbers, each as its parts' digit boxes and its
    cost (`split_cost` of each space it splits at): in two between any two glyphs, and in three where
    both spaces are wide (`_WIDE_GAP`: "2 8 10" written without dots). `ends`: where the digits of the
    token's parts end (`_space`), kept across its ways.

    Decision: three parts only at two wide spaces, because a three-glyph token is far more often one
    number of three digits, and every part is read from crops the two-part splits read already.

    Decision: a way of more digits than any written number (`LONGEST`) that no split between glyphs
    leaves as two numbers (`_split_in_glyphs`) may split between any two of its digit boxes, inside a
    glyph too, because it cannot be one number, and the digits of two numbers touch across the space
    between them as often as within one (bench 1003: "114 134" written close, the 4 touching the 1
    after it, was one glyph after the first "1"; its only split, "1" | "14134", left "153" the best
    reading). Only there, because every split is one more chance for an odd way to fit the totals:
    splitting every way of four boxes or more inside its glyphs read small 31003's "70.75", its 0 cut in
    two, as 76 | 97."""
    height = max(token.digit_size[0], 1e-9)
    if _split_in_glyphs(way):
        way = tuple((box,) for glyph in way for box in glyph)
    places = range(1, len(way))
    out: list[tuple[list[tuple[_group.Box, ...]], float]] = []
    for cuts in [*itertools.combinations(places, 1), *itertools.combinations(places, 2)]:
        sides = [tuple(box for glyph in way[start:end] for box in glyph)
                 for start, end in itertools.pairwise((0, *cuts, len(way)))]
        if not all(sides):  # (a way that joins two glyphs leaves the glyph after the joint empty)
            continue
        # (A split in three is taken only where both its spaces are wide: the second is measured only
        # when the first is.)
        spaces: list[float] = []
        for a, b in itertools.pairwise(sides):
            spaces.append(_space(token, a, b, ends) / height)
            if len(cuts) > 1 and spaces[-1] < _WIDE_GAP:
                break
        if len(cuts) == 1 or (len(spaces) == len(cuts) and min(spaces) >= _WIDE_GAP):
            out.append((sides, sum(map(split_cost, spaces))))
    return out


def _split_in_glyphs(way: Way) -> bool:
    """Whether `way` has more digits than any written number (`LONGEST`) and no split between two of
    its glyphs leaves two numbers of at most `LONGEST` digits."""
    counts = [len(glyph) for glyph in way]
    total = sum(counts)
    if total <= LONGEST:
        return False
    return not any(total - LONGEST <= sum(counts[:cut]) <= LONGEST for cut in range(1, len(counts)))


def _with_struck(parts: tuple[Part, ...], struck: dict[int, Part]) -> tuple[Part, ...]:
    """`parts` with the crossed-out number `_read_ways` found run into the first of them put back
    before it."""
    before = struck.get(id(parts[0][0])) if parts else None
    return parts if before is None else (before, *parts)


def _space(token: NumberToken, left: tuple[_group.Box, ...], right: tuple[_group.Box, ...],
           ends: dict[tuple[_group.Box, ...], int]) -> float:
    """The space in pixels from the end of the digits in the token's boxes `left`, a dot touching the
    last one's foot left out (`_group.ink_end`; kept in `ends` by `left`), to the left end of `right`."""
    if left not in ends:
        ends[left] = _group.ink_end(token.image.gray, left, height=token.digit_size[0])
    return float(min(b[0] for b in right) - ends[left])


def split_cost(space: float) -> float:
    """Log-likelihood cost of reading a token as two numbers split at a space of `space` digit heights:
    `_SPLIT_COST` up to `_NEAR_GAP`, falling linearly to `_WIDE_SPLIT_COST` at `_WIDE_GAP` and beyond.

    Decision: a wide space makes two numbers likelier, because the spaces between the digits of one
    number stay narrow: on the rendered benches (seeds 1000-4000, truth zones, 60 photos) of 3,695
    tokens of two or more glyphs holding one written number, 6 have a space of 0.35 digit heights or
    more and 3 of 0.5 or more, while of the 53 tokens holding two numbers 38 and 32 do (a dot lost, a
    struck number run into its correction).

    Decision: at a wide space a gain (`_WIDE_SPLIT_COST`, -1.0), not a cost, because those counts
    make a token split there two numbers about ten times as often as one (32 against 3: log-odds 2.4),
    and a cost left one number wherever no running total stood beside it to say otherwise: a zone's
    only number, a struck "6" run into the "16" written after it, read "616" (usual 37000), a struck
    "14" and the "4" after it read "44" (bench 1014), both against their split reading by the cost
    alone. Less than the odds, because the readings of the parts and the totals still decide: a "1 1"
    written wide stays 11 after a 10 (the split's two steps back cost 8), and -2.0 read no more photos
    right than -1.0 on the benches tried (bench 1000; small 37000, 38000; usual and motion 37000).
    """
    if space <= _NEAR_GAP:
        return _SPLIT_COST
    share = min(1.0, (space - _NEAR_GAP) / (_WIDE_GAP - _NEAR_GAP))
    return _SPLIT_COST + share * (_WIDE_SPLIT_COST - _SPLIT_COST)


def _alternatives(choices: list[Choice]) -> list[Choice]:
    """Each one-part choice read as each of its reading's other candidate values (the value put first):
    scored as the choice with the log-probability of that value instead of its best one's, less
    `_ALTERNATIVE_COST`.

    Decision: an alternative costs 1.0 on top of its probability, because the numbers whose
    alternatives are read are the odd ones (pale, broken, pieces of line), where the network's
    probabilities are least calibrated; without it the totals rewrite two right readings to fit around
    one wrong one (40, 46, 6 read 4, 5, 6: log 0.16/0.78 + log 0.14/0.56 = -3.0 against a step back,
    4). On the rendered benches (seeds 1000-4000, 60 photos) it leaves 15 numbers newly wrong against
    63 newly right, where no cost leaves 21 against 72 and 2.0 leaves 6 against 42.
    """
    out: list[Choice] = []
    for parts, score in choices:
        if len(parts) != 1:
            continue
        ((token, reading),) = parts
        if len(reading.candidates) < 2:
            continue
        best = math.log(max(reading.confidence, 1e-6))
        own = _noise_cost(token, reading)
        for k in range(1, len(reading.candidates)):
            value, probability = reading.candidates[k]
            ordered = ((value, probability), *reading.candidates[:k], *reading.candidates[k + 1:])
            other = NumberReading(ordered, reading.digits)
            # (The cost of the boxes a value leaves out as noise is its own: "200" read from the boxes
            # whose "20" left the middle 0 out leaves none out.)
            out.append((((token, other),), score - best + math.log(max(probability, 1e-6)) - _ALTERNATIVE_COST
                        - own + _noise_cost(token, other)))
    return out


def _unwritten(token: NumberToken, reading: NumberReading, found: list[Choice], zone: bool) -> list[Choice]:
    """The choice that nothing is written where the token is (no part: it takes no step of the
    totals), when the recogniser reads every digit box of its first reading (`reading`) likelier as
    not a digit than it reads the number as any value, however cut (`found`, its ways read; in a zone
    only, `zone`): scored as the probability that every box is noise, less `_UNWRITTEN_COST`.

    Decision: the network's own "not a digit" is evidence, weighed by the totals, because a piece of
    a drawn line, a scratch or a smudge left in a zone is read as the likeliest digit among those it
    does not resemble ("1" at 0.32 beside 0.57 noise), and, taken for a total, it steps back and drags
    the number after it along (30, 36, "1", 48 read 30, 36, 1, 18: usual 30004). Only then: a number
    the network reads likelier as a number stays one, however out of step (the totals never take
    written ink away on their own), and so does one that another cut of its ink reads as a number
    likelier than its first cut reads as noise (the ink is writing, however cut). (`read_number`
    leaves the empty reading out of the values.) Offered only for the numbers whose other readings
    are weighed too (`choose_cuts`' alternatives).

    What it costs: a written digit the network reads likelier as noise (pale, broken) is left out
    where the totals read it out of step (bench 1020: a "3" read 7 at 0.34 after a 2 and before a 7,
    misread before, missing now), or in step only through an unlikely alternative (usual 34003: a "9"
    whose likeliest digit was 0 at 0.11, 9 at 0.03, beside 0.85 noise, between 7 and 11)."""
    empty = math.prod(d.noise for d in reading.digits) if reading.digits else 0.0
    likeliest = max([reading.confidence] + [r.confidence for parts, _ in found for _, r in parts])
    if not zone or token.crossed_out or empty <= likeliest:
        return []
    return [((), math.log(max(empty, 1e-6)) - _UNWRITTEN_COST)]


def _read_ones(found: list[tuple[NumberToken, list[tuple[Way, tuple[_group.Box, ...]]]]],
               cache: DigitCache) -> list[list[Way]]:
    """Of each token's `wide_ways` (each with its `one_boxes`: `wide_ways_ones`), its first way and the
    ways whose "1" reads likeliest as a 1; the "1"s of all tokens are read in one batch.

    Decision: a way cut to find a "1" run into its digit is read in full only when what it cut off
    reads as a 1 at all, because that is all it is cut for: a slice of a digit that reads as another
    digit makes a number with a stray digit, which the totals only ever took wrongly. On the rendered
    benches (seeds 1000-4000, 12 photos each) it reads 4-6 % fewer crops, and of the numbers it
    changes six are now right ("155" back to 15, "262" to 22) and none newly wrong. (Only when it reads
    as a sure 1, as `absorbed` asks, was too strict: the totals rightly chose "12" from a "2" read
    surely whose "1" read at 0.6, seed 2002.) A recogniser that does not read by digit reads every
    way, as before.
    """
    if not getattr(cache.recognizer, "reads_by_digit", False):
        return [[way for way, _ in ways] for _, ways in found]
    asked = [(token, box) for token, ways in found for _, boxes in ways[1:] for box in boxes]
    read = cache.read([way_token(token, ((box,),)) for token, box in asked])
    ones = {(id(token.image.gray), box): bool(reading.digits) and bool(reading.digits[0].candidates)
            and reading.digits[0].candidates[0][0] == 1
            for (token, box), reading in zip(asked, read, strict=True)}
    return [[ways[0][0]] + [way for way, boxes in ways[1:] if any(ones[(id(token.image.gray), box)]
                                                                  for box in boxes)]
            for token, ways in found]


def way_token(token: NumberToken, way: Way) -> NumberToken:
    """The token with its digit boxes cut `way`."""
    boxes = tuple(box for glyph in way for box in glyph)
    return replace(token, image=NumberImage(gray=token.image.gray, digit_boxes=boxes))


def _read_ways(jobs: list[tuple[int, int, NumberToken, float, int]], cache: DigitCache, *,
               habit: bool = False, struck: dict[int, Part] | None = None) -> dict[int, list[Choice]]:
    """Every job read (in one batch), as the choices of the token each belongs to: (its id, its kind:
    an even number for a way, odd for one part of a way split in two or three, the other parts next,
    the token to read, the cost of the split (`_splits`), how many parts its way has).

    Where the split's space is wide (`_STRUCK_GAP`), the second part alone is a choice too, at
    `_STRUCK_COST` more: the first was crossed out and its strike not seen (a scribbled 8 run into the
    201 written after it), so it takes no step of the totals. `struck` (by the id of that second
    part's token) gets the first part, marked crossed out, for `choose_cuts` to put back.

    Decision: a number run into the next across a wide space may be a crossed-out one, because a
    writer puts no dot after a number he strikes out and writes its correction next to it, while a
    strike the strikes stage misses (a scribble, a stroke through a digit's own bar) leaves only the
    totals to tell: the struck number mostly steps back from the number before (176, 211 struck,
    201). Only the first part: the correction is written after the struck number.

    Decision: not where the first part ends in a dot touching its last digit (`_group.ends_in_dot`), because
    that dot says the first is a total the writer finished: he puts no dot after a number he strikes
    out ("2." run into a struck "1", then 3, 5, bench 1003: read 2 struck, 1, 3 with the dot seen and
    the struck reading offered). (The second part struck instead, the slip after a finished total, was
    tried: it let the totals strike out a right "46" after a "38." where the number after it had lost a
    digit, small 40002.)
    """
    if not jobs:
        return {}
    options: dict[int, list[Choice]] = {}
    pending: list[Part] = []
    shared = cache.read([t for _, _, t, _, _ in jobs])
    spans: dict[int, dict[tuple[int, int], DigitReading]] = {}
    for (key, _, token, _, _), reading in zip(jobs, shared, strict=True):
        boxes = token.image.digit_boxes
        if len(reading.digits) == len(boxes):
            spans.setdefault(key, {}).update(((box[0], box[0] + box[2]), digit)
                                             for box, digit in zip(boxes, reading.digits, strict=True))
    for (key, kind, token, cost, count), reading in zip(jobs, shared, strict=True):
        found = options.setdefault(key, [])
        # The likeliest cut by width is the first way: among equals it stays.
        prior = 0.0 if not found else OTHER_WAY
        if len(token.image.digit_boxes) > LONGEST:
            prior -= 3.0
        prior += _noise_cost(token, reading)
        prior -= _PART_NOISE_COST * _part_noise(token, reading, spans.get(key, {}))
        score = math.log(max(reading.confidence, 1e-6))
        if kind % 2 == 0:
            found.append((((token, reading),), score + prior))
        elif len(pending) + 1 == count:
            parts, pending = (*pending, (token, reading)), []
            every = sum(choice_score(r) for _, r in parts[:-1]) + score + prior - cost
            found.append((parts, every))
            if struck is not None and count == 2 and cost <= split_cost(_STRUCK_GAP):
                first, first_reading = parts[0]
                if not _group.ends_in_dot(first.image.gray, first.image.digit_boxes,
                                          height=first.digit_size[0]):
                    struck[id(token)] = (replace(first, crossed_out=True), first_reading)
                    found.append((((token, reading),), every - _STRUCK_COST))
        else:
            pending.append((token, reading))
    return {key: absorbed(found, habit=habit) for key, found in options.items()}


def _part_noise(token: NumberToken, reading: NumberReading,
                spans: Mapping[tuple[int, int], DigitReading]) -> int:
    """How many boxes of the reading's way read likelier as noise than as a digit (`DigitReading.noise`
    over a half) that were cut off a box beside them read as a digit (the two meet at one column) whose
    likeliest digit is not the likeliest digit of the two boxes read as one (in `spans`, the digit
    readings of the token's ways by their boxes' columns, start to end), that one read at least
    `_WHOLE_SURE`: the piece the way leaves out is what made the digit that digit.

    Decision: the piece, not the way, is judged, by what the network reads with and without it,
    because a stray bit cut off a digit (a "1"'s flag, a dot run into its foot) leaves the digit
    reading the same, while a digit's own part (a 6's loop, cut off its stem and read as noise, the
    stem a sure "1") leaves another digit: bench 1019, "36" read "31" at -0.050 against -0.051, while
    the flag cut off bench 1020's "1" left a "2" either way and must cost nothing (a cost on every piece
    left out, whatever it was, read 1019 right and 1020's "10" as "20": zone final values fell)."""
    boxes = token.image.digit_boxes
    if len(reading.digits) != len(boxes):
        return 0  # (a recogniser that reads no digit per box, Tesseract, tells no box's noise)
    count = 0
    for k, (box, digit) in enumerate(zip(boxes, reading.digits, strict=True)):
        if digit.noise <= 0.5:
            continue
        for j in (k - 1, k + 1):
            if not 0 <= j < len(boxes) or reading.digits[j].noise > 0.5 or not reading.digits[j].candidates:
                continue
            left, right = (boxes[j], box) if j < k else (box, boxes[j])
            if left[0] + left[2] != right[0]:
                continue  # not cut off it: a glyph of its own
            whole = spans.get((left[0], right[0] + right[2]))
            if (whole is not None and whole.candidates and whole.candidates[0][1] >= _WHOLE_SURE
                    and whole.candidates[0][0] != reading.digits[j].candidates[0][0]):
                count += 1
                break
    return count


def _noise_cost(token: NumberToken, reading: NumberReading) -> float:
    """The log-likelihood cost (0 or less) of the boxes the reading's likeliest value leaves out as
    noise (`_noise_digits`), part of every choice's score."""
    return -_NOISE_DIGIT_COST * _noise_digits(token, reading)


def _noise_digits(token: NumberToken, reading: NumberReading) -> int:
    """How many boxes as tall as a digit and wider than one (`_TALL_BOX`, `_WIDE_BOX`) the reading's
    likeliest value leaves out as noise: when it has fewer digits than the token has boxes, the boxes
    read likelier noise than digit."""
    value = reading.value
    boxes = token.image.digit_boxes
    if value is None or len(str(value)) >= len(boxes) or len(reading.digits) != len(boxes):
        return 0  # (a recogniser that reads no digit per box, Tesseract, tells no box's noise)
    tall, wide = _TALL_BOX * token.digit_size[0], _WIDE_BOX * token.digit_size[1]
    return sum(1 for box, digit in zip(boxes, reading.digits, strict=False)
               if box[3] >= tall and box[2] >= wide and digit.noise > 0.5)


def _needs_ways(sequence: list[NumberToken], readings: dict[int, NumberReading], *, rising: bool,
                sure: float, penalty: float = STEP_BACK, usual: float = USUAL_STEP) -> set[int]:
    """Ids of the tokens of one zone whose other ways must be read: those read less surely than
    `sure`, and both neighbours of every step between totals that costs (`step_cost`) in the zone's
    better direction.

    Why the others may keep their first way: every other way scores at most `OTHER_WAY` (its
    log-confidence is at most 0), below a first way read at least exp(`OTHER_WAY`); a number whose
    steps to both neighbours cost nothing gains nothing from a change either.
    """
    need = {id(t) for t in sequence if readings[id(t)].confidence < max(sure, math.exp(OTHER_WAY))}
    kept = [t for t in sequence if not t.crossed_out]
    values = [readings[id(t)].value for t in kept]
    best: list[float] | None = None
    for sign in (1,) if rising else (1, -1):
        costs = [step_cost(sign * (v - u), penalty, usual=usual) if u is not None and v is not None
                 else penalty for u, v in itertools.pairwise(values)]
        if best is None or sum(costs) < sum(best):
            best = costs
    for i, cost in enumerate(best or []):
        if cost > 0.0:
            need.update((id(kept[i]), id(kept[i + 1])))
    if rising and kept and _first_step(values[0]) > 0.0:
        need.add(id(kept[0]))
    return need


def _first_step(value: int | None) -> float:
    """The cost (`step_cost`) of a rising zone's first total `value` as a step from 0, free up to
    `_FIRST_STEP`; nothing for an unread value or a 0 (a total written before any deal changed it)."""
    return step_cost(value, STEP_BACK, usual=_FIRST_STEP) if value is not None and value > 0 else 0.0


def _zone_picks(choices: list[list[Choice]], *, rising: bool, usual: float) -> list[int]:
    """`monotone_picks` over a zone's `choices` (in writing order), the first total of a zone whose totals
    only rise scored as a step from 0 (`_from_zero`)."""
    return monotone_picks(_from_zero(choices, rising=rising), rising=rising, usual=usual)


def _from_zero(choices: list[list[Choice]], *, rising: bool) -> list[list[Choice]]:
    """`choices` (a zone's, in writing order) with the first number not crossed out scored for its step
    from 0 (`_first_step`) when the zone's totals only rise.

    Decision: a mountain's or whists' running total starts at 0 and its first number is the first
    deal's points, a step from 0, because the totals otherwise check a zone's first number from one
    side only and its only number from none: a whists zone's lone "24" whose wide 2 was cut in two
    boxes read "224" at 0.96 (bench 1002), which no first deal writes. A pulka is left out: it may be
    counted down from the pulka target."""
    if not rising:
        return choices
    first = next((k for k, found in enumerate(choices) if not found[0][0][0][0].crossed_out), None)
    if first is None:
        return choices
    scored = [(parts, score - _first_step(parts[0][1].value) if parts else score)
              for parts, score in choices[first]]
    return [*choices[:first], scored, *choices[first + 1:]]


def _one_would_mend(choices: list[list[Choice]], picks: list[int], *, rising: bool,
                    usual: float = USUAL_STEP) -> bool:
    """Whether a number at a step the picked totals still take at a cost (in the zone's better
    direction) has a way of cutting that finds a sure "1" run into its digit (`finds_a_one`), though
    the totals did not pick it.

    Decision: such a way is evidence enough of a writer who runs his "1"s into their digits for the
    zone's other glyphs to be read for one too (`choose_cuts`' habit), because a "1" found where the
    totals break is what mends them, and a writer who runs one "1" in runs them all in: when two
    neighbours both swallowed theirs ("10, 14, 16" read 10, 4, 6), finding the one "1" alone mends
    no step (10, 14, 6 steps back as 10, 4, 6 does), so the totals never pick it and the habit never
    fired. The totals still choose among the ways read."""
    kept = [k for k, found in enumerate(choices) if not found[0][0][0][0].crossed_out]
    values = [[reading.value for _, reading in choices[k][picks[k]][0]] for k in kept]
    best: list[float] | None = None
    for sign in (1,) if rising else (1, -1):
        costs = [step_cost(sign * (v[0] - u[-1]), STEP_BACK, usual=usual)
                 if u[-1] is not None and v[0] is not None else 0.0 for u, v in itertools.pairwise(values)]
        if best is None or sum(costs) < sum(best):
            best = costs
    broken = {kept[i + side] for i, cost in enumerate(best or []) if cost > 0.0 for side in (0, 1)}
    return any(finds_a_one(choices[k][0], other) for k in sorted(broken) for other in choices[k][1:])


def _one_swallowed(choices: list[list[Choice]]) -> bool:
    """Whether a number of the zone (its ways read, `choices`) has a way that swallowed a "1" another
    of its ways finds (`swallows_a_one`); `choose_cuts` asks it where the totals picked no such "1".

    Decision: such a "1" is evidence enough of a writer who runs his "1"s into their digits for the
    zone's other glyphs to be read for one too (`choose_cuts`' habit), as a "1" the totals pick is,
    because the totals may turn the "1" down only because the number after it swallowed its own: a
    zone's first "12" read 2 with a sure "1" found, then "18" read 8 and in step with 2 (usual 44006,
    "12, 18, 26" read 2, 8, 26: 12 steps back to 8, so the totals keep 2 and nothing breaks a step
    for `_one_would_mend`). The "1" passed every test `absorbed` puts to one run into its digit, and
    the totals still choose among the ways read.

    Decision: the other glyphs' ways are kept only where their "1" passes those tests too (the habit's
    width: `swallows_a_one`), not every way that reads a "1" as where the totals picked one, because a
    "1" turned down is weaker evidence: it may be a wide 2's hook cut off (a sure "1" as well), and a
    4's arm cut off its stem then reads "1" and a 4 less sure than whole, which the totals took for a
    "14" to fit 1, 12, 14 (usual 45003, "1, 2, 4" read 1, 12, 14)."""
    return any(len(found) > 1 and swallows_a_one(found) for found in choices)


def choice_score(reading: NumberReading) -> float:
    """A reading's log-confidence, less 3 when it has more digits than any written number."""
    return math.log(max(reading.confidence, 1e-6)) - (3.0 if len(reading.digits) > LONGEST else 0.0)


def part_token(token: NumberToken, boxes: tuple[_group.Box, ...]) -> NumberToken:
    """The part of a token holding `boxes`: its quad is the token's, cut across the writing at the
    share of the number's width where the part starts and ends."""
    every = token.image.digit_boxes
    left = min(b[0] for b in every)
    width = max(max(b[0] + b[2] for b in every) - left, 1)
    start = (min(b[0] for b in boxes) - left) / width
    end = (max(b[0] + b[2] for b in boxes) - left) / width
    tl, tr, br, bl = token.quad

    def along(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
        return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))

    quad = (along(tl, tr, start), along(tl, tr, end), along(bl, br, end), along(bl, br, start))
    return replace(token, quad=quad, image=NumberImage(gray=token.image.gray, digit_boxes=boxes),
                   glyph_cuts=())


def cut_ways(token: NumberToken, *, most: int = 12) -> list[tuple[tuple[_group.Box, ...], ...]]:
    """Every way of cutting the token's glyphs (at most `most`), as each glyph's digit boxes, the way
    in `token.image` first, then the ways that join two neighbouring glyphs into one digit
    (`glyph_joins`: the first of the two gets the joined box, the second none)."""
    ways: list[tuple[tuple[_group.Box, ...], ...]] = []
    # Decision: joined ways are only ever read here, for a number that is unsure or out of step with
    # its neighbours (`_needs_ways`), and they compete like any other way (with `OTHER_WAY`), because
    # two overlapping glyphs may as well be two digits written close: the reading and the running
    # totals decide, never the overlap alone.
    for g, box in token.glyph_joins:
        if not ways:
            ways.append(tuple(tuple(cuts[0]) for cuts in token.glyph_cuts))
        joined = list(ways[0])
        joined[g], joined[g + 1] = (box,), ()
        ways.append(tuple(joined))
    # Ways that cut fewer glyphs otherwise than their first way come first: when there are more than
    # `most`, those kept are the nearest to the likeliest (a product in order would keep every cut
    # of the last glyphs and none of the first's).
    combos = sorted(itertools.product(*(range(len(cuts)) for cuts in token.glyph_cuts)),
                    key=lambda picks: sum(p > 0 for p in picks))
    for picks in combos:
        way = tuple(tuple(cuts[p]) for cuts, p in zip(token.glyph_cuts, picks, strict=True))
        if way not in ways:
            ways.append(way)
        if len(ways) == most:
            break
    return ways or [(tuple(token.image.digit_boxes),)]

