"""House conventions: the `Options` a variant presets and a game record may override key by key.

The field names are exactly the keys of FORMATS.md, "Options (house conventions)". Values read from
JSON are validated here; an unknown key or a bad value raises `InvalidInputError` naming what is allowed.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from sheetscan.errors import InvalidInputError

__all__ = [
    "ConsolationTo",
    "OptionError",
    "Options",
    "PulkaClose",
    "RaspasyScoring",
    "RaspasyZero",
    "Responsibility",
    "WhistStyle",
]


class OptionError(InvalidInputError):
    """An unknown option key or a value the option does not accept."""


class WhistStyle(enum.StrEnum):
    """Who writes whists when one defender whisted and the other passed and the declarer went down."""

    GREEDY = "greedy"
    """Жлобский: the whister writes the whists for the tricks, the passer only the consolation."""
    GENTLEMAN = "gentleman"
    """Джентльменский: whister and passer share all whists (tricks and consolation) half and half."""


class Responsibility(enum.StrEnum):
    """What a whister's shortfall costs in the gora, per missing trick."""

    FULL = "full"
    """Ответственный: the full undertrick price of the contract."""
    HALF = "half"
    """Полуответственный: half of it."""


class ConsolationTo(enum.StrEnum):
    """With four players, who writes consolation on a declarer who went down."""

    DEFENDERS = "defenders"
    """Only the two defenders."""
    ALL = "all"
    """The defenders and the dealer who sat out."""


class RaspasyScoring(enum.StrEnum):
    """Where the tricks taken on raspasy are written."""

    GORA = "gora"
    """Each trick costs the progression's price in the taker's gora (Sochi, Leningrad)."""
    WHISTS = "whists"
    """The player with fewest tricks writes whists on the others for their tricks (Rostov)."""


class RaspasyZero(enum.StrEnum):
    """What a player who took no trick on raspasy writes."""

    PULKA = "pulka"
    """One trick's price to his pulka."""
    NONE = "none"
    """Nothing."""


class PulkaClose(enum.StrEnum):
    """When the pulka is over."""

    EACH = "each"
    """When every player's pulka has reached the target (Sochi, Rostov)."""
    SUM = "sum"
    """When the sum of the pulkas reaches target × players (Leningrad)."""


Consolation = int | Literal["price"]
"""Whists per undertrick as consolation: the contract's whist price (`"price"`) or a fixed number."""


@dataclass(frozen=True)
class Options:
    """The house conventions of one game. Defaults are Sochi's; a `Variant` carries its own preset."""

    whist_style: WhistStyle = WhistStyle.GREEDY
    """Who writes whists when one defender passed (greedy / gentleman)."""
    whist_responsibility: Responsibility = Responsibility.FULL
    """A whister's shortfall costs the full or half contract price per missing trick."""
    consolation: Consolation = "price"
    """Whists per undertrick on a declarer who went down: the contract's whist price or a fixed number."""
    consolation_to: ConsolationTo = ConsolationTo.DEFENDERS
    """With four players, whether the dealer writes consolation too."""
    raspasy_scoring: RaspasyScoring = RaspasyScoring.GORA
    """Raspasy tricks go to the gora, or are paid in whists by the winner's rule."""
    raspasy_progression: tuple[int, ...] = (1, 2, 3)
    """Price of a raspasy trick in consecutive raspasy; the last one repeats."""
    raspasy_whists_per_trick: int = 5
    """With whist scoring of raspasy: whists per trick (multiplied by the progression's price)."""
    raspasy_zero: RaspasyZero = RaspasyZero.PULKA
    """A player with no tricks on raspasy writes one trick's price to the pulka, or nothing."""
    raspasy_exit: tuple[int, ...] = (6,)
    """Lowest contract level that ends a run of raspasy, after 1, 2, 3 … raspasy; the last repeats."""
    half_whist: bool = False
    """Полвиста allowed on 6 and 7."""
    stalingrad: bool = False
    """6♠ must be whisted by both defenders."""
    ten_checked: bool = False
    """A 10-contract is checked, not whisted."""
    pulka_close: PulkaClose = PulkaClose.EACH
    """The game ends when each pulka reaches the target, or when their sum reaches target × players."""
    help: bool = True
    """Points beyond a closed pulka go to another player's pulka, for whists written on him."""
    pulka_point_whists: int = 10
    """Whists per pulka point at settlement (and per point of help)."""
    gora_point_whists: int = 10
    """Whists per gora point at settlement."""
    amnesty: bool = False
    """Lower every gora by the smallest one before settling (changes no balance, only the figures)."""

    def __post_init__(self) -> None:
        # Python callers may pass lists or plain strings; store tuples and enum members.
        for key in Options.option_keys():
            value = getattr(self, key)
            if isinstance(value, list) or (key in _ENUMS and isinstance(value, str)):
                object.__setattr__(self, key, _convert(key, value))
        _validate(self)

    @classmethod
    def option_keys(cls) -> tuple[str, ...]:
        """Every option key, in the order of FORMATS.md."""
        return tuple(f.name for f in dataclasses.fields(cls))

    def replace(self, overrides: Mapping[str, Any]) -> Options:
        """These options with some keys overridden by JSON-style values (strings, lists, numbers, bools).

        Raises `OptionError` for an unknown key (naming the known ones) or a value the key does not take.
        """
        known = self.option_keys()
        if not isinstance(overrides, Mapping):
            raise OptionError(f"options must be an object of key: value, not {type(overrides).__name__}")
        changes: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in known:
                raise OptionError(f"unknown option {key!r}; the options are: {', '.join(known)}")
            changes[key] = _convert(key, value)
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every option as its JSON value."""
        return {key: _to_json(getattr(self, key)) for key in self.option_keys()}

    def differences(self, base: Options) -> dict[str, Any]:
        """The JSON overrides that turn `base` into these options (what a file's `"options"` holds)."""
        return {
            key: _to_json(getattr(self, key))
            for key in self.option_keys()
            if getattr(self, key) != getattr(base, key)
        }


_ENUMS: dict[str, type[enum.StrEnum]] = {
    "whist_style": WhistStyle,
    "whist_responsibility": Responsibility,
    "consolation_to": ConsolationTo,
    "raspasy_scoring": RaspasyScoring,
    "raspasy_zero": RaspasyZero,
    "pulka_close": PulkaClose,
}
_BOOLS = ("half_whist", "stalingrad", "ten_checked", "help", "amnesty")
_POSITIVE_INTS = ("raspasy_whists_per_trick", "pulka_point_whists", "gora_point_whists")


def _to_json(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _convert(key: str, value: Any) -> Any:
    """Turn a JSON value into the option's Python value; `_validate` checks ranges afterwards."""
    if key in _ENUMS:
        kind = _ENUMS[key]
        if isinstance(value, kind):
            return value
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(member.value for member in kind)
            raise OptionError(f"option {key}: {value!r} is not one of {allowed}") from None
    if key in ("raspasy_progression", "raspasy_exit"):
        if not isinstance(value, list | tuple):
            raise OptionError(f"option {key}: expected a list of integers, got {value!r}")
        return tuple(value)
    return value


def _validate(options: Options) -> None:
    for key, kind in _ENUMS.items():
        if not isinstance(getattr(options, key), kind):
            raise OptionError(f"option {key}: {getattr(options, key)!r} is not a {kind.__name__}")
    for key in _BOOLS:
        if not isinstance(getattr(options, key), bool):
            raise OptionError(f"option {key}: expected true or false, got {getattr(options, key)!r}")
    for key in _POSITIVE_INTS:
        value = getattr(options, key)
        if not _is_int(value) or value <= 0:
            raise OptionError(f"option {key}: expected a positive integer, got {value!r}")
    consolation = options.consolation
    if consolation != "price" and not (_is_int(consolation) and consolation >= 0):
        raise OptionError(
            f"option consolation: expected \"price\" or a whole number ≥ 0, got {consolation!r}")
    progression = options.raspasy_progression
    if not progression or not all(_is_int(p) and p > 0 for p in progression):
        raise OptionError(f"option raspasy_progression: expected a non-empty list of positive integers, "
                          f"got {list(progression)!r}")
    exits = options.raspasy_exit
    if not exits or not all(_is_int(level) and 6 <= level <= 10 for level in exits):
        raise OptionError(f"option raspasy_exit: expected a non-empty list of contract levels 6…10, "
                          f"got {list(exits)!r}")

