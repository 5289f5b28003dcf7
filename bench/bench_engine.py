"""Benchmark: full deals (auction + discard + whisting + play) per second with the bots, one process.

Prints deals/s for each variant and table size, with the game-record entry written and without, and,
as the baseline run in the same process, the engine alone driven through its public generators by a
player that always takes the first legal action (no bot thinking). Goal (issue 3): ≥ 2,000 deals/s.
Rates are per second of this process's CPU time (`time.process_time`), so other jobs on a shared machine
do not halve them; on an idle machine wall time is the same.

    python bench/bench_engine.py [--deals N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from sheetscan.engine import Bots, Conventions, DealState, Phase, deal_json, play_deal

GOAL = 2000.0


def bots_rate(conv: Conventions, deals: int, *, record: bool) -> float:
    rng = random.Random(1)
    bots = Bots(1)
    names = ("Anna", "Boris", "Vera", "Gleb")[:conv.players]
    start = time.process_time()
    for number in range(deals):
        state = play_deal(DealState.shuffled(rng, number % conv.players, conv), bots)
        if record:
            deal_json(state, names)
    return deals / (time.process_time() - start)


def first_legal_rate(conv: Conventions, deals: int) -> float:
    """Baseline: the engine alone, every action the first legal one from the public generators."""
    rng = random.Random(1)
    start = time.process_time()
    for number in range(deals):
        state = DealState.shuffled(rng, number % conv.players, conv)
        while state.phase is not Phase.OVER:
            phase = state.phase
            if phase is Phase.AUCTION:
                state.push_call(next(state.legal_calls()))  # always pass: raspasy, 30 cards
            elif phase is Phase.PLAY:
                state.push_card(next(state.legal_cards()))
            else:  # pragma: no cover - all pass, so no talon is ever taken
                raise AssertionError(state.text())
    return deals / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000)
    args = parser.parse_args()
    print(f"{'variant':<10} {'players':>7} {'bots deals/s':>13} {'+ record':>10} {'baseline':>10} "
          f"{'bots/baseline':>14}")
    worst = float("inf")
    for variant in ("sochi", "leningrad", "rostov"):
        for players in (3, 4):
            conv = Conventions.for_variant(variant, players)
            bots = bots_rate(conv, args.deals, record=False)
            with_record = bots_rate(conv, args.deals, record=True)
            baseline = first_legal_rate(conv, args.deals)
            worst = min(worst, with_record)
            print(f"{variant:<10} {players:>7} {bots:>13,.0f} {with_record:>10,.0f} {baseline:>10,.0f} "
                  f"{bots / baseline:>14.2f}")
    verdict = "meets" if worst >= GOAL else "misses"
    print(f"slowest with record: {worst:,.0f} deals/s — {verdict} the goal of {GOAL:,.0f} deals/s")


if __name__ == "__main__":
    main()
