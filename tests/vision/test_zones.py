"""Stage 3: the layout — line finding, layout and rotation choice, zone polygons, bad sheets."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from synth_sheet import draw_sheet, synth

import sheetscan.vision.zones as zones_module
from sheetscan.errors import NoSheetError
from sheetscan.layouts import Proportions, find_layout
from sheetscan.vision._bend import trace_band
from sheetscan.vision._layout_fit import measure
from sheetscan.vision._lines import dark_mask, hanging_pieces, local_ink
from sheetscan.vision.photo import load_photo
from sheetscan.vision.sheet import RectifiedSheet, find_sheet
from sheetscan.vision.zones import SheetZones, locate_zones, to_photo_points

# Proportions unlike the layouts' defaults: nothing may come from a fixed template.
ODD_3 = Proportions(aspect=1.25, whists=(0.12, 0.24, 0.18, 0.18), pulka=(0.12, 0.1, 0.08, 0.16),
                    circle_radius=0.07, circle_center=(0.52, 0.47), top_split=0.44, whist_splits=((0.58,),))
ODD_4 = Proportions(aspect=0.9, whists=(0.2, 0.15, 0.16, 0.21), pulka=(0.1, 0.14, 0.13, 0.1),
                    circle_radius=0.09, circle_center=(0.49, 0.52),
                    whist_splits=((0.3, 0.7), (0.36, 0.64), (0.33, 0.66), (0.3, 0.68)))


def _flat_sheet(layout: str, proportions: Proportions | None, turns: int, *, wobble: float = 0.3,
                seed: int = 0) -> tuple[RectifiedSheet, np.ndarray]:
    """A drawn sheet seen straight on, turned `turns` quarter turns clockwise, as stage 2 would give it.

    Returns the sheet and, for checking, the 3 × 3 map from normalised upright sheet coordinates to the
    pixels of the (turned) image, computed from the drawing parameters.
    """
    paper, _, to_paper = draw_sheet(layout, proportions=proportions, height=600, wobble=wobble, seed=seed,
                                    margin=40)
    h, w = paper.shape[:2]
    image = np.ascontiguousarray(np.rot90(paper, -turns))
    # paper (x, y) → image after k clockwise quarter turns
    turn = {0: [[1, 0, 0], [0, 1, 0]], 1: [[0, -1, h - 1], [1, 0, 0]], 2: [[-1, 0, w - 1], [0, -1, h - 1]],
            3: [[0, 1, 0], [-1, 0, w - 1]]}[turns % 4]
    paper_to_image = np.vstack([np.array(turn, np.float64), [0, 0, 1]])
    unit_to_image = paper_to_image @ to_paper
    unit = np.array([[[0, 0], [1, 0], [1, 1], [0, 1]]], np.float64)
    corners = cv2.perspectiveTransform(unit, unit_to_image)[0]
    left, top = corners.min(axis=0)
    right, bottom = corners.max(axis=0)
    sheet = RectifiedSheet(image=image, to_photo=np.eye(3), corners=corners, source="drawn", form=None,
                           partial=False, frame=(float(left), float(top), float(right), float(bottom)))
    return sheet, unit_to_image


def _zone_errors(zones: SheetZones, layout: str, proportions: Proportions | None,
                 unit_to_photo: np.ndarray) -> list[float]:
    """For each zone, the worst distance (photo px) between its found and its true polygon."""
    geometry = find_layout(layout).geometry(proportions)
    out = []
    for found, true in zip(zones.zones, geometry.zones, strict=True):
        got = to_photo_points(np.array(found.polygon), zones.to_photo)
        want = cv2.perspectiveTransform(np.array(true.polygon, np.float64)[None], unit_to_photo)[0]
        assert (found.index, found.player, found.kind, found.on) == (
            true.index, true.player, true.kind, true.on)
        out.append(float(np.hypot(*(got - want).T).max()))
    return out


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_standard_3_layout_rotation_and_zones_from_the_lines(turns: int) -> None:
    sheet, unit_to_image = _flat_sheet("standard-3", ODD_3, turns, seed=turns)
    zones = locate_zones(sheet)
    assert zones.layout == "standard-3" and zones.players == 3
    assert zones.rotation == turns * 90 and zones.rotation_certain
    assert len(zones.zones) == 12
    errors = _zone_errors(zones, "standard-3", ODD_3, unit_to_image)
    # 600 px sheet height: 2 % of it is 12 px (lines wobble by ~2 px, the gora's arcs follow the circle).
    assert max(errors) < 12, errors
    cx, cy, r = zones.circle or (0, 0, 0)
    want = to_photo_points([ODD_3.circle_center], unit_to_image)[0]
    got = to_photo_points([(cx, cy)], zones.to_photo)[0]
    assert np.hypot(*(got - want)) < 4
    assert r == pytest.approx(0.07 * 600, rel=0.12)


def test_standard_4_layout_and_zones_with_rotation_marked_uncertain() -> None:
    sheet, unit_to_image = _flat_sheet("standard-4", ODD_4, 0)
    zones = locate_zones(sheet)
    assert zones.layout == "standard-4" and zones.players == 4 and len(zones.zones) == 20
    assert not zones.rotation_certain
    assert any("which side is the bottom" in note for note in zones.notes)
    assert max(_zone_errors(zones, "standard-4", ODD_4, unit_to_image)) < 12


def test_players_hint_restricts_the_layout() -> None:
    sheet, _ = _flat_sheet("standard-4", ODD_4, 0)
    zones = locate_zones(sheet, players=3)
    assert zones.layout == "standard-3"
    assert any("only loosely" in note for note in zones.notes)
    with pytest.raises(ValueError, match="players must be 3 or 4"):
        locate_zones(sheet, players=5)


def test_measure_finds_the_nested_rectangles() -> None:
    sheet, _ = _flat_sheet("standard-3", ODD_3, 0, wobble=0.0)
    mask = dark_mask(sheet.image, line_width=3.0)
    m = measure(mask, sheet.frame)
    left, top, right, bottom = sheet.frame
    fw, fh = right - left, bottom - top
    # Hand computation from ODD_3: pulka rectangle = frame inset by the whist bands, gora by both bands.
    assert m.pulka_rect["left"] == pytest.approx(left + 0.12 * fw, abs=3)
    assert m.pulka_rect["top"] == pytest.approx(top + 0.24 * fh, abs=3)
    assert m.pulka_rect["right"] == pytest.approx(right - 0.18 * fw, abs=3)
    assert m.pulka_rect["bottom"] == pytest.approx(bottom - 0.18 * fh, abs=3)
    assert m.gora_rect["left"] == pytest.approx(left + 0.24 * fw, abs=3)
    assert m.gora_rect["top"] == pytest.approx(top + 0.34 * fh, abs=3)
    assert m.gora_rect["bottom"] == pytest.approx(bottom - 0.34 * fh, abs=3)
    assert m.mid_spoke == {"left": 0.0, "top": 1.0, "right": 0.0, "bottom": 0.0}
    assert m.mid_spoke_at["top"] == pytest.approx(left + 0.44 * fw, abs=4)
    assert m.corner_spoke["BL"] > 0.8 and m.corner_spoke["BR"] > 0.8
    assert m.corner_spoke["TL"] < 0.3 and m.corner_spoke["TR"] < 0.3
    assert m.whist_splits["bottom"] == pytest.approx((left + 0.58 * fw,), abs=4)


def test_line_mask_holds_the_lines_not_the_writing() -> None:
    sheet, _ = _flat_sheet("standard-3", ODD_3, 0)
    image = sheet.image.copy()
    left, top, right, bottom = sheet.frame
    x, y = int(left + 0.4 * (right - left)), int(top + 0.9 * (bottom - top))  # inside seat 0's whists
    cv2.putText(image, "38", (x, y), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (40, 40, 40), 3)
    sheet = RectifiedSheet(image=image, to_photo=sheet.to_photo, corners=sheet.corners, source="drawn",
                           form=None, partial=False, frame=sheet.frame)
    zones = locate_zones(sheet)
    writing = zones.line_mask[y - 25:y + 5, x:x + 45]
    assert writing.sum() == 0
    frame_row = zones.line_mask[round(top) - 3:round(top) + 4, round(left) + 50:round(right) - 50]
    assert (frame_row.max(axis=0) > 0).mean() > 0.9


def test_a_rectangle_without_the_sheet_lines_is_no_sheet() -> None:
    image = np.full((700, 900, 3), 245, np.uint8)
    cv2.rectangle(image, (40, 40), (860, 660), (30, 30, 30), 3)
    sheet = RectifiedSheet(image=image, to_photo=np.eye(3), corners=np.array([[40, 40], [860, 40], [860, 660],
                           [40, 660]], np.float64), source="drawn", form=None, partial=False,
                           frame=(40.0, 40.0, 860.0, 660.0))
    with pytest.raises(NoSheetError, match="nested rectangles"):
        locate_zones(sheet)


@pytest.mark.parametrize(("layout", "rotation"), [("standard-3", 90), ("standard-3", 180), ("form-4", 270)])
def test_photo_to_zones_end_to_end_on_synthetic_photos(layout: str, rotation: int) -> None:
    s = synth(layout, rotation=rotation, tilt=0.2, turn=10, seed=rotation, size=(1600, 1200), height=900)
    ok, buf = cv2.imencode(".png", s.image)
    assert ok
    sheet = find_sheet(load_photo(buf.tobytes()))
    seen: list[str] = []
    zones = locate_zones(sheet, debug=lambda name, image: seen.append(name))
    assert seen == ["03_zones"]
    assert zones.layout == layout and zones.rotation == rotation
    # The upright frame maps onto the true corners, in upright order.
    left, top, right, bottom = zones.frame
    frame = to_photo_points([(left, top), (right, top), (right, bottom), (left, bottom)], zones.to_photo)
    assert np.hypot(*(frame - s.corners).T).max() < 6
    assert max(_zone_errors(zones, layout, s.geometry_proportions, s.sheet_to_photo)) < 15


# --- end to end on the renderer's photos (independent truth: the renderer's own geometry) -----------------

def _rendered(layout: str, seed: int, size: tuple[int, int] = (2400, 1800)
              ) -> tuple[bytes, dict[str, object]]:
    from sheetscan.vision.render import render_sheet

    players = int(layout[-1])
    names = ["Anna", "Boris", "Vera", "Gleb"][:players]
    zones = {p: {"pulka": [2, 6], "gora": [4], "whists": {q: [8, 12] for q in names if q != p}}
             for p in names}
    sheet = {"format": "sheetscan.sheet/1", "variant": "sochi", "options": {}, "players": names,
             "pulka": 20, "zones": zones}
    rendered = render_sheet(sheet, layout=layout, seed=seed, digits_from="test", size=size)
    return rendered.jpeg(), rendered.truth


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    x0, y0 = np.floor(np.vstack([a, b]).min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(np.vstack([a, b]).max(axis=0)).astype(int) + 1
    ca = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cb = np.zeros_like(ca)
    cv2.fillPoly(ca, [np.round(a - [x0, y0]).astype(np.int32)], 1)
    cv2.fillPoly(cb, [np.round(b - [x0, y0]).astype(np.int32)], 1)
    return float((ca & cb).sum()) / max(1, int((ca | cb).sum()))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("layout", "seed"), [("standard-3", 11), ("standard-4", 12), ("form-3", 13), ("form-4", 14)]
)
def test_rendered_photo_corners_layout_rotation_and_zones(layout: str, seed: int) -> None:
    data, truth = _rendered(layout, seed)
    sheet = find_sheet(load_photo(data))
    zones = locate_zones(sheet)
    assert zones.layout == truth["layout"]["name"]  # type: ignore[index]
    players = zones.players
    if layout != "standard-4":
        assert zones.rotation == truth["rotation"]
    left, top, right, bottom = zones.frame
    frame = to_photo_points([(left, top), (right, top), (right, bottom), (left, bottom)], zones.to_photo)
    true_corners = np.array(truth["corners"], np.float64)
    shifts = range(4) if layout == "standard-4" else (0,)
    # A standard-4 sheet is the same turned by a quarter: compare under the best cyclic relabelling.
    corner_err = min(float(np.hypot(*(np.roll(frame, k, 0) - true_corners).T).max()) for k in shifts)
    assert corner_err < 0.01 * 2000
    found = [to_photo_points(np.array(z.polygon), zones.to_photo) for z in zones.zones]
    true_zones = [np.array(z["polygon"], np.float64) for z in truth["zones"]]  # type: ignore[index]
    best = 0.0
    for shift in shifts:
        ious = []
        for index, polygon in enumerate(true_zones):
            seat, k = divmod(index, players + 1)
            ious.append(_iou(found[((seat - shift) % players) * (players + 1) + k], polygon))
        best = max(best, float(np.mean(ious)))
    assert best > 0.9


@pytest.mark.slow
def test_rendered_sheet_cut_by_the_photo_edge_is_partial() -> None:
    data, truth = _rendered("standard-3", 21)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    corners = np.array(truth["corners"], np.float64)
    cut = int(corners[:, 0].min() + 0.6 * (corners[:, 0].max() - corners[:, 0].min()))
    ok, buf = cv2.imencode(".png", np.ascontiguousarray(image[:, :cut]))
    assert ok
    sheet = find_sheet(load_photo(buf.tobytes()))
    assert sheet.partial and any("runs off the photo" in note for note in sheet.notes)
    zones = locate_zones(sheet)
    assert zones.partial and any("cut by the photo's edge" in note for note in zones.notes)


def test_circle_is_found_when_the_target_touches_it() -> None:
    from sheetscan.vision._layout_fit import _find_circle

    mask = np.zeros((500, 600), np.uint8)
    cv2.circle(mask, (310, 240), 60, 255, 4)
    cv2.putText(mask, "20", (262, 275), cv2.FONT_HERSHEY_SIMPLEX, 2.6, 255, 9)  # runs into the outline
    cv2.line(mask, (150, 400), (268, 283), 255, 4)  # a spoke meeting it
    found = _find_circle(mask, (50.0, 50.0, 550.0, 450.0), 500.0)
    assert found is not None
    cx, cy, r = found
    assert np.hypot(cx - 310, cy - 240) < 2.5
    assert r == pytest.approx(60, abs=2.5)


def test_shift_field_follows_bent_lines() -> None:
    from sheetscan.vision._bend import fit_displacement

    # Straight model lines; the "drawn" ones are the same lines moved by a smooth bend
    # (dx, dy) = (6 sin(π y / 600), 8 sin(π x / 800)) px, as a curling sheet would move them.
    def bent(points: np.ndarray) -> np.ndarray:
        x, y = points[:, 0], points[:, 1]
        return np.stack([x + 6 * np.sin(np.pi * y / 600), y + 8 * np.sin(np.pi * x / 800)], axis=1)

    mask = np.zeros((600, 800), np.uint8)
    model = [np.array([[50.0, y], [750.0, y]]) for y in (50, 170, 300, 430, 550)]
    model += [np.array([[x, 50.0], [x, 550.0]]) for x in (50, 200, 400, 600, 750)]
    for line in model:
        dense = np.linspace(line[0], line[1], 200)
        cv2.polylines(mask, [np.round(bent(dense)).astype(np.int32)], False, 255, 3)
    field = fit_displacement(mask, model, center=(400.0, 300.0), half=400.0, search=20, step=10, skip=20)
    assert field is not None
    assert field.residual < 1.0 < field.before
    probe = np.array([[120.0, 170.0], [400.0, 430.0], [600.0, 240.0], [700.0, 300.0]])
    assert np.abs(field.apply(probe) - bent(probe)).max() < 1.5


def test_nearest_runs_across_a_line() -> None:
    from sheetscan.vision._lines import nearest_runs

    offsets = np.arange(-5, 6, dtype=np.float64)  # columns 0..10 are offsets -5..5
    ink = np.zeros((4, 11), bool)
    ink[0, [1, 2, 7, 8, 9]] = True  # runs at -4..-3 and 2..4: the nearer ink is at +2 → centre 3
    ink[1, 4:7] = True  # -1..1 → centre 0
    ink[2, 0:10] = True  # one run 10 long: too wide for max_len 4
    centres, valid = nearest_runs(ink, offsets, 4)  # row 3: no ink
    assert valid.tolist() == [True, True, False, False]
    assert centres[:2].tolist() == [3.0, 0.0]


SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("photo-*.jpg"))


@pytest.mark.slow
@pytest.mark.parametrize("photo_path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_samples_geometry_against_their_truth_files(photo_path: Path) -> None:
    truth = json.loads(photo_path.with_suffix("").with_suffix(".truth.json").read_text(encoding="utf-8"))
    photo = load_photo(photo_path)
    zones = locate_zones(find_sheet(photo))
    assert zones.layout == truth["layout"]["name"]
    four_hand = zones.layout == "standard-4"
    if not four_hand:
        assert zones.rotation == truth["rotation"]
    left, top, right, bottom = zones.frame
    frame = to_photo_points([(left, top), (right, top), (right, bottom), (left, bottom)], zones.to_photo)
    true_corners = np.array(truth["corners"], np.float64)
    turns = range(4 if four_hand else 1)
    err = min(float(np.hypot(*(np.roll(frame, k, 0) - true_corners).T).max()) for k in turns)
    assert err < 0.005 * float(np.hypot(photo.width, photo.height))
    # The circle where its ring is drawn (on sochi-3p-hand it lies 30 px off the layout's usual place).
    assert zones.circle is not None
    cx, cy, r = zones.circle
    (tx, ty), = cv2.perspectiveTransform(np.array([[truth["circle"]["center"]]], np.float64),
                                         np.linalg.inv(zones.to_photo))[0]
    assert np.hypot(cx - tx, cy - ty) < 0.1 * r


def test_fit_ring_finds_an_off_centre_broken_circle() -> None:
    from sheetscan.vision._ring_fit import fit_ring

    # The drawn ring: centre (330, 250), radius 55, stroke 5 px (so its ink spans radii 52.5..57.5),
    # with two gaps, the target "20" touching it inside and two spokes ending on it. The layout's
    # model expects it at (300, 240) with radius 70: 32 px and 15 px off.
    mask = np.zeros((500, 600), np.uint8)
    cv2.ellipse(mask, (330, 250), (55, 55), 0, 20, 160, 255, 5)
    cv2.ellipse(mask, (330, 250), (55, 55), 0, 185, 340, 255, 5)
    cv2.putText(mask, "20", (285, 272), cv2.FONT_HERSHEY_SIMPLEX, 2.0, 255, 7)
    cv2.line(mask, (150, 420), (292, 290), 255, 5)
    cv2.line(mask, (510, 420), (368, 290), 255, 5)
    ring = fit_ring(mask, (300.0, 240.0, 70.0), line_width=5.0)
    assert ring is not None
    assert np.hypot(ring.cx - 330, ring.cy - 250) < 2.0
    assert ring.r == pytest.approx(55, abs=2.0)
    assert 50.0 <= ring.inner <= 54.0 and 56.0 <= ring.outer <= 60.0


def test_fit_ring_gives_none_without_a_ring() -> None:
    from sheetscan.vision._ring_fit import fit_ring

    mask = np.zeros((400, 400), np.uint8)
    cv2.putText(mask, "20", (150, 220), cv2.FONT_HERSHEY_SIMPLEX, 2.0, 255, 7)  # a target, no circle
    assert fit_ring(mask, (200.0, 200.0, 80.0), line_width=5.0) is None


def test_trace_band_covers_both_strokes_of_a_retraced_wandering_line() -> None:
    from sheetscan.vision._bend import trace_band

    # The model line is y = 200; the drawn line wanders 18 px off it (a freehand bow) and was drawn
    # twice, the second stroke 6 px below the first, each 3 px wide. A digit stands 45 px above.
    mask = np.zeros((400, 800), np.uint8)
    xs = np.arange(50, 751, dtype=np.float64)
    first = 200 + 18 * np.sin(np.pi * (xs - 50) / 700)
    for dy in (0.0, 6.0):
        cv2.polylines(mask, [np.round(np.stack([xs, first + dy], 1)).astype(np.int32)], False, 255, 3)
    drawn = mask.copy()
    cv2.putText(mask, "7", (380, 150), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 255, 3)
    digit = (mask > 0) & (drawn == 0)
    band = trace_band(mask, [np.array([[50.0, 200.0], [750.0, 200.0]])], search=30, step=3, max_run=15,
                      merge=5, pad=2)
    covered = (band > 0) & (drawn > 0)
    assert covered.sum() >= 0.99 * (drawn > 0).sum()
    assert not (band > 0)[digit].any()


def test_line_mask_holds_a_retraced_line() -> None:
    sheet, to_image = _flat_sheet("standard-3", ODD_3, 0)
    image = sheet.image.copy()
    # Retrace the bottom side of the pulka rectangle (y = 1 − whists[3] = 0.82 of the sheet's height)
    # with a second stroke 12 px below the first (beyond the model's band), as a player going over the
    # line again would.
    (x0, y0), (x1, _) = cv2.perspectiveTransform(np.array([[[0.2, 0.82], [0.8, 0.82]]]), to_image)[0]
    second = np.zeros(image.shape[:2], np.uint8)
    cv2.line(second, (round(x0), round(y0) + 12), (round(x1), round(y0) + 12), 255, 2)
    image[second > 0] = (60, 60, 60)
    sheet = RectifiedSheet(image=image, to_photo=sheet.to_photo, corners=sheet.corners, source="drawn",
                           form=None, partial=False, frame=sheet.frame)
    zones = locate_zones(sheet)
    assert zones.rotation == 0
    assert (zones.line_mask[second > 0] > 0).mean() > 0.97


def test_line_mask_leaves_a_digit_written_against_a_line() -> None:
    # A "7" whose bar runs 7 px under the pulka rectangle's bottom side (3 px thick, drawn straight):
    # the bar's near edge is 7 - 1.5 - 1 = 4.5 px from the line's middle, beyond the line's own half
    # width (1.5 px) and its blur, so none of it is line.
    sheet, to_image = _flat_sheet("standard-3", ODD_3, 0, wobble=0.0)
    image = sheet.image.copy()
    (x0, y0), = cv2.perspectiveTransform(np.array([[[0.45, 0.82]]]), to_image)[0]
    bar_y = round(y0) + 7
    digit = np.zeros(image.shape[:2], np.uint8)
    cv2.line(digit, (round(x0), bar_y), (round(x0) + 18, bar_y), 255, 3)
    cv2.line(digit, (round(x0) + 18, bar_y), (round(x0) + 8, bar_y + 30), 255, 3)
    image[digit > 0] = (50, 40, 40)
    sheet = RectifiedSheet(image=image, to_photo=sheet.to_photo, corners=sheet.corners, source="drawn",
                           form=None, partial=False, frame=sheet.frame)
    zones = locate_zones(sheet)
    assert not (zones.line_mask[digit > 0] > 0).any()


def test_hanging_pieces_are_a_rulings_stubs_not_a_digit() -> None:
    lines = np.zeros((100, 100), np.uint8)
    lines[:, 48:52] = 255  # a drawn line 4 px wide at x = 48..51
    ink = lines.copy()
    ink[30:32, 42:58] = 255  # a ruling's stubs: 6 px either side of the line where it crosses it
    ink[70:73, 52:85] = 255  # a digit's stroke touching the line, running 33 px off it
    ink[10:14, 60:64] = 255  # a dot 8 px off the line, not touching it, within reach
    pieces = hanging_pieces(lines, ink, reach=8)
    assert (pieces[30:32, 42:48] > 0).all() and (pieces[30:32, 52:58] > 0).all()
    assert not (pieces[70:73] > 0).any()
    assert not (pieces[:, 48:52] > 0).any()  # the line itself is not a piece off it
    # The dot's far side is 12 px from the line's edge: beyond reach, so it stays writing.
    assert not (pieces[10:14] > 0).any()


def test_a_level_stroke_beside_a_line_is_no_hanging_piece_but_a_missed_stretch_of_line_is() -> None:
    lines = np.zeros((60, 120), np.uint8)
    lines[20:26, 5:115] = 255  # a drawn line 6 px wide at y = 20..25
    ink = lines.copy()
    # A level "1" 30 px long and 5 px thick, 2 px under the line and touching it at its right end: wholly
    # within reach (8 px) of the line, but a stroke of its own lying beside it.
    ink[28:33, 10:40] = 255
    ink[26:28, 38:40] = 255
    # A stretch of the line the mask missed but for a speck, 20 px long: the line is at its ends, not
    # beside it.
    lines[20:26, 70:90] = 0
    lines[22, 80] = 255
    # A squared paper's ruling 2 px thick running beside the line, 2 px over it: thinner than a stroke.
    ink[16:18, 45:65] = 255
    pieces = hanging_pieces(lines, ink, reach=8)
    assert not (pieces[26:33, 10:40] > 0).any()
    assert np.array_equal(pieces[20:26, 70:90] > 0, lines[20:26, 70:90] == 0)
    assert (pieces[16:18, 45:65] > 0).all()


def test_local_ink_keeps_faint_pixels_only_beside_dark_ones() -> None:
    ratio = np.ones((20, 40), np.float32)
    ratio[5, :] = 0.8  # a faint ruling (darker than weak 0.84, lighter than strong 0.68)
    ratio[10, 20] = 0.5  # one dark dot
    ratio[12, 20] = 0.8  # a faint pixel 2 px from it
    ink = local_ink(ratio, reach=3)
    assert not ink[5].any()  # the ruling is 5 px from the dot: beyond reach
    assert ink[10, 20] and ink[12, 20]


def test_trace_band_leaves_a_digit_touching_the_line() -> None:
    # A level line 3 px thick at y = 50..52 and a "1" 3 px wide hanging from it down to y = 70: across
    # the line at the digit the run is 21 px, seven times the line's own 3 px, so it is not line there.
    mask = np.zeros((100, 200), np.uint8)
    mask[50:53, 10:190] = 255
    mask[53:71, 99:102] = 255
    band = trace_band(mask, [np.array([[10.0, 51.0], [190.0, 51.0]])], search=20, step=2.0, max_run=24,
                      merge=3, pad=1.0)
    assert (band[50:53, 20:90] > 0).all()  # the line is followed
    assert not (band[56:71, 99:102] > 0).any()  # the digit below it is not


@pytest.mark.parametrize("line_search_sees_circle", [True, False])
def test_mountain_zones_end_on_the_drawn_circle(line_search_sees_circle: bool,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # The circle drawn at the odd proportions' centre and radius (0.52, 0.47), 0.07 of the height: the
    # mountain zones' inner ends (their vertices nearest the centre) lie on it, also when the line
    # search misses the circle and the layout's usual one (0.06 at the middle) is taken first.
    if not line_search_sees_circle:
        def blind(mask: np.ndarray, frame: tuple[float, float, float, float], *, faint: bool = False) -> Any:
            return dataclasses.replace(measure(mask, frame, faint=faint), circle=None)
        monkeypatch.setattr(zones_module, "measure", blind)
    sheet, to_image = _flat_sheet("standard-3", ODD_3, 0, wobble=0.0)
    zones = locate_zones(sheet)
    (cx, cy), (_, top) = cv2.perspectiveTransform(np.array([[[0.52, 0.47], [0.52, 0.0]]]), to_image)[0]
    (_, bottom), = cv2.perspectiveTransform(np.array([[[0.52, 1.0]]]), to_image)[0]
    radius = 0.07 * (bottom - top)
    for zone in zones.zones:
        if zone.kind != "gora":
            continue
        polygon = np.array(zone.polygon)
        nearest = np.hypot(polygon[:, 0] - cx, polygon[:, 1] - cy).min()
        assert nearest == pytest.approx(radius, abs=4.0)


@pytest.mark.parametrize("aspect", [3.05, 0.25])
def test_an_outline_no_sheet_could_have_is_no_sheet_not_a_crash(aspect: float) -> None:
    # layouts.py takes sheets 0.3 to 3 times as wide as tall (LAYOUT.md's sheets are about 1.4); an outline
    # outside that, with every fallback's values, is no pulka sheet: exit 3 with a message, no ValueError.
    from sheetscan.vision._layout_choice import layout_geometry

    layout = find_layout("standard-3")
    notes: list[str] = []
    with pytest.raises(NoSheetError, match="no pulka sheet") as caught:
        layout_geometry(layout, dataclasses.replace(layout.default, aspect=aspect), notes)
    assert caught.value.exit_code == 3
    # The usual proportions at an aspect inside the range still give the layout.
    assert layout_geometry(layout, dataclasses.replace(layout.default, aspect=2.9), []).zones
