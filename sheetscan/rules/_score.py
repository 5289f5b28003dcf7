"""The entries one deal writes on the sheet, shared by the scoring of games and of raspasy."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from sheetscan.errors import InvalidInputError, RuleViolationError

__all__ = ["DealScore", "Entries", "check_tricks"]


@dataclass(frozen=True)
class DealScore:
    """What one deal writes on the sheet, before any help («помощь») moves pulka points on."""

    pulka: Mapping[str, int] = field(default_factory=dict)
    """Points each player writes to his own pulka."""
    gora: Mapping[str, int] = field(default_factory=dict)
    """Points each player writes to his gora."""
    whists: Mapping[tuple[str, str], int] = field(default_factory=dict)
    """Whists written, keyed by (writer, the player they are written on)."""
    made: bool | None = None
    """For a game or misère: whether the declarer made it (None on raspasy)."""
    whisted: bool = False
    """For a game: whether it was played against a whister (a misère always is)."""

    def __post_init__(self) -> None:
        # Keep only what is actually written: a zero is not an entry on paper.
        object.__setattr__(self, "pulka", {k: v for k, v in self.pulka.items() if v})
        object.__setattr__(self, "gora", {k: v for k, v in self.gora.items() if v})
        object.__setattr__(self, "whists", {k: v for k, v in self.whists.items() if v})

    def __str__(self) -> str:
        parts = [f"{name} pulka +{points}" for name, points in self.pulka.items()]
        parts += [f"{name} gora +{points}" for name, points in self.gora.items()]
        parts += [f"{writer} whists on {on} +{count}" for (writer, on), count in self.whists.items()]
        return "; ".join(parts) or "nothing written"


class Entries:
    """Accumulates a deal's entries."""

    def __init__(self) -> None:
        self.pulka: Counter[str] = Counter()
        self.gora: Counter[str] = Counter()
        self.whists: Counter[tuple[str, str]] = Counter()

    def score(self, made: bool | None, whisted: bool) -> DealScore:
        return DealScore(dict(self.pulka), dict(self.gora), dict(self.whists), made, whisted)


def check_tricks(
    tricks: Mapping[str, int] | None, players: tuple[str, ...], what: str
) -> Mapping[str, int]:
    """Check that `tricks` names exactly `players` and adds up to 10; return it."""
    if tricks is None:
        raise InvalidInputError(f"{what} was played out, so it needs \"tricks\" for {', '.join(players)}")
    if set(tricks) != set(players):
        raise RuleViolationError(
            f"{what}: tricks are given for {', '.join(tricks) or 'nobody'}, "
            f"but the players in this deal are {', '.join(players)}")
    total = sum(tricks.values())
    if total != 10:
        listed = ", ".join(f"{name} {count}" for name, count in tricks.items())
        raise RuleViolationError(f"{what}: tricks add up to {total}, not 10 ({listed})")
    return tricks
