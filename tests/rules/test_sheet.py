"""The sheet: FORMATS.md's example, the text form, building from scanned numbers."""

from __future__ import annotations

import pytest

from sheetscan.errors import InvalidInputError
from sheetscan.rules import Sheet, find_variant, parse_sheet_text, read_sheet, sheet_problems, sheet_to_text

# FORMATS.md, "Sheet — sheetscan.sheet/1"
FORMATS_EXAMPLE = {
    "format": "sheetscan.sheet/1",
    "variant": "leningrad",
    "options": {},
    "players": ["Anna", "Boris", "Vera"],
    "pulka": 20,
    "zones": {
        "Anna": {"pulka": [2, 6], "gora": [4], "whists": {"Boris": [8, 12], "Vera": []}},
        "Boris": {"pulka": [], "gora": [], "whists": {"Anna": [14], "Vera": [4]}},
        "Vera": {"pulka": [4], "gora": [], "whists": {"Anna": [14], "Boris": []}},
    },
}


def test_formats_example_reads_and_totals() -> None:
    sheet = read_sheet(FORMATS_EXAMPLE)
    assert sheet.variant is find_variant("leningrad")
    assert sheet.zones["Anna"].pulka_total == 6
    assert sheet.zones["Anna"].whists_on("Boris") == 12
    assert sheet.zones["Boris"].gora_total == 0
    assert sheet_problems(sheet) == []


def test_text_form_reads_back_and_reads_by_hand() -> None:
    sheet = read_sheet(FORMATS_EXAMPLE)
    text = sheet_to_text(sheet)
    assert "Anna | whists on Boris | 8 12" in text
    assert parse_sheet_text(text) == sheet
    typed = (
        'sheetscan.sheet/1\nvariant ленинградка\noptions {"amnesty": false}\nplayers Anna | Boris | Vera\n'
        "pulka 20\nAnna | pulka | 2 6\nVera | whists on Anna | 14\n"
    )
    parsed = parse_sheet_text(typed)
    assert parsed.options.amnesty is False
    assert parsed.zones["Vera"].whists["Anna"] == (14,)
    assert parsed.zones["Boris"].pulka == ()


def test_text_form_errors_name_the_line() -> None:
    with pytest.raises(InvalidInputError, match="line 5"):
        parse_sheet_text("sheetscan.sheet/1\nvariant sochi\nplayers A | B | C\npulka 10\nA | pulka | 2 x\n")
    with pytest.raises(InvalidInputError, match="unknown zone"):
        parse_sheet_text("sheetscan.sheet/1\nvariant sochi\nplayers A | B | C\npulka 10\nA | hill | 2\n")


def test_build_from_scanned_numbers() -> None:
    sheet = Sheet.build(
        "sochi",
        ["P1", "P2", "P3"],
        10,
        {"P1": {"pulka": [2, 4]}, "P2": {"gora": [6, 4]}, "P3": {"whists": {"P1": [10]}}},
    )
    assert sheet.zones["P1"].whists == {"P2": (), "P3": ()}
    assert sheet_problems(sheet) == ["P2's gora: 4 follows 6, but a running total never goes down"]
