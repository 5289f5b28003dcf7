"""Cards, suits and the contract ladder shared by the rules core and the engine.

Source: ../shared/rules/000_bb055394086558d5.txt, «Колода для игры в преферанс, старшинство карт
и мастей» (32 cards, ♠ < ♣ < ♦ < ♥) and «Виды и стоимость игр (контрактов)» (the ladder 6 … 10 with
misère between 8 and 9).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import total_ordering

from sheetscan.errors import InvalidInputError

__all__ = [
    "LADDER",
    "MISERE",
    "Card",
    "Contract",
    "ContractError",
    "Rank",
    "Suit",
    "deck",
    "parse_card",
    "parse_contract",
]


class ContractError(InvalidInputError):
    """A contract or card written in a form we cannot read (badly written, not illegal)."""


class Suit(enum.IntEnum):
    """A suit, valued by its bidding order: spades lowest, hearts highest."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        """The one-letter code used in contracts and cards: s, c, d, h."""
        return "scdh"[self.value]

    @property
    def symbol(self) -> str:
        """The suit sign as printed on cards and sheets."""
        return "♠♣♦♥"[self.value]

    @classmethod
    def from_letter(cls, text: str) -> Suit:
        """The suit for `s`, `c`, `d`, `h` or a suit sign; raises `ContractError` otherwise."""
        for suit in cls:
            if text in (suit.letter, suit.letter.upper(), suit.symbol):
                return suit
        raise ContractError(f"unknown suit {text!r}: expected one of s c d h (♠ ♣ ♦ ♥)")


class Rank(enum.IntEnum):
    """A card's rank, valued so that a higher rank beats a lower one of the same suit."""

    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """The rank's one-character code: 7 8 9 T J Q K A."""
        return "789TJQKA"[self.value - 7]

    @classmethod
    def from_text(cls, text: str) -> Rank:
        """The rank for its code (`T` and `10` both mean ten); raises `ContractError` otherwise."""
        key = "T" if text == "10" else text.upper()
        for rank in cls:
            if rank.letter == key:
                return rank
        raise ContractError(f"unknown rank {text!r}: expected one of 7 8 9 10 J Q K A")


@dataclass(frozen=True, order=True)
class Card:
    """One of the 32 cards. Text form: rank then suit letter, e.g. `Th` (ten of hearts), `7s`."""

    suit: Suit
    """The card's suit."""
    rank: Rank
    """The card's rank."""

    def __str__(self) -> str:
        return f"{self.rank.letter}{self.suit.letter}"


def parse_card(text: str) -> Card:
    """Read a card from its text form (`Ah`, `Th`, `10h`, `7♠`)."""
    text = text.strip()
    if len(text) < 2:
        raise ContractError(f"cannot read card {text!r}: expected rank then suit, e.g. 'Ah' or '10s'")
    return Card(Suit.from_letter(text[-1]), Rank.from_text(text[:-1]))


def deck() -> tuple[Card, ...]:
    """The 32-card deck, ordered by suit then rank."""
    return tuple(Card(suit, rank) for suit in Suit for rank in Rank)


@total_ordering
@dataclass(frozen=True)
class Contract:
    """A contract on the ladder: `level` tricks in `trump` (None = no trump), or the misère.

    Text form: `6s` … `10nt`, and `misere`. Contracts compare by their place on the ladder.
    """

    level: int
    """Tricks the declarer undertakes to take (6–10); 0 for the misère."""
    trump: Suit | None
    """The trump suit, or None for no trump (and for the misère)."""

    @property
    def is_misere(self) -> bool:
        """True for the misère, the contract to take no tricks."""
        return self.level == 0

    @property
    def rank(self) -> int:
        """The contract's place on the bidding ladder (0 = 6♠)."""
        return LADDER.index(self)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Contract):
            return NotImplemented
        return self.rank < other.rank

    def __str__(self) -> str:
        if self.is_misere:
            return "misere"
        return f"{self.level}{self.trump.letter if self.trump is not None else 'nt'}"


MISERE = Contract(0, None)
"""The misère: ranks above 8 no-trump and below 9♠."""


def _ladder() -> tuple[Contract, ...]:
    strains: list[Suit | None] = [*Suit, None]
    bids = [Contract(level, trump) for level in range(6, 11) for trump in strains]
    at_nine = bids.index(Contract(9, Suit.SPADES))
    return (*bids[:at_nine], MISERE, *bids[at_nine:])


LADDER: tuple[Contract, ...] = _ladder()
"""Every contract from 6♠ to 10 no-trump, misère between 8 no-trump and 9♠."""

_ALIASES = {"misere": MISERE, "мизер": MISERE, "mis": MISERE}


def parse_contract(text: str) -> Contract:
    """Read a contract (`6s`, `7h`, `10nt`, `8бк`, `misere`); raises `ContractError` naming the forms."""
    key = text.strip().lower()
    if key in _ALIASES:
        return _ALIASES[key]
    digits = key[:2] if key.startswith("10") else key[:1]
    rest = key[len(digits):]
    if digits in {"6", "7", "8", "9", "10"} and rest:
        if rest in ("nt", "бк", "б/к", "n"):
            return Contract(int(digits), None)
        if len(rest) == 1:
            try:
                return Contract(int(digits), Suit.from_letter(rest))
            except ContractError:
                pass
    raise ContractError(
        f"cannot read contract {text!r}: expected 6s 6c 6d 6h 6nt … 10nt or misere"
    )
