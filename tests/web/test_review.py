"""The review page and saving it: boxes on the photo, corrections, messages at fields, conflicting saves."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from webapp._review import zone_label

from ._helpers import review_fields, store_scan, stored, truth_fields


def text(response: Any) -> str:
    return html.unescape(response.get_data(as_text=True))


def field_value(page: str, name: str) -> str | None:
    """The value the page puts in input `name` (None if there is no such input)."""
    found = re.search(rf'name="{re.escape(name)}" value="([^"]*)"', page)
    return None if found is None else found.group(1)


def first_number(app: Flask, *, unsure: bool) -> tuple[int, int, dict[str, Any]]:
    """(zone, index, reading) of the first reading read unsurely (or surely) in the sample, not crossed
    out and not the last of its zone; the first one of the other kind if it has none (a better scanner
    may one day read the whole sample surely)."""
    readings = [(zi, k, n) for zi, zone in enumerate(stored(app).scan["zones"])
                for k, n in enumerate(zone["numbers"][:-1]) if not n["crossed_out"]]
    for zi, k, number in readings:
        if (number["value"] is None or number["confidence"] < 0.9) == unsure:
            return zi, k, number
    return readings[0]


def with_drops(app: Flask, truth: dict[str, Any], price: str) -> dict[str, str]:
    """The review form filled with the true sheet except two numbers typed too small, so two running
    totals go down: Anna's pulka 2 4 6 10 → 2 4 6 5, and Vera's gora 16 26 32 → 16 26 3."""
    zones = stored(app).scan["zones"]
    pulka = next(zi for zi, z in enumerate(zones) if (z["player"], z["kind"]) == (0, "pulka"))
    gora = next(zi for zi, z in enumerate(zones) if (z["player"], z["kind"]) == (2, "gora"))
    assert truth["sheet"]["zones"]["Anna"]["pulka"][:4] == [2, 4, 6, 10]
    assert truth["sheet"]["zones"]["Vera"]["gora"][:3] == [16, 26, 32]
    return truth_fields(app, truth["sheet"], price) | {f"z{pulka}-3-value": "5", f"z{gora}-2-value": "3"}


def test_every_reading_is_drawn_where_the_scan_found_it(app: Flask, client: FlaskClient) -> None:
    scan = stored(app).scan
    page = client.get("/sheets/1").get_data(as_text=True)
    assert f'viewBox="0 0 {scan["image"]["width"]} {scan["image"]["height"]}"' in page
    boxes = re.findall(r'<rect class="box([^"]*)"\s+data-key="(z\d+-\d+)" x="(\d+)" y="(\d+)" width="(\d+)"'
                       r'\s+height="(\d+)"', page)
    readings = {f"z{zi}-{k}": n for zi, z in enumerate(scan["zones"]) for k, n in enumerate(z["numbers"])}
    assert len(boxes) == len(readings) > 50
    for classes, key, *bbox in boxes:
        number = readings[key]
        assert [int(v) for v in bbox] == number["bbox"]
        assert ("unsure" in classes) == (number["value"] is None or number["confidence"] < 0.9), key
        assert ("crossed" in classes) == number["crossed_out"], key
    assert len(re.findall(r'<polygon class="zone"', page)) == len(scan["zones"])


def test_the_page_offers_fields_alternatives_and_problems(app: Flask, client: FlaskClient) -> None:
    page = text(client.get("/sheets/1"))
    zi, k, number = first_number(app, unsure=True)
    assert field_value(page, f"z{zi}-{k}-value") == ("" if number["value"] is None else str(number["value"]))
    row = page[page.index(f'data-key="z{zi}-{k}">'):]
    row = row[: row.index("</li>")]
    shown = [alt for alt, confidence in number["alternatives"][:3] if confidence >= 0.01]
    assert re.findall(r'class="alt" data-value="(\d+)"', row) == [str(v) for v in shown]
    assert field_value(page, "player-0") == "P1" and field_value(page, "pulka") == "20"
    unsure = sum(1 for zone in stored(app).scan["zones"] for n in zone["numbers"]
                 if not n["crossed_out"] and (n["value"] is None or n["confidence"] < 0.9))
    said = re.search(r'id="unsure-count">(\d+) numbers? read\s+unsure and not changed yet', page)
    assert (int(said.group(1)) if said else 0) == unsure


def test_saving_unchanged_fields_keeps_the_review_and_raises_the_version(app: Flask,
                                                                         client: FlaskClient) -> None:
    before = stored(app)
    response = client.post("/sheets/1", data=review_fields(app))
    assert response.status_code == 303 and response.headers["Location"] == "/sheets/1?saved=2"
    after = stored(app)
    assert after.version == 2 and after.review == before.review
    assert "Saved: version 2." in text(client.get(response.headers["Location"]))


def test_a_correction_is_saved(app: Flask, client: FlaskClient) -> None:
    zi, k, _number = first_number(app, unsure=True)
    fields = review_fields(app) | {f"z{zi}-{k}-value": "77", "player-0": "Anna", "pulka": "30",
                                   "price": "0,5"}
    assert client.post("/sheets/1", data=fields).status_code == 303
    review = stored(app).review
    assert review["zones"][zi]["numbers"][k] == {"value": 77, "crossed_out": False, "read": k}
    assert review["players"][0] == "Anna" and review["pulka"] == 30 and review["price"] == "0.5"
    sheet = client.get("/sheets/1/sheet.json").get_json()
    assert sheet["players"][0] == "Anna" and sheet["pulka"] == 30


def test_numbers_can_be_removed_crossed_out_and_added_in_place(app: Flask, client: FlaskClient) -> None:
    zone = stored(app).review["zones"][0]["numbers"]
    assert len(zone) >= 3
    fields = {key: value for key, value in review_fields(app).items() if not key.startswith("z0-")}
    # The page posts a zone's rows in their order on the page; a new row (key 50) sits second.
    rows = [("z0-0", zone[0]), ("z0-50", None), ("z0-1", zone[1]), ("z0-2", zone[2])]
    for key, number in rows:
        fields[f"{key}-value"] = "5" if number is None else str(number["value"])
        fields[f"{key}-read"] = "" if number is None else key.split("-")[1]
    fields["z0-1-remove"] = "1"
    fields["z0-2-crossed"] = "1"
    for k in range(3, len(zone)):
        fields[f"z0-{k}-value"] = str(zone[k]["value"])
        fields[f"z0-{k}-read"] = str(k)
    assert client.post("/sheets/1", data=fields).status_code == 303
    saved = stored(app).review["zones"][0]["numbers"]
    assert saved[:3] == [{"value": zone[0]["value"], "crossed_out": False, "read": 0},
                         {"value": 5, "crossed_out": False, "read": None},
                         {"value": zone[2]["value"], "crossed_out": True, "read": 2}]
    assert len(saved) == len(zone)  # one removed, one added
    page = client.get("/sheets/1").get_data(as_text=True)
    assert 'data-key="z0-1"' in page and "added by hand" in page


def test_a_read_index_that_points_at_no_box_is_dropped(app: Flask, client: FlaskClient) -> None:
    fields = review_fields(app) | {"z0-0-read": "9999"}
    assert client.post("/sheets/1", data=fields).status_code == 303
    assert stored(app).review["zones"][0]["numbers"][0]["read"] is None


def test_an_empty_number_is_kept_and_listed_as_a_problem(app: Flask, client: FlaskClient) -> None:
    assert client.post("/sheets/1", data=review_fields(app) | {"z0-0-value": ""}).status_code == 303
    assert stored(app).review["zones"][0]["numbers"][0]["value"] is None
    page = text(client.get("/sheets/1"))
    assert "P1 pulka: number 1 is empty (type it in, or remove it)" in page


@pytest.mark.parametrize(("typed", "message"), [
    ("-4", "-4 is negative"),
    ("3.5", "3.5 is not a whole number"),
    ("12,5", "12,5 is not a whole number"),
    ("1e9", "'1e9' is not a number"),
    ("100001", "100001 is too large for a pulka sheet"),
    ("<b>7</b>", "'<b>7</b>' is not a number"),
])
def test_an_impossible_number_gets_a_message_at_its_field(app: Flask, client: FlaskClient, typed: str,
                                                          message: str) -> None:
    zi, k, _number = first_number(app, unsure=False)
    other = f"z{zi}-{k + 1}-value"
    fields = review_fields(app) | {f"z{zi}-{k}-value": typed, other: "999", "player-1": "Boris"}
    response = client.post("/sheets/1", data=fields)
    assert response.status_code == 422
    raw = response.get_data(as_text=True)
    assert "<b>7</b>" not in raw  # what the user typed is escaped, never markup
    page = html.unescape(raw)
    assert "Not saved: 1 field to fix" in page
    # Listed above the form too, with a link to the field.
    label = zone_label(stored(app).scan["zones"][zi], ["P1", "P2", "P3"])
    assert f'<li><a href="#z{zi}-{k}-value">{label}, number {k + 1}</a>: {message}' in page
    assert f'id="z{zi}-{k}-value"' in page
    row = page[page.index(f'data-key="z{zi}-{k}">'):]
    assert message in row[: row.index("</li>")]
    # Nothing typed is lost: the bad value, another correction and a new name come back in the form.
    assert field_value(page, f"z{zi}-{k}-value") == typed
    assert field_value(page, other) == "999" and field_value(page, "player-1") == "Boris"
    assert stored(app).version == 1


@pytest.mark.parametrize(("changes", "field", "message"), [
    ({"player-1": ""}, "player-1", "a name is needed"),
    ({"player-1": "P1"}, "player-1", "two players have this name"),
    ({"player-2": "A|B"}, "player-2", "may not contain '|'"),
    ({"pulka": "0"}, "pulka", "between 1 and 10000"),
    ({"pulka": "twenty"}, "pulka", "'twenty' is not a number"),
    ({"price": "free"}, "price", "'free' is not a price"),
    ({"price": "-1"}, "price", "above 0"),
    ({"variant": "bridge"}, "variant", "bridge"),
])
def test_bad_game_settings_get_a_message(app: Flask, client: FlaskClient, changes: dict[str, str], field: str,
                                         message: str) -> None:
    response = client.post("/sheets/1", data=review_fields(app) | changes)
    assert response.status_code == 422
    page = text(response)
    label = page[page.index(f'name="{field}"'):]
    label = label[: label.index("</label>")]
    assert 'class="field-error" role="alert"' in label and message in label, label
    assert stored(app).version == 1


def test_a_form_without_its_version_is_refused(app: Flask, client: FlaskClient) -> None:
    fields = review_fields(app)
    del fields["version"]
    response = client.post("/sheets/1", data=fields)
    assert response.status_code == 422 and "reload the page" in text(response)


def test_a_save_based_on_an_old_version_is_a_conflict_that_keeps_what_was_typed(
        app: Flask, client: FlaskClient) -> None:
    zi, k, _number = first_number(app, unsure=True)
    base = review_fields(app)
    theirs = base | {f"z{zi}-{k}-value": "111"}
    mine = base | {f"z{zi}-{k}-value": "222", "player-2": "Vera"}
    assert client.post("/sheets/1", data=theirs).status_code == 303
    response = client.post("/sheets/1", data=mine)
    assert response.status_code == 409
    page = text(response)
    assert "Someone else changed this sheet" in page and "version 2" in page
    conflict = re.search(r'id="conflict">(.*?)</section>', page, re.S)
    assert conflict is not None
    rows = re.findall(r"<td>([^<]*)</td><td class=\"theirs\">([^<]*)</td>\s*<td class=\"yours\">([^<]*)</td>",
                      conflict.group(1))
    assert ("name of seat 3", "P3", "Vera") in rows
    assert any("111" in a and "222" in b for _where, a, b in rows)
    # The form holds my values and is now based on their version: saving again is a knowing overwrite.
    assert field_value(page, f"z{zi}-{k}-value") == "222" and field_value(page, "player-2") == "Vera"
    assert field_value(page, "version") == "2"
    assert stored(app).review["zones"][zi]["numbers"][k]["value"] == 111
    assert client.post("/sheets/1", data=mine | {"version": "2"}).status_code == 303
    assert stored(app).version == 3 and stored(app).review["zones"][zi]["numbers"][k]["value"] == 222


def test_a_guessed_rotation_is_pointed_out(app: Flask, client: FlaskClient) -> None:
    assert "rotation-guess" not in client.get("/sheets/1").get_data(as_text=True)
    scan = stored(app).scan
    # A standard-4 sheet looks the same turned a quarter; the scanner then says its seat 0 is a guess.
    scan["layout"]["rotation_certain"] = False
    sheet_id = store_scan(app, scan, "guess.jpg")
    assert 'id="rotation-guess"' in client.get(f"/sheets/{sheet_id}").get_data(as_text=True)


def test_where_a_running_total_goes_down_both_numbers_are_marked(
        app: Flask, client: FlaskClient, truth: dict[str, Any], replayed: dict[str, Any]) -> None:
    assert client.post("/sheets/1", data=with_drops(app, truth, replayed["price"])).status_code == 303
    page = text(client.get("/sheets/1"))
    listed = re.search(r'id="problems-list">\s*<ul>(.*?)</ul>', page, re.S)
    assert listed is not None
    assert re.findall(r"<li>([^<]*)</li>", listed.group(1)) == [
        "Anna's pulka: 5 follows 6, but a running total never goes down",
        "Vera's gora: 3 follows 26, but a running total never goes down"]
    marked = re.findall(r'<li class="number[^"]*goes-down[^"]*"\s+data-key="z\d+-\d+">\s*'
                        r'<input class="value" id="[^"]+" name="[^"]+" value="(\d+)"', page)
    assert sorted(marked, key=int) == ["3", "5", "6", "26"]
    # On the photo too: the boxes of the readings those four numbers stand on.
    assert len(re.findall(r'<rect class="box[^"]*goes-down', page)) == 4


def test_corrections_the_reconciliation_proposes_are_offered(app: Flask, client: FlaskClient) -> None:
    scan = stored(app).scan
    zi, k, _number = first_number(app, unsure=True)
    # FORMATS.md "Scan result": corrections and issues index `zones` and that zone's `numbers`.
    scan["reconciliation"] = {
        "consistent": False,
        "issues": [{"kind": "bad-increment", "zone": zi, "number": k,
                    "message": "P1 <b>gora</b> jumps by 7"}],
        "corrections": [{"zone": zi, "number": k, "from": 17, "to": 12, "why": "whists come in steps of 2"}],
        "game": None}
    sheet_id = store_scan(app, scan, "r.jpg")
    raw = client.get(f"/sheets/{sheet_id}").get_data(as_text=True)
    assert "<b>gora</b>" not in raw and "P1 &lt;b&gt;gora&lt;/b&gt; jumps by 7" in raw
    row = raw[raw.index(f'data-key="z{zi}-{k}">'):]
    row = row[: row.index("</li>")]
    assert 'class="alt suggest" data-value="12"' in row and 'title="whists come in steps of 2"' in row
    assert "rules say 12" not in client.get("/sheets/1").get_data(as_text=True)


def test_the_form_is_checked_as_it_stands_without_saving(
        app: Flask, client: FlaskClient, truth: dict[str, Any], replayed: dict[str, Any]) -> None:
    assert client.post("/sheets/1", data=with_drops(app, truth, replayed["price"])).status_code == 303
    as_saved = client.post("/sheets/1/check", data=review_fields(app)).get_json()
    page = text(client.get("/sheets/1"))
    listed = re.search(r'id="problems-list">\s*<ul>(.*?)</ul>', page, re.S)
    assert listed is not None
    assert as_saved["problems"] == re.findall(r"<li>([^<]*)</li>", listed.group(1)) and not as_saved["errors"]
    # Corrected to the truth: nothing left to say.
    corrected = truth_fields(app, truth["sheet"], replayed["price"])
    fixed = client.post("/sheets/1/check", data=corrected).get_json()
    assert fixed == {"problems": [], "errors": {}, "goes_down": []}
    # A drop typed in the first zone (the truth's Anna's pulka goes 2, 4, 6, 10): 5 for the 10.
    fields = corrected | {"z0-3-value": "5"}
    assert truth["sheet"]["zones"]["Anna"]["pulka"][2:4] == [6, 10]
    dropped = client.post("/sheets/1/check", data=fields).get_json()
    assert dropped["goes_down"] == ["z0-2", "z0-3"]
    assert dropped["problems"] == ["Anna's pulka: 5 follows 6, but a running total never goes down"]
    wrong = client.post("/sheets/1/check", data=fields | {"z0-1-value": "-2"}).get_json()
    assert wrong["errors"] == {"z0-1": "-2 is negative: running totals on a sheet are never below 0"}
    assert stored(app).version == 2
