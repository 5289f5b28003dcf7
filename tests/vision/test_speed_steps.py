"""Stage 5: the Viterbi of `_steps.monotone_picks` (plain Python since the speed work of session 6)
finds the best picks, checked against trying every combination of choices on small random zones."""

from __future__ import annotations

import itertools
import random

import numpy as np

from sheetscan.vision._steps import STEP_BACK, Choice, monotone_picks, step_cost
from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import NumberImage, NumberReading

_QUAD = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))


def _token(crossed: bool) -> NumberToken:
    return NumberToken(zone=0, angle=0, row=0, quad=_QUAD, crossed_out=crossed,
                       image=NumberImage(gray=np.zeros((10, 10), np.uint8), digit_boxes=((0, 0, 10, 10),)))


def _zone(rng: random.Random) -> list[list[Choice]]:
    """Up to 6 numbers, each with 1-3 ways of one or two parts; some crossed out, some parts unread."""
    zone: list[list[Choice]] = []
    total = rng.randint(0, 30)
    for _ in range(rng.randint(1, 6)):
        total += rng.choice([-5, 0, 3, 10, 25, 70])
        token = _token(rng.random() < 0.15)
        ways: list[Choice] = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            parts = tuple((token, NumberReading(() if rng.random() < 0.1 else
                                                ((total + rng.choice([0, 0, 1, -10, 100]), 0.9),), ()))
                          for _ in range(rng.choice([1, 1, 2])))
            ways.append((parts, round(rng.uniform(-4.0, 0.0), 1)))
        zone.append(ways)
    return zone


def _brute_force(zone: list[list[Choice]], rising: bool) -> float:
    """The best total over every combination of the choices of the numbers not crossed out: their
    scores less the cost of every step between neighbouring known values, in the better direction."""
    open_ = [ways for ways in zone if not ways[0][0][0][0].crossed_out]
    best = 0.0 if not open_ else -np.inf
    for combo in itertools.product(*open_):
        values = [reading.value for parts, _ in combo for _, reading in parts]
        score = sum(s for _, s in combo)
        for sign in (1,) if rising else (1, -1):
            cost = sum(step_cost(sign * (b - a), STEP_BACK) for a, b in itertools.pairwise(values)
                       if a is not None and b is not None)
            best = max(best, score - cost)
    return float(best)


def _picked_total(zone: list[list[Choice]], picks: list[int], rising: bool) -> float:
    """The total of the picks as `_brute_force` scores one combination (the better direction)."""
    chosen = [ways[p] for ways, p in zip(zone, picks, strict=True) if not ways[0][0][0][0].crossed_out]
    if not chosen:
        return 0.0
    values = [reading.value for parts, _ in chosen for _, reading in parts]
    score = sum(s for _, s in chosen)
    return max(score - sum(step_cost(sign * (b - a), STEP_BACK) for a, b in itertools.pairwise(values)
                           if a is not None and b is not None) for sign in ((1,) if rising else (1, -1)))


def test_the_picks_score_as_well_as_the_best_of_every_combination() -> None:
    rng = random.Random(5)
    for _ in range(400):
        zone = _zone(rng)
        for rising in (True, False):
            picks = monotone_picks(zone, rising=rising)
            assert _picked_total(zone, picks, rising) == _brute_force(zone, rising)
            # A crossed-out number takes its own likeliest way (the first among equals).
            for ways, pick in zip(zone, picks, strict=True):
                if ways[0][0][0][0].crossed_out:
                    scores = [s for _, s in ways]
                    assert pick == scores.index(max(scores))


def test_among_equal_totals_the_earlier_way_is_kept() -> None:
    # 10, then 20 read two ways at the same score and value, then 30: both totals are equal, the
    # first way stays.
    token = _token(False)

    def way(value: int, score: float) -> Choice:
        return ((token, NumberReading(((value, 0.9),), ())),), score

    zone = [[way(10, -0.1)], [way(20, -0.5), way(20, -0.5)], [way(30, -0.1)]]
    assert monotone_picks(zone, rising=True) == [0, 0, 0]


def test_a_choice_of_no_part_is_stepped_over_as_the_best_of_every_combination_finds() -> None:
    # Some numbers may also be read as nothing written (a choice of no part, never the first): the
    # totals step from the number before to the one after it, as every combination without it does.
    rng = random.Random(7)
    for _ in range(400):
        zone = [[*ways, ((), round(rng.uniform(-4.0, 0.0), 1))] if rng.random() < 0.4 else ways
                for ways in _zone(rng)]
        for rising in (True, False):
            picks = monotone_picks(zone, rising=rising)
            assert _picked_total(zone, picks, rising) == _brute_force(zone, rising)
