"""Running totals along a zone: what a step between two of them costs, and the choice of each number's
reading for the likeliest readings whose totals move the zone's way (Viterbi; stage 5, `_totals`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sheetscan.vision.recognise import NumberReading

if TYPE_CHECKING:
    from sheetscan.vision.numbers import NumberToken

__all__ = ["LONGEST", "PULKA_STEP", "STEP_BACK", "USUAL_STEP", "Choice", "Part", "monotone_picks",
           "step_cost", "steps_cost"]

Part = tuple["NumberToken", NumberReading]
"""A number as read: its token (its quad and digit boxes) and the recogniser's reading."""
Choice = tuple[tuple[Part, ...], float]
"""One way of reading a token: its parts (one, or two when its dot was lost) and their log-likelihood."""
LONGEST = 3
"""No written number has more than three digits (see `_group.group_numbers`)."""
STEP_BACK = 4.0
"""Log-likelihood cost of a step between totals that goes back or stands still (`step_cost`)."""
USUAL_STEP = 40.0
"""The largest step between a zone's running totals that costs nothing (`step_cost`).

Decision: 40, because in the sample games' truth files 99% of the steps of a zone's totals are at most
38 (largest 60); cost grows with the log of the step beyond that."""
PULKA_STEP = 10.0
"""The largest step between a pulka's totals that costs nothing (`step_cost`).

Decision: 10, because one deal writes to a pulka the price of its contract, 2 for a six up to 10 for a
ten or a misère (rules 000, the contract ladder and prices; the same in the doubled Leningrad table of
rules 004, where only whists and the mountain double), or 1 for an all-pass: the pulkas of the rendered
benches (seeds 1000-4000, 1,355 steps) step by 1 to 10, never more. A larger step (a game played in the
dark at double price, a pulka helped from another's surplus) costs as a whists step of four times its
size does: a little for a few points more, as much as a step back only for a jump of tens. A "6" read
"16", a "5" run into a struck 3 ("35") step by 10 to 30 more than a pulka does, which `USUAL_STEP`
let pass free."""


def monotone_picks(choices: list[list[Choice]], *, rising: bool = False,
                   penalty: float = STEP_BACK, usual: float = USUAL_STEP) -> list[int]:
    """Which choice to take for each number of a zone's sequence: the most likely readings (sum of
    log-confidences) less the cost of each step between neighbouring totals (`step_cost`) in the
    better direction of the two (strictly up, or strictly down for a pulka counted down; only up
    when `rising`; `usual`: the largest step that costs nothing).
    Crossed-out numbers are left out of the steps, and so is a number whose choice has no part (ink
    where nothing is written: the totals step over it). A number's first choice has a part."""
    best_total, best_picks = -math.inf, [0] * len(choices)
    for sign in (1,) if rising else (1, -1):
        total, picks = _viterbi(choices, sign=sign, penalty=penalty, usual=usual)
        if total > best_total:
            best_total, best_picks = total, picks
    return best_picks


def _values(choice: Choice) -> list[int | None]:
    return [reading.value for _, reading in choice[0]]


def steps_cost(values: Sequence[int | None], sign: int, penalty: float = STEP_BACK,
               usual: float = USUAL_STEP) -> float:
    """The `step_cost` of every step along `values` in the direction `sign` (steps from or to an unread
    value, None, cost nothing)."""
    return sum(step_cost(sign * (v - u), penalty, usual=usual) for u, v in itertools.pairwise(values)
               if u is not None and v is not None)


def _viterbi(choices: list[list[Choice]], *, sign: int, penalty: float,
             usual: float = USUAL_STEP) -> tuple[float, list[int]]:
    """The best choices (Viterbi) along the numbers not crossed out, for one direction `sign`;
    a crossed-out number takes its own likeliest choice. A choice of no part (`choose_cuts`' "nothing
    is written here") takes no step: the totals step from the number before it to the one after."""
    picks = [0] * len(choices)
    steps = []
    for i, c in enumerate(choices):
        if c[0][0][0][0].crossed_out:
            picks[i] = max(range(len(c)), key=lambda k: c[k][1])
        else:
            steps.append(i)
    if not steps:
        return 0.0, picks
    # Plain Python: most numbers have one option or a few, too few for numpy's overhead to pay (it
    # is no slower on the largest, 84 options a number); each step's cost is worked out once per distinct
    # step (`costs`). The same floats as the numpy version of session 5, the first best kept as argmax.
    # A state is one choice of the number (`which`), with its score and the last value it leaves
    # (`before`); a choice of no part makes a state for each state before it, which it carries on.
    costs = _step_costs(penalty, usual)
    values = [_values(choice) for choice in choices[steps[0]]]
    scores = [c[1] - steps_cost(v, sign, penalty, usual)
              for c, v in zip(choices[steps[0]], values, strict=True)]
    before = [v[-1] if v else None for v in values]
    which = list(range(len(scores)))
    whiches: list[list[int]] = [which]
    back: list[list[int]] = []
    for current in steps[1:]:
        # Every option of the previous number against every option of this one: the cost of the step
        # from its last value to this one's first (none where either is unread); the first best wins.
        values = [_values(choice) for choice in choices[current]]
        arguments: list[int] = []
        new_scores: list[float] = []
        new_before: list[int | None] = []
        new_which: list[int] = []
        by_last = _by_last(scores, before)
        best_from: dict[int | None, tuple[float, int]] = {}  # the best state before, by this option's first
        for index, (option, mine) in enumerate(zip(choices[current], values, strict=True)):
            if not mine:
                for i, (score, last) in enumerate(zip(scores, before, strict=True)):
                    arguments.append(i)
                    new_scores.append(score + option[1])
                    new_before.append(last)
                    new_which.append(index)
                continue
            first = mine[0]
            found = best_from.get(first)
            if found is None:
                found = best_from[first] = _best_before(by_last, first, sign, costs, penalty, usual)
            best, argument = found
            arguments.append(argument)
            # (A one-part option takes no step inside itself: most options.)
            inside = steps_cost(mine, sign, penalty, usual) if len(mine) > 1 else 0
            new_scores.append(best + option[1] - inside)
            new_before.append(mine[-1])
            new_which.append(index)
        scores, before, which = new_scores, new_before, new_which
        whiches.append(which)
        back.append(arguments)
    k = max(range(len(scores)), key=lambda i: scores[i])
    total = scores[k]
    for position in range(len(steps) - 1, -1, -1):
        picks[steps[position]] = whiches[position][k]
        if position > 0:
            k = back[position - 1][k]
    return total, picks


_COSTS: dict[tuple[float, float], dict[int, float]] = {}
"""`step_cost` of each step met so far, by (penalty, usual): see `_step_costs`."""
_MOST_COSTS = 100_000
"""The most steps `_COSTS` keeps for one (penalty, usual) before it starts again."""


def _step_costs(penalty: float, usual: float) -> dict[int, float]:
    """The `step_cost` of each step met so far with this `penalty` and `usual` step (by the step): a
    cost is a function of these three alone, so every zone of every sheet shares one table.

    Decision: one table for the process, not one per Viterbi pass, because a sheet's zones and their
    passes (both directions, the ways, the alternatives, `_regroup`'s moves) step between much the same
    totals: per pass, seven in ten steps were new and each cost a logarithm. Bounded (`_MOST_COSTS`),
    and a float once set is never changed, so threads may share it."""
    costs = _COSTS.get((penalty, usual))
    if costs is None or len(costs) > _MOST_COSTS:
        costs = _COSTS[(penalty, usual)] = {}
    return costs


def _by_last(scores: list[float], before: list[int | None]) -> dict[int | None, list[tuple[float, int]]]:
    """The states (score, index) grouped by the last value each leaves, best score first (the earlier
    state first among equals): a step's cost depends on that value alone."""
    groups: dict[int | None, list[tuple[float, int]]] = {}
    for i, (score, last) in enumerate(zip(scores, before, strict=True)):
        groups.setdefault(last, []).append((score, i))
    for members in groups.values():
        if len(members) > 1:
            members.sort(key=lambda member: (-member[0], member[1]))
    return groups


def _best_before(by_last: dict[int | None, list[tuple[float, int]]], first: int | None, sign: int,
                 costs: dict[int, float], penalty: float, usual: float) -> tuple[float, int]:
    """The best (score less the step's cost) of the states before an option whose first value is
    `first`, and the earliest state that reaches it: the same as trying every state in order and
    keeping the first best, since a group's states share the step's cost.

    Decision: each state's total is still its own score less the cost, because two scores a rounding
    apart may come out equal with the cost taken off (subtraction rounds monotonically, so within a
    group the states that reach the group's best are its first few, best first): the earliest of those
    is the one the state-by-state search kept."""
    best, argument = -math.inf, -1
    for last, members in by_last.items():
        if first is not None and last is not None:
            move = sign * (first - last)
            cost = costs.get(move)
            if cost is None:
                cost = costs[move] = step_cost(move, penalty, usual=usual)
        else:
            cost = 0.0
        total = members[0][0] - cost
        earliest = members[0][1]
        for score, i in members[1:]:
            if score - cost != total:
                break
            earliest = min(earliest, i)
        if argument < 0 or total > best or (total == best and earliest < argument):
            best, argument = total, earliest
    return best, argument


def step_cost(step: int, penalty: float, *, usual: float = USUAL_STEP) -> float:
    """The cost of one step between running totals: `penalty` when it goes back or stands still; a
    growing cost past `usual` (`USUAL_STEP`, `PULKA_STEP`; a jump of hundreds is a digit too many).
    """
    if step <= 0:
        return penalty
    if step <= usual:
        return 0.0
    return min(penalty, 0.5 + 2.0 * math.log(step / usual))
