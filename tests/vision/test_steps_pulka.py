"""Stage 5: a pulka's running totals step by what one deal writes to a pulka (`_steps.PULKA_STEP`),
so the totals of a pulka zone doubt a step that no contract writes (a "6" read "16" after a 2) where
a whists or mountain zone would let it pass (`_steps.step_cost`, `_totals.choose_cuts`,
`_regroup.regroup` with the zones' `steps`).

The prices come from the rules: rules/000 (contract ladder and prices: 6=2, 7=4, 8=6, 9=8, 10=10,
misère=10; an all-pass writes 1 to the pulka in Rostov) and rules/004 (Ленинградка: the same 2...10
"в пулю" in its doubled table, where only whists and the mountain double). Crafted tokens with known
readings (one 20x40 box a digit), so the tests check the totals' choice, not the network.
"""

from __future__ import annotations

import math

import pytest

from sheetscan.vision._regroup import regroup
from sheetscan.vision._steps import PULKA_STEP, STEP_BACK, USUAL_STEP, step_cost
from sheetscan.vision._totals import choose_cuts
from tests.vision._number_reads import Read, UnusedRecognizer, numbers_in_line

_ZONE = 5




@pytest.mark.parametrize("price", [1, 2, 4, 6, 8, 10])
def test_a_pulka_step_of_what_one_deal_writes_costs_nothing(price: int) -> None:
    # rules/000: a contract writes 2, 4, 6, 8 or 10 to the pulka (misère 10), an all-pass 1.
    assert step_cost(price, STEP_BACK, usual=PULKA_STEP) == 0.0
    assert step_cost(-price, STEP_BACK, usual=PULKA_STEP) == STEP_BACK


def test_a_larger_pulka_step_costs_as_a_whists_step_four_times_its_size() -> None:
    # 0.5 + 2 ln(step / 10): a step of 14 costs 0.5 + 2 ln 1.4 = 1.173; of 20, 0.5 + 2 ln 2 = 1.886,
    # as a whists step of 80 does (0.5 + 2 ln(80 / 40)); a jump of 100 costs a step back's 4 at most.
    assert step_cost(14, STEP_BACK, usual=PULKA_STEP) == pytest.approx(0.5 + 2.0 * math.log(1.4))
    assert step_cost(20, STEP_BACK, usual=PULKA_STEP) == pytest.approx(1.886, abs=1e-3)
    assert step_cost(20, STEP_BACK, usual=PULKA_STEP) == pytest.approx(step_cost(80, STEP_BACK))
    assert step_cost(14, STEP_BACK, usual=USUAL_STEP) == 0.0
    assert step_cost(100, STEP_BACK, usual=PULKA_STEP) == STEP_BACK


def _chosen(line: list[Read], steps: dict[int, float] | None) -> list[int | None]:
    tokens = [t for t, _ in line]
    readings = {id(t): r for t, r in line}
    parts = choose_cuts(UnusedRecognizer(), [(True, False, tokens)], readings, steps=steps)
    return [r.value for t in tokens for _, r in parts.get(id(t), ((t, readings[id(t)]),))]


def test_a_pulka_doubts_a_leading_one_no_deal_writes() -> None:
    # A pulka 2, then an 8 with a stroke before it read as a "1" at 0.55 (else not a digit): the
    # number reads 18 (0.55 x 0.99) or 8 (0.45 x 0.99). The other reading costs its probability against
    # the best one's and 1.0 (`_totals._alternatives`): ln(0.45 / 0.55) - 1 = -1.20. As a pulka, 2 -> 18
    # steps 16, which costs 0.5 + 2 ln 1.6 = 1.44 (no deal writes 16): 8 is the likelier. In a whists
    # zone a step of 16 is free and 18 stays.
    line = numbers_in_line([[(2, 0.99)], [(1, 0.55), (8, 0.99)]], zone=_ZONE)
    assert [r.value for _, r in line] == [2, 18]
    assert _chosen(line, {_ZONE: PULKA_STEP}) == [2, 8]
    assert _chosen(line, None) == [2, 18]
    assert _chosen(line, {_ZONE + 1: PULKA_STEP}) == [2, 18]


def test_two_pulka_numbers_are_not_read_as_one_no_deal_writes() -> None:
    # A pulka 6, then a "12" whose 1 was lost (read 2), then 9 close after it: 6 -> 2 falls (a step
    # back, 4). Read as one, "29" mends that fall; in a whists zone 6 -> 29 is free, so the two are read
    # as one number (their dot taken as lost). As a pulka, 6 -> 29 steps 23 (0.5 + 2 ln 2.3 = 2.17):
    # the merge mends less than a step back and is not taken.
    sure = 0.99
    line = numbers_in_line([[(6, sure)], [(2, sure)], [(9, sure)]], zone=_ZONE)
    tokens = [t for t, _ in line]
    readings = {id(t): r for t, r in line}

    def values(steps: dict[int, float] | None) -> list[int | None]:
        parts = regroup([(True, False, tokens)], {}, readings, steps)
        return [r.value for t in tokens for _, r in parts.get(id(t), ((t, readings[id(t)]),))]

    assert values(None) == [6, 29]
    assert values({_ZONE: PULKA_STEP}) == [6, 2, 9]
