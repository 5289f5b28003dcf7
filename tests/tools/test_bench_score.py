"""bench/bench_scan.py's scoring: a crossed-out number read as written (or the other way round) is counted
as an error a reviewer must mend, apart from the accuracies, which count written numbers only."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_scan


def _truth_number(x: int, value: int, crossed_out: bool) -> dict[str, Any]:
    return {"zone": 0, "value": value, "crossed_out": crossed_out,
            "quad": [[x, 0], [x + 50, 0], [x + 50, 30], [x, 30]]}


def _read_number(x: int, value: int, crossed_out: bool) -> dict[str, Any]:
    return {"value": value, "crossed_out": crossed_out, "confidence": 0.99, "bbox": [x, 0, 50, 30]}


def _scored(read_crossed: tuple[bool, bool, bool]) -> bench_scan.Tally:
    truth = {"numbers": [_truth_number(0, 10, False), _truth_number(100, 25, True),
                         _truth_number(200, 30, False)],
             "zones": [{"index": 0}]}
    read = [_read_number(0, 10, read_crossed[0]), _read_number(100, 25, read_crossed[1]),
            _read_number(200, 30, read_crossed[2])]
    result = {"zones": [{"numbers": read}]}
    tally = bench_scan.Tally()
    bench_scan.score(truth, result, tally)
    return tally


def test_a_struck_number_read_as_struck_is_no_error() -> None:
    tally = _scored((False, True, False))
    assert not tally.errors
    assert (tally.digits_right, tally.digits, tally.zones_right) == (4, 4, 1)


def test_a_struck_number_read_as_written_is_an_error_outside_the_accuracies() -> None:
    tally = _scored((False, False, False))
    assert tally.errors == {"crossed-out number read as written": 1}
    assert (tally.digits_right, tally.digits, tally.zones_right) == (4, 4, 1)


def test_a_written_number_read_as_struck_is_an_error() -> None:
    tally = _scored((True, True, False))
    assert tally.errors["written number read as crossed out"] == 1
