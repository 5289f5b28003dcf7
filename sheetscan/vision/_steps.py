"""Running totals along a zone: what a step between two of them costs, and the choice of each number's
reading for the likeliest readings whose totals move the zone's way (Viterbi; stage 5, `_totals`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from sheetscan.vision.recognise import NumberReading

if TYPE_CHECKING:
    from sheetscan.vision.numbers import NumberToken

__all__ = ["LONGEST", "STEP_BACK", "Choice", "Part", "monotone_picks", "step_cost", "steps_cost"]

Part = tuple["NumberToken", NumberReading]
"""A number as read: its token (its quad and digit boxes) and the recogniser's reading."""
Choice = tuple[tuple[Part, ...], float]
"""One way of reading a token: its parts (one, or two when its dot was lost) and their log-likelihood."""
LONGEST = 3
"""No written number has more than three digits (see `_group.group_numbers`)."""
STEP_BACK = 4.0
"""Log-likelihood cost of a step between totals that goes back or stands still (`step_cost`)."""


def monotone_picks(choices: list[list[Choice]], *, rising: bool = False,
                   penalty: float = STEP_BACK) -> list[int]:
    """Which choice to take for each number of a zone's sequence: the most likely readings (sum of
    log-confidences) less the cost of each step between neighbouring totals (`step_cost`) in the
    better direction of the two (strictly up, or strictly down for a pulka counted down; only up
    when `rising`).
    Crossed-out numbers are left out of the steps."""
    best_total, best_picks = -math.inf, [0] * len(choices)
    for sign in (1,) if rising else (1, -1):
        total, picks = _viterbi(choices, sign=sign, penalty=penalty)
        if total > best_total:
            best_total, best_picks = total, picks
    return best_picks


def _values(choice: Choice) -> list[int | None]:
    return [reading.value for _, reading in choice[0]]


def steps_cost(values: Sequence[int | None], sign: int, penalty: float = STEP_BACK) -> float:
    """The `step_cost` of every step along `values` in the direction `sign` (steps from or to an unread
    value, None, cost nothing)."""
    return sum(step_cost(sign * (v - u), penalty) for u, v in itertools.pairwise(values)
               if u is not None and v is not None)


def _viterbi(choices: list[list[Choice]], *, sign: int, penalty: float) -> tuple[float, list[int]]:
    """The best choices (Viterbi) along the numbers not crossed out, for one direction `sign`;
    a crossed-out number takes its own likeliest choice."""
    picks = [0] * len(choices)
    steps = []
    for i, c in enumerate(choices):
        if c[0][0][0][0].crossed_out:
            picks[i] = max(range(len(c)), key=lambda k: c[k][1])
        else:
            steps.append(i)
    if not steps:
        return 0.0, picks
    values = [[_values(choice) for choice in c] for c in choices]
    scores = [c[1] - steps_cost(v, sign, penalty)
              for c, v in zip(choices[steps[0]], values[steps[0]], strict=True)]
    back: list[list[int]] = []
    for previous, current in itertools.pairwise(steps):
        # Every option of the previous number against every option of this one at once: the cost of
        # the step from its last value to this one's first (none where either is unread).
        cost = _cross_costs([v[-1] for v in values[previous]], [v[0] for v in values[current]], sign, penalty)
        totals = np.asarray(scores, dtype=np.float64)[:, None] - cost
        arguments = np.argmax(totals, axis=0)
        bests = totals[arguments, np.arange(totals.shape[1])]
        scores = [float(best) + option[1] - steps_cost(mine, sign, penalty)
                  for best, option, mine in zip(bests, choices[current], values[current], strict=True)]
        back.append([int(a) for a in arguments])
    k = max(range(len(scores)), key=lambda i: scores[i])
    total = scores[k]
    for position in range(len(steps) - 1, -1, -1):
        picks[steps[position]] = k
        if position > 0:
            k = back[position - 1][k]
    return total, picks


def _cross_costs(before: list[int | None], after: list[int | None], sign: int,
                 penalty: float) -> npt.NDArray[np.float64]:
    """The `step_cost` of the step from each of `before` to each of `after` (rows: `before`); 0 where
    either is None."""
    known = np.array([[u is not None and v is not None for v in after] for u in before], dtype=bool)
    first = np.array([0 if u is None else u for u in before], dtype=np.int64)
    second = np.array([0 if v is None else v for v in after], dtype=np.int64)
    moves = sign * (second[None, :] - first[:, None])
    distinct, inverse = np.unique(moves, return_inverse=True)
    costs = np.array([step_cost(int(m), penalty) for m in distinct], dtype=np.float64)
    return np.where(known, costs[inverse.reshape(moves.shape)], 0.0)


def step_cost(step: int, penalty: float, *, usual: float = 40.0) -> float:
    """The cost of one step between running totals: `penalty` when it goes back or stands still; a
    growing cost past `usual` (a jump of hundreds is a digit too many).

    Decision: steps up to 40 cost nothing, because in the sample games' truth files 99% of the steps
    of a zone's totals are at most 38 (largest 60); cost grows with the log of the step beyond that.
    """
    if step <= 0:
        return penalty
    if step <= usual:
        return 0.0
    return min(penalty, 0.5 + 2.0 * math.log(step / usual))
