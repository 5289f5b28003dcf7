"""Loading the worked examples under tests/data/rules/ (first line `# Source: …`, then JSON), and the
checks the rules tests share."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from sheetscan.errors import SheetscanError
from sheetscan.rules import GameRecord, Sheet, read_game, replay

DATA = Path(__file__).resolve().parent.parent / "data" / "rules"


def load(name: str) -> Any:
    """The JSON body of a data file, after checking that its first line cites its source."""
    text = (DATA / name).read_text(encoding="utf-8")
    first, _, body = text.partition("\n")
    assert first.startswith("# Source: "), f"{name} must start with a '# Source:' line"
    return json.loads(body)


def game(case: dict[str, Any]) -> GameRecord:
    """The case's game record (the `format` tag is added here to keep the files short)."""
    return read_game({"format": "sheetscan.game/1", **case["game"]})


def totals(sheet: Sheet) -> dict[str, dict[str, Any]]:
    """The sheet's non-zero totals in the shape of a case's `expect`."""
    out: dict[str, dict[str, Any]] = {}
    for name, zone in sheet.zones.items():
        entry: dict[str, Any] = {}
        if zone.pulka_total:
            entry["pulka"] = zone.pulka_total
        if zone.gora_total:
            entry["gora"] = zone.gora_total
        whists = {on: zone.whists_on(on) for on in zone.whists if zone.whists_on(on)}
        if whists:
            entry["whists"] = whists
        if entry:
            out[name] = entry
    return out


def replayed_totals(case: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Replay the case's game and return its non-zero totals."""
    return totals(replay(game(case)))


def fraction(text: str) -> Fraction:
    """An exact value written as `p/q` or a whole number."""
    return Fraction(text)


def assert_replay_refuses(data: dict[str, Any], kind: type[SheetscanError], words: list[str]) -> None:
    """Replaying the game record `data` fails with `kind`, in one line that holds every one of `words`."""
    with pytest.raises(kind) as caught:
        replay(read_game(data))
    message = str(caught.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message
