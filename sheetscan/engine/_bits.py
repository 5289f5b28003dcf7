"""Cards as bit indices: the engine's fast representation of hands, tricks and the talon.

A card's index is `suit * 8 + (rank - 7)`, so within a suit a higher index is a higher card, and a hand
is an int whose bit `i` is set when it holds card `i`. Suits are the bidding order of
`sheetscan.rules.cards.Suit` (♠ ♣ ♦ ♥ = 0 1 2 3).
"""

from __future__ import annotations

from collections.abc import Iterable

from sheetscan.rules.cards import Card, Rank, Suit, parse_card

__all__ = [
    "CARDS",
    "FULL_DECK",
    "SUIT_MASKS",
    "card_index",
    "card_text",
    "cards_of",
    "hand_text",
    "indices",
    "mask_of",
    "parse_hand",
    "popcount",
]

CARDS: tuple[Card, ...] = tuple(Card(suit, rank) for suit in Suit for rank in Rank)
"""Card objects by index."""

_TEXT: tuple[str, ...] = tuple(str(card) for card in CARDS)

SUIT_MASKS: tuple[int, ...] = tuple(0xFF << (8 * suit) for suit in range(4))
"""The bits of each suit."""

FULL_DECK = (1 << 32) - 1
"""All 32 cards."""


def card_index(card: Card) -> int:
    """The bit index of a card."""
    return int(card.suit) * 8 + int(card.rank) - 7


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card_index(card)
    return mask


def indices(mask: int) -> list[int]:
    """The card indices in a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cards_of(mask: int) -> list[Card]:
    """The cards in a mask, by suit then rank, lowest first."""
    return [CARDS[i] for i in indices(mask)]


def card_text(index: int) -> str:
    """The text form of one card index (`Th`)."""
    return _TEXT[index]


def hand_text(mask: int) -> str:
    """A hand as its cards' text forms run together, highest suit and rank first (`AhKh7dJs`), or `-`."""
    if not mask:
        return "-"
    return "".join(_TEXT[i] for i in reversed(indices(mask)))


def parse_hand(text: str) -> int:
    """The mask of a hand written as by `hand_text` (cards of two characters run together, or `-`)."""
    text = text.strip()
    if text == "-":
        return 0
    if len(text) % 2:
        raise ValueError(f"cannot read hand {text!r}: expected two characters a card, e.g. AhKh7d")
    mask = 0
    for i in range(0, len(text), 2):
        bit = 1 << card_index(parse_card(text[i:i + 2]))
        if mask & bit:
            raise ValueError(f"hand {text!r} names {text[i:i + 2]} twice")
        mask |= bit
    return mask


def popcount(mask: int) -> int:
    """Number of cards in a mask."""
    return mask.bit_count()
