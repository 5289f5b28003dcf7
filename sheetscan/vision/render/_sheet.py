"""From a game record or a sheet to what gets written in each zone of the layout.

Players sit in the order the sheet names them: `players[i]` at seat i (FORMATS.md: seat order,
clockwise; LAYOUT.md: seat 0 along the bottom edge).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sheetscan.errors import InvalidInputError
from sheetscan.layouts import zone_index
from sheetscan.rules import read_game, read_sheet, replay, write_sheet

__all__ = ["GAME_FORMAT", "SHEET_FORMAT", "sheet_entries", "sheet_from_game", "sheet_or_game"]

SHEET_FORMAT = "sheetscan.sheet/1"
GAME_FORMAT = "sheetscan.game/1"


def sheet_from_game(record: Mapping[str, Any]) -> dict[str, Any]:
    """The `sheetscan.sheet/1` that replaying `record` (`sheetscan.game/1`) writes, via the rules core."""
    return write_sheet(replay(read_game(record)))


def sheet_or_game(data: Any) -> dict[str, Any]:
    """A sheet from a file's JSON, which may hold a sheet or a game record."""
    tag = data.get("format") if isinstance(data, Mapping) else None
    if tag == SHEET_FORMAT:
        return write_sheet(read_sheet(data))
    if tag == GAME_FORMAT:
        return sheet_from_game(data)
    raise InvalidInputError(f"expected a {GAME_FORMAT} or {SHEET_FORMAT} document, got format {tag!r}")


def _values(values: Any, where: str) -> list[int]:
    if not isinstance(values, list) or not all(isinstance(v, int) and v >= 0 for v in values):
        raise InvalidInputError(f"{where}: expected a list of whole numbers, got {values!r}")
    return list(values)


def sheet_entries(sheet: Mapping[str, Any]) -> tuple[list[str], dict[int, list[int]]]:
    """The players in seat order and the numbers of each zone, keyed by zone index (`sheetscan.layouts`)."""
    if sheet.get("format") != SHEET_FORMAT:
        raise InvalidInputError(f"expected a {SHEET_FORMAT} document, got format {sheet.get('format')!r}")
    players = sheet.get("players")
    if not isinstance(players, list) or len(players) not in (3, 4) or len(set(players)) != len(players):
        raise InvalidInputError(f"players: expected 3 or 4 different names, got {players!r}")
    zones = sheet.get("zones")
    if not isinstance(zones, Mapping):
        raise InvalidInputError("the sheet has no zones")
    n = len(players)
    seat = {name: i for i, name in enumerate(players)}
    out: dict[int, list[int]] = {}
    for name, zone in zones.items():
        if name not in seat or not isinstance(zone, Mapping):
            raise InvalidInputError(f"zones: {name!r} is not one of the players {players}")
        s = seat[name]
        out[zone_index(n, s, "pulka")] = _values(zone.get("pulka", []), f"{name} pulka")
        out[zone_index(n, s, "gora")] = _values(zone.get("gora", []), f"{name} gora")
        whists = zone.get("whists", {})
        if not isinstance(whists, Mapping):
            raise InvalidInputError(f"{name} whists: expected an object keyed by player")
        for on, values in whists.items():
            if on not in seat or on == name:
                raise InvalidInputError(f"{name} whists on {on!r}: not another player")
            out[zone_index(n, s, "whists", seat[on])] = _values(values, f"{name} whists on {on}")
    return list(players), out
