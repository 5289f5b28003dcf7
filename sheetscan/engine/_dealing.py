"""Dealing: a shuffled deck dealt as the documents say, and the check that a hand-set deal is whole."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sheetscan.engine._bits import hand_text

__all__ = ["check_deal", "deal_cards", "playing_seats"]


def playing_seats(dealer: int, players: int) -> list[int]:
    """The seats that play, from the first hand (the dealer's left) clockwise; with four the dealer sits
    out (000, «История игры, количество игроков»)."""
    return [s % players for s in range(dealer + 1, dealer + players + 1) if s % players != dealer or
            players == 3]


def deal_cards(rng: random.Random, dealer: int, players: int) -> tuple[list[int], tuple[int, int]]:
    """Shuffle and deal: hands (bit masks by seat, the dealer's empty with four) and the talon (top first).

    Two cards at a time round the table (002: «Каждому игроку раздается по 10 карт (по 2 за раз) и 2 карты
    остаются на столе»); the talon takes two after the first round. Which round feeds the talon changes
    nothing for a uniformly shuffled deck.
    """
    cards = list(range(32))
    rng.shuffle(cards)
    seats = playing_seats(dealer, players)
    hands = [0] * players
    talon = (cards[6], cards[7])
    rest = cards[:6] + cards[8:]
    for i in range(0, 30, 2):
        hands[seats[(i // 2) % 3]] |= (1 << rest[i]) | (1 << rest[i + 1])
    return hands, talon


def check_deal(hands: Sequence[int], talon: tuple[int, int], dealer: int) -> str:
    """What is wrong with a hand-set deal (a sentence), or "" when every card is dealt once: ten to each
    who plays, none to a dealer who sits out, two to the talon."""
    seen = 0
    t0, t1 = talon
    if not (0 <= t0 < 32 and 0 <= t1 < 32) or t0 == t1:
        return "the talon is two different cards"
    for mask in (*hands, 1 << t0, 1 << t1):
        if seen & mask:
            return f"{hand_text(seen & mask)} dealt twice"
        seen |= mask
    players = len(hands)
    for seat, mask in enumerate(hands):
        expected = 0 if players == 4 and seat == dealer else 10
        if mask.bit_count() != expected:
            return f"seat {seat} holds {mask.bit_count()} cards ({hand_text(mask)}), not {expected}"
    if seen != (1 << 32) - 1:
        return "not every card is dealt"
    return ""
