"""A whole pulka played by the bots, written as a `sheetscan.game/1` record (FORMATS.md «Game record»).

The deal passes clockwise; the first deal's first hand is the first player named (FORMATS.md: players are
in seat order, first hand of the first deal first). Scoring and the closing condition come from the rules
core (`sheetscan.rules.replay_deals`): the engine only records what happened.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from sheetscan.engine._bits import card_text, hand_text
from sheetscan.engine._bots import Bots, play_deal
from sheetscan.engine._conventions import Conventions
from sheetscan.engine._deal import HERE, PASS, DealState
from sheetscan.errors import InvalidInputError
from sheetscan.rules import GAME_FORMAT, LADDER, Deal, GameConfig, GameRecord, read_game
from sheetscan.rules.replay import replay_deals

__all__ = ["DEFAULT_NAMES", "deal_json", "play_pulka"]

DEFAULT_NAMES = ("Anna", "Boris", "Vera", "Gleb")
"""Player names when none are given."""

MAX_DEALS = 2000
"""A pulka that has not closed after this many deals is cut short (the bots would be stuck)."""


def deal_json(state: DealState, names: Sequence[str]) -> dict[str, Any]:
    """A finished deal as a game-record entry, with the engine's extras: `cards` (each hand as dealt, the
    talon top card first, the discard, as runs of two-character cards: `AhKh7d`), `auction` (`"Anna: 6s"`
    per call, in order) and `play_sequence` (per trick the leader and the cards clockwise from him:
    `"Boris: Ah 7h Kh"`). Cards and calls never hold a colon, so a name is what precedes the last `": "`."""
    outcome = state.outcome()
    if outcome is None:
        raise InvalidInputError(f"the deal is not finished; position: {state.text()}")
    out = outcome.to_json(tuple(names), state.dealer)
    cards: dict[str, Any] = {
        "hands": {names[s]: hand_text(state.initial_hands[s]) for s in sorted(state.order)},
        "talon": "".join(card_text(i) for i in state.talon_cards),
    }
    if state.discard:
        cards["discard"] = hand_text(state.discard)
    out["cards"] = cards
    out["auction"] = [f"{names[seat]}: {'pass' if code == PASS else 'here' if code == HERE else LADDER[code]}"
                      for seat, code in state.calls]
    log = state.log
    if log:
        out["play_sequence"] = [f"{names[log[i][0]]}: " + " ".join(card_text(c) for _, c in log[i:i + 3])
                                for i in range(0, len(log), 3)]
    return out


def play_pulka(variant: str = "sochi", players: int = 3, pulka: int = 20, *, deals: int | None = None,
               seed: int = 0, names: Sequence[str] | None = None,
               options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Play a pulka with the bots until the variant's closing condition (or `deals` deals); the record.

    Deterministic for a seed. Raises `InvalidInputError` for bad settings (unknown variant, 2 players …).
    """
    if players not in (3, 4):
        raise InvalidInputError(f"players: {players}; the engine plays with 3 or 4")
    names = tuple(names or DEFAULT_NAMES[:players])
    if deals is not None and deals < 1:
        raise InvalidInputError(f"deals: {deals}; expected at least 1")
    config = GameConfig.create(variant, names, pulka, options or {})
    conventions = Conventions.for_variant(config.variant, players, options)
    record: dict[str, Any] = {"format": GAME_FORMAT, "variant": config.variant.name}
    if config.overrides:
        record["options"] = config.overrides
    record.update({"players": list(names), "pulka": pulka, "deals": []})
    rng = random.Random(seed)
    bots = Bots(rng.getrandbits(32))
    played: list[Deal] = []
    limit = deals if deals is not None else MAX_DEALS
    for number in range(limit):
        dealer = (players - 1 + number) % players
        state = play_deal(DealState.shuffled(rng, dealer, conventions), bots)
        entry = deal_json(state, names)
        record["deals"].append(entry)
        if deals is None:
            played.append(read_game({**record, "deals": [entry]}).deals[0])
            if _closed(config, played):
                break
    return record


def _closed(config: GameConfig, deals: list[Deal]) -> bool:
    closed = False
    for step in replay_deals(GameRecord(config, tuple(deals))):
        closed = step.closed
    return closed
