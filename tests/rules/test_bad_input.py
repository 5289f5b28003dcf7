"""Bad input: one clear error naming the deal or zone and what is wrong; exit code 2 from the CLI."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from sheetscan.cli import main
from sheetscan.errors import InvalidInputError, RuleViolationError, SheetscanError
from sheetscan.rules import read_sheet, settle

from ._cases import assert_replay_refuses

BASE: dict[str, Any] = {
    "format": "sheetscan.game/1",
    "variant": "leningrad",
    "players": ["Anna", "Boris", "Vera"],
    "pulka": 20,
    "deals": [
        {
            "dealer": "Vera",
            "kind": "game",
            "declarer": "Anna",
            "contract": "7h",
            "defence": {"Boris": "whist", "Vera": "pass"},
            "play": "open",
            "tricks": {"Anna": 7, "Boris": 3, "Vera": 0},
        },
        {"dealer": "Anna", "kind": "raspasy", "tricks": {"Anna": 2, "Boris": 3, "Vera": 5}},
    ],
}


def _with(change: dict[str, Any], deal: int | None = None) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    (data["deals"][deal] if deal is not None else data).update(change)
    return data


# (record, error type, words the one-line message must contain)
BAD_GAMES = [
    (_with({"variant": "preferans"}), InvalidInputError, ["unknown variant", "sochi", "leningrad"]),
    (
        _with({"options": {"raspasy": [1]}}),
        InvalidInputError,
        ["unknown option 'raspasy'", "raspasy_progression"],
    ),
    (_with({"contract": "11h"}, 0), InvalidInputError, ["deal 1", "11h"]),
    (_with({"contract": "7x"}, 0), InvalidInputError, ["deal 1", "7x"]),
    (
        _with({"tricks": {"Anna": 7, "Boris": 3, "Vera": 1}}, 0),
        RuleViolationError,
        ["deal 1", "add up to 11"],
    ),
    (_with({"tricks": {"Anna": 2, "Boris": 3, "Vera": 4}}, 1), RuleViolationError, ["deal 2", "add up to 9"]),
    (
        _with(
            {
                "deals": [
                    {
                        "dealer": "Vera",
                        "kind": "game",
                        "declarer": "Anna",
                        "contract": "7h",
                        "defence": {"Boris": "pass", "Vera": "pass"},
                        "tricks": {"Anna": 7, "Boris": 3, "Vera": 0},
                    }
                ]
            }
        ),
        RuleViolationError,
        ["deal 1", "nobody whisted", "tricks"],
    ),
    (
        _with({"defence": {"Boris": "whist", "Vera": "whist"}}, 0),
        InvalidInputError,
        ["deal 1", "play (open/closed)"],
    ),
    (_with({"defence": {"Boris": "whist", "Vera": "half"}}, 0), RuleViolationError, ["deal 1", "half-whist"]),
    (
        _with({"contract": "8h", "defence": {"Boris": "pass", "Vera": "half"}}, 0),
        RuleViolationError,
        ["deal 1", "only on 6 and 7"],
    ),
    (_with({"defence": {"Boris": "whist"}}, 0), InvalidInputError, ["deal 1", "Vera said nothing"]),
    (
        _with({"defence": {"Boris": "whist", "Vera": "pass", "Anna": "pass"}}, 0),
        RuleViolationError,
        ["deal 1", "Anna cannot whist"],
    ),
    (_with({"declarer": "Gleb"}, 0), InvalidInputError, ["deal 1", "'Gleb' is not a player"]),
    (_with({"tricks": {"Anna": 7, "Boris": 3}}, 0), RuleViolationError, ["deal 1", "players in this deal"]),
    (_with({"trics": {}}, 1), InvalidInputError, ["deal 2", "unknown field 'trics'"]),
    (_with({"format": "sheetscan.game/2"}), InvalidInputError, ["newer"]),
    (_with({"format": "sheetscan.sheet/1"}), InvalidInputError, ["not a sheetscan game"]),
    (_with({"players": ["Anna", "Boris"]}), InvalidInputError, ["3 or 4 players"]),
    (
        _with(
            {
                "options": {"stalingrad": True},
                "deals": [
                    {
                        "dealer": "Vera",
                        "kind": "game",
                        "declarer": "Anna",
                        "contract": "6s",
                        "defence": {"Boris": "whist", "Vera": "pass"},
                        "tricks": {"Anna": 6, "Boris": 3, "Vera": 1},
                    }
                ],
            }
        ),
        RuleViolationError,
        ["deal 1", "6♠ must be whisted"],
    ),
    (
        _with(
            {
                "variant": "rostov",
                "deals": [
                    {
                        "dealer": "Vera",
                        "kind": "game",
                        "declarer": "Anna",
                        "contract": "6s",
                        "defence": {"Boris": "pass", "Vera": "half"},
                    }
                ],
            }
        ),
        RuleViolationError,
        ["deal 1", "half_whist"],
    ),
    (
        _with(
            {
                "players": ["Anna", "Boris", "Vera", "Gleb"],
                "deals": [
                    {
                        "dealer": "Anna",
                        "kind": "game",
                        "declarer": "Anna",
                        "contract": "6s",
                        "defence": {"Boris": "pass", "Vera": "pass"},
                    }
                ],
            }
        ),
        RuleViolationError,
        ["deal 1", "sits out"],
    ),
]


@pytest.mark.parametrize(("data", "kind", "words"), BAD_GAMES)
def test_bad_game_record(data: dict[str, Any], kind: type[SheetscanError], words: list[str]) -> None:
    assert_replay_refuses(data, kind, words)


SHEET: dict[str, Any] = {
    "format": "sheetscan.sheet/1",
    "variant": "leningrad",
    "players": ["Anna", "Boris", "Vera"],
    "pulka": 20,
    "zones": {
        "Anna": {"pulka": [2, 6], "gora": [4], "whists": {"Boris": [8, 12], "Vera": []}},
        "Boris": {"pulka": [], "gora": [], "whists": {"Anna": [14], "Vera": [4]}},
        "Vera": {"pulka": [4], "gora": [], "whists": {"Anna": [14], "Boris": []}},
    },
}


def _sheet(player: str, change: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(SHEET)
    data["zones"][player].update(change)
    return data


BAD_SHEETS = [
    (_sheet("Anna", {"gora": [4, 2]}), RuleViolationError, ["Anna's gora", "2 follows 4"]),
    (
        _sheet("Boris", {"whists": {"Anna": [14, 10], "Vera": [4]}}),
        RuleViolationError,
        ["Boris's whists on Anna", "never goes down"],
    ),
    (_sheet("Vera", {"whists": {"Gleb": [3]}}), InvalidInputError, ["Vera's whists on 'Gleb'"]),
    (_sheet("Vera", {"pulka": [-2]}), InvalidInputError, ["zone Vera", "-2"]),
    ({**SHEET, "players": ["Anna", "Boris", "Gleb"]}, InvalidInputError, ["do not match", "Gleb"]),
    ({**SHEET, "options": {"amnesty": "yes"}}, InvalidInputError, ["amnesty"]),
]


@pytest.mark.parametrize(("data", "kind", "words"), BAD_SHEETS)
def test_bad_sheet(data: dict[str, Any], kind: type[SheetscanError], words: list[str]) -> None:
    with pytest.raises(kind) as caught:
        settle(read_sheet(data))
    for word in words:
        assert word in str(caught.value), str(caught.value)


def _write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "input.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("data", "words"), [(BAD_GAMES[4][0], BAD_GAMES[4][2]), (BAD_GAMES[0][0], ["sochi"])]
)
def test_cli_replay_bad_input_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any, words: list[str]
) -> None:
    assert main(["replay", _write(tmp_path, data)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert all(word in err for word in words), err


def test_cli_settle_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", _write(tmp_path, BAD_SHEETS[0][0])]) == 2
    assert "Anna's gora" in capsys.readouterr().err
    assert main(["settle", _write(tmp_path, SHEET), "--price", "cheap"]) == 2
    assert "price" in capsys.readouterr().err
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    assert main(["settle", str(tmp_path / "broken.json")]) == 2
