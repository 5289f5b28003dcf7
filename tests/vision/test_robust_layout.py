"""Stage 3 on sheets unlike the usual ones: wide whist bands, a side of the gora rectangle not seen."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._layout_choice import choose_layout
from sheetscan.vision._layout_fit import Measured, measure

# A standard-4 sheet in rectified pixels whose whist bands are wide: the pulka rectangle's top side lies
# 0.3 of the way down the frame, where the search for a mid-edge spoke across the side bands begins.
_FRAME = (50, 50, 1950, 1482)
_PULKA = (345, 482, 1591, 1109)
_GORA = (430, 601, 1501, 960)
_FRAME_PX = (50.0, 50.0, 1950.0, 1482.0)


def _corners(rect: tuple[int, int, int, int]) -> list[tuple[int, int]]:
    left, top, right, bottom = rect
    return [(left, top), (right, top), (right, bottom), (left, bottom)]


def _standard_4_mask() -> np.ndarray:
    mask = np.zeros((1532, 2000), np.uint8)
    for rect in (_FRAME, _PULKA, _GORA):
        cv2.rectangle(mask, rect[:2], rect[2:], 255, 5)
    for outer, inner in zip(_corners(_FRAME), _corners(_GORA), strict=True):
        cv2.line(mask, outer, inner, 255, 5)  # the four corner spokes
    cv2.circle(mask, ((_GORA[0] + _GORA[2]) // 2, (_GORA[1] + _GORA[3]) // 2), 70, 255, 5)
    left, top, right, bottom = _FRAME
    for x in (700, 1250):  # two whist splits across each band
        cv2.line(mask, (x, top), (x, _PULKA[1]), 255, 5)
        cv2.line(mask, (x, _PULKA[3]), (x, bottom), 255, 5)
    for y in (700, 900):
        cv2.line(mask, (left, y), (_PULKA[0], y), 255, 5)
        cv2.line(mask, (_PULKA[2], y), (right, y), 255, 5)
    return mask


def test_a_rectangles_side_across_the_pulka_band_is_not_a_mid_spoke() -> None:
    # Standard-4 has no mid-edge spoke; the pulka rectangle's top and bottom sides run across the left
    # and right pulka bands at their ends, within the search for one.
    measured = measure(_standard_4_mask(), _FRAME_PX)
    assert measured.mid_spoke == {"left": 0.0, "top": 0.0, "right": 0.0, "bottom": 0.0}
    assert min(measured.corner_spoke.values()) > 0.9
    assert choose_layout(measured, None)[0].name == "standard-4"


def test_spokes_not_looked_for_do_not_count_as_missing() -> None:
    # The same standard-4 sheet drawn freehand: its gora rectangle's left side wanders and is not
    # found, so the TL and BL spokes and the left mid spoke cannot be looked for. What is seen (spokes
    # at TR and BR, no mid spoke on the other three sides, two whist splits across the right and bottom
    # bands) fits a standard-4 sheet; a standard-3 sheet with its top on the left fits the spokes as
    # well, but would have one split across the bottom band (here the right one), none across the side
    # bands (here top and bottom).
    pulka: dict[str, float | None] = dict(zip(("left", "top", "right", "bottom"), (float(v) for v in _PULKA),
                                              strict=True))
    gora: dict[str, float | None] = dict(zip(("left", "top", "right", "bottom"),
                                             (None, *(float(v) for v in _GORA[1:])), strict=True))
    measured = Measured(
        frame=_FRAME_PX,
        drawn_frame=_FRAME_PX,
        pulka_rect=pulka,
        gora_rect=gora,
        circle=None,
        mid_spoke={"left": 0.0, "top": 0.0, "right": 0.0, "bottom": 0.0},
        mid_spoke_at={"left": 766.0, "top": 1000.0, "right": 766.0, "bottom": 1000.0},
        corner_spoke={"TL": 0.0, "TR": 1.0, "BR": 1.0, "BL": 0.0},
        whist_splits={"left": (700.0,), "top": (1250.0,), "right": (700.0, 900.0), "bottom": (700.0, 1250.0)},
    )
    layout, _, certain, _ = choose_layout(measured, None)
    assert layout.name == "standard-4" and not certain


def test_a_rectangles_side_seen_in_dashes_is_still_measured() -> None:
    # A pale pencil side breaks into dashes at the lines' level: the pulka rectangle's right side shows
    # along one 110 px stretch of the middle rows (0.3-0.7 of the frame's height, 573 px: 0.19 of them).
    mask = _standard_4_mask()
    _, top, right, bottom = _PULKA
    cv2.line(mask, (right, top + 3), (right, bottom - 3), 0, 7)
    cv2.line(mask, (right, 700), (right, 810), 255, 5)
    measured = measure(mask, _FRAME_PX)
    assert measured.pulka_rect["right"] is not None and abs(measured.pulka_rect["right"] - right) <= 3
    assert measured.gora_rect["right"] is not None and abs(measured.gora_rect["right"] - _GORA[2]) <= 3
