"""Speed (issue 5), session 11: a printed form's upright sheet is handed on before its lines are measured
(its markers told its rotation), a hand-drawn sheet's once its layout is chosen; and the zone stage's work
in a second thread (the lines' faint edges, the ink beside them, the vertical rulings) changes nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sheetscan.vision import _layout_fit, _paper_lines, zones
from sheetscan.vision.photo import load_photo
from sheetscan.vision.sheet import find_sheet


def _order(monkeypatch: pytest.MonkeyPatch, photo: Path
           ) -> tuple[list[str], list[np.ndarray], zones.SheetZones]:
    events: list[str] = []
    seen: list[np.ndarray] = []
    measure_lines = zones.lines_mask

    def lines_mask(*args, **kwargs):  # type: ignore[no-untyped-def]
        events.append("lines")
        return measure_lines(*args, **kwargs)

    def upright(image: np.ndarray) -> None:
        events.append("upright")
        seen.append(image)

    monkeypatch.setattr(zones, "lines_mask", lines_mask)
    sheet = find_sheet(load_photo(photo))
    return events, seen, zones.locate_zones(sheet, on_upright=upright)


@pytest.mark.slow
def test_a_form_is_handed_on_before_its_lines_are_measured(repo_root: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    events, seen, found = _order(monkeypatch, repo_root / "samples" / "photo-leningrad-3p-form.jpg")
    assert found.layout == "form-3"
    assert events == ["upright", "lines"]
    assert len(seen) == 1 and seen[0] is found.image  # the very image the zones hold


@pytest.mark.slow
def test_a_hand_drawn_sheet_is_handed_on_once_turned(repo_root: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    events, seen, found = _order(monkeypatch, repo_root / "samples" / "photo-rostov-3p-hand.jpg")
    assert found.layout == "standard-3"
    assert events == ["lines", "upright"]
    assert len(seen) == 1 and seen[0] is found.image


@pytest.mark.parametrize("transposed", [False, True])
def test_rulings_are_erased_either_way(transposed: bool) -> None:
    # Lined paper: rulings every 40 px (rows 30, 70, ...) across the whole image, and a drawn frame (five
    # px thick) from 100 to 500. Every ruling runs past the frame into both margins, so all go, except
    # where a drawn side crosses them; the frame's sides end at the frame and stay whole. Turned a
    # quarter, the same with columns.
    mask = np.zeros((600, 600), np.uint8)
    rulings = np.arange(30, 600, 40)
    mask[rulings, :] = 255
    mask[98:103, 98:503] = mask[497:502, 98:503] = 255
    mask[98:503, 98:103] = mask[98:503, 497:502] = 255
    frame = (100.0, 100.0, 500.0, 500.0)
    out = _paper_lines.without_rulings(np.ascontiguousarray(mask.T) if transposed else mask, frame, slack=4)
    out = out.T if transposed else out
    away = np.ones(600, bool)
    away[90:111] = away[490:511] = False  # (where the drawn sides cross the rulings)
    assert not out[np.ix_(rulings, np.flatnonzero(away))].any()
    assert out[98:103, 98:503].all() and out[497:502, 98:503].all()
    assert out[98:503, 98:103].all() and out[98:503, 497:502].all()


def test_peaks_by_hand() -> None:
    profile = np.array([0, 5, 3, 3, 9, 9, 1, 4, 0], np.float64)
    # Local maxima at least 3 (not at the ends): 1 (5), 4 (9), 5 (9, level with 4), 7 (4). Strongest
    # first, the earlier among equals: 4, then 5 (1 from 4: dropped), 1 and 7 (3 from 4: kept).
    assert _layout_fit._peaks(profile, 3.0, 2) == [1, 4, 7]
    assert _layout_fit._peaks(profile, 3.0, 4) == [4]  # 1 and 7 are 3 from 4
    assert _layout_fit._peaks(np.array([9.0, 0.0, 9.0]), 1.0, 1) == []  # the ends never count


def test_coverage_within_a_tolerance_by_hand() -> None:
    mask = np.zeros((40, 100), np.uint8)
    mask[10, 20:60] = 255  # a line along row 10, columns 20..59
    a, b = np.array([0.0, 12.0]), np.array([99.0, 12.0])  # a segment along row 12: 2 px off the line
    # 100 samples, one a column; columns 20..59 are on the line: 40 of 100 within 2 px, none within 1.
    assert _paper_lines.coverage(mask, a, b, samples=100, tolerance=2) == 0.4
    assert _paper_lines.coverage(mask, a, b, samples=100, tolerance=1) == 0.0
    assert _paper_lines.coverage(mask, a - [0, 2], b - [0, 2], samples=100) == 0.4  # on the line itself
