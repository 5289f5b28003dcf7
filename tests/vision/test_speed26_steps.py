"""Stage 5: the Viterbi of `_steps.monotone_picks` weighs the states before a number by the last value
they leave (a step's cost depends on that alone): the picks still score as well as the best of every
combination, and among equal totals the earlier way is still kept, even where two scores a rounding apart
come out equal once a step's cost is taken off."""

from __future__ import annotations

import random

from sheetscan.vision._steps import STEP_BACK, Choice, monotone_picks
from sheetscan.vision.recognise import NumberReading
from tests.vision.test_speed_steps import _brute_force, _picked_total, _token


def _way(value: int, score: float) -> Choice:
    return ((_token(False), NumberReading(((value, 0.9),), ())),), score


def test_two_scores_a_rounding_apart_that_tie_after_a_step_back_keep_the_earlier_way() -> None:
    # 10 read two ways, the second a rounding better; then 5, a step back for a rising zone. Less the
    # step's cost both ways total the same (-6.0 in floats), so the first way stays, as when every
    # state was tried in order.
    worse, better = -2.0000000000000004, -2.0
    assert worse < better and worse - STEP_BACK == better - STEP_BACK
    zone = [[_way(10, worse), _way(10, better)], [_way(5, -0.5)]]
    assert monotone_picks(zone, rising=True) == [0, 0]


def test_many_ways_that_share_their_values_pick_as_well_as_every_combination() -> None:
    # Up to 5 numbers of up to 6 ways each, their values from a few (as a number's cuts and candidates
    # often read the same value), their scores in quarters (sums exact in any order).
    rng = random.Random(26)
    for _ in range(200):
        zone: list[list[Choice]] = []
        total = rng.randint(0, 30)
        for _ in range(rng.randint(1, 5)):
            total += rng.choice([-5, 0, 3, 10, 25, 70])
            zone.append([_way(total + rng.choice([0, 0, 1, -10, 100]), -0.25 * rng.randint(0, 16))
                         for _ in range(rng.randint(1, 6))])
        for rising in (True, False):
            picks = monotone_picks(zone, rising=rising)
            assert _picked_total(zone, picks, rising) == _brute_force(zone, rising)
