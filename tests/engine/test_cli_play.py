"""`sheetscan play … | sheetscan replay -`: a finished pulka's sheet and a zero-sum settlement (issue 3,
«Done when»), for 3 and 4 players and each main variant; and clear errors for bad settings."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest

from sheetscan.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str = "") -> tuple[int, str, str]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", io.StringIO(stdin))
        code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("variant", ["sochi", "leningrad", "rostov"])
@pytest.mark.parametrize("players", [3, 4])
def test_play_then_replay_gives_a_finished_pulka(variant: str, players: int,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--players", str(players), "--variant", variant, "--seed", "1"]
    code, record_text, _ = run(argv, capsys)
    assert code == 0
    record = json.loads(record_text)
    assert record["format"] == "sheetscan.game/1" and len(record["players"]) == players
    code, out, err = run(["replay", "-", "--json"], capsys, stdin=record_text)
    assert code == 0, err
    result = json.loads(out)
    zones = result["sheet"]["zones"]
    pulkas = {name: zone["pulka"][-1] if zone["pulka"] else 0 for name, zone in zones.items()}
    target = record["pulka"]
    if variant == "leningrad":  # 004: closed when the sum reaches target × players
        assert sum(pulkas.values()) >= target * players
    else:  # 004: closed when every pulka reaches the target
        assert all(points >= target for points in pulkas.values()), pulkas
    assert sum(Fraction(value) for value in result["settlement"]["exact"].values()) == 0


def test_deal_limit_and_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--deals", "3", "--names", "Аня,Боря,Вера", "--seed", "7"], capsys)
    record = json.loads(out)
    assert code == 0 and len(record["deals"]) == 3 and record["players"] == ["Аня", "Боря", "Вера"]
    assert [deal["dealer"] for deal in record["deals"]] == ["Вера", "Аня", "Боря"]  # the deal passes left


def test_options_reach_the_record_and_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--deals", "40", "--option", "stalingrad=true", "--option", "whist_style=gentleman"]
    code, out, _ = run(argv, capsys)
    record = json.loads(out)
    assert code == 0 and record["options"] == {"stalingrad": True, "whist_style": "gentleman"}
    six_spades = [d for d in record["deals"] if d.get("contract") == "6s"]
    assert six_spades and all(set(d["defence"].values()) == {"whist"} for d in six_spades)  # 002 Сталинград


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "--variant", "bridge"], "unknown variant 'bridge'"),
    (["play", "--deals", "0"], "deals: 0"),
    (["play", "--pulka", "0"], "pulka"),
    (["play", "--names", "A,B"], "3 or 4"),
    (["play", "--option", "stalingrad"], "expected KEY=VALUE"),
    (["play", "--option", "colour=red"], "unknown option 'colour'"),
])
def test_bad_settings_get_one_clear_line(argv: list[str], message: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and message in err and "Traceback" not in err
