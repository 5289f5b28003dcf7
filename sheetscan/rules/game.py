"""Game records (`sheetscan.game/1`): the per-game settings and what happened, deal by deal.

`read_game` checks the form of a record (names, kinds, contracts, numbers); whether a deal is allowed by
the rules (tricks adding up to 10, a defence the variant permits …) is checked when it is scored.

Decision: the dealer is not required to move clockwise deal by deal, because some conventions (Classic's
bombs) deal again from the same seat and a typed record may start anywhere; the dealer only decides who
sits out when four play.
Decision: besides FORMATS.md's fields a record may carry `"price"` (money per whist, default 1), which
`sheetscan replay` uses for the settlement; it is written only when it is not 1.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sheetscan.errors import InvalidInputError
from sheetscan.rules._format import check_format, check_players, require_int, require_mapping
from sheetscan.rules.cards import MISERE, Contract, parse_contract
from sheetscan.rules.options import Options
from sheetscan.rules.variants import Variant, find_variant

__all__ = [
    "GAME_FORMAT",
    "Deal",
    "DealKind",
    "Defence",
    "GameConfig",
    "GameRecord",
    "Play",
    "read_game",
    "write_game",
]

GAME_FORMAT = "sheetscan.game/1"
"""The format tag of game records."""


class DealKind(enum.StrEnum):
    """What kind of deal was played."""

    GAME = "game"
    """A contract to take tricks (6…10)."""
    MISERE = "misere"
    """The misère."""
    RASPASY = "raspasy"
    """All passed: everyone tries to take as few tricks as possible."""


class Defence(enum.StrEnum):
    """What a defender said after the contract was named."""

    WHIST = "whist"
    """«Вист» (also a returned whist)."""
    PASS = "pass"
    """«Пас»."""
    HALF = "half"
    """«Полвиста»: the second defender settles for half the duty without play (6 and 7 only)."""


class Play(enum.StrEnum):
    """How a lone whister chose to play."""

    OPEN = "open"
    """В светлую: both defenders' cards face up, the whister plays both."""
    CLOSED = "closed"
    """В тёмную: each defender plays his own hidden hand."""


_EXTRAS = ("cards", "auction", "play_sequence")


@dataclass(frozen=True)
class Deal:
    """One deal as recorded (FORMATS.md, "Game record"). Build it directly or with `read_game`."""

    dealer: str
    """Who dealt (sits out when four play)."""
    kind: DealKind
    """Game, misère or raspasy."""
    declarer: str | None = None
    """Who played the contract (None on raspasy)."""
    contract: Contract | None = None
    """The contract (the misère for a misère; None on raspasy)."""
    defence: Mapping[str, Defence] = field(default_factory=dict)
    """What each defender said, in the order they spoke (games only); with four players a dealer who took
    the whist last (003) follows as `whist`."""
    play: Play | None = None
    """Open or closed play of a lone whister; None when it does not apply or was not recorded."""
    tricks: Mapping[str, int] | None = None
    """Tricks taken by each player who played; None when the deal was not played out."""
    extras: Mapping[str, Any] = field(default_factory=dict)
    """`cards`, `auction`, `play_sequence` as the engine wrote them, kept verbatim."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "defence", dict(self.defence))
        if self.tricks is not None:
            object.__setattr__(self, "tricks", dict(self.tricks))
        object.__setattr__(self, "extras", dict(self.extras))
        if self.kind is DealKind.MISERE and self.contract is None:
            object.__setattr__(self, "contract", MISERE)

    def __str__(self) -> str:
        parts = [f"{self.dealer} deals"]
        if self.kind is DealKind.RASPASY:
            parts.append("raspasy")
        else:
            parts.append(f"{self.declarer} plays {self.contract}")
            parts.extend(f"{name} {said}" for name, said in self.defence.items())
            if self.play is not None:
                parts.append(str(self.play))
        if self.tricks is not None:
            parts.append("tricks " + " ".join(f"{name} {count}" for name, count in self.tricks.items()))
        return ", ".join(parts)


@dataclass(frozen=True)
class GameConfig:
    """Per-game settings: the variant, the players, the pulka target, the price of a whist, the options."""

    variant: Variant
    """The variant played."""
    players: tuple[str, ...]
    """3 or 4 names in seat order, clockwise."""
    pulka: int
    """The pulka target per player («пулька до 20»)."""
    options: Options
    """The effective conventions: the variant's preset with the game's overrides."""
    price: Fraction = Fraction(1)
    """Money per whist at settlement."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", check_players(self.players))
        require_int(self.pulka, "pulka", low=1, high=10_000)
        if not isinstance(self.price, Fraction) or self.price < 0:
            raise InvalidInputError(f"price: expected a number ≥ 0, got {self.price!r}")

    @classmethod
    def create(cls, variant: str | Variant, players: Sequence[str], pulka: int,
               options: Mapping[str, Any] | Options | None = None,
               price: Fraction | int | str = 1) -> GameConfig:
        """Settings from plain values: a variant name or `Variant`, names, target, option overrides
        (JSON-style key: value, or a whole `Options`)."""
        found = variant if isinstance(variant, Variant) else find_variant(variant)
        effective = options if isinstance(options, Options) else found.options.replace(options or {})
        return cls(found, tuple(players), pulka, effective, parse_price(price))

    @property
    def overrides(self) -> dict[str, Any]:
        """The options that differ from the variant's preset, as a file's `"options"` holds them."""
        return self.options.differences(self.variant.options)

    def active(self, dealer: str) -> tuple[str, ...]:
        """The players who take part in a deal: everyone, or everyone but the dealer when four play."""
        if len(self.players) == 3:
            return self.players
        return self._clockwise[dealer][:3]

    @functools.cached_property
    def _clockwise(self) -> dict[str, tuple[str, ...]]:
        # Seat orders are asked for on every deal; there are only 3 or 4 of them.
        players, n = self.players, len(self.players)
        return {name: tuple(players[(i + k) % n] for k in range(1, n + 1)) for i, name in enumerate(players)}

    def left_of(self, name: str, among: Sequence[str]) -> tuple[str, ...]:
        """The players of `among` in clockwise order, starting with the one on `name`'s left."""
        return tuple(p for p in self._clockwise[name] if p in among)


def parse_price(value: Fraction | int | str) -> Fraction:
    """A price per whist from a number or text (`1`, `0.5`, `1/3`)."""
    try:
        price = Fraction(value) if not isinstance(value, bool) else None
    except (ValueError, ZeroDivisionError, TypeError):
        price = None
    if price is None or price < 0:
        raise InvalidInputError(f"price: {value!r} is not a number ≥ 0 (e.g. 1, 0.5 or 1/3)")
    return price


@dataclass(frozen=True)
class GameRecord:
    """A whole game: its settings and its deals in order."""

    config: GameConfig
    """Variant, players, pulka target, options."""
    deals: tuple[Deal, ...]
    """The deals in the order they were played."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "deals", tuple(self.deals))


@functools.lru_cache(maxsize=256)
def _contract(text: str) -> Contract:
    # Records repeat a few dozen contract codes thousands of times.
    return parse_contract(text)


def _deal(data: Any, number: int, config: GameConfig) -> Deal:
    where = f"deal {number}"
    data = require_mapping(data, where)
    known = ("dealer", "kind", "declarer", "contract", "defence", "play", "tricks", *_EXTRAS)
    unknown = [key for key in data if key not in known]
    if unknown:
        raise InvalidInputError(f"{where}: unknown field {unknown[0]!r}; a deal has {', '.join(known)}")
    players = config.players

    def player(value: Any, role: str) -> str:
        if value not in players:
            raise InvalidInputError(f"{where}: {role} {value!r} is not a player ({', '.join(players)})")
        return str(value)

    dealer = player(data.get("dealer"), "dealer")
    try:
        kind = DealKind(data.get("kind"))
    except ValueError:
        raise InvalidInputError(
            f"{where}: kind {data.get('kind')!r} is not one of game, misere, raspasy") from None
    declarer = contract = play = tricks = None
    defence: dict[str, Defence] = {}
    if kind is DealKind.RASPASY:
        for key in ("declarer", "contract", "defence", "play"):
            if key in data:
                raise InvalidInputError(f"{where}: raspasy has no {key}")
    else:
        declarer = player(data.get("declarer"), "declarer")
        text = data.get("contract", "misere" if kind is DealKind.MISERE else None)
        if not isinstance(text, str):
            raise InvalidInputError(f"{where}: contract missing or not text (e.g. \"7h\"), got {text!r}")
        try:
            contract = _contract(text)
        except InvalidInputError as error:
            raise InvalidInputError(f"{where}: {error}") from None
        if (kind is DealKind.MISERE) != contract.is_misere:
            raise InvalidInputError(f"{where}: kind {kind} does not match contract {contract}")
        if kind is DealKind.MISERE and ("defence" in data or "play" in data):
            raise InvalidInputError(f"{where}: a misère is not whisted; it has no defence or play")
        raw_defence = require_mapping(data.get("defence", {}), f"{where} defence")
        for name, said in raw_defence.items():
            player(name, "defender")
            try:
                defence[name] = Defence(said)
            except ValueError:
                raise InvalidInputError(
                    f"{where}: {name} said {said!r}; expected whist, pass or half") from None
        if "play" in data:
            try:
                play = Play(data["play"])
            except ValueError:
                raise InvalidInputError(f"{where}: play {data['play']!r} is not open or closed") from None
    if "tricks" in data:
        raw = require_mapping(data["tricks"], f"{where} tricks")
        tricks = {player(name, "trick taker"): require_int(count, f"{where} tricks of {name}", high=10)
                  for name, count in raw.items()}
    extras = {key: data[key] for key in _EXTRAS if key in data}
    return Deal(dealer, kind, declarer, contract, defence, play, tricks, extras)


def read_game(data: Any) -> GameRecord:
    """Read a `sheetscan.game/1` record from parsed JSON; raises `InvalidInputError` naming what is wrong."""
    record = check_format(data, "game")
    known = ("format", "variant", "options", "players", "pulka", "deals", "price")
    unknown = [key for key in record if key not in known]
    if unknown:
        raise InvalidInputError(f"unknown field {unknown[0]!r} in the game record; it has {', '.join(known)}")
    for key in ("variant", "players", "pulka", "deals"):
        if key not in record:
            raise InvalidInputError(f"the game record has no {key!r}")
    variant = record["variant"]
    if not isinstance(variant, str):
        raise InvalidInputError(f"variant: expected a name, got {variant!r}")
    config = GameConfig.create(variant, check_players(record["players"]),
                               require_int(record["pulka"], "pulka", low=1, high=10_000),
                               require_mapping(record.get("options", {}), "options"), record.get("price", 1))
    deals = record["deals"]
    if not isinstance(deals, list):
        raise InvalidInputError(f"deals: expected a list, got {type(deals).__name__}")
    return GameRecord(config, tuple(_deal(deal, i, config) for i, deal in enumerate(deals, start=1)))


def _deal_json(deal: Deal) -> dict[str, Any]:
    out: dict[str, Any] = {"dealer": deal.dealer, "kind": deal.kind.value}
    if deal.kind is not DealKind.RASPASY:
        out["declarer"] = deal.declarer
        out["contract"] = str(deal.contract)
        if deal.defence:
            out["defence"] = {name: said.value for name, said in deal.defence.items()}
        if deal.play is not None:
            out["play"] = deal.play.value
    if deal.tricks is not None:
        out["tricks"] = dict(deal.tricks)
    out.update(deal.extras)
    return out


def write_game(record: GameRecord) -> dict[str, Any]:
    """The record as `sheetscan.game/1` JSON (options written as overrides of the variant's preset)."""
    config = record.config
    out: dict[str, Any] = {"format": GAME_FORMAT, "variant": config.variant.name}
    if config.overrides:
        out["options"] = config.overrides
    out["players"] = list(config.players)
    out["pulka"] = config.pulka
    if config.price != 1:
        out["price"] = str(config.price)
    out["deals"] = [_deal_json(deal) for deal in record.deals]
    return out
