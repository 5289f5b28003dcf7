"""The sheet (`sheetscan.sheet/1`): what is written on the paper, zone by zone, as running totals.

Two forms round-trip: JSON (FORMATS.md, "Sheet") and a compact text form, one line per zone:

    sheetscan.sheet/1
    variant leningrad
    options {"amnesty":false}
    players Anna | Boris | Vera
    pulka 20
    Anna | pulka | 2 6
    Anna | gora | 4
    Anna | whists on Boris | 8 12
    Anna | whists on Vera | -

(`options` only when they differ from the variant's; `-` for an empty zone.)
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sheetscan.errors import InvalidInputError, RuleViolationError
from sheetscan.rules._format import check_format, check_players, require_int, require_mapping
from sheetscan.rules.options import Options
from sheetscan.rules.variants import Variant, find_variant

__all__ = [
    "SHEET_FORMAT",
    "Sheet",
    "Zone",
    "check_sheet",
    "parse_sheet_text",
    "read_sheet",
    "sheet_problems",
    "sheet_to_text",
    "write_sheet",
]

SHEET_FORMAT = "sheetscan.sheet/1"
"""The format tag of sheets."""


def _numbers(values: Any, where: str) -> tuple[int, ...]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise InvalidInputError(f"{where}: expected a list of numbers, got {values!r}")
    return tuple(require_int(value, where, high=1_000_000) for value in values)


@dataclass(frozen=True)
class Zone:
    """One player's part of the sheet: the numbers written, oldest first (running totals)."""

    pulka: tuple[int, ...] = ()
    """The running totals of his pulka."""
    gora: tuple[int, ...] = ()
    """The running totals of his gora."""
    whists: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """For each other player, the running totals of the whists this player wrote on him."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "pulka", _numbers(self.pulka, "pulka"))
        object.__setattr__(self, "gora", _numbers(self.gora, "gora"))
        whists = require_mapping(self.whists, "whists")
        object.__setattr__(
            self, "whists", {str(on): _numbers(v, f"whists on {on}") for on, v in whists.items()})

    @property
    def pulka_total(self) -> int:
        """The last number in the pulka (0 if none)."""
        return self.pulka[-1] if self.pulka else 0

    @property
    def gora_total(self) -> int:
        """The last number in the gora (0 if none)."""
        return self.gora[-1] if self.gora else 0

    def whists_on(self, name: str) -> int:
        """The last number of the whists written on `name` (0 if none)."""
        written = self.whists.get(name, ())
        return written[-1] if written else 0


@dataclass(frozen=True)
class Sheet:
    """A whole sheet: the game's settings and every player's zone.

    Build it from scanned numbers with `Sheet.build`; `check_sheet` says whether the rules allow it.
    """

    variant: Variant
    """The variant the sheet was played in."""
    players: tuple[str, ...]
    """3 or 4 names in seat order, clockwise."""
    pulka: int
    """The pulka target per player."""
    zones: Mapping[str, Zone]
    """Each player's zone, keyed by name."""
    options: Options = None  # type: ignore[assignment]
    """The effective conventions (the variant's preset if not given)."""

    def __post_init__(self) -> None:
        players = check_players(self.players)
        object.__setattr__(self, "players", players)
        require_int(self.pulka, "pulka", low=1, high=10_000)
        if self.options is None:
            object.__setattr__(self, "options", self.variant.options)
        zones = require_mapping(self.zones, "zones")
        if set(zones) != set(players):
            raise InvalidInputError(
                f"the sheet's zones ({', '.join(map(str, zones)) or 'none'}) do not match "
                f"its players ({', '.join(players)})")
        fixed: dict[str, Zone] = {}
        for name in players:
            zone = zones[name]
            if not isinstance(zone, Zone):
                raise InvalidInputError(f"zone {name}: expected a Zone, got {type(zone).__name__}")
            others = [p for p in players if p != name]
            strangers = [on for on in zone.whists if on not in others]
            if strangers:
                raise InvalidInputError(f"{name}'s whists on {strangers[0]!r}: not one of the other players "
                                        f"({', '.join(others)})")
            whists = {on: zone.whists.get(on, ()) for on in others}
            fixed[name] = Zone(zone.pulka, zone.gora, whists)
        object.__setattr__(self, "zones", fixed)

    @classmethod
    def build(cls, variant: str | Variant, players: Sequence[str], pulka: int,
              zones: Mapping[str, Mapping[str, Any]], options: Mapping[str, Any] | Options | None = None,
              ) -> Sheet:
        """A sheet from plain values: `zones[name] = {"pulka": [...], "gora": [...], "whists": {...}}`."""
        found = variant if isinstance(variant, Variant) else find_variant(variant)
        effective = options if isinstance(options, Options) else found.options.replace(options or {})
        built: dict[str, Zone] = {}
        for name, zone in require_mapping(zones, "zones").items():
            zone = require_mapping(zone, f"zone {name}")
            unknown = [key for key in zone if key not in ("pulka", "gora", "whists")]
            if unknown:
                raise InvalidInputError(
                    f"zone {name}: unknown part {unknown[0]!r}; a zone has pulka, gora, whists")
            try:
                built[str(name)] = Zone(zone.get("pulka", ()), zone.get("gora", ()), zone.get("whists", {}))
            except InvalidInputError as error:
                raise InvalidInputError(f"zone {name}: {error}") from None
        return cls(found, tuple(players), pulka, built, effective)

    def __str__(self) -> str:
        return sheet_to_text(self)


def sheet_problems(sheet: Sheet) -> list[str]:
    """Every running total that goes down (the rules only ever add to pulka, gora and whists)."""
    problems: list[str] = []

    def check(values: tuple[int, ...], where: str) -> None:
        for before, after in itertools.pairwise(values):
            if after < before:
                problems.append(f"{where}: {after} follows {before}, but a running total never goes down")
                return

    for name in sheet.players:
        zone = sheet.zones[name]
        check(zone.pulka, f"{name}'s pulka")
        check(zone.gora, f"{name}'s gora")
        for on, values in zone.whists.items():
            check(values, f"{name}'s whists on {on}")
    return problems


def check_sheet(sheet: Sheet) -> Sheet:
    """Raise `RuleViolationError` naming the first zone whose running total goes down; else the sheet."""
    problems = sheet_problems(sheet)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise RuleViolationError(problems[0] + more)
    return sheet


def read_sheet(data: Any) -> Sheet:
    """Read a `sheetscan.sheet/1` object from parsed JSON; raises `InvalidInputError` naming the problem."""
    record = check_format(data, "sheet")
    known = ("format", "variant", "options", "players", "pulka", "zones")
    unknown = [key for key in record if key not in known]
    if unknown:
        raise InvalidInputError(f"unknown field {unknown[0]!r} in the sheet; it has {', '.join(known)}")
    for key in ("variant", "players", "pulka", "zones"):
        if key not in record:
            raise InvalidInputError(f"the sheet has no {key!r}")
    if not isinstance(record["variant"], str):
        raise InvalidInputError(f"variant: expected a name, got {record['variant']!r}")
    return Sheet.build(record["variant"], check_players(record["players"]), record["pulka"],
                       require_mapping(record["zones"], "zones"), require_mapping(record.get("options", {}),
                                                                                 "options"))


def write_sheet(sheet: Sheet) -> dict[str, Any]:
    """The sheet as `sheetscan.sheet/1` JSON (options as overrides of the variant's preset)."""
    return {
        "format": SHEET_FORMAT,
        "variant": sheet.variant.name,
        "options": sheet.options.differences(sheet.variant.options),
        "players": list(sheet.players),
        "pulka": sheet.pulka,
        "zones": {
            name: {
                "pulka": list(zone.pulka),
                "gora": list(zone.gora),
                "whists": {on: list(values) for on, values in zone.whists.items()},
            }
            for name, zone in sheet.zones.items()
        },
    }


def _line(values: tuple[int, ...]) -> str:
    return " ".join(map(str, values)) if values else "-"


def sheet_to_text(sheet: Sheet) -> str:
    """The compact text form (see the module's docstring); `parse_sheet_text` reads it back."""
    lines = [SHEET_FORMAT, f"variant {sheet.variant.name}"]
    overrides = sheet.options.differences(sheet.variant.options)
    if overrides:
        lines.append("options " + json.dumps(overrides, ensure_ascii=False, separators=(",", ":")))
    lines.append("players " + " | ".join(sheet.players))
    lines.append(f"pulka {sheet.pulka}")
    for name, zone in sheet.zones.items():
        lines.append(f"{name} | pulka | {_line(zone.pulka)}")
        lines.append(f"{name} | gora | {_line(zone.gora)}")
        lines.extend(f"{name} | whists on {on} | {_line(values)}" for on, values in zone.whists.items())
    return "\n".join(lines) + "\n"


def parse_sheet_text(text: str) -> Sheet:
    """Read the compact text form; raises `InvalidInputError` naming the line that is wrong."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    if not lines or lines[0].strip() != SHEET_FORMAT:
        raise InvalidInputError(f"a sheet in text form starts with the line {SHEET_FORMAT!r}")
    header: dict[str, str] = {}
    body = list(enumerate(lines[1:], start=2))
    # The header lines come first, in a fixed order; `options` may be left out.
    for key in ("variant", "options", "players", "pulka"):
        if body and body[0][1].startswith(key + " "):
            header[key] = body.pop(0)[1][len(key) + 1:].strip()
    zones: dict[str, dict[str, Any]] = {}
    for number, line in body:
        parts = line.split(" | ")
        if len(parts) == 2 and line.endswith(" |"):
            parts.append("")
        if len(parts) != 3:
            raise InvalidInputError(
                f"sheet text line {number}: expected 'NAME | ZONE | numbers', got {line!r}")
        name, part, numbers = parts[0], parts[1], parts[2].strip()
        try:
            values = [] if numbers in ("-", "") else [int(n) for n in numbers.split()]
        except ValueError:
            raise InvalidInputError(f"sheet text line {number}: {numbers!r} are not whole numbers") from None
        zone = zones.setdefault(name, {"pulka": [], "gora": [], "whists": {}})
        if part in ("pulka", "gora"):
            zone[part] = values
        elif part.startswith("whists on "):
            zone["whists"][part.removeprefix("whists on ")] = values
        else:
            raise InvalidInputError(
                f"sheet text line {number}: unknown zone {part!r} (pulka, gora, whists on X)")
    for key in ("variant", "players", "pulka"):
        if key not in header:
            raise InvalidInputError(f"sheet text has no {key!r} line")
    try:
        options = json.loads(header["options"]) if "options" in header else {}
        pulka = int(header["pulka"])
    except ValueError as error:
        raise InvalidInputError(f"sheet text: cannot read the options or pulka line ({error})") from None
    players = [name.strip() for name in header["players"].split("|")]
    for name in players:
        zones.setdefault(name, {})  # a player with nothing written needs no lines
    return Sheet.build(header["variant"], check_players(players), pulka, zones,
                       require_mapping(options, "options"))
