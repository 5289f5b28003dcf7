"""A run of numbers misread the same way (stage 5, `_totals.choose_cuts`).

One writer writes a digit the same way each time, so where the network misreads it once (a "1" with
a long flag read as 7) it misreads it in the neighbouring numbers too: 6, 70, 72, 14 for 6, 10, 12, 14.
Each alternative reading costs its own evidence (`_totals._alternatives`), so two numbers read back to
their second candidate cost twice what one does, more than the one step back the run makes
(6 -> 70 -> 72 -> 14), and the totals keep the misreads. But the second glyph of the same shape adds
next to no evidence of its own: the network's errors on one writer's glyphs go together.
`shared_confusions` offers the run read with the same digit swapped in each of its numbers at the cost
of its dearest swap alone, and takes it when the zone's totals then score better.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from sheetscan.vision._steps import STEP_BACK, USUAL_STEP, Choice, steps_cost
from sheetscan.vision.recognise import NumberReading

__all__ = ["shared_confusions"]

Swap = tuple[str, str]
"""A digit as read and the digit it is read as instead."""


def shared_confusions(chosen: Sequence[Choice], *, rising: bool, open_to: Sequence[bool],
                      penalty: float = STEP_BACK, alternative_cost: float = 1.0,
                      usual: float = USUAL_STEP) -> dict[int, Choice]:
    """For a zone's chosen readings in writing order (crossed-out numbers included; they take no step),
    the run of neighbouring numbers to read with one digit swapped in each, by position in `chosen`:
    empty when no run scores better than the readings as chosen.

    A number may join a run when `open_to` says so (the numbers whose other readings the totals may
    choose: unsure or out of step), it is read as one part, and its reading's other candidates hold its
    value with one digit swapped the run's way (7 -> 1: 70 as 10, 72 as 12), scored like
    `_totals._alternatives` (its probability against the best one's, less `alternative_cost`). A run is
    two or more such numbers with no other number between them (crossed-out ones aside); it costs its
    dearest swap alone, and the best run is taken when the zone's readings and steps (`steps_cost`, in
    the zone's better direction; `usual`, the largest step that costs nothing) then score more than before.

    Decision: the run costs its dearest swap, not the sum, because the network's misreadings of one
    writer's glyph are not independent evidence: the first swap is judged as any alternative is, the
    others come with it. A run must be unbroken, because a number between that does not hold the
    digit (or holds it read surely) says the writer's glyph is not always misread.
    """
    swaps = [_swaps(choice, alternative_cost) if ok else {}
             for choice, ok in zip(chosen, open_to, strict=True)]
    steps = [k for k, choice in enumerate(chosen) if not _crossed(choice)]
    best: dict[int, Choice] = {}
    best_score = _score(chosen, steps, rising=rising, penalty=penalty, usual=usual)
    for swap in sorted({s for found in swaps for s in found}):
        for i, j in itertools.combinations(range(len(steps)), 2):
            members = steps[i:j + 1]
            if not all(swap in swaps[k] for k in members):
                continue
            trial = list(chosen)
            for k in members:
                trial[k] = swaps[k][swap][0]
            # The swaps' own costs are in the trial's scores: all but the dearest are given back.
            costs = [swaps[k][swap][1] for k in members]
            score = (_score(trial, steps, rising=rising, penalty=penalty, usual=usual)
                     + sum(costs) - max(costs))
            if score > best_score + 1e-9:
                best, best_score = {k: trial[k] for k in members}, score
    return best


def _crossed(choice: Choice) -> bool:
    return choice[0][0][0].crossed_out


def _score(chosen: Sequence[Choice], steps: Sequence[int], *, rising: bool, penalty: float,
           usual: float = USUAL_STEP) -> float:
    """The readings' log-likelihood less the steps between their totals, in the better direction."""
    values = [reading.value for k in steps for _, reading in chosen[k][0]]
    return sum(choice[1] for choice in chosen) - min(
        steps_cost(values, sign, penalty, usual) for sign in ((1,) if rising else (1, -1)))


def _swaps(choice: Choice, alternative_cost: float) -> dict[Swap, tuple[Choice, float]]:
    """The one-part choice read as each other candidate that is its value with one digit swapped: by
    the swap, the choice so read and what it costs against the choice."""
    if len(choice[0]) != 1:
        return {}
    ((token, reading),) = choice[0]
    if reading.value is None:
        return {}
    text = str(reading.value)
    best = math.log(max(reading.confidence, 1e-6))
    out: dict[Swap, tuple[Choice, float]] = {}
    for k in range(1, len(reading.candidates)):
        value, probability = reading.candidates[k]
        other = str(value)
        where = [i for i, (a, b) in enumerate(zip(text, other, strict=False)) if a != b]
        if len(other) != len(text) or len(where) != 1:
            continue
        swap = (text[where[0]], other[where[0]])
        cost = best - math.log(max(probability, 1e-6)) + alternative_cost
        if swap in out and out[swap][1] <= cost:
            continue
        ordered = ((value, probability), *reading.candidates[:k], *reading.candidates[k + 1:])
        out[swap] = ((((token, NumberReading(ordered, reading.digits)),), choice[1] - cost), cost)
    return out
