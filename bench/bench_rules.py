"""Benchmark the rules core: replay and settle a seeded 10,000-deal game record.

    python bench/bench_rules.py [--deals N] [--seed S] [--variant V]

Prints deals per second for reading + replaying + settling, and a ratio against a baseline measured in
the same process: the same work with the record and the sheet each taken through a JSON text round trip
(what a caller going through files pays). Goal: the whole run under 1 s.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from sheetscan.rules import GameConfig, read_game, read_sheet, replay, settle, write_sheet

STRAINS = ["s", "c", "d", "h", "nt"]


def _split(rng: random.Random, total: int, names: list[str]) -> dict[str, int]:
    cuts = sorted(rng.randint(0, total) for _ in range(len(names) - 1))
    return dict(zip(names, [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)], strict=True))


def generate(seed: int, variant: str, deals: int) -> dict[str, Any]:
    """A game record of `deals` random legal deals (pure Python, seeded)."""
    rng = random.Random(seed)
    players = ["Anna", "Boris", "Vera"]
    config = GameConfig.create(variant, players, 10_000)
    out: list[dict[str, Any]] = []
    for number in range(deals):
        dealer = players[number % 3]
        roll = rng.random()
        if roll < 0.2:
            out.append({"dealer": dealer, "kind": "raspasy", "tricks": _split(rng, 10, players)})
            continue
        declarer = rng.choice(players)
        if roll < 0.28:
            out.append({"dealer": dealer, "kind": "misere", "declarer": declarer,
                        "tricks": {declarer: rng.choice([0, 0, 0, 1, 2])}})
            continue
        level = rng.choice([6, 6, 6, 7, 7, 7, 8, 8, 9, 10])
        contract = f"{level}{rng.choice(STRAINS)}"
        first, second = config.left_of(declarer, [p for p in players if p != declarer])
        deal: dict[str, Any] = {"dealer": dealer, "kind": "game", "declarer": declarer, "contract": contract}
        if config.options.ten_checked and level == 10:
            out.append(deal)
            continue
        said = rng.choice([("whist", "whist"), ("whist", "pass"), ("pass", "whist"), ("pass", "pass")])
        deal["defence"] = {first: said[0], second: said[1]}
        if "whist" in said:
            taken = rng.randint(level - 3, 10)
            deal["tricks"] = {declarer: taken, **_split(rng, 10 - taken, [first, second])}
            if said.count("whist") == 1:
                deal["play"] = rng.choice(["open", "closed"])
        out.append(deal)
    return {"format": "sheetscan.game/1", "variant": variant, "players": players, "pulka": 10_000,
            "deals": out}


def direct(data: dict[str, Any]) -> int:
    sheet = replay(read_game(data))
    settle(sheet)
    return len(sheet.zones)


def through_json(data: dict[str, Any]) -> int:
    sheet = replay(read_game(json.loads(json.dumps(data))))
    sheet = read_sheet(json.loads(json.dumps(write_sheet(sheet))))
    settle(sheet)
    return len(sheet.zones)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--variant", default="leningrad")
    args = parser.parse_args()
    clocks = (time.perf_counter, time.process_time)
    start = [clock() for clock in clocks]
    data = generate(args.seed, args.variant, args.deals)
    generated = [clock() for clock in clocks]
    direct(data)
    replayed = [clock() for clock in clocks]
    through_json(data)
    baseline = [clock() for clock in clocks]
    for label, i in (("wall", 0), ("CPU", 1)):
        ours = replayed[i] - generated[i]
        theirs = baseline[i] - replayed[i]
        print(f"[{label} time] generate {args.deals} deals ({args.variant}, seed {args.seed}): "
              f"{generated[i] - start[i]:.3f} s")
        print(f"[{label} time] read + replay + settle:            {ours:.3f} s = "
              f"{args.deals / ours:,.0f} deals/s")
        print(f"[{label} time] baseline through JSON round trips: {theirs:.3f} s = "
              f"{args.deals / theirs:,.0f} deals/s")
        print(f"[{label} time] ratio baseline / direct:           {theirs / ours:.2f}")
        print(f"[{label} time] whole run incl. baseline:          {baseline[i] - start[i]:.3f} s "
              "(goal: generate + replay + settle < 1 s)")

if __name__ == "__main__":
    main()
