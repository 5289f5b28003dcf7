"""The pages: the list and upload, the review of one sheet (save), its settlement, and the raw files.

Library errors become a message on the page and a 4xx status here, nowhere else (STYLE.md §8).
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from flask import Blueprint, Response, abort, current_app, g, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from sheetscan.rules import VARIANTS
from webapp._forms import ReviewForm, form_from_review, form_rows, parse_review_form
from webapp._review import (
    UNSURE,
    Review,
    check_review,
    going_down,
    review_differences,
    review_from_scan,
    review_rows,
    settle_review,
    unsure_left,
    zone_label,
)
from webapp._scanning import UploadError, scan_photo
from webapp._store import Conflict, Store, StoredSheet

__all__ = ["blueprint", "import_photo", "store"]

blueprint = Blueprint("sheets", __name__)


def store() -> Store:
    """This request's connection to the database (opened on first use, closed at the request's end)."""
    if "store" not in g:
        g.store = Store(current_app.config["DATABASE"])
    opened: Store = g.store
    return opened


@blueprint.teardown_app_request
def _close_store(_error: BaseException | None) -> None:
    opened = g.pop("store", None)
    if opened is not None:
        opened.close()


def import_photo(target: Store, data: bytes, filename: str, *, variant: str | None = None,
                 players: int | None = None) -> int:
    """Scan a photo and store it with a fresh review; return the sheet's id. Raises `UploadError`."""
    kind, scan = scan_photo(current_app.config["SCANNER"], data, filename, variant=variant, players=players)
    review = review_from_scan(scan)
    return target.add(filename=filename, photo=data, photo_type=kind, scan=scan, review=review,
                      sheet=check_review(review, scan).sheet)


def _variant_names() -> list[str]:
    return [variant.name for variant in VARIANTS]


def _index(upload: dict[str, str] | None = None, error: str | None = None, status: int = 200,
           ) -> tuple[str, int]:
    return render_template("index.html", sheets=store().list(), variants=_variant_names(),
                           upload=upload or {"variant": "", "players": ""}, error=error,
                           max_bytes=current_app.config["MAX_CONTENT_LENGTH"]), status


@blueprint.get("/")
def index() -> tuple[str, int]:
    """The stored sheets and the upload form."""
    return _index()


@blueprint.get("/health")
def health() -> dict[str, str]:
    """For a process supervisor: the app answers."""
    return {"status": "ok"}


@blueprint.app_errorhandler(RequestEntityTooLarge)
def _too_large(_error: RequestEntityTooLarge) -> tuple[str, int]:
    limit = _size(current_app.config["MAX_CONTENT_LENGTH"])
    return _index(error=f"The photo is larger than {limit}. Upload a smaller copy (a phone photo of "
                        "12 MP is about 3-5 MB).", status=413)


def _size(count: int) -> str:
    """A byte count as people say it: `32 MB`, `98 KB`."""
    return f"{count / 1048576:.0f} MB" if count >= 1048576 else f"{count / 1024:.0f} KB"


@blueprint.app_errorhandler(404)
@blueprint.app_errorhandler(405)
@blueprint.app_errorhandler(500)
def _http_error(error: HTTPException) -> tuple[str, int]:
    return render_template("error.html", error=error), error.code or 500


def _upload_settings(form: dict[str, str]) -> tuple[str | None, int | None, str | None]:
    variant = form.get("variant", "")
    if variant and variant not in _variant_names():
        return None, None, f"Unknown variant {variant!r}: choose one of {', '.join(_variant_names())}."
    players = form.get("players", "")
    if players not in ("", "3", "4"):
        return None, None, "Players: choose auto, 3 or 4."
    return variant or None, int(players) if players else None, None


@blueprint.post("/sheets")
def upload() -> Any:
    """Scan an uploaded photo and open its review; on bad input, the form again with a message."""
    fields = {"variant": request.form.get("variant", ""), "players": request.form.get("players", "")}
    variant, players, message = _upload_settings(fields)
    if message:
        return _index(fields, message, 400)
    photo = request.files.get("photo")
    if photo is None or not photo.filename:
        return _index(fields, "Choose a photo of the sheet to upload.", 400)
    # Only the last part of the name is kept, and only to show it: nothing is ever opened by it.
    filename = PurePath(photo.filename.replace("\\", "/")).name[:120] or "photo"
    try:
        sheet_id = import_photo(store(), photo.read(), filename, variant=variant, players=players)
    except UploadError as error:
        return _index(fields, error.message + " Your settings are kept; choose the photo again.",
                      error.status)
    return redirect(url_for("sheets.review", sheet_id=sheet_id), code=303)


def _stored(sheet_id: int) -> StoredSheet:
    sheet = store().get(sheet_id)
    if sheet is None:
        abort(404, description=f"There is no sheet {sheet_id}.")
    return sheet


def _field_errors(form: ReviewForm, sheet: StoredSheet) -> list[tuple[str, str, str]]:
    """(field id, where, message) for each wrong field, in page order, for the list above the form."""
    names = {"pulka": "Pulka target", "variant": "Variant", "price": "Money per whist"}
    names.update({f"player-{seat}": f"Seat {seat + 1}" for seat in range(len(form.players))})
    found = [(key, names[key], form.errors[key]) for key in names if key in form.errors]
    for zi, fields in enumerate(form.zones):
        label = zone_label(sheet.scan["zones"][zi], sheet.review["players"])
        for position, number in enumerate(fields, start=1):
            if number.key in form.errors:
                found.append((f"{number.key}-value", f"{label}, number {position}", form.errors[number.key]))
    return found


def _review_page(sheet: StoredSheet, form: ReviewForm, *, status: int = 200, message: str | None = None,
                 conflict: list[tuple[str, str, str]] | None = None, theirs: StoredSheet | None = None,
                 field_errors: list[tuple[str, str, str]] | None = None,
                 suspects: frozenset[str] = frozenset()) -> tuple[str, int]:
    checked = check_review(sheet.review, sheet.scan)
    # FORMATS.md "Scan result": reconciliation (when the scanner has it) proposes corrections by the
    # rules, indexed by zone and reading; each is offered at its number, next to the alternatives.
    reconciliation = sheet.scan.get("reconciliation") or {}
    suggestions = {f"{c['zone']}-{c['number']}": c for c in reconciliation.get("corrections") or ()}
    labels = [zone_label(zone, form.players if not form.errors else sheet.review["players"])
              for zone in sheet.scan["zones"]]
    return render_template(
        "review.html", sheet=sheet, scan=sheet.scan, form=form, labels=labels, problems=checked.problems,
        unsure_count=unsure_left(sheet.review, sheet.scan), suggestions=suggestions,
        scan_issues=[issue.get("message", "") for issue in reconciliation.get("issues") or ()],
        variants=_variant_names(), unsure=UNSURE, message=message, conflict=conflict, theirs=theirs,
        saved=request.args.get("saved"), field_errors=field_errors or [], suspects=suspects), status


@blueprint.get("/sheets/<int:sheet_id>")
def review(sheet_id: int) -> tuple[str, int]:
    """The photo with every reading drawn on it, and the numbers to correct."""
    sheet = _stored(sheet_id)
    # Only the saved sheet's own rows are marked: a form sent back keeps the keys the page gave its rows.
    return _review_page(sheet, form_from_review(sheet.review, sheet.version),
                        suspects=frozenset(going_down(review_rows(sheet.review))))


def _parse(sheet: StoredSheet) -> tuple[ReviewForm, Review | None]:
    """The submitted review form of `sheet`: its fields, and the review when every field is valid."""
    scan = sheet.scan
    return parse_review_form(request.form, players=len(sheet.review["players"]), zones=len(scan["zones"]),
                             readings=[len(zone["numbers"]) for zone in scan["zones"]])


@blueprint.post("/sheets/<int:sheet_id>/check")
def check(sheet_id: int) -> dict[str, Any]:
    """What the rules say about the form as it stands, before it is saved (the page asks as you type):
    `problems`, the `errors` at fields, the keys of numbers where a total goes down (`goes_down`)."""
    sheet = _stored(sheet_id)
    form, review = _parse(sheet)
    errors = {key: text for key, text in form.errors.items() if key != "version"}
    problems = list(check_review(review, sheet.scan).problems) if review is not None else []
    return {"problems": problems, "errors": errors, "goes_down": sorted(going_down(form_rows(form)))}


@blueprint.post("/sheets/<int:sheet_id>")
def save(sheet_id: int) -> Any:
    """Save the corrections if nobody saved since this form was loaded; then the review or settlement."""
    sheet = _stored(sheet_id)
    scan = sheet.scan
    form, yours = _parse(sheet)
    if yours is None:
        count = len(form.errors)
        fields = f"{count} field{'s' if count > 1 else ''}"
        message = form.errors.get("version") or f"{fields} to fix (marked below)"
        return _review_page(sheet, form, status=422, message=f"Not saved: {message}.",
                            field_errors=_field_errors(form, sheet))
    try:
        version = store().save_review(sheet_id, yours, check_review(yours, scan).sheet, based_on=form.version)
    except Conflict as conflict:
        theirs = conflict.current
        form.version = theirs.version  # saving again now replaces their version, knowingly
        return _review_page(theirs, form, status=409, conflict=review_differences(theirs.review, yours, scan),
                            theirs=theirs,
                            message="Someone else changed this sheet while you were editing it. Your values "
                                    "are kept in the form; their changes are listed. Save again to replace "
                                    "their version with yours, or reload the page to take theirs.")
    except KeyError:
        abort(404, description=f"Sheet {sheet_id} was deleted meanwhile.")
    if request.form.get("action") == "settle":
        return redirect(url_for("sheets.settlement", sheet_id=sheet_id), code=303)
    return redirect(url_for("sheets.review", sheet_id=sheet_id, saved=version), code=303)


@blueprint.get("/sheets/<int:sheet_id>/settlement")
def settlement(sheet_id: int) -> tuple[str, int]:
    """Who owes whom, in whists and money, with the steps in words; or what keeps the sheet open."""
    sheet = _stored(sheet_id)
    result, problems = settle_review(sheet.review, sheet.scan)
    return render_template("settlement.html", sheet=sheet, settlement=result, problems=list(problems),
                           players=sheet.review["players"]), 422 if problems else 200


@blueprint.get("/sheets/<int:sheet_id>/settlement.json")
def settlement_json(sheet_id: int) -> Any:
    """`sheetscan.settlement/1` of the saved sheet; 422 with the problems when it cannot be settled."""
    sheet = _stored(sheet_id)
    result, problems = settle_review(sheet.review, sheet.scan)
    if result is None:
        return {"problems": list(problems)}, 422
    return result


@blueprint.get("/sheets/<int:sheet_id>/sheet.json")
def sheet_json(sheet_id: int) -> Any:
    """The saved sheet as `sheetscan.sheet/1` (for `sheetscan settle`), with its problems if any."""
    saved = store().sheet(sheet_id)
    if saved is None:
        abort(404, description=f"There is no sheet {sheet_id}.")
    response = current_app.json.response(saved)
    response.headers["Content-Disposition"] = f"attachment; filename=sheet-{sheet_id}.json"
    return response


@blueprint.get("/sheets/<int:sheet_id>/scan.json")
def scan_json(sheet_id: int) -> dict[str, Any]:
    """The scan result exactly as the scanner wrote it (`sheetscan.scan/1`)."""
    return _stored(sheet_id).scan


@blueprint.get("/sheets/<int:sheet_id>/photo")
def photo(sheet_id: int) -> Response:
    """The uploaded photo's bytes."""
    found = store().photo(sheet_id)
    if found is None:
        abort(404, description=f"There is no sheet {sheet_id}.")
    data, kind = found
    response = Response(data, mimetype=kind)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


@blueprint.post("/sheets/<int:sheet_id>/delete")
def delete(sheet_id: int) -> Any:
    """Remove a sheet and its photo."""
    if not store().delete(sheet_id):
        abort(404, description=f"There is no sheet {sheet_id}.")
    return redirect(url_for("sheets.index"), code=303)

