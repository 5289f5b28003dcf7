"""Random legal game records, for property tests (seeded, pure Python)."""

from __future__ import annotations

import random
from typing import Any

from sheetscan.rules import Defence, GameConfig, Suit

STRAINS = [*(suit.letter for suit in Suit), "nt"]


def _split(rng: random.Random, total: int, names: list[str]) -> dict[str, int]:
    cuts = sorted(rng.randint(0, total) for _ in range(len(names) - 1))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
    return dict(zip(names, parts, strict=True))


def random_deal(rng: random.Random, config: GameConfig, dealer: str) -> dict[str, Any]:
    """One legal deal under `config`, as game-record JSON."""
    options = config.options
    active = list(config.active(dealer))
    roll = rng.random()
    if roll < 0.2:
        return {"dealer": dealer, "kind": "raspasy", "tricks": _split(rng, 10, active)}
    declarer = rng.choice(active)
    if roll < 0.28:
        taken = rng.choice([0, 0, 0, 1, 2])
        return {"dealer": dealer, "kind": "misere", "declarer": declarer, "tricks": {declarer: taken}}
    level = rng.choice([6, 6, 6, 7, 7, 7, 8, 8, 9, 10])
    contract = f"{level}{rng.choice(STRAINS)}"
    deal: dict[str, Any] = {"dealer": dealer, "kind": "game", "declarer": declarer, "contract": contract}
    first, second = config.left_of(declarer, [p for p in active if p != declarer])
    if options.ten_checked and level == 10:
        return deal
    choices = [("whist", "whist"), ("whist", "pass"), ("pass", "whist"), ("pass", "pass")]
    if options.half_whist and level <= 7:
        choices.append(("pass", "half"))
    said = rng.choice(choices)
    if options.stalingrad and contract == "6s":
        said = ("whist", "whist")
    deal["defence"] = {first: said[0], second: said[1]}
    whisters = said.count(Defence.WHIST.value)
    if whisters:
        taken = rng.randint(max(0, level - 3), 10)
        deal["tricks"] = {declarer: taken, **_split(rng, 10 - taken, [first, second])}
        if whisters == 1:
            deal["play"] = rng.choice(["open", "closed"])
    return deal


def random_game(
    seed: int,
    variant: str,
    players: list[str],
    deals: int,
    pulka: int = 20,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A whole game record of `deals` random legal deals, the dealer moving clockwise."""
    rng = random.Random(seed)
    config = GameConfig.create(variant, players, pulka, options or {})
    record: dict[str, Any] = {
        "format": "sheetscan.game/1",
        "variant": variant,
        "players": players,
        "pulka": pulka,
        "deals": [],
    }
    if options:
        record["options"] = options
    for number in range(deals):
        dealer = players[number % len(players)]
        record["deals"].append(random_deal(rng, config, dealer))
    return record
