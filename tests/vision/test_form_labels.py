"""A printed form's zone labels (пуля, гора, висты): where the form prints them, and the number stage
not reading them as numbers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sheetscan.layouts import LABEL_MM, find_layout, label_places, point_in_polygon
from sheetscan.vision._zone_ink import at_label
from sheetscan.vision.render import form_page, render_sheet, sheet_or_game
from sheetscan.vision.scan import scan, scan_to_json
from tests.vision._boxes import box_of, overlap

SAMPLES = Path(__file__).resolve().parent.parent.parent / "samples"


@pytest.mark.parametrize("name", ["form-3", "form-4"])
def test_every_label_lies_inside_its_own_zone(name: str) -> None:
    layout = find_layout(name)
    assert layout.page is not None
    zones = layout.geometry().zones
    places = label_places(layout)
    assert len(places) == len(zones) and all(p is not None for p in places)
    for zone, place in zip(zones, places, strict=True):
        assert place is not None
        middle = layout.page.to_sheet(*place[0])
        assert point_in_polygon(middle, zone.parts[0].polygon), zone


@pytest.mark.parametrize("name", ["form-3", "form-4"])
def test_the_form_prints_each_label_where_the_reader_looks_for_it(name: str) -> None:
    # The labels are the form's only mid-grey print (lines and markers are black, the paper white):
    # the grey ink within 6 mm of each place is centred on it.
    layout = find_layout(name)
    per_mm = 6.0
    page = form_page(layout, px_per_mm=per_mm)[:, :, 0]
    for place in label_places(layout):
        assert place is not None
        x, y = (round(v * per_mm) for v in place[0])
        reach = round(6 * per_mm)
        window = page[y - reach:y + reach + 1, x - reach:x + reach + 1]
        ys, xs = np.nonzero((window > 100) & (window < 200))
        assert len(xs) > 20, f"no label printed near {place}"
        assert abs(xs.mean() - reach) < 1.2 * per_mm and abs(ys.mean() - reach) < 1.2 * per_mm


def test_on_the_label_means_within_the_word_along_it_and_a_letter_across() -> None:
    per_mm = 10.0
    upright = ((500.0, 300.0), 0.0, per_mm)
    sideways = ((500.0, 300.0), 90.0, per_mm)

    def quad(cx: float, cy: float) -> list[tuple[float, float]]:
        return [(cx - 10, cy - 8), (cx + 10, cy - 8), (cx + 10, cy + 8), (cx - 10, cy + 8)]

    assert at_label(quad(500, 300), upright)
    assert at_label(quad(550, 300), upright)  # 5 mm along the word
    assert not at_label(quad(500, 340), upright)  # 4 mm across it: the line of writing above
    assert not at_label(quad(580, 300), upright)  # 8 mm along: past the word's end
    # Turned a quarter, along and across change places.
    assert at_label(quad(500, 350), sideways)
    assert not at_label(quad(550, 300), sideways)
    assert LABEL_MM * per_mm < 40


@pytest.mark.slow
def test_the_form_sample_reads_no_number_where_nothing_is_written() -> None:
    # The web app's sample: its writers write about as small as the form's print, and its "висты"
    # labels were read as "1", "2" and "3", "8".
    photo = SAMPLES / "photo-leningrad-3p-form.jpg"
    truth = json.loads(photo.with_name(photo.stem + ".truth.json").read_text(encoding="utf-8"))
    out = scan_to_json(scan(photo))
    written = [box_of(n["quad"]) for n in truth["numbers"]]
    for zone in out["zones"]:
        for number in zone["numbers"]:
            assert max(overlap(t, box_of_bbox(number["bbox"])) for t in written) >= 0.4, number


def box_of_bbox(bbox: list[float]) -> tuple[float, float, float, float]:
    """The (left, top, right, bottom) box of a scan result's (x, y, width, height) `bbox`."""
    x, y, w, h = bbox
    return (x, y, x + w, y + h)


@pytest.mark.slow
def test_labels_printed_darker_than_pale_writing_are_not_read() -> None:
    # bench_styles' photo 6007 (usual style): the labels came out at 0.76-0.84 of the sheet's typical
    # ink and a pale writer's numbers at 0.97-1.03, so the share of the typical ink let every label
    # through ("висты" read as 8, 3, 81, 107, ...). Each label lies on its own place, read alike.
    games = sorted(SAMPLES.glob("game-*.json"))
    sheet = sheet_or_game(json.loads(games[7 % len(games)].read_text(encoding="utf-8")))
    rendered = render_sheet(sheet, layout="form-3", seed=6007, digits_from="validation")
    out = scan_to_json(scan(rendered.jpeg()))
    written = [box_of(n["quad"]) for n in rendered.truth["numbers"]]
    read = [n for zone in out["zones"] for n in zone["numbers"]]
    assert len(read) >= 10
    on_nothing = [n["value"] for n in read
                  if max(overlap(t, box_of_bbox(n["bbox"])) for t in written) < 0.4]
    assert on_nothing == []  # before this rule: 16 of them, 0, 83, 107, 121, 3, 8, ...
