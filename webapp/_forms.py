"""The review form: what the page shows in its fields, and reading a submitted form back.

The page is always drawn from a `ReviewForm` of raw strings, so a form that comes back with a message
(a bad number, a conflicting save) shows exactly what the user typed. `parse_review_form` turns the
submitted fields into a `Review` when every field is valid, and into messages at the fields otherwise.

Field names: `version`, `player-<seat>`, `pulka`, `variant`, `price`, and for each number
`z<zone>-<key>-value`, `-read` (hidden: the scan reading it came from), `-crossed` and `-remove`
(checkboxes). A zone's numbers are taken in the order their fields were submitted, which is their
order on the page: the page's script may insert new rows anywhere, each with a fresh key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from sheetscan import find_variant
from webapp._review import Review, ReviewNumber, ReviewZone

__all__ = [
    "MAX_NAME",
    "MAX_NUMBER",
    "NumberField",
    "ReviewForm",
    "form_from_review",
    "form_rows",
    "parse_number",
    "parse_review_form",
]

MAX_NUMBER = 100_000
"""The largest number accepted on a sheet."""
# Decision: 100 000 because a long pulka's running totals stay in the hundreds or low thousands; a
# larger figure is a slip of the keyboard (the rules core itself stops at 1 000 000).

MAX_NAME = 30
"""The longest player name accepted."""

# ASCII digits only: int() would also take other scripts' digits, which no pulka sheet is written in.
_VALUE_FIELD = re.compile(r"z([0-9]{1,3})-([0-9]{1,6})-value")
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?[0-9]*[.,][0-9]+")


@dataclass
class NumberField:
    """One number's fields as the page shows them."""

    key: str
    """Its field prefix, `z<zone>-<key>`."""
    value: str
    """The number as typed (empty when unread)."""
    read: int | None
    """The scan reading it came from, or None (added by the user)."""
    crossed: bool
    """Ticked as crossed out."""
    removed: bool = False
    """Ticked for removal (only in a form that came back with a message)."""


@dataclass
class ReviewForm:
    """The review page's fields as strings, with a message per field that is wrong."""

    version: int
    """The version these values were based on (sent back with the save)."""
    players: list[str]
    """Player names by seat."""
    pulka: str
    """The pulka target."""
    variant: str
    """The variant's name."""
    price: str
    """Money per whist."""
    zones: list[list[NumberField]]
    """Parallel to the scan's zones."""
    errors: dict[str, str] = field(default_factory=dict)
    """Message per field name (`player-1`, `pulka`, `price`, `variant`, `z3-7` …)."""


def form_from_review(review: Review, version: int) -> ReviewForm:
    """The fields of a stored review."""
    zones = [
        [NumberField(key=f"z{zi}-{k}", value="" if n["value"] is None else str(n["value"]), read=n["read"],
                     crossed=n["crossed_out"])
         for k, n in enumerate(zone["numbers"])]
        for zi, zone in enumerate(review["zones"])
    ]
    pulka = "" if review["pulka"] is None else str(review["pulka"])
    return ReviewForm(version=version, players=list(review["players"]), pulka=pulka,
                      variant=review["variant"], price=review["price"], zones=zones)


def form_rows(form: ReviewForm) -> list[list[tuple[str, int | None]]]:
    """The form's numbers as `_review.going_down` takes them: (key, value) in page order, removed and
    crossed-out rows left out, an impossible or empty value as None."""
    return [[(f.key, parse_number(f.value)[0]) for f in zone if not (f.removed or f.crossed)]
            for zone in form.zones]


def parse_number(text: str) -> tuple[int | None, str | None]:
    """A typed number: (value, None), (None, None) when empty, or (None, the message) when impossible."""
    text = text.strip()
    if not text:
        return None, None
    if _WHOLE.fullmatch(text):
        value = int(text)
        if value < 0:
            return None, f"{text} is negative: running totals on a sheet are never below 0"
        if value > MAX_NUMBER:
            return None, f"{text} is too large for a pulka sheet (at most {MAX_NUMBER})"
        return value, None
    if _DECIMAL.fullmatch(text):
        return None, f"{text} is not a whole number: sheets hold whole numbers only"
    return None, f"{text!r} is not a number"


def _name_error(name: str, seat: int, names: list[str]) -> str | None:
    if not name:
        return "a name is needed (P1, P2 … will do)"
    if len(name) > MAX_NAME:
        return f"at most {MAX_NAME} characters"
    if "|" in name or not name.isprintable():
        return "a name may not contain '|', tabs or line breaks"
    if name in names[:seat]:
        return "two players have this name"
    return None


def _price_error(text: str) -> str | None:
    try:
        price = Fraction(text.replace(",", "."))
    except (ValueError, ZeroDivisionError):
        return f"{text!r} is not a price: write e.g. 1, 0.5 or 1/3"
    if price <= 0 or price > MAX_NUMBER:
        return f"the price per whist must be above 0 and at most {MAX_NUMBER}"
    return None


def _pulka_error(text: str) -> tuple[int | None, str | None]:
    value, error = parse_number(text)
    if error is None and value is not None and not 1 <= value <= 10_000:
        error = "the pulka target is between 1 and 10000"
    return value, error


def _zone_fields(form: Mapping[str, str], zones: int) -> list[list[NumberField]]:
    fields: list[list[NumberField]] = [[] for _ in range(zones)]
    for name in form:
        match = _VALUE_FIELD.fullmatch(name)
        if match is None or int(match.group(1)) >= zones:
            continue
        key = name.removesuffix("-value")
        read_text = form.get(f"{key}-read", "")
        read = int(read_text) if read_text.isascii() and read_text.isdigit() else None
        fields[int(match.group(1))].append(NumberField(
            key=key, value=form.get(name, ""), read=read, crossed=f"{key}-crossed" in form,
            removed=f"{key}-remove" in form))
    return fields


def parse_review_form(form: Mapping[str, str], *, players: int, zones: int,
                      readings: list[int]) -> tuple[ReviewForm, Review | None]:
    """The submitted fields, and the review they spell (None when a field is wrong: see `errors`).

    `players` and `zones` are the scan's counts; `readings[z]` is how many readings zone z has (a
    `read` index beyond it is dropped, so a tampered form cannot point at a box that does not exist).
    """
    version_text = form.get("version", "")
    errors: dict[str, str] = {}
    version = int(version_text) if version_text.isascii() and version_text.isdigit() else 0
    if not version:
        errors["version"] = "the form does not say which version it was based on: reload the page"
    names = [form.get(f"player-{seat}", "").strip() for seat in range(players)]
    for seat, name in enumerate(names):
        message = _name_error(name, seat, names)
        if message:
            errors[f"player-{seat}"] = message
    pulka_text = form.get("pulka", "").strip()
    pulka, message = _pulka_error(pulka_text)
    if message:
        errors["pulka"] = message
    variant = form.get("variant", "").strip()
    try:
        variant = find_variant(variant).name
    except ValueError as error:
        errors["variant"] = str(error)
    price = form.get("price", "").strip()
    message = _price_error(price)
    if message:
        errors["price"] = message
    fields = _zone_fields(form, zones)
    review_zones: list[ReviewZone] = []
    for zi, zone in enumerate(fields):
        numbers: list[ReviewNumber] = []
        for number in zone:
            if number.read is not None and number.read >= readings[zi]:
                number.read = None
            if number.removed:
                continue
            value, message = parse_number(number.value)
            if message:
                errors[number.key] = message
            numbers.append({"value": value, "crossed_out": number.crossed, "read": number.read})
        review_zones.append({"numbers": numbers})
    shown = ReviewForm(version=version, players=names, pulka=pulka_text, variant=variant, price=price,
                       zones=fields, errors=errors)
    if errors:
        return shown, None
    review: Review = {"players": names, "pulka": pulka, "variant": variant, "price": price.replace(",", "."),
                      "zones": review_zones}
    return shown, review
