"""`replay_game`: a record's deals played again from their recorded cards; tampering is caught."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sheetscan.engine import play_pulka, replay_game
from sheetscan.errors import InvalidInputError, RuleViolationError


@pytest.mark.parametrize("variant", ["sochi", "leningrad", "rostov", "piter"])
@pytest.mark.parametrize("players", [3, 4])
def test_the_engines_own_records_replay(variant: str, players: int) -> None:
    record = play_pulka(variant, players, 10, seed=5)
    states = replay_game(record)
    assert len(states) == len(record["deals"]) and all(state is not None for state in states)


def _first(record: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(d for d in record["deals"] if d["kind"] == kind and "play_sequence" in d)


def test_tricks_that_the_cards_do_not_give_are_caught() -> None:
    record = play_pulka("sochi", 3, 10, seed=5)
    bad = copy.deepcopy(record)
    deal = _first(bad, "raspasy")
    names = [name for name, count in deal["tricks"].items() if count > 0]
    deal["tricks"][names[0]] -= 1
    other = next(name for name in deal["tricks"] if name != names[0])
    deal["tricks"][other] += 1
    with pytest.raises(RuleViolationError, match=r"deal \d+: tricks: the record says"):
        replay_game(bad)


def test_a_card_played_out_of_turn_or_not_held_is_caught() -> None:
    record = play_pulka("sochi", 3, 10, seed=5)
    bad = copy.deepcopy(record)
    deal = _first(bad, "game")
    leader, _, cards = deal["play_sequence"][0].rpartition(": ")
    first, second, third = cards.split()
    deal["play_sequence"][0] = f"{leader}: {second} {first} {third}"
    with pytest.raises(RuleViolationError, match=r"deal \d+: card .*position: dealer="):
        replay_game(bad)


def test_an_auction_out_of_turn_is_caught_and_deals_without_cards_are_skipped() -> None:
    record = play_pulka("sochi", 3, 10, seed=5, deals=3)
    bad = copy.deepcopy(record)
    bad["deals"][0]["auction"] = bad["deals"][0]["auction"][1:]
    with pytest.raises(RuleViolationError, match=r"deal 1: auction: .* spoke out of turn"):
        replay_game(bad)
    bare = copy.deepcopy(record)
    for key in ("cards", "auction", "play_sequence"):
        bare["deals"][0].pop(key, None)
    assert replay_game(bare)[0] is None
    unreadable = copy.deepcopy(record)
    unreadable["deals"][1]["cards"]["talon"] = "Zz"
    with pytest.raises(InvalidInputError, match="deal 2: cannot read"):
        replay_game(unreadable)
