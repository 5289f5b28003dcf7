"""The pulka target in the centre circle: a number with no running totals beside it to check a cut."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sheetscan.vision.render import render_sheet, sheet_or_game
from sheetscan.vision.scan import scan

SAMPLES = Path(__file__).resolve().parent.parent.parent / "samples"


@pytest.mark.slow
@pytest.mark.parametrize(("index", "layout", "seed"), [(0, "standard-3", 1000), (4, "form-4", 1011)])
def test_a_round_zero_in_the_circle_is_not_read_as_a_swallowed_one(index: int, layout: str,
                                                                   seed: int) -> None:
    # bench_scan's photos 1000 and 1011: the 0 of "10" and "20", wide and round, was cut with a "1" off
    # its left side (a 1 run into its digit), and with no totals to say otherwise the circle read 110
    # and 210. The truth file says what the renderer wrote there.
    games = sorted(SAMPLES.glob("game-*.json"))
    sheet = sheet_or_game(json.loads(games[index].read_text(encoding="utf-8")))
    digits = "test" if seed % 2 == 0 else "validation"
    rendered = render_sheet(sheet, layout=layout, seed=seed, digits_from=digits)
    assert scan(rendered.jpeg()).reading.pulka_written == rendered.truth["target"]["value"]


@pytest.mark.slow
def test_a_target_written_a_quarter_turned_is_read_whole() -> None:
    # bench_scan's photo 2006: "20" written a quarter turned in the circle fell apart, read upright, into
    # a "2" and a "0" that each read surely, and the target was read as 0.
    games = sorted(SAMPLES.glob("game-*.json"))
    sheet = sheet_or_game(json.loads(games[6].read_text(encoding="utf-8")))
    rendered = render_sheet(sheet, layout="standard-4", seed=2006, digits_from="test")
    assert scan(rendered.jpeg()).reading.pulka_written == rendered.truth["target"]["value"] == 20
