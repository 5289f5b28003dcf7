"""From read numbers to the sheet they spell (`sheetscan.sheet/1`), and its settlement when complete.

The sheet is built from each number's best reading; crossed-out numbers are left out (LAYOUT.md).
Nothing is guessed: a number that could not be read, a zone outside the photo, or a pulka target that
could not be read makes the reading partial, and a partial reading is not settled.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Protocol

from sheetscan.errors import SheetscanError
from sheetscan.vision.numbers import SheetNumbers

__all__ = ["DEFAULT_VARIANT", "SheetReading", "player_names", "read_sheet_numbers", "settle_reading"]

DEFAULT_VARIANT = "sochi"
"""The variant a sheet is read under when neither the caller nor the form's QR code names one."""
# Decision: Sochi is the default because it is the most widely played of the three main variants
# (the rules documents describe it first); `--variant` overrides it and a form's QR code names its own.

TARGET_CONFIDENCE = 0.5
"""Below this confidence the number in the circle is not taken as the pulka target."""


class _Zone(Protocol):
    @property
    def index(self) -> int: ...
    @property
    def player(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def on(self) -> int | None: ...


class _Zones(Protocol):
    @property
    def players(self) -> int: ...
    @property
    def zones(self) -> Any: ...


@dataclass(frozen=True)
class SheetReading:
    """The sheet as read from the photo."""

    sheet: dict[str, Any]
    """`sheetscan.sheet/1`: every zone's running totals from the best readings, oldest first."""
    pulka_written: int | None
    """The pulka target read in the centre circle, or None."""
    partial: bool
    """True when something could not be read (see `problems`): the sheet is incomplete."""
    problems: tuple[str, ...]
    """Why the reading is partial, one sentence each."""


def player_names(players: int) -> list[str]:
    """The default names `P1`, `P2`, … in seat order (FORMATS.md "Scan result")."""
    return [f"P{seat + 1}" for seat in range(players)]


def read_sheet_numbers(numbers: SheetNumbers, zones: _Zones, *, variant: str | None = None,
                       form: dict[str, str | int] | None = None, partial: bool = False) -> SheetReading:
    """The sheet the numbers spell. `form` is what a printed form's QR code says (variant, pulka);
    `partial` says that part of the sheet lay outside the photo."""
    names = player_names(zones.players)
    problems: list[str] = []
    if partial:
        problems.append("part of the sheet lies outside the photo")
    target = numbers.target
    pulka_written = target.value if target is not None and target.confidence >= TARGET_CONFIDENCE else None
    pulka: int | None = pulka_written
    if pulka is None and form is not None and isinstance(form.get("pulka"), int):
        pulka = int(form["pulka"])
    if pulka is None:
        problems.append("the pulka target in the circle could not be read")
    chosen = variant or (str(form["variant"]) if form and form.get("variant") else DEFAULT_VARIANT)
    sheet_zones: dict[str, dict[str, Any]] = {
        name: {"pulka": [], "gora": [], "whists": {other: [] for other in names if other != name}}
        for name in names
    }
    read = {z.zone: z for z in numbers.zones}
    unreadable: dict[int, int] = {}
    for zone in zones.zones:
        values: list[int] = []
        zone_numbers = read[zone.index].numbers if zone.index in read else ()
        for number in zone_numbers:
            if number.token.crossed_out:
                continue
            if number.value is None:
                unreadable[zone.index] = unreadable.get(zone.index, 0) + 1
                continue
            values.append(number.value)
        owner = sheet_zones[names[zone.player]]
        if zone.kind == "whists" and zone.on is not None:
            owner["whists"][names[zone.on]] = values
        else:
            owner[zone.kind] = values
    if unreadable:
        total = sum(unreadable.values())
        where = ", ".join(str(z) for z in sorted(unreadable))
        plural, zones_plural = ("s" if total > 1 else ""), ("s" if len(unreadable) > 1 else "")
        problems.append(f"{total} number{plural} could not be read (zone{zones_plural} {where})")
    sheet = {"format": "sheetscan.sheet/1", "variant": chosen, "options": {}, "players": names,
             "pulka": pulka, "zones": sheet_zones}
    return SheetReading(sheet=sheet, pulka_written=pulka_written, partial=bool(problems),
                        problems=tuple(problems))


def settle_reading(reading: SheetReading) -> dict[str, Any] | None:
    """The settlement of a complete reading (`sheetscan.settlement/1`), or None.

    None when the reading is partial, when the rules core is not installed, or when the numbers as
    read are not a sheet the rules accept (a misread digit can do that; reconciliation is the stage
    that corrects it, not this one).
    """
    if reading.partial:
        return None
    try:
        rules = importlib.import_module("sheetscan.rules")
    except ImportError:
        return None
    try:
        sheet = rules.read_sheet(reading.sheet)
        settlement: dict[str, Any] = rules.write_settlement(rules.settle(sheet))
    except (SheetscanError, ValueError, KeyError, AttributeError):
        return None
    return settlement
