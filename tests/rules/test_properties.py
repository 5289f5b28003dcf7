"""Invariants (hypothesis): balances sum to zero, gora shifts and seat permutations, round trips."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sheetscan.rules import (
    Sheet,
    check_sheet,
    parse_sheet_text,
    read_game,
    read_sheet,
    replay,
    settle,
    sheet_to_text,
    write_game,
    write_sheet,
)

from ._random import random_game

VARIANT_NAMES = ["sochi", "leningrad", "rostov", "piter"]
NAMES = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="|"),
    min_size=1,
    max_size=8,
).filter(lambda name: name == name.strip() and name.isprintable())  # what check_players accepts
TOTALS = st.lists(st.integers(min_value=0, max_value=400), max_size=5).map(sorted)


@st.composite
def sheets(draw: st.DrawFn) -> Sheet:
    players = draw(st.lists(NAMES, min_size=3, max_size=4, unique=True))
    zones: dict[str, Any] = {}
    for name in players:
        zones[name] = {
            "pulka": draw(TOTALS),
            "gora": draw(TOTALS),
            "whists": {on: draw(TOTALS) for on in players if on != name},
        }
    options = draw(st.sampled_from([{}, {"amnesty": True}, {"amnesty": False, "pulka_point_whists": 20}]))
    return Sheet.build(
        draw(st.sampled_from(VARIANT_NAMES)), players, draw(st.integers(1, 60)), zones, options
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(VARIANT_NAMES), st.sampled_from([3, 4]))
def test_replayed_games_settle_to_zero_and_round_trip(seed: int, variant: str, count: int) -> None:
    players = ["Anna", "Boris", "Vera", "Gleb"][:count]
    data = random_game(seed, variant, players, deals=25, pulka=10)
    record = read_game(data)
    assert read_game(write_game(record)) == record
    sheet = replay(record)
    check_sheet(sheet)  # no running total goes down
    assert sum(settle(sheet).balances.values()) == 0
    assert read_sheet(write_sheet(sheet)) == sheet
    assert parse_sheet_text(sheet_to_text(sheet)) == sheet


@settings(max_examples=60, deadline=None)
@given(sheets())
def test_sheet_round_trips_through_json_and_text(sheet: Sheet) -> None:
    assert read_sheet(write_sheet(sheet)) == sheet
    assert parse_sheet_text(sheet_to_text(sheet)) == sheet, sheet_to_text(sheet)


@settings(max_examples=60, deadline=None)
@given(sheets())
def test_balances_sum_to_exactly_zero(sheet: Sheet) -> None:
    assert sum(settle(sheet).balances.values()) == 0


@settings(max_examples=60, deadline=None)
@given(sheets(), st.integers(1, 300))
def test_adding_a_constant_to_every_gora_changes_nothing(sheet: Sheet, extra: int) -> None:
    raised = Sheet.build(
        sheet.variant,
        sheet.players,
        sheet.pulka,
        {
            name: {"pulka": zone.pulka, "gora": (*zone.gora, zone.gora_total + extra), "whists": zone.whists}
            for name, zone in sheet.zones.items()
        },
        sheet.options,
    )
    assert settle(raised).balances == settle(sheet).balances


@settings(max_examples=60, deadline=None)
@given(sheets(), st.randoms(use_true_random=False))
def test_permuting_players_permutes_the_result(sheet: Sheet, rng: Any) -> None:
    order = list(sheet.players)
    rng.shuffle(order)
    moved = Sheet(sheet.variant, tuple(order), sheet.pulka, sheet.zones, sheet.options)
    assert settle(moved).balances == settle(sheet).balances
    original = settle(sheet)
    assert len(settle(moved).payments) == len(original.payments)
