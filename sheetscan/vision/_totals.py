"""Choosing how to read each block and cut each written number by the running totals of its zone
(stage 5, with the recogniser).

- `choose_angles`: each block's writing angle, by how confidently and in order a few of its numbers
  read at each candidate angle (the other angles first on a peek of three numbers, and each read no
  further than it could still compete);
- `choose_cuts`: every way of cutting a number's glyphs into digits (joining two that may be pieces
  of one digit, too), and of reading it as two numbers whose dot was lost, is read in one batch;
  along each zone the ways are chosen together (Viterbi) for the most likely readings whose totals
  move the zone's way, in steps no bigger than totals move.
  Only numbers that could change are read again, and a way that swallowed a "1" another way finds
  is worth less (the network reads "13" run together as a sure 3). Digits that landed in the
  neighbouring number may then move (`_regroup`), and last the totals choose among the other
  candidate readings of the unsure or out-of-step numbers too (a pale digit read as "not a digit");
- `DigitCache`: every digit crop goes through the network once, whichever pass asks for it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from sheetscan.vision import _group
from sheetscan.vision._recog_types import crop_digits
from sheetscan.vision._steps import STEP_BACK, Choice, Part, monotone_picks, step_cost
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, Recognizer, read_number

if TYPE_CHECKING:
    from sheetscan.vision.numbers import NumberToken

__all__ = ["Choice", "DigitCache", "Part", "choice_score", "choose_angles", "choose_cuts", "monotone_picks",
           "part_token", "read_tokens"]

# No written number has more than three digits (see `_group.group_numbers`).
_LONGEST = 3

Moves = Callable[[list[tuple[bool, bool, list["NumberToken"]]], dict[int, tuple[Part, ...]],
                  dict[int, NumberReading]], dict[int, tuple[Part, ...]]]
"""Changes to the chosen parts of a zone's numbers across tokens (`_regroup.regroup`): given the
sequences, the parts chosen so far (by token id) and the first readings, the parts after it."""
_OTHER_WAY = -0.05
"""Log-likelihood prior of a way of cutting other than the first (the likeliest by width)."""
_ALTERNATIVE_COST = 1.0
"""Log-likelihood cost of reading a number as other than the recogniser's likeliest value (see
`_alternatives`)."""
_SPLIT_COST = 2.0
"""Log-likelihood cost of reading one token as two numbers (their dot lost or run into a digit)."""
_ONE_TALL = 0.75
"""A "1" cut off a glyph stands at least this share of the tallest digit beside it."""
_SWALLOW_WIDE = 1.2
"""A digit box wider than this many of the writer's typical digit widths may hold a "1" run into
the digit beside it (about the 95th percentile of single digits' widths on rendered sheets)..."""
_SWALLOW_HIGH = 0.9
"""... or wider than this share of the digit height (see `_swallow_limit`)."""
_HABIT_WIDE = 0.6
"""In a zone whose writer runs "1"s into their digits, a box wider than this share of the digit
height may hold one (see `_swallow_limit`)."""


def choose_cuts(recognizer: Recognizer, sequences: list[tuple[bool, bool, list[NumberToken]]],
                 readings: dict[int, NumberReading], *, cache: DigitCache | None = None,
                 sure: float = 0.95, alternatives: bool = True,
                moves: Moves | None = None) -> dict[int, tuple[Part, ...]]:
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
    swallowed a "1" (`_absorbed`): then that glyph's other cuts are read. `cache` reads each digit
    crop once across calls.

    `moves` (`_regroup.regroup`) may then move digits between neighbouring numbers of a zone; last,
    with `alternatives`, the numbers that needed their ways read are read as each of their readings'
    other candidates too (`_alternatives`), and the totals choose again (the moved ones keep what
    `moves` made of them).

    Returns, by the id of the token they replace, the parts of the tokens whose cut or reading changed.
    """
    jobs: list[tuple[int, int, NumberToken]] = []
    split_ok = {id(t) for splits, _, sequence in sequences if splits for t in sequence}
    needed = set().union(*(_needs_ways(sequence, readings, rising=rising, sure=sure)
                           for _, rising, sequence in sequences))
    for token in (t for _, _, sequence in sequences for t in sequence):
        if id(token) in needed:
            ways = _ways(token)
            splittable = id(token) in split_ok and not token.crossed_out and len(token.glyph_cuts) > 1
        elif _may_swallow(token):
            # Sure and in step, but a glyph may have swallowed a "1": only that glyph's other cuts.
            ways, splittable = _wide_ways(token), False
        else:
            continue
        if len(ways) == 1 and not splittable:
            continue
        for w, way in enumerate(ways):
            boxes = tuple(box for glyph in way for box in glyph)
            jobs.append((id(token), 2 * w, replace(token, image=NumberImage(gray=token.image.gray,
                                                                             digit_boxes=boxes))))
            if splittable:
                for k in range(1, len(way)):
                    sides = [tuple(box for glyph in side for box in glyph) for side in (way[:k], way[k:])]
                    if all(sides):  # (a way that joins two glyphs leaves the second one empty)
                        jobs.extend((id(token), 2 * w + 1, part_token(token, part)) for part in sides)
    cache = cache or DigitCache(recognizer)
    options = _read_ways(jobs, cache)
    out: dict[int, tuple[Part, ...]] = {}
    for splits, rising, sequence in sequences:
        choices = [options.get(id(t)) or [(((t, readings[id(t)]),), 0.0)] for t in sequence]
        picks = monotone_picks(choices, rising=rising)
        # Decision: a writer who runs one "1" into its digit runs them all in, so once the totals
        # have chosen a way that finds such a "1", every glyph of the zone that could hold one is
        # read for it (not only the ones wider than `_swallow_limit`), because that writer's "13"
        # is as narrow as a digit and reads as a sure 3; the totals still choose.
        if any(pick > 0 and _finds_a_one(found[0], found[pick])
               for found, pick in zip(choices, picks, strict=True)):
            habit = {id(t): _wide_ways(t, habit=True) for t in sequence
                     if id(t) not in options and not t.crossed_out and t.glyph_cuts}
            more = [(id(t), 2 * w, _way_token(t, way)) for t in sequence if len(habit.get(id(t), ())) > 1
                    for w, way in enumerate(habit[id(t)])]
            if more:
                options.update(_read_ways(more, cache, habit=True))
                choices = [options.get(id(t)) or [(((t, readings[id(t)]),), 0.0)] for t in sequence]
                picks = monotone_picks(choices, rising=rising)
        fixed: dict[int, tuple[Part, ...]] = {}
        if moves is not None:
            chosen = {id(t): found[pick][0] for t, found, pick in zip(sequence, choices, picks, strict=True)
                      if pick > 0}
            moved = moves([(splits, rising, sequence)], chosen, readings)
            fixed = {key: parts for key, parts in moved.items() if chosen.get(key) != parts}
        if alternatives or fixed:
            # Decision: the totals choose among a number's other readings too (a pale digit read as
            # "not a digit", a 1 read as 7), each at its own probability, because that is what the
            # recogniser's candidates are for; only for the numbers that are unsure or out of step
            # (`_needs_ways`), after `moves` (its pairs keep what it made of them: a wrong way read
            # in order would hide a digit on the wrong side of a lost dot).
            others = {id(t) for t in sequence if alternatives and id(t) in needed and not t.crossed_out}
            choices = [[(fixed[id(t)], 0.0)] if id(t) in fixed else found + _alternatives(found)
                       if id(t) in others else found for t, found in zip(sequence, choices, strict=True)]
            picks = monotone_picks(choices, rising=rising)
        for token, found, pick in zip(sequence, choices, picks, strict=True):
            if pick > 0 or id(token) in fixed:
                out[id(token)] = found[pick][0]
    return out


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
        best = math.log(max(_confidence(reading), 1e-6))
        for k in range(1, len(reading.candidates)):
            value, probability = reading.candidates[k]
            ordered = ((value, probability), *reading.candidates[:k], *reading.candidates[k + 1:])
            out.append((((token, NumberReading(ordered, reading.digits)),),
                        score - best + math.log(max(probability, 1e-6)) - _ALTERNATIVE_COST))
    return out


def _way_token(token: NumberToken, way: Way) -> NumberToken:
    """The token with its digit boxes cut `way`."""
    boxes = tuple(box for glyph in way for box in glyph)
    return replace(token, image=NumberImage(gray=token.image.gray, digit_boxes=boxes))


def _finds_a_one(first: Choice, chosen: Choice, *, sure: float = 0.9) -> bool:
    """Whether `chosen` reads `first`'s digits with "1"s inserted, each read at least `sure`."""
    short, long = _digit_text(first), _digit_text(chosen)
    return (short is not None and long is not None and len(long[0]) > len(short[0])
            and _inserted_sure(short[0], long, sure))


def _read_ways(jobs: list[tuple[int, int, NumberToken]], cache: DigitCache, *,
               habit: bool = False) -> dict[int, list[Choice]]:
    """Every job read (in one batch), as the choices of the token each belongs to: (its id, its kind:
    an even number for a way, odd for one part of a way split in two, the other part next, the token
    to read)."""
    if not jobs:
        return {}
    options: dict[int, list[Choice]] = {}
    pending: list[Part] = []
    shared = cache.read([t for _, _, t in jobs])
    for (key, kind, token), reading in zip(jobs, shared, strict=True):
        found = options.setdefault(key, [])
        # The likeliest cut by width is the first way: among equals it stays.
        prior = 0.0 if not found else _OTHER_WAY
        if len(token.image.digit_boxes) > _LONGEST:
            prior -= 3.0
        score = math.log(max(_confidence(reading), 1e-6))
        if kind % 2 == 0:
            found.append((((token, reading),), score + prior))
        elif pending:
            (first, first_reading), pending = pending[0], []
            found.append((((first, first_reading), (token, reading)),
                          choice_score(first_reading) + score + prior - _SPLIT_COST))
        else:
            pending = [(token, reading)]
    return {key: _absorbed(found, habit=habit) for key, found in options.items()}


def _absorbed(choices: list[Choice], *, sure: float = 0.9, cost: float = 1.5,
              habit: bool = False) -> list[Choice]:
    """`choices` with the ways that swallow a "1" another way finds made less likely by `cost`.

    The network is trained to read a digit with bits of its neighbours touching it, so it reads a "1"
    run into the next digit ("13" as one glyph) as that digit alone, as surely as the digit by itself.
    When another way of cutting reads the same digits plus a "1" it is sure of (at least `sure`, in a
    box of its own) and the way without it has a box wider than `_SWALLOW_WIDE` typical digits, that ink is a
    "1": the way that swallowed it is worth less. Only a "1": a slice off the side of a wide digit
    (a 4's stem, a 6's belly) can read as another digit just as surely, and a "4" or "9" cut at its
    stem reads "1" and the digit again, which the width tells apart.
    """
    texts = [_digit_text(choice) for choice in choices]
    out = []
    for choice, text in zip(choices, texts, strict=True):
        swallowed = text is not None and _may_swallow(choice[0][0][0], habit=habit) and any(
            other is not None and len(other[0]) > len(text[0]) and _inserted_sure(text[0], other, sure)
            for other in texts)
        out.append((choice[0], choice[1] - cost) if swallowed else choice)
    return out


def _swallow_limit(token: NumberToken, *, habit: bool = False) -> float:
    """The width beyond which a digit box may hold a "1" run into its digit: `_SWALLOW_WIDE` of the
    writer's typical digit width, or `_SWALLOW_HIGH` of the digit height when that is less (a writer
    who runs every "1" into its digit makes those pairs the typical width); `_HABIT_WIDE` of the
    digit height in a zone whose writer is known to do so (`choose_cuts`)."""
    height, width = token.digit_size
    return _HABIT_WIDE * height if habit else min(_SWALLOW_WIDE * width, _SWALLOW_HIGH * height)


def _may_swallow(token: NumberToken, *, habit: bool = False) -> bool:
    """Whether a digit box of the token is wide enough to have swallowed a "1" (`_absorbed`)."""
    limit = _swallow_limit(token, habit=habit)
    return limit > 0 and len(token.glyph_cuts) > 0 and any(box[2] > limit for box in token.image.digit_boxes)


Way = tuple[tuple[_group.Box, ...], ...]


def _wide_ways(token: NumberToken, *, narrow: float = 0.6, tall: float = _ONE_TALL,
               habit: bool = False) -> list[Way]:
    """The token's first way, and each other cut of a glyph wider than `_swallow_limit` that cuts off
    a box narrower than `narrow` typical digits and at least `tall` of the way's tallest box (a "1";
    `_absorbed` takes nothing shorter for one), the other glyphs cut the first way."""
    first = tuple(tuple(cuts[0]) for cuts in token.glyph_cuts)
    ways = [first]
    width = token.digit_size[1]
    for g, cuts in enumerate(token.glyph_cuts):
        if max(box[2] for box in cuts[0]) > _swallow_limit(token, habit=habit):
            for option in cuts[1:]:
                way = (*first[:g], tuple(option), *first[g + 1:])
                top = max(box[3] for glyph in way for box in glyph)
                if any(box[2] < narrow * width and box[3] >= tall * top for box in option):
                    ways.append(way)
    return ways


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


def _inserted_sure(short: str, long: tuple[str, tuple[float, ...]], sure: float) -> bool:
    """Whether `long` is `short` with "1"s inserted, each read at least `sure` (the first fitting
    alignment)."""
    text, probabilities = long
    i = 0
    for digit, probability in zip(text, probabilities, strict=True):
        if i < len(short) and digit == short[i]:
            i += 1
        elif digit != "1" or probability < sure:
            return False
    return i == len(short)


def _needs_ways(sequence: list[NumberToken], readings: dict[int, NumberReading], *, rising: bool,
                sure: float, penalty: float = STEP_BACK) -> set[int]:
    """Ids of the tokens of one zone whose other ways must be read: those read less surely than
    `sure`, and both neighbours of every step between totals that costs (`step_cost`) in the zone's
    better direction.

    Why the others may keep their first way: every other way scores at most `_OTHER_WAY` (its
    log-confidence is at most 0), below a first way read at least exp(`_OTHER_WAY`); a number whose
    steps to both neighbours cost nothing gains nothing from a change either.
    """
    need = {id(t) for t in sequence if _confidence(readings[id(t)]) < max(sure, math.exp(_OTHER_WAY))}
    kept = [t for t in sequence if not t.crossed_out]
    values = [readings[id(t)].value for t in kept]
    best: list[float] | None = None
    for sign in (1,) if rising else (1, -1):
        costs = [step_cost(sign * (v - u), penalty) if u is not None and v is not None else penalty
                 for u, v in itertools.pairwise(values)]
        if best is None or sum(costs) < sum(best):
            best = costs
    for i, cost in enumerate(best or []):
        if cost > 0.0:
            need.update((id(kept[i]), id(kept[i + 1])))
    return need


Candidates = tuple[tuple[int, Sequence["NumberToken"]], ...]
"""A block's (angle, its numbers cut at that angle), the usual angle first."""


def choose_angles(blocks: list[tuple[Candidates, bool]], cache: DigitCache, *, sample: int = 10,
                  bonus: float = 0.25, peek: int = 3,
                  margin: float = 0.6) -> list[tuple[int, Sequence[NumberToken]]]:
    """For each block (its candidates and whether its totals only rise), the angle whose first
    `sample` numbers read best (`_score`, the usual angle with `bonus`), with its numbers.

    To read fewer crops, the other angles are first read on `peek` numbers only; an angle whose
    peek scores `margin` or more below the usual angle is not read further (a few numbers read the
    wrong way round rarely read confidently and in order, and `margin` allows for the noise of a
    short sample). The other angles are read a number at a time (each round one batch for all blocks),
    and an angle is read no further once even the best its unread numbers could read leaves it
    unable to pass its next test (`_best_score`, `_best_sample`): its peek `margin` below the usual
    angle, or its sample no better than the usual angle. The choice is the same as reading them all.
    """
    first = [t for candidates, _ in blocks if candidates for t in candidates[0][1][:sample]]
    read = dict(zip(map(id, first), cache.read(first), strict=True))

    def score(numbers: Sequence[NumberToken], count: int, rising: bool) -> float:
        head = numbers[:count]
        return _score([read[id(t)] for t in head], crossed=[t.crossed_out for t in head], rising=rising)

    usual = [score(candidates[0][1], sample, rising) + bonus if candidates else -math.inf
             for candidates, rising in blocks]
    # (`numbers[:peek + 1]`: how many there are is known only once all are cut.)
    short = [[len(numbers[:peek + 1]) <= peek for _, numbers in candidates] for candidates, _ in blocks]
    # The other angles are read a number at a time, all blocks' in one batch: an angle that could not
    # pass its next test even were its unread numbers read surely and in order (`_best_sample`) is
    # read no further: its peek `margin` below the usual angle (`_best_score` once its first number
    # is read, then the peek's score), then its sample below the usual angle.
    rivals = [list(range(1, len(candidates))) for candidates, _ in blocks]
    for k in range(sample):
        if k in (1, peek):
            rivals = [[i for i in rival if short[b][i] or (_best_score(
                read[id(candidates[i][1][0])], candidates[i][1][:peek], cache) if k == 1
                else score(candidates[i][1], peek, rising)) > head - margin]
                for b, ((candidates, rising), rival, head)
                in enumerate(zip(blocks, rivals, usual, strict=True))]
        count, bar = (peek, margin) if k < peek else (sample, 0.0)
        rivals = [[i for i in rival if short[b][i] or len(candidates[i][1][:k + 1]) <= k or _best_sample(
            [read[id(t)] for t in candidates[i][1][:k]], candidates[i][1][:count], cache, rising=rising)
            > head - bar] for b, ((candidates, rising), rival, head)
            in enumerate(zip(blocks, rivals, usual, strict=True))]
        turn = [t for (candidates, _), rival in zip(blocks, rivals, strict=True) for i in rival
                for t in candidates[i][1][k:k + 1]]
        read.update(zip(map(id, turn), cache.read(turn), strict=True))
    chosen: list[tuple[int, Sequence[NumberToken]]] = []
    for (candidates, rising), rival, head in zip(blocks, rivals, usual, strict=True):
        if not candidates:
            chosen.append((0, ()))
            continue
        best, pick = head, 0
        for i in rival:
            value = score(candidates[i][1], sample, rising)
            if value > best:
                best, pick = value, i
        chosen.append(candidates[pick])
    return chosen


def _best_score(first: NumberReading, numbers: Sequence[NumberToken], cache: DigitCache) -> float:
    """The highest `_score` `numbers` could reach, their first read as `first` and the others not
    yet read: the others at confidence 1 with no leading zero, the totals all in order, and as many
    digits each as it has digit boxes (a recogniser that reads by digit gives one reading a box;
    any other, at most 3)."""
    logs = math.log(max(_confidence(first), 1e-6)) if first.candidates else math.log(1e-6)
    digits = len(first.digits)
    zero = int(bool(first.candidates) and digits > 1 and int(first.candidates[0][0]) < 10 ** (digits - 1))
    by_digit = getattr(cache.recognizer, "reads_by_digit", False)
    lengths = [min(len(first.digits), 3)] + [min(len(t.image.digit_boxes), 3) if by_digit else 3
                                             for t in numbers[1:]]
    count = len(numbers)
    # Readings above 1 by rounding: the others' logs are taken as a hair above 0.
    return (logs + 1e-9 * count) / count + 1.0 - 2.0 * zero / count + 0.3 * (sum(lengths) / count - 1.0)


def _best_sample(known: list[NumberReading], numbers: Sequence[NumberToken], cache: DigitCache, *,
                 rising: bool = False) -> float:
    """The highest `_score` the sample `numbers` could reach, its first ones read as `known` and the
    others not yet read: at confidence 1, no leading zero, as many digits as `_best_score` gives
    them, and every step they take part in the block's way (the known steps are as read; `rising`:
    only up counts); a hair above, for rounding."""
    by_digit = getattr(cache.recognizer, "reads_by_digit", False)
    logs = [math.log(max(float(r.candidates[0][1]), 1e-6)) if r.candidates else math.log(1e-6) for r in known]
    zeros = sum(bool(r.candidates) and len(r.digits) > 1
                and int(r.candidates[0][0]) < 10 ** (len(r.digits) - 1) for r in known)
    lengths = [min(len(r.digits), 3) for r in known]
    values = [int(r.candidates[0][0]) for r, t in zip(known, numbers, strict=False)
              if r.candidates and not t.crossed_out]
    steps = [b - a for a, b in itertools.pairwise(values)]
    way = sum(s > 0 for s in steps) if rising else max(sum(s > 0 for s in steps), sum(s < 0 for s in steps))
    unread = numbers[len(known):]
    for token in unread:
        logs.append(1e-9)
        lengths.append(min(len(token.image.digit_boxes), 3) if by_digit else 3)
    # Each unread number that is not crossed out and reads at all adds one step, in the block's way.
    monotone = 0.0
    for added in range(sum(not t.crossed_out for t in unread) + 1):
        total = len(values) + added - 1
        monotone = max(monotone, (way + total - len(steps)) / total if total > 0 else 0.5)
    count = len(logs)
    best: float = sum(logs) / count + monotone - 2.0 * zeros / count + 0.3 * (sum(lengths) / count - 1.0)
    return best + 1e-9


def _score(readings: list[NumberReading], *, crossed: list[bool], rising: bool = False) -> float:
    """How well a block reads at one angle: confident readings of running totals that do not go back.

    The mean log-confidence, plus the share of neighbouring totals that move in the block's main
    direction (pulka may be counted down; `rising`: upwards only), minus the share of numbers with a
    leading zero (a total read upside down ends up with its last digit, often 0, in front), plus a
    little for numbers of more than one digit (read a quarter turn off, a number falls apart into
    single digits). An empty block scores lowest but one: no reading is better than a wrong one only
    when nothing reads at all.
    """
    values: list[int] = []
    logs: list[float] = []
    leading_zeros = 0
    for reading, gone in zip(readings, crossed, strict=False):
        if not reading.candidates:
            logs.append(math.log(1e-6))
            continue
        value, confidence = reading.candidates[0]
        logs.append(math.log(max(float(confidence), 1e-6)))
        digits = len(reading.digits)
        if digits > 1 and int(value) < 10 ** (digits - 1):
            leading_zeros += 1
        if not gone:
            values.append(int(value))
    if not logs:
        return -20.0
    steps = [b - a for a, b in itertools.pairwise(values)]
    # Strictly: a running total that repeats is no total (digits of a turned number read one by one
    # often repeat).
    down = 0 if rising else sum(s < 0 for s in steps)
    monotone = max(sum(s > 0 for s in steps), down) / len(steps) if steps else 0.5
    # Read across the writing (a quarter turn off), every "number" is one digit of a column: longer
    # numbers mean the digits were found side by side, as written.
    length = sum(min(len(r.digits), 3) for r in readings) / len(readings) - 1.0
    return sum(logs) / len(logs) + monotone - 2.0 * leading_zeros / len(logs) + 0.3 * length


def choice_score(reading: NumberReading) -> float:
    """A reading's log-confidence, less 3 when it has more digits than any written number."""
    return math.log(max(_confidence(reading), 1e-6)) - (3.0 if len(reading.digits) > _LONGEST else 0.0)


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


def _ways(token: NumberToken, *, most: int = 12) -> list[tuple[tuple[_group.Box, ...], ...]]:
    """Every way of cutting the token's glyphs (at most `most`), as each glyph's digit boxes, the way
    in `token.image` first, then the ways that join two neighbouring glyphs into one digit
    (`glyph_joins`: the first of the two gets the joined box, the second none)."""
    ways: list[tuple[tuple[_group.Box, ...], ...]] = []
    # Decision: joined ways are only ever read here, for a number that is unsure or out of step with
    # its neighbours (`_needs_ways`), and they compete like any other way (with `_OTHER_WAY`), because
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


class DigitCache:
    """Reads numbers through a recogniser, each distinct digit crop once: the angle trials, the rest
    of the numbers and the ways of cutting a number share most of their digit boxes. A crop is known
    by its number image (which must stay alive while the cache is used) and its box. Only a recogniser
    whose number reading is its digits' readings (`reads_by_digit`, the CNN) is asked digit by digit;
    any other (Tesseract reads a whole line far better than its digits one by one) reads whole
    numbers every time."""

    def __init__(self, recognizer: Recognizer) -> None:
        self.recognizer = recognizer
        """The recogniser that reads what is not yet known."""
        self._digits: dict[tuple[int, _group.Box], DigitReading] = {}
        self._numbers: dict[tuple[int, tuple[_group.Box, ...]], NumberReading] = {}

    def read(self, tokens: list[NumberToken]) -> list[NumberReading]:
        """The recogniser's reading of each token's image, unknown digit crops in one batch."""
        read_digits = getattr(self.recognizer, "read_digits", None)
        if read_digits is None or not getattr(self.recognizer, "reads_by_digit", False):
            return read_tokens(self.recognizer, tokens)
        keys: list[tuple[int, _group.Box]] = []
        crops: list[npt.NDArray[np.uint8]] = []
        for token in tokens:
            for box in token.image.digit_boxes:
                key = (id(token.image.gray), box)
                if key not in self._digits:
                    self._digits[key] = _PENDING
                    keys.append(key)
                    crops.append(crop_digits(NumberImage(gray=token.image.gray, digit_boxes=(box,)))[0])
        if crops:
            # Decision: a lone crop is read beside a copy of itself, because cv2.dnn computes a batch of
            # one otherwise than a larger batch (probabilities off by ~1e-10): a crop then reads the same
            # whatever else happens to be read with it, and a change in how the passes batch their crops
            # changes no reading.
            read = read_digits(crops * 2 if len(crops) == 1 else crops)
            self._digits.update(zip(keys, read[:len(keys)], strict=True))
        out = []
        for token in tokens:
            whole = (id(token.image.gray), token.image.digit_boxes)
            number = self._numbers.get(whole)
            if number is None:
                number = read_number([self._digits[(whole[0], box)] for box in token.image.digit_boxes])
                self._numbers[whole] = number
            out.append(number)
        return out


_PENDING = DigitReading((), 0.0)


def _confidence(reading: NumberReading) -> float:
    return float(reading.candidates[0][1]) if reading.candidates else 0.0


def read_tokens(recognizer: Recognizer, tokens: list[NumberToken]) -> list[NumberReading]:
    """The recogniser's reading of each token's image, in one batch."""
    if not tokens:
        return []
    return list(recognizer.read_numbers([t.image for t in tokens]))
