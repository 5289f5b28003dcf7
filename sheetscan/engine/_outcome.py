"""What the engine hands back: calls, errors that show the position, and a finished deal's outcome."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from sheetscan.errors import InvalidInputError, RuleViolationError
from sheetscan.rules import Contract, Defence, Play

__all__ = ["Call", "IllegalMove", "InvalidMove", "Outcome", "Phase"]


class Phase(enum.IntEnum):
    """Where a deal stands: what kind of action comes next."""

    AUCTION = 0
    """Players call in turn: a bid, «здесь», or pass."""
    DISCARD = 1
    """The declarer has taken the talon and puts two cards away."""
    DECLARE = 2
    """The declarer names the contract."""
    DEFENCE = 3
    """The defenders say whist, pass or полвиста."""
    CHOOSE_PLAY = 4
    """A lone whister chooses open or closed play."""
    PLAY = 5
    """Cards are played, trick by trick."""
    OVER = 6
    """The deal is finished; `outcome()` says how."""


class IllegalMove(RuleViolationError):
    """A well-formed action the rules do not allow now (python-chess's IllegalMoveError)."""

    def __init__(self, message: str, position: str) -> None:
        super().__init__(f"{message}; position: {position}" if position else message)
        self.position = position
        """The text form of the position the action was tried on."""


class InvalidMove(InvalidInputError):
    """An action written in a form we cannot read (python-chess's InvalidMoveError)."""

    def __init__(self, message: str, position: str) -> None:
        super().__init__(f"{message}; position: {position}" if position else message)
        self.position = position
        """The text form of the position the action was tried on."""


@dataclass(frozen=True)
class Call:
    """One call in the auction. Text form: `pass`, `here` («здесь»), or the contract (`6s`, `misere`)."""

    contract: Contract | None
    """The contract called (for «здесь», the bid held); None for a pass."""
    here: bool = False
    """«Здесь»/«мои»: the same contract as the standing bid, held by the earlier hand."""

    @property
    def is_pass(self) -> bool:
        """True for «пас»."""
        return self.contract is None

    def __str__(self) -> str:
        if self.contract is None:
            return "pass"
        return "here" if self.here else str(self.contract)


class Kind(enum.StrEnum):
    """What a finished deal was (the game record's `kind`)."""

    GAME = "game"
    MISERE = "misere"
    RASPASY = "raspasy"


@dataclass(frozen=True)
class Outcome:
    """How a finished deal ended: the value `DealState.outcome()` returns. Seats are table indices."""

    kind: str
    """`game`, `misere` or `raspasy`."""
    declarer: int | None
    """The declarer's seat; None on raspasy."""
    contract: Contract | None
    """The contract played; None on raspasy."""
    defence: tuple[tuple[int, Defence], ...]
    """Each defender's last word, in the order they first spoke (a returned whist is `whist`)."""
    play: Play | None
    """How a lone whister chose to play; None otherwise."""
    tricks: tuple[tuple[int, int], ...] | None
    """Tricks taken per seat that played, in seat order; None when the deal was not played out."""

    def to_json(self, names: tuple[str, ...] | list[str], dealer: int) -> dict[str, Any]:
        """The deal as a `sheetscan.game/1` entry (without the engine's extras)."""
        out: dict[str, Any] = {"dealer": names[dealer], "kind": self.kind}
        if self.declarer is not None:
            out["declarer"] = names[self.declarer]
            if self.kind == Kind.GAME:
                out["contract"] = str(self.contract)
        if self.defence:
            out["defence"] = {names[seat]: word.value for seat, word in self.defence}
        if self.play is not None:
            out["play"] = self.play.value
        if self.tricks is not None:
            out["tricks"] = {names[seat]: count for seat, count in self.tricks}
        return out
