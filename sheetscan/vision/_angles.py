"""Choosing each block's writing angle by how confidently and in order a few of its numbers read at
each candidate angle (stage 5, with the recogniser; `choose_angles`): the other angles first on a peek
of three numbers, and each read no further than it could still compete; a sheet's blocks are taken
turned by 180° together or not at all (`_TURN`). The circle's angle and number are chosen as a pulka
target's (`circle_number`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from sheetscan.vision._digit_cache import DigitCache
from sheetscan.vision._steps import LONGEST
from sheetscan.vision._totals import OTHER_WAY, cut_ways, way_token
from sheetscan.vision.recognise import NumberReading

if TYPE_CHECKING:
    from sheetscan.vision.numbers import NumberToken

__all__ = ["Candidates", "choose_angles", "circle_number"]

_FLOOR = 0.05
"""The least confidence a number counts with in an angle's score (`_score`): a number that reads at
all badly (a smudge, a pale or broken number) says only that it reads badly.

Decision: 0.05, because the score is a mean of log-confidences and one number read at 1e-6 (the
floor before) weighed as much as fourteen numbers each read at 0.37: a block written the usual way
with one unreadable number lost to its upside-down reading, every number of it misread. At 0.01 one
such number still cost a block 0.46 and turned a mountain block a quarter turn (seed 3002); 0.05 and
0.1 read every rendered bench (seeds 1000-5000) the same."""

_CLEAR = 1.0
"""A block whose usual angle scores this much or more (`_score` with the usual angle's bonus) is taken
as written the usual way: its other angles are neither cut nor read.

Decision: 1.0, because that is a mean log-confidence of -0.25 with every total in order (or less sure
numbers of more digits), while on the rendered benches (seeds 1000 x24, 2000-5000 x12: 1260 blocks) no
block whose usual angle scored above 0.40 was read better at another angle: 78 % of blocks score 1.0 or
more, and their other angles cost network crops and a cut of the whole block each, for nothing. The
readings of seeds 1000-4000 (12 photos each) are the same as when every block's other angles are read
as far as they could compete. (A bar of 1.3 for samples shorter than ten numbers, so that a few
one-digit numbers read surely and in order still had their other angles read, cost 20 crops a photo
and changed no reading. A lower bar of 0.6 is not worth its changed readings either way: on bench seed
1000 x12 and bench_styles 22000 usual, small, thin and motion x3 no block scoring 0.4 or more read
better at another angle, yet the blocks between 0.6 and 1.0 (1.7 and 2.3 a photo) hold only 41 and 46 %
of the other angles cut, and the whole scan took 0.987 of its CPU with it (bench seed 1000 x24 and those 12
style photos, old and new alternated in one process).)"""

_TURN = 3.0
"""How much better (in `_score` units) a block must read turned by 180° from its own writing angles
than at them to be taken as turned, on a sheet that reads the usual way up (`_upright`).

Decision: a sheet's blocks are turned together or not at all, because each player writes their zones
from their own seat (LAYOUT.md): a block reads turned only when the whole sheet was taken the wrong
way up, and then most of its blocks read better turned. A block of one to three numbers has too few
readings to tell its angle alone (a "24" with a stray mark before it reads "024" at its own angle,
a leading zero, while turned it reads a "hz" as "532"): with the usual angle's bonus only, zones of
one to three numbers were read turned on seeds 3000-4000 and bench_styles 6000 and 11000 (every
number of them misread). Every block the rendered benches write is at one of its own angles; with
the blocks read on ten numbers at every angle (seeds 1000-4000 x12, bench_styles 6000 x10 styles and
11000 x9 styles, 8 photos each), the blocks read at a wrong angle were 13 / 34 / 35 with the bonus
only, 7 / 6 / 24 with 1.0 and 6 / 1 / 23 with 3.0 (more made no difference). 3.0 rather than refusing
turned angles on an upright sheet, so that a block written from across the table still reads, when
it reads much better so (by a log-confidence of 3 a number, or its numbers all in order)."""

_SEVERAL_DIGITS = 1.0
"""What a reading of two or more digits adds (log-confidence) to its score as the pulka target
(`circle_number`).

Decision: 1.0, because a target is a number of points a game plays to (10, 20, 50), and what else
the circle holds reads as single digits: a piece of the circle's own line read as a sure "1", and a
"20" seen a quarter turned falls apart into a sure "2" and a sure "0" or stands as one stack that
reads a sure "8". A two-digit reading still loses to a single digit read e (2.7) times as surely."""

_LENGTH_BONUS = 0.3
"""What `_score` adds for each digit a block's numbers have on average beyond one."""

_LONGEST_COUNTED = 3
"""The most digits of a number `_score` counts towards `_LENGTH_BONUS`."""

_HIGHEST = 1.0 + _LENGTH_BONUS * (_LONGEST_COUNTED - 1) + 1e-6
"""The most `_score` gives any reading of a block: a mean log-confidence of at most 0, every step in the
block's way (1), no leading zero and `_LONGEST_COUNTED` digits a number; a hair above, for confidences
a hair above 1 by rounding."""

Candidates = tuple[tuple[int, Sequence["NumberToken"]], ...]
"""A block's (angle, its numbers cut at that angle), the usual angle first."""


def choose_angles(blocks: list[tuple[Candidates, bool]], cache: DigitCache, *, sample: int = 10,
                  bonus: float = 0.25, peek: int = 3, margin: float = 0.6,
                  clear: float = _CLEAR, turned_by: float = _TURN) -> list[tuple[int, Sequence[NumberToken]]]:
    """For each block (its candidates and whether its totals only rise), the angle whose first
    `sample` numbers read best (`_score`, the usual angle with `bonus`), with its numbers.

    To read fewer crops, the other angles are first read on `peek` numbers only; an angle whose
    peek scores `margin` or more below the usual angle is not read further (a few numbers read the
    wrong way round rarely read confidently and in order, and `margin` allows for the noise of a
    short sample). The other angles are read a number at a time (each round one batch for all blocks),
    and an angle is read no further once even the best its unread numbers could read leaves it
    unable to pass its next test (`_best_score`, `_best_sample`): its peek `margin` below the usual
    angle, or its sample no better than the usual angle. The choice is the same as reading them all,
    except that a block whose usual angle scores `clear` or more (bonus included) is not read at its
    other angles at all, nor cut at them (see `_CLEAR`).

    Last, the sheet is read as a whole: when its blocks read better at their own angles than turned
    by 180° (`_upright`), a block's turned angle must read `turned_by` better than its own to be taken
    (see `_TURN`); this reads nothing more (an angle dropped above could not beat the usual one). And
    when the sheet reads the usual way up however its turned angles read, a turned angle that could
    not be taken whatever it read is neither cut nor read (`_without_hopeless_turns`): the same choice.
    """
    first = [t for candidates, _ in blocks if candidates for t in candidates[0][1][:sample]]
    read = dict(zip(map(id, first), cache.read(first), strict=True))

    def score(numbers: Sequence[NumberToken], count: int, rising: bool) -> float:
        head = numbers[:count]
        return _score([read[id(t)] for t in head], crossed=[t.crossed_out for t in head], rising=rising)

    usual = [score(candidates[0][1], sample, rising) + bonus if candidates else -math.inf
             for candidates, rising in blocks]
    # The other angles are read a number at a time, all blocks' in one batch: an angle that could not
    # pass its next test even were its unread numbers read surely and in order (`_best_sample`) is
    # read no further: its peek `margin` below the usual angle (`_best_score` once its first number
    # is read, then the peek's score), then its sample below the usual angle. A block that reads
    # clearly the usual way has none, nor turned ones that could not be taken on an upright sheet.
    rivals = [list(range(1, len(candidates))) if head < clear else []
              for (candidates, _), head in zip(blocks, usual, strict=True)]
    turned = [_turned(candidates) for candidates, _ in blocks]
    rivals = _without_hopeless_turns(blocks, usual, rivals, turned, sample=sample, turned_by=turned_by)
    # (`numbers[:peek + 1]`: how many there are is known only once all are cut; only the angles still
    # in the running are cut.)
    short = [{i: len(candidates[i][1][:peek + 1]) <= peek for i in rival}
             for (candidates, _), rival in zip(blocks, rivals, strict=True)]
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
    scores = [{0: head, **{i: score(candidates[i][1], sample, rising) for i in rival}}
              for (candidates, rising), rival, head in zip(blocks, rivals, usual, strict=True)]
    # The sheet reads the usual way up when its blocks, weighed by their numbers, read better at their
    # own angles than turned (`_upright`); then a turned angle must read better by `turned_by` to be taken.
    penalty = turned_by if _upright(blocks, scores, turned, sample) else 0.0
    chosen: list[tuple[int, Sequence[NumberToken]]] = []
    for (candidates, _), read_at, turns in zip(blocks, scores, turned, strict=True):
        if not candidates:
            chosen.append((0, ()))
            continue
        pick = max(read_at, key=lambda i: read_at[i] - (penalty if i in turns else 0.0))
        chosen.append(candidates[pick])
    return chosen


def _without_hopeless_turns(blocks: list[tuple[Candidates, bool]], usual: list[float],
                            rivals: list[list[int]], turned: list[frozenset[int]], *, sample: int,
                            turned_by: float) -> list[list[int]]:
    """`rivals` (each block's other angles still to be read) without the turned angles that could not be
    taken however they read: when the sheet reads the usual way up whatever its turned angles score
    (`_upright` with each at `_HIGHEST`, the most any angle can score), a turned angle must read
    `turned_by` better than the block's own angles (`choose_angles`), so a block whose usual angle scores
    `_HIGHEST - turned_by` or more (`usual`, bonus included) is not read turned at all.

    Decision: the turned angles are dropped before any is cut, because cutting a block at another angle
    finds its strikes and groups its numbers anew (about as much as its usual angle costs), and on a
    sheet held the right way up no turned reading can win there; the choice is the same as reading them
    (on a tie the block's own angle, which comes first, wins either way), and so is `_upright`'s vote,
    which only grows when a turned angle reads less than the most it could.
    """
    bound = [{0: head, **{i: _HIGHEST for i in rival if i in turns}}
             for head, rival, turns in zip(usual, rivals, turned, strict=True)]
    if not _upright(blocks, bound, turned, sample):
        return rivals
    return [[i for i in rival if i not in turns or head < _HIGHEST - turned_by]
            for head, rival, turns in zip(usual, rivals, turned, strict=True)]


def _turned(candidates: Candidates) -> frozenset[int]:
    """Which of a block's candidates are its own angles turned by 180°: the second half, when the
    candidates are its own angles followed by the same turned, in the same order
    (`numbers._candidate_angles`); none otherwise (the circle, which may be written from any side)."""
    angles = [angle for angle, _ in candidates]
    half = len(angles) // 2
    if half == 0 or len(angles) % 2 or any((b - a) % 360 != 180
                                           for a, b in zip(angles[:half], angles[half:], strict=True)):
        return frozenset()
    return frozenset(range(half, len(angles)))


def _upright(blocks: list[tuple[Candidates, bool]], scores: list[dict[int, float]],
             turned: list[frozenset[int]], sample: int) -> bool:
    """Whether the sheet reads the usual way up: the blocks' votes, each the margin (at most 1 either
    way) by which its own angles read better than turned ones, weighed by its numbers (up to `sample`),
    sum above 0. A block whose turned angles were never read to the end (they could not compete)
    votes the full 1 for its own."""
    vote = 0.0
    for (candidates, _), read_at, turns in zip(blocks, scores, turned, strict=True):
        if not turns:
            continue
        weight = len(candidates[0][1][:sample])
        own = max(value for i, value in read_at.items() if i not in turns)
        other = max((value for i, value in read_at.items() if i in turns), default=-math.inf)
        vote += weight * max(-1.0, min(1.0, own - other))
    return vote > 0.0


def _best_score(first: NumberReading, numbers: Sequence[NumberToken], cache: DigitCache) -> float:
    """The highest `_score` `numbers` could reach, their first read as `first` and the others not
    yet read: the others at confidence 1 with no leading zero, the totals all in order, and as many
    digits each as it has digit boxes (a recogniser that reads by digit gives one reading a box;
    any other, at most 3)."""
    logs = math.log(max(first.confidence, _FLOOR))
    zero = int(_leading_zero(first, crossed=numbers[0].crossed_out))
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
    logs = [math.log(max(r.confidence, _FLOOR)) for r in known]
    zeros = sum(_leading_zero(r, crossed=t.crossed_out) for r, t in zip(known, numbers, strict=False))
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


def _leading_zero(reading: NumberReading, *, crossed: bool) -> bool:
    """Whether `reading`'s best value has more digits than it needs (a leading 0), for a number not
    `crossed` out."""
    # A strike leaves marks between and before the digits it crosses that read as anything, a 0 among
    # them: a struck number's leading zero says nothing of the angle (seed 2000, a pulka's struck "17"
    # read "07" at its own angle lost the block to a turned reading, its "10" read "5").
    digits = len(reading.digits)
    return bool(reading.candidates) and digits > 1 and not crossed \
        and int(reading.candidates[0][0]) < 10 ** (digits - 1)


def _score(readings: list[NumberReading], *, crossed: list[bool], rising: bool = False) -> float:
    """How well a block reads at one angle: confident readings of running totals that do not go back.

    The mean log-confidence, plus the share of neighbouring totals that move in the block's main
    direction (pulka may be counted down; `rising`: upwards only), minus the share of numbers with a
    leading zero (a total read upside down ends up with its last digit, often 0, in front; crossed-out
    numbers aside: a strike's marks read as anything), plus a little for numbers of more than one
    digit (read a quarter turn off, a number falls apart into single digits). An empty block scores
    lowest but one: no reading is better than a wrong one only when nothing reads at all.
    """
    values: list[int] = []
    logs: list[float] = []
    leading_zeros = 0
    for reading, gone in zip(readings, crossed, strict=False):
        if not reading.candidates:
            logs.append(math.log(_FLOOR))
            continue
        value, confidence = reading.candidates[0]
        logs.append(math.log(max(float(confidence), _FLOOR)))
        leading_zeros += _leading_zero(reading, crossed=gone)
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
    length = sum(min(len(r.digits), _LONGEST_COUNTED) for r in readings) / len(readings) - 1.0
    return sum(logs) / len(logs) + monotone - 2.0 * leading_zeros / len(logs) + _LENGTH_BONUS * length


def circle_number(candidates: Candidates, chosen: tuple[int, Sequence[NumberToken]], cache: DigitCache, *,
                  several: float = _SEVERAL_DIGITS) -> tuple[int, tuple[NumberToken, ...]]:
    """The angle the circle is written at and its one number, the pulka target, cut the way it reads
    best as one: every number of the circle (not crossed out) at every angle, read every way its
    glyphs may be cut (`_totals.cut_ways`, the first way with no cost and the others `OTHER_WAY`),
    scored by its log-confidence plus `several` for two or more digits; a reading of 0, with a
    leading zero (a number read upside down ends with its last digit, often 0, in front) or of more
    than `LONGEST` digits is no target. The number is cut that way only, so that nothing cuts it
    otherwise later; among equals the angle `chosen` (by `choose_angles`) wins. With no reading that
    could be a target, `chosen` as it is.

    The other ways are read only when the first ways leave a target they could beat (none scores
    above `OTHER_WAY` + `several`): a circle whose number reads surely costs no other crop.

    Decision: the circle holds one number, so it is not chosen like a zone's (running totals read
    confidently and in order): at the wrong angle its writing falls apart ("20" a quarter turned: a
    sure "2" and a sure "0", or one stack that reads a sure "8"; upside down: "02"), and a piece of
    the circle's own line left in its ink reads as a sure "1" that spoilt the right angle's score
    (bench_styles 11001 far and jpeg: the target read as 1).
    """
    order = [chosen] + [c for c in candidates if c[0] != chosen[0]]
    firsts: list[tuple[int, float, NumberToken]] = []
    others: list[tuple[int, float, NumberToken]] = []
    for k, (_, numbers) in enumerate(order):
        for token in numbers:
            if token.crossed_out:
                continue
            for w, way in enumerate(cut_ways(token) if token.glyph_cuts else [()]):
                cut = token if not way else replace(
                    way_token(token, way) if w else token,
                    glyph_cuts=tuple((boxes,) for boxes in way), glyph_joins=())
                (others if w else firsts).append((k, OTHER_WAY if w else 0.0, cut))
    best = _best_target(firsts, cache, several, None)
    if best is None or best[0] < OTHER_WAY + several:
        best = _best_target(others, cache, several, best)
    if best is None:
        return chosen[0], tuple(chosen[1])
    return order[best[1]][0], (best[2],)


def _best_target(jobs: list[tuple[int, float, NumberToken]], cache: DigitCache, several: float,
                 best: tuple[float, int, NumberToken] | None) -> tuple[float, int, NumberToken] | None:
    """The best of `best` and the `jobs` (which angle, the way's prior, the number cut that way) as the
    pulka target (`circle_number`): (score, which angle, the number); the first of equals."""
    for (k, prior, cut), reading in zip(jobs, cache.read([t for _, _, t in jobs]), strict=True):
        if not reading.candidates:
            continue
        value, confidence = int(reading.candidates[0][0]), float(reading.candidates[0][1])
        digits = len(reading.digits)
        if value < 1 or digits > LONGEST or value < 10 ** (digits - 1):
            continue
        score = math.log(max(confidence, 1e-6)) + prior + (several if digits > 1 else 0.0)
        if best is None or score > best[0]:
            best = (score, k, cut)
    return best
