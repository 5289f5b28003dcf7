"""Every worked example of the rules documents, replayed (data files cite document and section)."""

from __future__ import annotations

from typing import Any

import pytest

from sheetscan.rules import replay, sheet_to_text

from ._cases import game, load, replayed_totals

CASE_FILES = [
    "consolation.case",
    "gentleman-greedy.case",
    "raspasy-rostov.case",
    "raspasy-progression.case",
    "whisting-code.case",
    "help.case",
]


def _cases() -> list[Any]:
    return [
        pytest.param(case, id=f"{name}: {case['name']}")
        for name in CASE_FILES
        for case in load(name)["cases"]
    ]


@pytest.mark.parametrize("case", _cases())
def test_worked_example(case: dict[str, Any]) -> None:
    got = replayed_totals(case)
    assert got == case["expect"], (
        f"{case['name']}: {case['why']}\nsheet:\n{sheet_to_text(replay(game(case)))}"
    )
