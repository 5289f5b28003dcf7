"""Helpers of the web tests: the stored sheet, and the review form filled as the page or the truth has it."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from webapp._review import review_from_scan
from webapp._store import Store, StoredSheet


def truth_zone(truth_sheet: dict[str, Any], zone: dict[str, Any]) -> list[int]:
    """The true numbers of one scan zone (the truth's players are in seat order, as the scan's seats)."""
    names = truth_sheet["players"]
    owner = truth_sheet["zones"][names[zone["player"]]]
    if zone["kind"] == "whists":
        return list(owner["whists"][names[zone["on"]]])
    return list(owner[zone["kind"]])


def stored(app: Flask, sheet_id: int = 1) -> StoredSheet:
    """The sheet as stored."""
    store = Store(app.config["DATABASE"])
    try:
        sheet = store.get(sheet_id)
    finally:
        store.close()
    assert sheet is not None, f"no sheet {sheet_id}"
    return sheet


def store_scan(app: Flask, scan: dict[str, Any], filename: str) -> int:
    """Store `scan` as a new sheet (as scanned, a stand-in JPEG for its photo); its id."""
    store = Store(app.config["DATABASE"])
    try:
        return store.add(filename=filename, photo=b"\xff\xd8\xff", photo_type="image/jpeg", scan=scan,
                         review=review_from_scan(scan), sheet={})
    finally:
        store.close()


def review_fields(app: Flask, sheet_id: int = 1) -> dict[str, str]:
    """The review form's fields exactly as the page fills them for the stored sheet (nothing changed)."""
    sheet = stored(app, sheet_id)
    pulka = sheet.review["pulka"]
    fields = {"version": str(sheet.version), "pulka": "" if pulka is None else str(pulka),
              "variant": sheet.review["variant"], "price": sheet.review["price"]}
    for seat, name in enumerate(sheet.review["players"]):
        fields[f"player-{seat}"] = name
    for zi, zone in enumerate(sheet.review["zones"]):
        for k, number in enumerate(zone["numbers"]):
            fields[f"z{zi}-{k}-value"] = "" if number["value"] is None else str(number["value"])
            fields[f"z{zi}-{k}-read"] = "" if number["read"] is None else str(number["read"])
            if number["crossed_out"]:
                fields[f"z{zi}-{k}-crossed"] = "1"
    return fields


def truth_fields(app: Flask, truth_sheet: dict[str, Any], price: str, sheet_id: int = 1) -> dict[str, str]:
    """The review form filled with the true sheet: names, target, variant, price and every zone's numbers
    (the first readings keep their boxes, extra readings are left out, missing numbers are added)."""
    sheet = stored(app, sheet_id)
    fields = {"version": str(sheet.version), "pulka": str(truth_sheet["pulka"]),
              "variant": truth_sheet["variant"], "price": price}
    for seat, name in enumerate(truth_sheet["players"]):
        fields[f"player-{seat}"] = name
    for zi, zone in enumerate(sheet.scan["zones"]):
        for k, value in enumerate(truth_zone(truth_sheet, zone)):
            fields[f"z{zi}-{k}-value"] = str(value)
            fields[f"z{zi}-{k}-read"] = str(k) if k < len(zone["numbers"]) else ""
    return fields


def upload(client: FlaskClient, fields: dict[str, Any]) -> Any:
    """POST the upload form (multipart) and close the body the test client spooled to a temporary file.

    Werkzeug closes only its wrapper of the request body with the response, not the file under it, and
    a photo's body is big enough to go to disk; left open, it is a ResourceWarning (an error here).
    """
    response = client.post("/sheets", data=fields, content_type="multipart/form-data")
    response.close()
    response.request.environ["wsgi.input"].close()
    return response
