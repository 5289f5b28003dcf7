"""Speed (issue 5), session 9: the number stage read in two threads, half of the zones each, gives the
very readings `read_numbers` gives reading every zone together.

Truth: `read_numbers` itself on the same sheet, and the sample's truth file (its written numbers) for "the
comparison is not empty": the sheet's numbers are mostly read right either way.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest

from sheetscan.vision import _halves
from sheetscan.vision.ink import Ink, find_ink
from sheetscan.vision.numbers import SheetNumbers, find_numbers, read_numbers
from sheetscan.vision.photo import load_photo
from sheetscan.vision.recognise import ScriptedRecognizer, find_recognizer
from sheetscan.vision.sheet import find_sheet
from sheetscan.vision.zones import SheetZones, locate_zones

_PHOTO = "photo-rostov-4p-hand.jpg"


def _signature(numbers: SheetNumbers) -> list[Any]:
    """Everything a reading holds, without the images (arrays do not compare with ==)."""
    def number(n: Any) -> tuple[Any, ...]:
        t = n.token
        return (t.zone, t.angle, t.row, t.quad, t.crossed_out, t.image.digit_boxes, t.image.gray.tobytes(),
                t.glyph_cuts, n.reading)

    zones = [(z.zone, z.angles, [number(n) for n in z.numbers]) for z in numbers.zones]
    return [zones, number(numbers.target) if numbers.target is not None else None]


@pytest.fixture(scope="module")
def sheet(request: pytest.FixtureRequest) -> tuple[Ink, SheetZones]:
    zones = locate_zones(find_sheet(load_photo(request.config.rootpath / "samples" / _PHOTO)))
    return find_ink(zones.image, line_mask=zones.line_mask), zones


@pytest.mark.slow
def test_two_halves_read_as_all_zones_together(sheet: tuple[Ink, SheetZones], repo_root,  # type: ignore[no-untyped-def]
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    ink, zones = sheet
    reader = find_recognizer("cnn")
    together = read_numbers(find_numbers(ink, zones), reader)
    jobs: list[Callable[[], Any]] = []
    started = _halves.in_background

    def recorded(job: Callable[[], Any]) -> Future[Any]:
        jobs.append(job)
        return started(job)

    monkeypatch.setattr(_halves, "in_background", recorded)
    halves = _halves.read_in_two(find_numbers(ink, zones), reader, ink, zones)
    assert _signature(halves) == _signature(together)
    # The second thread read a share of the zones: neither none nor all of them.
    assert len(jobs) == 1
    aside = {z.zone for z in jobs[0]().zones}
    assert 0 < len(aside) < len(halves.zones)
    # Not an empty comparison: most of the sheet's written numbers are read right.
    truth = json.loads((repo_root / "samples" / _PHOTO).with_suffix(".truth.json").read_text())
    written = Counter(n["value"] for n in truth["numbers"] if not n["crossed_out"])
    read = Counter(n.value for z in halves.zones for n in z.numbers if not n.token.crossed_out)
    assert sum(written.values()) >= 60
    assert sum((written & read).values()) >= 0.9 * sum(written.values())


@pytest.mark.slow
def test_a_recogniser_of_whole_numbers_is_not_shared(sheet: tuple[Ink, SheetZones]) -> None:
    # A recogniser that reads whole numbers (here: replays a list of values in the order it is asked) is
    # asked in the same order as by `read_numbers`, so every number gets the same value.
    ink, zones = sheet
    script = list(range(1000, 3000))
    together = read_numbers(find_numbers(ink, zones), ScriptedRecognizer(script))
    halves = _halves.read_in_two(find_numbers(ink, zones), ScriptedRecognizer(script), ink, zones)
    assert _signature(halves) == _signature(together)
    assert len({n.value for z in together.zones for n in z.numbers}) >= 40
