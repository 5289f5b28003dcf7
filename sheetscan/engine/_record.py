"""From a game record back to engine positions: every deal that carries the engine's extras (`cards`,
`auction`, `play_sequence`) is played again through `DealState`, so each call and card is checked against
the rules and the recorded outcome (defence, tricks) against what the cards give.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sheetscan.engine._bits import card_index, parse_hand
from sheetscan.engine._conventions import Conventions
from sheetscan.engine._deal import DealState
from sheetscan.engine._outcome import IllegalMove, InvalidMove, Phase
from sheetscan.engine._pulka import deal_json
from sheetscan.errors import InvalidInputError, RuleViolationError
from sheetscan.rules import parse_card, read_game

__all__ = ["deal_from_json", "replay_game"]


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{where}: expected text, got {value!r}")
    return value


def _defence_tokens(entry: Mapping[str, Any]) -> list[str]:
    """The words that lead to the recorded defence (a returned whist reads as whist-pass: same game)."""
    said = {name: _text(word, "defence") for name, word in dict(entry.get("defence", {})).items()}
    words = list(said.values())
    if not words:
        return []
    first, *rest = words
    tokens = [first, *rest[:1]]
    if rest[:1] == ["half"]:
        tokens.append("pass")  # the first defender did not take the whist back
    tokens.extend(rest[1:])  # with four players, the dealer's whist
    return tokens


def deal_from_json(entry: Mapping[str, Any], players: Sequence[str], conventions: Conventions) -> DealState:
    """Play a recorded deal again from its `cards`, `auction`, defence and `play_sequence`.

    Raises `InvalidMove` for extras we cannot read and `IllegalMove` for an action the rules forbid;
    `RuleViolationError` when the record's outcome differs from what its own cards give.
    """
    names = list(players)
    cards = entry.get("cards")
    if not isinstance(cards, Mapping) or "hands" not in cards or "talon" not in cards:
        raise InvalidMove("the deal has no engine extras (cards: hands and talon)", "")
    try:
        hands = [parse_hand(_text(dict(cards["hands"]).get(name, "-"), f"hand of {name}")) for name in names]
        talon = _text(cards["talon"], "talon")
        top, second = card_index(parse_card(talon[:2])), card_index(parse_card(talon[2:]))
        dealer = names.index(_text(entry.get("dealer"), "dealer"))
    except (ValueError, TypeError) as error:
        raise InvalidMove(f"cannot read the deal's cards ({error})", "") from None
    state = DealState(hands, (top, second), dealer, conventions)
    for call in entry.get("auction", []):
        name, _, said = _text(call, "auction").rpartition(": ")
        if name != names[state.turn]:
            raise IllegalMove(f"auction: {name} spoke out of turn; it was {names[state.turn]}'s",
                              state.text())
        state.push(said)
    if state.phase is Phase.DISCARD:
        state.push(_text(cards.get("discard", ""), "discard"))
        state.push(_text(entry.get("contract", "misere"), "contract"))
    if state.phase is Phase.DEFENCE:
        for word in _defence_tokens(entry):
            state.push(word)
        if state.phase is Phase.DEFENCE and state.n == 4 and state.turn == state.dealer:
            state.push("pass")  # the dealer's silent pass is not written
    if state.phase is Phase.CHOOSE_PLAY:
        state.push(_text(entry.get("play"), "play"))
    for number, trick in enumerate(entry.get("play_sequence", []), start=1):
        leader, _, played = _text(trick, "play_sequence").rpartition(": ")
        if state.phase is Phase.PLAY and leader != names[state.turn]:
            raise IllegalMove(f"trick {number}: {leader} led, but it was {names[state.turn]}'s lead",
                              state.text())
        for card in played.split():
            state.push(card)
    if state.phase is not Phase.OVER:
        raise IllegalMove(f"the recorded actions stop before the deal is over ({state.phase.name})",
                          state.text())
    again = deal_json(state, names)
    for key in ("kind", "declarer", "contract", "defence", "play", "tricks"):
        if again.get(key) != entry.get(key):
            raise RuleViolationError(f"{key}: the record says {entry.get(key)!r}, its cards give "
                                     f"{again.get(key)!r}; position: {state.text()}")
    return state


def replay_game(data: Any, **overrides: Any) -> list[DealState | None]:
    """Every deal of a `sheetscan.game/1` record played again by the engine (None for a deal without the
    engine's extras). Errors name the deal: "deal 7: …". `overrides` set engine `Conventions` fields."""
    record = read_game(data)
    config = record.config
    conventions = Conventions.for_variant(config.variant, len(config.players), config.overrides, **overrides)
    out: list[DealState | None] = []
    for number, entry in enumerate(data["deals"], start=1):
        if "cards" not in entry:
            out.append(None)
            continue
        try:
            out.append(deal_from_json(entry, config.players, conventions))
        except RuleViolationError as error:
            raise RuleViolationError(f"deal {number}: {error}") from None
        except InvalidInputError as error:
            raise InvalidInputError(f"deal {number}: {error}") from None
    return out
