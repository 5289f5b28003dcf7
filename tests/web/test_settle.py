"""Settling a reviewed sheet, checked against the game the sample was drawn from (`sheetscan replay`)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from sheetscan import read_game, read_sheet, replay, settle, write_settlement

from ._helpers import stored, truth_fields, upload
from .conftest import SAMPLE_GAME


def test_the_sample_truth_is_the_replayed_game(truth: dict[str, Any], replayed: dict[str, Any]) -> None:
    # Two independent records of one sheet: the renderer's truth and the rules' replay of the game.
    assert truth["sheet"] == replayed["sheet"]


def test_a_sheet_whose_total_goes_down_is_not_settled_and_the_page_says_why(
        app: Flask, client: FlaskClient, truth: dict[str, Any], replayed: dict[str, Any]) -> None:
    # The true sheet with Anna's fourth pulka number typed 5 instead of 10 (her pulka: 2 4 6 10 …).
    assert truth["sheet"]["zones"]["Anna"]["pulka"][:4] == [2, 4, 6, 10]
    zones = stored(app).scan["zones"]
    zone = next(zi for zi, z in enumerate(zones) if (z["player"], z["kind"]) == (0, "pulka"))
    fields = truth_fields(app, truth["sheet"], replayed["price"]) | {f"z{zone}-3-value": "5"}
    assert client.post("/sheets/1", data=fields).status_code == 303
    response = client.get("/sheets/1/settlement")
    assert response.status_code == 422
    page = html.unescape(response.get_data(as_text=True))
    assert "cannot be settled yet" in page
    assert "<li>Anna's pulka: 5 follows 6, but a running total never goes down</li>" in page
    as_json = client.get("/sheets/1/settlement.json")
    assert as_json.status_code == 422
    problem = "Anna's pulka: 5 follows 6, but a running total never goes down"
    assert as_json.get_json() == {"problems": [problem]}


def test_corrected_to_the_truth_it_settles_as_the_replayed_game(app: Flask, client: FlaskClient,
                                                                truth: dict[str, Any],
                                                                replayed: dict[str, Any]) -> None:
    fields = truth_fields(app, truth["sheet"], replayed["price"]) | {"action": "settle"}
    response = client.post("/sheets/1", data=fields)
    assert response.status_code == 303 and response.headers["Location"] == "/sheets/1/settlement"
    assert client.get("/sheets/1/sheet.json").get_json() == replayed["sheet"]
    assert client.get("/sheets/1/settlement.json").get_json() == replayed["settlement"]
    assert "<td>Anna, Boris, Vera</td>" in client.get("/").get_data(as_text=True)
    page = html.unescape(client.get("/sheets/1/settlement").get_data(as_text=True))
    payments = re.findall(r'data-from="([^"]+)" data-to="([^"]+)" data-whists="([^"]+)"', page)
    assert payments == [(p["from"], p["to"], p["whists"]) for p in replayed["settlement"]["payments"]]
    for step in replayed["settlement"]["steps"]:
        assert step in page
    review_page = html.unescape(client.get("/sheets/1").get_data(as_text=True))
    assert "No problems: the sheet can be settled." in review_page


def test_the_price_per_whist_turns_whists_into_money(app: Flask, client: FlaskClient, truth: dict[str, Any],
                                                      replayed: dict[str, Any]) -> None:
    fields = truth_fields(app, truth["sheet"], "1/3")
    assert client.post("/sheets/1", data=fields).status_code == 303
    settlement = client.get("/sheets/1/settlement.json").get_json()
    # Hand check on the first payment of the replayed game: money = whists / 3, to 2 places.
    first = replayed["settlement"]["payments"][0]
    assert settlement["payments"][0]["whists"] == first["whists"]
    assert settlement["payments"][0]["money"] == f"{float(first['whists']) / 3:.2f}"
    assert settlement["money"]["per_whist"] == "0.33"  # FORMATS.md: decimals to 2 places
    assert settlement == write_settlement(settle(read_sheet(replayed["sheet"]), price="1/3"))


def test_a_sheet_without_a_target_is_not_settled(app: Flask, client: FlaskClient,
                                                 truth: dict[str, Any]) -> None:
    fields = truth_fields(app, truth["sheet"], "1") | {"pulka": ""}
    assert client.post("/sheets/1", data=fields).status_code == 303
    assert stored(app).review["pulka"] is None
    problems = client.get("/sheets/1/settlement.json").get_json()["problems"]
    assert problems == ["the pulka target is not set (it is written in the circle)"]


def test_the_scan_json_is_kept_as_scanned(app: Flask, client: FlaskClient, truth: dict[str, Any]) -> None:
    before = client.get("/sheets/1/scan.json").get_json()
    assert client.post("/sheets/1", data=truth_fields(app, truth["sheet"], "1")).status_code == 303
    assert client.get("/sheets/1/scan.json").get_json() == before == stored(app).scan


@pytest.mark.slow  # scans one more photo
def test_a_four_player_form_uploaded_and_corrected_settles_as_its_game(app: Flask,
                                                                       client: FlaskClient) -> None:
    # samples/README.md: photo-sochi-4p-form.jpg is drawn from game-sochi-4p.json (form-4, rotation 90).
    samples = SAMPLE_GAME.parent
    truth = json.loads((samples / "photo-sochi-4p-form.truth.json").read_text(encoding="utf-8"))
    truth_sheet = truth["sheet"]
    record = read_game(json.loads((samples / "game-sochi-4p.json").read_text(encoding="utf-8")))
    expected = write_settlement(settle(replay(record), price=record.config.price))
    with (samples / "photo-sochi-4p-form.jpg").open("rb") as photo:
        response = upload(client, {"photo": photo, "variant": "", "players": ""})
    assert response.status_code == 303 and response.headers["Location"] == "/sheets/2"
    scan = stored(app, 2).scan
    assert scan["layout"]["players"] == 4 and len(scan["zones"]) == 4 * 5
    fields = truth_fields(app, truth_sheet, str(record.config.price), sheet_id=2)
    assert client.post("/sheets/2", data=fields).status_code == 303
    assert client.get("/sheets/2/sheet.json").get_json() == truth_sheet
    assert client.get("/sheets/2/settlement.json").get_json() == expected
