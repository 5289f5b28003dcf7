"""Stage 3 on sheets drawn or photographed in styles past the usual: a fine pen's pale lines, a pen too
light for the brightest channel, the paper's own rulings as dark as the lines, and a far photo whose
outer rectangle stage 2 put on the paper's edge."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from _frames import blank_render
from synth_sheet import draw_sheet

from sheetscan.layouts import find_layout
from sheetscan.vision._frame_lines import line_contrast, lines_mask
from sheetscan.vision._layout_fit import measure
from sheetscan.vision._paper_lines import without_rulings
from sheetscan.vision.photo import load_photo
from sheetscan.vision.sheet import RectifiedSheet, find_sheet
from sheetscan.vision.zones import locate_zones, to_photo_points
from tests.vision._polygons import polygon_iou


def _ratio_with_frame(darkness: float | None) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A dark-ratio image of bare paper (1.0) with the outer rectangle drawn at `darkness` (None: none)."""
    ratio = np.ones((300, 400), np.float32)
    frame = (30.0, 30.0, 370.0, 270.0)
    if darkness is not None:
        cv2.rectangle(ratio, (30, 30), (370, 270), float(darkness), 2)
    return ratio, frame


def test_line_level_is_halfway_to_the_paper_for_a_pale_line() -> None:
    # A line keeping 0.88 of the paper's brightness on paper of 1.0: halfway is 0.94, and the line is in.
    ratio, frame = _ratio_with_frame(0.88)
    level = line_contrast(ratio, frame, band=4)
    assert level == pytest.approx(0.94, abs=1e-6)
    assert np.all(ratio[30, 40:360] < level)


def test_line_level_of_a_dark_line_and_of_no_line() -> None:
    # A dark pen (0.4): halfway to white paper, 0.7, as always. No line at all where the frame should
    # be: the level stays 0.85 and the paper is not ink.
    ratio, frame = _ratio_with_frame(0.4)
    assert line_contrast(ratio, frame, band=4) == pytest.approx(0.7, abs=1e-6)
    ratio, frame = _ratio_with_frame(None)
    assert line_contrast(ratio, frame, band=4) == pytest.approx(0.85, abs=1e-6)


def test_a_light_blue_pen_is_kept_though_the_brightest_channel_loses_it() -> None:
    # BGR (235, 200, 120) on grey 240 paper: the darkest channel sees half the paper's brightness, the
    # brightest 0.98 (nothing). The brightest channel shows less ink only because it lost the lines.
    image = np.full((300, 400, 3), 240, np.uint8)
    frame = (30.0, 30.0, 370.0, 270.0)
    for inset in (0, 40, 80):
        cv2.rectangle(image, (30 + inset, 30 + inset), (370 - inset, 270 - inset), (235, 200, 120), 3)
    mask, *_ = lines_mask(image, frame, 3.0, band=4)
    assert mask[30, 60:340].all() and mask[150, 70] and mask[150, 110]


def _ruled(mask_shape: tuple[int, int], *, period: int, hide_right_below: int | None = None
           ) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A line mask: the frame (margin 30), a rectangle inside it, and horizontal rulings `period` px
    apart running across the whole image; optionally the right margin "ink" from a row down (a table)."""
    h, w = mask_shape
    mask = np.zeros(mask_shape, np.uint8)
    frame = (30.0, 30.0, float(w - 30), float(h - 30))
    cv2.rectangle(mask, (30, 30), (w - 30, h - 30), 255, 2)
    cv2.rectangle(mask, (100, 112), (w - 100, h - 112), 255, 2)  # rows 112 and h - 112: between rulings
    for y in range(12, h, period):
        cv2.line(mask, (0, y), (w - 1, y + 3), 255, 2)  # slightly slanted, as a ruling under a crooked frame
    if hide_right_below is not None:
        mask[hide_right_below:, w - 25:] = 255
    return mask, frame


@pytest.mark.parametrize("hidden", [False, True])
def test_without_rulings_erases_the_papers_lines_and_keeps_the_drawn_ones(hidden: bool) -> None:
    mask, frame = _ruled((420, 500), period=40, hide_right_below=200 if hidden else None)
    clean = without_rulings(mask, frame, 4)
    # Ruling at row 12 + 40 k (+3 px over the width); between the drawn rectangle's sides nothing of it
    # is left but where a drawn vertical line crosses it.
    for y0 in range(132, 300, 40):
        for x in (200, 250, 300):
            y = round(y0 + 3 * x / 499)
            assert not clean[y - 2:y + 3, x].any(), (y0, x)
    # The drawn rectangle is whole: its horizontal sides, and its vertical sides unbroken.
    assert clean[112, 110:390].all() and clean[308, 110:390].all()
    assert clean[115:305, 100].all() and clean[115:305, 400].all()
    # The frame's sides too (a horizontal side ends at the frame: not a ruling).
    assert clean[30, 40:460].all() and clean[40:380, 30].all() and clean[390, 40:460].all()


def test_without_rulings_erases_rulings_seen_in_dashes() -> None:
    # A ruling as faint as the lines' level is seen in dashes (6 px of ink, 3 px of paper, over and
    # over: the grain and the JPEG's blocks take it in and out of the mask). It is still one straight
    # line across the whole paper, and goes; the drawn rectangle stays whole (squared paper, bench_styles
    # seed 16000 photo 3: the dashed grid crossed every whist band and read as spokes on every side).
    drawn, frame = _ruled((420, 500), period=10_000)  # (no ruling inside the image)
    rulings, _ = _ruled((420, 500), period=40)
    rulings[:, np.arange(500) % 9 >= 6] = 0
    mask = np.maximum(drawn, rulings)
    assert not mask[130:137, 204:207].any()  # the gaps are there
    clean = without_rulings(mask, frame, 4)
    for y0 in range(132, 300, 40):
        for x in (200, 250, 300):
            y = round(y0 + 3 * x / 499)
            assert not clean[y - 2:y + 3, x - 4:x + 5].any(), (y0, x)
    assert clean[112, 110:390].all() and clean[308, 110:390].all()
    assert clean[115:305, 100].all() and clean[115:305, 400].all()


def test_measure_sees_the_nested_rectangles_through_the_rulings() -> None:
    # Rulings every 40 px at the lines' own level: without them the first ruling inside the frame was
    # taken for the pulka rectangle's side.
    mask, frame = _ruled((420, 500), period=40)
    cv2.rectangle(mask, (150, 150), (350, 270), 255, 2)  # a third rectangle: the gora's
    m = measure(mask, frame)
    assert m.pulka_rect["top"] == pytest.approx(112, abs=2)
    assert m.gora_rect["top"] == pytest.approx(150, abs=2)
    assert m.pulka_rect["bottom"] == pytest.approx(308, abs=2)
    assert m.gora_rect["bottom"] == pytest.approx(270, abs=2)


@pytest.mark.parametrize("layout", ["standard-4", "standard-3"])
@pytest.mark.parametrize("rim", [40, 0])
def test_a_side_on_the_papers_edge_is_moved_onto_the_drawn_side(layout: str, rim: int) -> None:
    # Stage 2 took the paper's edge, `rim` px below the drawn frame, for the bottom side; beyond it lies
    # a dark table. The drawn side is the frame, and the zones are the drawn sheet's. (rim 0: the frame
    # drawn on the paper's very edge, where stage 2 put it, stays.)
    paper, _, to_paper = draw_sheet(layout, height=600, margin=40, thickness=3)
    w = paper.shape[1]
    drawn = cv2.perspectiveTransform(np.array([[[0, 0], [1, 1]]], np.float64), to_paper)[0]
    (left, top), (right, bottom) = drawn
    edge = round(bottom) + 2 + rim
    image = np.vstack([paper[:edge], np.full((50, w, 3), 70, np.uint8)])
    frame = (float(left), float(top), float(right), float(edge))
    sheet = RectifiedSheet(image=image, to_photo=np.eye(3), corners=np.zeros((4, 2)), source="drawn",
                           form=None, partial=False, frame=frame)
    zones = locate_zones(sheet)
    assert zones.layout == layout
    assert zones.frame[3] == pytest.approx(bottom, abs=3)
    geometry = find_layout(layout).geometry(None)
    for found, true in zip(zones.zones, geometry.zones, strict=True):
        got = to_photo_points(np.array(found.polygon), zones.to_photo)
        want = cv2.perspectiveTransform(np.array(true.polygon, np.float64)[None], to_paper)[0]
        assert float(np.hypot(*(got - want).T).max()) < 12  # 2 % of the 600 px sheet


@pytest.mark.slow
@pytest.mark.parametrize(("layout", "seed", "paper"),
                         [("standard-3", 4, "plain"), ("standard-4", 5, "lined"),
                          ("standard-4", 29, "plain")])
def test_a_sheet_drawn_with_a_fine_pen_is_read(layout: str, seed: int, paper: str) -> None:
    # The lines 0.4 as wide as usual (a fine liner, a hard pencil): pale once blurred, as pale as the
    # rulings of lined paper; seed 29's violet lines show in dashes in the brightest channel, the one
    # chosen. The renderer's truth says where the zones are.
    rendered = blank_render(layout, seed, line_scale=0.4)
    assert rendered.truth["render"]["paper"] == paper
    zones = locate_zones(find_sheet(load_photo(rendered.jpeg())))
    assert zones.layout == layout
    found = [to_photo_points(np.array(z.polygon), zones.to_photo) for z in zones.zones]
    true = [np.array(z["polygon"], np.float64) for z in rendered.truth["zones"]]
    players = zones.players
    shifts = range(4) if layout == "standard-4" else (0,)  # a standard-4 sheet is the same turned
    if layout == "standard-3":
        assert zones.rotation == rendered.truth["rotation"]
    best = max(float(np.mean([polygon_iou(found[((i // (players + 1) - s) % players) * (players + 1)
                                         + i % (players + 1)], polygon) for i, polygon in enumerate(true)]))
               for s in shifts)
    assert best > 0.9
