"""The dealer's late whist when four play (003, «Вистование»): accepted where the Code allows it, scored as a
lone whister of both hands, refused everywhere else with the deal named.

The worked cases are in tests/data/rules/dealer-whist.case, each with its arithmetic from the variant's
price table (004). 003: «При игре вчетвером право вернуть вист принадлежит также и сдатчику … Право это
принадлежит сдатчику в последнюю очередь» and «На восьмерной и более старших играх после двух пасов право
завистовать сохраняется только у сдатчика».
"""

from __future__ import annotations

from typing import Any

import pytest

from sheetscan.engine import Conventions, DealState, Phase, deal_json
from sheetscan.engine._bits import parse_hand
from sheetscan.errors import InvalidInputError, RuleViolationError, SheetscanError
from sheetscan.rules import parse_card, read_game, replay, sheet_to_text

from ._cases import assert_replay_refuses, game, load, replayed_totals, totals

FOUR = ["D", "A", "B", "Dealer"]


@pytest.mark.parametrize("case", load("dealer-whist.case")["cases"], ids=lambda case: case["name"])
def test_dealer_whist_worked_example(case: dict[str, Any]) -> None:
    got = replayed_totals(case)
    sheet = sheet_to_text(replay(game(case)))
    assert got == case["expect"], f"{case['name']}: {case['why']}\nsheet:\n{sheet}"


def _record(variant: str, deal: dict[str, Any], players: list[str] | None = None,
            options: dict[str, Any] | None = None) -> dict[str, Any]:
    entry = {"dealer": "Dealer", "kind": "game", "declarer": "D", **deal}
    record: dict[str, Any] = {"format": "sheetscan.game/1", "variant": variant, "players": players or FOUR,
                              "pulka": 20, "deals": [entry]}
    if options:
        record["options"] = options
    return record


def _said(first: str, second: str) -> dict[str, str]:
    """A defence in speaking order: the two defenders, then the dealer's whist."""
    return {"A": first, "B": second, "Dealer": "whist"}


_PLAYED = {"tricks": {"D": 6, "A": 3, "B": 1}}

# (case id, record, error type, words the message must contain). Each message names the deal ("deal 1").
REFUSALS: list[tuple[str, dict[str, Any], type[SheetscanError], list[str]]] = [
    ("three players: the dealer declares and has no late whist",
     _record("sochi", {"dealer": "D", "contract": "7h", "defence": {"A": "pass", "B": "pass", "D": "whist"},
                       **_PLAYED}, players=["D", "A", "B"]),
     RuleViolationError, ["deal 1", "D cannot whist", "four play"]),
    ("not after the first defender's whist",
     _record("sochi", {"contract": "7h", "defence": _said("whist", "pass"), **_PLAYED}),
     RuleViolationError, ["deal 1", "Dealer cannot whist", "A already whisted"]),
    ("not after the second defender's whist",
     _record("sochi", {"contract": "7h", "defence": _said("pass", "whist"), **_PLAYED}),
     RuleViolationError, ["deal 1", "Dealer cannot whist", "B already whisted"]),
    ("not after two whists",
     _record("sochi", {"contract": "6h", "defence": _said("whist", "whist"), **_PLAYED}),
     RuleViolationError, ["deal 1", "Dealer cannot whist"]),
    ("on 8 only after two passes: no half there to return",
     _record("leningrad", {"contract": "8h", "defence": _said("pass", "half"),
                           **_PLAYED}),
     RuleViolationError, ["deal 1", "only on 6 and 7"]),
    ("no half to return where полвиста is off (sochi)",
     _record("sochi", {"contract": "6h", "defence": _said("pass", "half"), **_PLAYED}),
     RuleViolationError, ["deal 1", "option half_whist"]),
    ("the dealer speaks last",
     _record("sochi", {"contract": "7h", "defence": {"Dealer": "whist", "A": "pass", "B": "pass"},
                       **_PLAYED}),
     RuleViolationError, ["deal 1", "speaks last"]),
    ("only his whist is written, not a pass",
     _record("leningrad", {"contract": "6h", "defence": {"A": "pass", "B": "half", "Dealer": "pass"}}),
     RuleViolationError, ["deal 1", "Dealer said pass", "only when he whists"]),
    ("a checked 10 is not whisted, not by the dealer either (piter)",
     _record("piter", {"contract": "10h", "defence": _said("pass", "pass"),
                       "tricks": {"D": 10, "A": 0, "B": 0}}),
     RuleViolationError, ["deal 1", "checked", "Dealer has no whist"]),
    ("stalingrad: 6♠ needs both defenders' whists, the dealer cannot stand in",
     _record("sochi", {"contract": "6s", "defence": _said("pass", "pass"), **_PLAYED},
             options={"stalingrad": True}),
     RuleViolationError, ["deal 1", "stalingrad"]),
    ("the defenders' tricks must be given, not the dealer's",
     _record("sochi", {"contract": "7h", "defence": _said("pass", "pass"),
                       "tricks": {"D": 6, "A": 3, "Dealer": 1}}),
     RuleViolationError, ["deal 1", "players in this deal are D, A, B"]),
    ("a dealer's whist is played out",
     _record("sochi", {"contract": "7h", "defence": _said("pass", "pass")}),
     InvalidInputError, ["deal 1", "needs \"tricks\""]),
]


@pytest.mark.parametrize(("record", "kind", "words"), [pytest.param(*r[1:], id=r[0]) for r in REFUSALS])
def test_dealer_whist_refused(record: dict[str, Any], kind: type[SheetscanError], words: list[str]) -> None:
    assert_replay_refuses(record, kind, words)


def test_two_passes_on_6_with_half_whist_scores_as_the_returned_half() -> None:
    # Decision in scoring.py: with полвиста on, pass-pass-dealer on 6 and 7 is accepted, because the
    # engine writes 003's pass-half-pass-dealer as pass-pass (the half-sayer «считается спасовавшим»).
    # Leningrad 6h, D 5 of 6: gora 1 × 4 = 4; consolation 1 × 4 = 4 each; the dealer (4+1) × 4 + 4 = 24.
    expect = {"D": {"gora": 4}, "A": {"whists": {"D": 4}}, "B": {"whists": {"D": 4}},
              "Dealer": {"whists": {"D": 24}}}
    for second in ("pass", "half"):
        record = _record("leningrad", {"contract": "6h", "defence": _said("pass", second),
                                       "tricks": {"D": 5, "A": 4, "B": 1}})
        assert totals(replay(read_game(record))) == expect, second


def test_the_engines_record_of_the_codes_example_replays() -> None:
    # 003's sequence played by the engine (Leningrad, four players, seat 3 deals): pass, half, pass, and the
    # dealer whists. D holds all eight spades and A♣ K♣ after the talon, so he takes all 10 whatever is
    # played: D 2 to the pulka; duty 4, all short: 4 × 2 (half of Leningrad's 4) = 8 to the dealer's gora.
    seats = ("AsKsQsJsTs9s8s7sAcKc", "AhKhQhQcJcTc9c8c7cAd", "JhTh9h8hKdQdJdTd9d7d", "-")
    hands = [parse_hand(h) for h in seats]
    talon = tuple(int(c.suit) * 8 + c.rank - 7 for c in (parse_card("7h"), parse_card("8d")))
    state = DealState(hands, (talon[0], talon[1]), 3, Conventions.for_variant("leningrad", 4))
    for token in ("6s", "pass", "pass", "7h8d", "6s", "pass", "half", "pass", "whist"):
        state.push(token)
    while state.phase is not Phase.OVER:
        state.push(str(next(state.legal_cards())))
    entry = deal_json(state, FOUR)
    assert entry["defence"]["Dealer"] == "whist"
    record = read_game({"format": "sheetscan.game/1", "variant": "leningrad", "players": FOUR, "pulka": 20,
                        "deals": [entry]})
    assert totals(replay(record)) == {"D": {"pulka": 2}, "Dealer": {"gora": 8}}
