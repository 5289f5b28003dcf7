"""Property tests over thousands of seeded bot deals (STYLE.md §12), checked by independent means.

Every card is dealt once and played at most once; every recorded action is legal (replayed through a
fresh position, which refuses illegal ones); the tricks recomputed here from the recorded cards with the
trick rule of 000 «Взятка» add up to 10 and match the record; the text form round-trips; `pop` undoes;
and a record's sheet is the same after a JSON round trip.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from sheetscan.engine import (
    Bots,
    Conventions,
    DealState,
    Phase,
    deal_json,
    play_deal,
    play_pulka,
    replay_game,
)
from sheetscan.engine._bits import parse_hand
from sheetscan.rules import Suit, parse_card, parse_contract, read_game, replay, replay_deals, settle

VARIANTS = ("sochi", "leningrad", "rostov", "piter")
NAMES = ("Anna", "Boris", "Vera", "Gleb")
DEALS_PER_EXAMPLE = 30


def _winner(cards: list[tuple[str, str]], trump: Suit | None, suit: Suit) -> str:
    """000 «Взятка»: the highest trump, else the highest card of the suit led (or set by the talon)."""
    def key(card_text: str) -> int:
        card = parse_card(card_text)
        return 100 + card.rank if card.suit == trump else card.rank if card.suit == suit else -1
    return max(cards, key=lambda pair: key(pair[1]))[0]


def _index(text: str) -> int:
    card = parse_card(text)
    return int(card.suit) * 8 + int(card.rank) - 7


def _check_deal(state: DealState, conv: Conventions, names: tuple[str, ...]) -> None:
    entry = deal_json(state, names)
    position = state.text()
    # Every card dealt exactly once: hands + talon are the deck.
    dealt = "".join(entry["cards"]["hands"].values()) + entry["cards"]["talon"]
    cards = [dealt[i:i + 2] for i in range(0, len(dealt), 2)]
    assert len(cards) == 32 and len(set(cards)) == 32, position
    # Every card played at most once, and only by someone who held it (or the talon, for the declarer).
    played = [trick.rpartition(": ")[2].split() for trick in entry.get("play_sequence", [])]
    flat = [c for trick in played for c in trick]
    assert len(flat) == len(set(flat)), position
    # Replaying every action through a fresh position accepts each one (illegal ones raise).
    fresh = DealState(state.initial_hands, state.talon_cards, state.dealer, conv)
    for token in state.moves:
        fresh.push(token)
    assert fresh.phase is Phase.OVER and fresh.outcome() == state.outcome(), position
    assert DealState.from_text(position) == state
    # The auction as written in the record is legal on the deal as written in the record.
    hands = [parse_hand(entry["cards"]["hands"].get(name, "-")) for name in names]
    talon = entry["cards"]["talon"]
    written = DealState(hands, (_index(talon[:2]), _index(talon[2:])), names.index(entry["dealer"]), conv)
    for call in entry["auction"]:
        name, _, said = call.rpartition(": ")
        assert names[written.turn] == name, position
        written.push(said)
    if entry["kind"] == "raspasy":
        assert written.phase is Phase.PLAY and written.declarer < 0, position
    else:
        assert written.phase is Phase.DISCARD and names[written.declarer] == entry["declarer"], position
    # Tricks recomputed independently from the recorded play.
    if "tricks" in entry:
        assert sum(entry["tricks"].values()) == 10, position
        trump = None
        if entry["kind"] == "game":
            trump = parse_contract(entry["contract"]).trump
        talon = [parse_card(entry["cards"]["talon"][i:i + 2]).suit for i in (0, 2)]
        leads_from_talon = entry["kind"] == "raspasy" and conv.raspasy_talon_leads and conv.players == 3
        order = [names[s] for s in state.order]
        count: Counter[str] = Counter()
        winner = ""
        for number, trick in enumerate(entry["play_sequence"]):
            leader, _, text = trick.rpartition(": ")
            # 003 «Розыгрыш»: the first hand leads the first trick (and, with talon leads, the first three);
            # after that the trick's winner leads.
            first_hand_leads = number == 0 or (leads_from_talon and number < 3)
            assert leader == (order[0] if first_hand_leads else winner), position
            start = order.index(leader)
            seats = [order[(start + i) % 3] for i in range(3)]
            pairs = list(zip(seats, text.split(), strict=True))
            suit = talon[number] if leads_from_talon and number < 2 else parse_card(pairs[0][1]).suit
            winner = _winner(pairs, trump, suit)
            count[winner] += 1
        assert dict(count) == {k: v for k, v in entry["tricks"].items() if v}, position
    # pop() walks back to the deal as dealt.
    while state.moves:
        state.pop()
    assert state.phase is Phase.AUCTION and state.hands == state.initial_hands


OPTIONS = st.fixed_dictionaries({"stalingrad": st.booleans(), "half_whist": st.booleans(),
                                  "ten_checked": st.booleans()})


@settings(max_examples=80, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS), players=st.sampled_from((3, 4)),
       options=OPTIONS, jumps=st.booleans())
def test_bot_deals_are_legal_and_add_up(seed: int, variant: str, players: int, options: dict[str, bool],
                                        jumps: bool) -> None:
    conv = Conventions.for_variant(variant, players, options, jump_bids=jumps)
    rng = random.Random(seed)
    bots = Bots(seed)
    for number in range(DEALS_PER_EXAMPLE):  # 80 × 30 = 2,400 deals
        state = play_deal(DealState.shuffled(rng, number % players, conv), bots)
        _check_deal(state, conv, NAMES[:players])


@settings(max_examples=10, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(VARIANTS), players=st.sampled_from((3, 4)),
       options=OPTIONS)
def test_a_pulka_replays_to_the_same_sheet_and_settles_to_zero(seed: int, variant: str, players: int,
                                                               options: dict[str, bool]) -> None:
    record = play_pulka(variant, players, 10, seed=seed, options=options)
    assert record == play_pulka(variant, players, 10, seed=seed, options=options)  # deterministic
    sheet = replay(read_game(record))
    again = replay(read_game(json.loads(json.dumps(record, ensure_ascii=False))))
    assert again == sheet
    last = list(replay_deals(read_game(record)))
    assert last[-1].closed and not any(step.closed for step in last[:-1])
    assert sum(settle(sheet).balances.values()) == 0
    assert all(state is not None for state in replay_game(record))  # the engine re-plays its own record


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS), players=st.sampled_from((3, 4)),
       steps=st.integers(0, 45))
def test_bots_take_over_any_position(seed: int, variant: str, players: int, steps: int) -> None:
    """Random legal actions for a while (a person at the table), then the bots finish the deal legally."""
    conv = Conventions.for_variant(variant, players, jump_bids=True)
    rng = random.Random(seed)
    state = DealState.shuffled(rng, seed % players, conv)
    for _ in range(steps):
        if state.phase is Phase.OVER:
            break
        options = {
            Phase.AUCTION: lambda: [str(c) for c in state.legal_calls()],
            Phase.DISCARD: lambda: [f"{a}{b}" for a, b in state.legal_discards()],
            Phase.DECLARE: lambda: [str(c) for c in state.legal_contracts()],
            Phase.DEFENCE: lambda: [w.value for w in state.legal_defence()],
            Phase.CHOOSE_PLAY: lambda: [p.value for p in state.legal_plays()],
            Phase.PLAY: lambda: [str(c) for c in state.legal_cards()],
        }[state.phase]()
        state.push(rng.choice(options))
    bots = Bots(seed)
    while state.phase is not Phase.OVER:
        bots.act(state)
    _check_deal(state, conv, NAMES[:players])
