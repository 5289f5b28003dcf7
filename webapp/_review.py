"""The user's review of a scan: the corrected numbers, names, target, variant and price per whist.

A review is plain JSON kept beside the scan result it corrects. Its `zones` run parallel to the scan's
`zones` (same index, same player/kind/on), and each number remembers which scan reading it came from
(`read`, None for a number the user added), so the page can draw its box on the photo. The sheet
(`sheetscan.sheet/1`) is a function of the review and the scan's zone list; it is never stored apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from sheetscan import SheetscanError, read_sheet, settle, sheet_problems, write_settlement

__all__ = [
    "DEFAULT_PRICE",
    "UNSURE",
    "Checked",
    "Review",
    "ReviewNumber",
    "ReviewZone",
    "check_review",
    "going_down",
    "review_differences",
    "review_from_scan",
    "review_rows",
    "settle_review",
    "unsure_left",
    "zone_label",
]

UNSURE = 0.9
"""A number read with less confidence than this is highlighted for the user to check (as the CLI does)."""

DEFAULT_PRICE = "1"
"""Money per whist until the user says otherwise."""


class ReviewNumber(TypedDict):
    """One number of a zone as the user has it."""

    value: int | None
    """The number; None while it is unread and not yet typed in."""
    crossed_out: bool
    """Crossed out on the paper: shown, but not part of the sheet."""
    read: int | None
    """Index of the scan's reading it started from in the same zone; None when the user added it."""


class ReviewZone(TypedDict):
    """One zone's numbers, oldest first."""

    numbers: list[ReviewNumber]
    """The numbers in writing order."""


class Review(TypedDict):
    """Everything the user can correct on the review page."""

    players: list[str]
    """Names in seat order (default P1, P2, …)."""
    pulka: int | None
    """The pulka target; None when it could not be read and has not been typed in."""
    variant: str
    """The variant's name (`sochi`, `leningrad`, …)."""
    price: str
    """Money per whist, as typed (`1`, `0.5`, `1/3`)."""
    zones: list[ReviewZone]
    """Parallel to the scan's `zones`."""


def review_from_scan(scan: dict[str, Any]) -> Review:
    """The review as the scanner read the sheet, before anyone corrected it."""
    sheet = scan["sheet"]
    zones: list[ReviewZone] = [
        {"numbers": [{"value": number["value"], "crossed_out": bool(number["crossed_out"]), "read": index}
                     for index, number in enumerate(zone["numbers"])]}
        for zone in scan["zones"]
    ]
    return {"players": list(sheet["players"]), "pulka": sheet.get("pulka"), "variant": str(sheet["variant"]),
            "price": DEFAULT_PRICE, "zones": zones}


def zone_label(zone: dict[str, Any], players: list[str]) -> str:
    """`Anna pulka`, `Anna gora`, `Anna whists on Boris` for a scan zone."""
    label = f"{players[zone['player']]} {zone['kind']}"
    if zone["kind"] == "whists" and zone.get("on") is not None:
        label += f" on {players[zone['on']]}"
    return label


@dataclass(frozen=True)
class Checked:
    """What the rules say about the review as it stands."""

    sheet: dict[str, Any]
    """The sheet the review spells (`sheetscan.sheet/1`; may hold None for an empty number or target)."""
    problems: tuple[str, ...]
    """Everything that keeps the sheet from being settled, one sentence each; empty when it can be."""


def _sheet_of(review: Review, scan: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    names = review["players"]
    zones: dict[str, dict[str, Any]] = {
        name: {"pulka": [], "gora": [], "whists": {other: [] for other in names if other != name}}
        for name in names
    }
    empty: list[str] = []
    for scan_zone, zone in zip(scan["zones"], review["zones"], strict=True):
        values: list[int | None] = []
        position = 0
        for number in zone["numbers"]:
            if number["crossed_out"]:
                continue
            position += 1
            if number["value"] is None:
                empty.append(f"{zone_label(scan_zone, names)}: number {position} is empty "
                              "(type it in, or remove it)")
            values.append(number["value"])
        owner = zones[names[scan_zone["player"]]]
        if scan_zone["kind"] == "whists" and scan_zone.get("on") is not None:
            owner["whists"][names[scan_zone["on"]]] = values
        else:
            owner[scan_zone["kind"]] = values
    sheet = {"format": "sheetscan.sheet/1", "variant": review["variant"],
             "options": dict(scan["sheet"].get("options") or {}), "players": list(names),
             "pulka": review["pulka"], "zones": zones}
    return sheet, empty


def check_review(review: Review, scan: dict[str, Any]) -> Checked:
    """The sheet the review spells and every problem the rules core finds with it."""
    sheet, problems = _sheet_of(review, scan)
    if review["pulka"] is None:
        problems.append("the pulka target is not set (it is written in the circle)")
    if not problems:
        try:
            problems.extend(sheet_problems(read_sheet(sheet)))
        except (SheetscanError, ValueError) as error:
            problems.append(str(error))
    return Checked(sheet=sheet, problems=tuple(problems))


def settle_review(review: Review, scan: dict[str, Any]) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    """The settlement (`sheetscan.settlement/1`) of the reviewed sheet at the review's price per whist,
    and no problems; or None and every problem that keeps the sheet from being settled (`check_review`'s,
    else the one the rules core raises while settling)."""
    checked = check_review(review, scan)
    if checked.problems:
        return None, checked.problems
    try:
        settled = settle(read_sheet(checked.sheet), price=review["price"])
    except (SheetscanError, ValueError) as error:
        return None, (str(error),)
    settlement: dict[str, Any] = write_settlement(settled)
    return settlement, ()


def _zone_text(zone: ReviewZone) -> str:
    shown = [("?" if n["value"] is None else str(n["value"])) + (" (crossed out)" if n["crossed_out"] else "")
             for n in zone["numbers"]]
    return " · ".join(shown) if shown else "—"


def _shown(value: object) -> str:
    return "—" if value is None else str(value)


def review_differences(theirs: Review, yours: Review, scan: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Where two reviews of the same scan differ: (what, their value, your value), in page order."""
    rows: list[tuple[str, str, str]] = []
    for seat, (a, b) in enumerate(zip(theirs["players"], yours["players"], strict=True)):
        if a != b:
            rows.append((f"name of seat {seat + 1}", a, b))
    for key in ("pulka", "variant", "price"):
        a_value, b_value = theirs[key], yours[key]
        if a_value != b_value:
            rows.append((key, _shown(a_value), _shown(b_value)))
    for scan_zone, a_zone, b_zone in zip(scan["zones"], theirs["zones"], yours["zones"], strict=True):
        a_text, b_text = _zone_text(a_zone), _zone_text(b_zone)
        if a_text != b_text:
            rows.append((zone_label(scan_zone, theirs["players"]), a_text, b_text))
    return rows


def unsure_left(review: Review, scan: dict[str, Any]) -> int:
    """How many numbers still hold an unsure reading the user has not changed (crossed-out ones aside)."""
    count = 0
    for scan_zone, zone in zip(scan["zones"], review["zones"], strict=True):
        for number in zone["numbers"]:
            if number["read"] is None or number["crossed_out"]:
                continue
            reading = scan_zone["numbers"][number["read"]]
            unsure = reading["value"] is None or reading["confidence"] < UNSURE
            count += unsure and number["value"] == reading["value"]
    return count


def going_down(zones: list[list[tuple[str, int | None]]]) -> set[str]:
    """The keys of numbers that stand below the number before them, and of that number: where a running
    total goes down, one of the two is wrong. `zones` holds each zone's (key, value) in writing order,
    crossed-out numbers left out; an empty value (None) is skipped."""
    marked: set[str] = set()
    for zone in zones:
        before: tuple[str, int] | None = None
        for key, value in zone:
            if value is None:
                continue
            if before is not None and value < before[1]:
                marked.update({before[0], key})
            before = (key, value)
    return marked


def review_rows(review: Review) -> list[list[tuple[str, int | None]]]:
    """A review's numbers as `going_down` takes them, keyed as the page keys a stored review's rows."""
    return [[(f"z{zi}-{k}", n["value"]) for k, n in enumerate(zone["numbers"]) if not n["crossed_out"]]
            for zi, zone in enumerate(review["zones"])]
