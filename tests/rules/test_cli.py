"""`sheetscan replay` and `sheetscan settle` as FORMATS.md describes them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from sheetscan.cli import main

SAMPLES = Path(__file__).resolve().parent.parent.parent / "samples"


def test_replay_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SAMPLES / "game-leningrad-3.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"sheet", "settlement"}
    assert out["sheet"]["format"] == "sheetscan.sheet/1"
    assert out["settlement"]["format"] == "sheetscan.settlement/1"
    # Hand computation in test_sample.py: 1024/3, −596/3, −428/3.
    assert out["settlement"]["exact"] == {"Anna": "1024/3", "Boris": "-596/3", "Vera": "-428/3"}
    assert out["settlement"]["balances"] == {"Anna": "341.33", "Boris": "-198.67", "Vera": "-142.67"}


def test_replay_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (SAMPLES / "game-leningrad-3.json").read_text(encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["replay", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sheet"]["players"] == ["Anna", "Boris", "Vera"]


def test_replay_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SAMPLES / "game-leningrad-3.json")]) == 0
    out = capsys.readouterr().out
    assert "pulka closed" in out and "Boris → Anna: 198.67 whists" in out


def test_settle_with_price(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", str(SAMPLES / "sheet-leningrad-3.json"), "--price", "0.5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["balances"] == {"A": "-213.33", "B": "186.67", "C": "26.67"}
    # 560/3 × 1/2 = 280/3 = 93.33; 80/3 × 1/2 = 40/3 = 13.33
    assert {p["to"]: p["money"] for p in out["payments"]} == {"B": "93.33", "C": "13.33"}
    assert main(["settle", str(SAMPLES / "sheet-leningrad-3.json")]) == 0
    assert "How it was reached" in capsys.readouterr().out
