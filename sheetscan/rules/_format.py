"""Small helpers shared by the readers: format tags, typed fields and player names."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from sheetscan.errors import InvalidInputError

__all__ = ["check_format", "check_players", "require_int", "require_mapping"]

_TAG = re.compile(r"^sheetscan\.([a-z]+)/(\d+)(?:\.(\d+))?$")


def check_format(data: Any, kind: str, major: int = 1) -> Mapping[str, Any]:
    """Check that `data` is an object tagged `sheetscan.<kind>/<major>[.minor]`; return it."""
    if not isinstance(data, Mapping):
        raise InvalidInputError(f"expected a JSON object with \"format\": \"sheetscan.{kind}/{major}\", "
                                f"got {type(data).__name__}")
    tag = data.get("format")
    match = _TAG.match(tag) if isinstance(tag, str) else None
    if match is None or match.group(1) != kind:
        raise InvalidInputError(
            f"format {tag!r} is not a sheetscan {kind}; expected \"sheetscan.{kind}/{major}\"")
    if int(match.group(2)) > major:
        raise InvalidInputError(
            f"format {tag!r} is newer than this sheetscan reads (sheetscan.{kind}/{major}); upgrade")
    if int(match.group(2)) < major:
        raise InvalidInputError(f"format {tag!r} is not supported; expected \"sheetscan.{kind}/{major}\"")
    return data


def require_mapping(value: Any, where: str) -> Mapping[str, Any]:
    """`value` if it is a JSON object, else an error naming `where`."""
    if not isinstance(value, Mapping):
        raise InvalidInputError(f"{where}: expected an object, got {value!r}")
    return value


def require_int(value: Any, where: str, *, low: int = 0, high: int | None = None) -> int:
    """`value` if it is a whole number in [low, high], else an error naming `where`."""
    if type(value) is int and low <= value and (high is None or value <= high):
        return value  # the common case, checked first because records hold tens of thousands
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{where}: expected a whole number, got {value!r}")
    if value < low or (high is not None and value > high):
        bounds = f"{low}…{high}" if high is not None else f"≥ {low}"
        raise InvalidInputError(f"{where}: {value} is out of range ({bounds})")
    return value


def check_players(players: Any, where: str = "players") -> tuple[str, ...]:
    """Validate a list of 3 or 4 distinct, non-empty player names; return them as a tuple."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidInputError(f"{where}: expected a list of 3 or 4 names, got {players!r}")
    names = tuple(players)
    if len(names) not in (3, 4):
        raise InvalidInputError(f"{where}: Preferans is scored for 3 or 4 players, got {len(names)}")
    for name in names:
        if not isinstance(name, str) or not name.strip() or name != name.strip():
            raise InvalidInputError(f"{where}: {name!r} is not a name (non-empty text without outer spaces)")
        if "|" in name or not name.isprintable():
            raise InvalidInputError(f"{where}: the name {name!r} may not contain '|', tabs or line breaks")
    if len(set(names)) != len(names):
        raise InvalidInputError(f"{where}: the names must differ, got {', '.join(names)}")
    return names
