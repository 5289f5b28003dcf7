"""Reading typed numbers and the review form, on their own."""

from __future__ import annotations

import pytest

from webapp._forms import MAX_NUMBER, parse_number, parse_review_form


@pytest.mark.parametrize(("typed", "value"), [("", None), ("  ", None), ("0", 0), (" 42 ", 42), ("+7", 7),
                                              ("007", 7), (str(MAX_NUMBER), MAX_NUMBER)])
def test_numbers_that_are_taken(typed: str, value: int | None) -> None:
    assert parse_number(typed) == (value, None)


@pytest.mark.parametrize(("typed", "words"), [
    ("-1", "negative"), ("2.5", "not a whole number"), (".5", "not a whole number"), ("1,5", "not a whole"),
    (str(MAX_NUMBER + 1), "too large"), ("12a", "not a number"), ("½", "not a number"),
    ("١٢", "not a number"),  # Arabic-Indic digits: int() takes them, a sheet has none
])
def test_numbers_that_are_refused(typed: str, words: str) -> None:
    value, message = parse_number(typed)
    assert value is None and message is not None and words in message


def base_form() -> dict[str, str]:
    return {"version": "3", "player-0": "Anna", "player-1": "Boris", "player-2": "Vera", "pulka": "20",
            "variant": "ленинградка", "price": "1"}


def test_a_zone_takes_its_numbers_in_the_order_they_were_sent() -> None:
    form = base_form() | {"z1-7-value": "4", "z1-7-read": "0", "z1-2-value": "8", "z1-2-read": "",
                          "z1-3-value": "9", "z1-3-read": "1", "z1-3-remove": "1",
                          "z1-5-value": "12", "z1-5-crossed": "1", "z0-0-value": "2", "z9-0-value": "1"}
    shown, review = parse_review_form(form, players=3, zones=2, readings=[1, 2])
    assert review is not None and not shown.errors
    assert review["variant"] == "leningrad"  # an alias is stored as the variant's name
    assert review["zones"][0]["numbers"] == [{"value": 2, "crossed_out": False, "read": None}]
    assert review["zones"][1]["numbers"] == [{"value": 4, "crossed_out": False, "read": 0},
                                             {"value": 8, "crossed_out": False, "read": None},
                                             {"value": 12, "crossed_out": True, "read": None}]
    assert [f.key for f in shown.zones[1]] == ["z1-7", "z1-2", "z1-3", "z1-5"]  # removed rows still shown


def test_a_form_with_errors_gives_no_review_but_every_message() -> None:
    form = base_form() | {"player-1": "Anna", "pulka": "", "price": "0", "z0-0-value": "x"}
    shown, review = parse_review_form(form, players=3, zones=1, readings=[0])
    assert review is None
    assert set(shown.errors) == {"player-1", "price", "z0-0"}
    assert shown.pulka == "" and shown.players == ["Anna", "Anna", "Vera"]
