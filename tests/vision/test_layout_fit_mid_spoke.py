"""Stage 3's mid spoke: a three-player sheet's top spoke runs from the circle out to the frame, so only a
line across the pulka band that runs on across the whist band beside it is taken for one
(`_layout_fit.measure`); a digit across the pulka band alone is writing."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._layout_choice import choose_layout
from sheetscan.vision._layout_fit import measure

# A sheet in rectified pixels (the frame 1900 px: measure's min_gap is 38 px), with a narrow bottom
# pulka band, as drawn on bench_styles seed 35000, glare, photo 6.
_FRAME = (50, 50, 1950, 1950)
_PULKA = (350, 400, 1650, 1600)
_GORA = (580, 590, 1420, 1500)
_FRAME_PX = (50.0, 50.0, 1950.0, 1950.0)


def _rectangles() -> np.ndarray:
    """The three rectangles and the circle, solid and 4 px wide."""
    mask = np.zeros((2000, 2000), np.uint8)
    for left, top, right, bottom in (_FRAME, _PULKA, _GORA):
        cv2.rectangle(mask, (left, top), (right, bottom), 255, 4)
    cv2.circle(mask, ((_GORA[0] + _GORA[2]) // 2, (_GORA[1] + _GORA[3]) // 2), 95, 255, 4)
    return mask


def _diagonal(mask: np.ndarray, corner: str) -> None:
    """The spoke at `corner` ("TL", ...) across the pulka band, gora corner to pulka corner."""
    sx = 0 if corner[1] == "L" else 2
    sy = 1 if corner[0] == "T" else 3
    cv2.line(mask, (_GORA[sx], _GORA[sy]), (_PULKA[sx], _PULKA[sy]), 255, 4)


def _four_player_sheet_with_a_one_across_the_bottom_band() -> np.ndarray:
    """A standard-4 sheet: two splits across every whist band, three corners' spokes (the bottom-left
    one washed out by a glare), and a "1" written across the narrow bottom pulka band."""
    mask = _rectangles()
    for corner in ("TL", "TR", "BR"):
        _diagonal(mask, corner)
    for at in (800, 1200):
        cv2.line(mask, (at, _FRAME[1]), (at, _PULKA[1]), 255, 4)  # top band
        cv2.line(mask, (at, _PULKA[3]), (at, _FRAME[3]), 255, 4)  # bottom band
        cv2.line(mask, (_FRAME[0], at), (_PULKA[0], at), 255, 4)  # left band
        cv2.line(mask, (_PULKA[2], at), (_FRAME[2], at), 255, 4)  # right band
    one = 1050  # a digit's stroke across the band's depth (100 px), and no line across the whist band
    cv2.line(mask, (one, _GORA[3] + 2), (one + 6, _PULKA[3] - 2), 255, 4)
    return mask


def test_a_digit_across_the_pulka_band_alone_is_no_mid_spoke() -> None:
    m = measure(_four_player_sheet_with_a_one_across_the_bottom_band(), _FRAME_PX)
    assert m.mid_spoke["bottom"] == 0.0
    layout, _, _, _ = choose_layout(m, None)
    assert layout.name == "standard-4"


def test_a_spoke_running_on_across_the_whist_band_is_a_mid_spoke() -> None:
    # Control: a standard-3 sheet's top spoke (here across the bottom bands: the sheet upside down).
    mask = _rectangles()
    for corner in ("TL", "TR"):
        _diagonal(mask, corner)
    mid = 1000
    cv2.line(mask, (mid, _GORA[3]), (mid + 8, _FRAME[3]), 255, 4)
    m = measure(mask, _FRAME_PX)
    assert m.mid_spoke["bottom"] == 1.0
    layout, k, _, _ = choose_layout(m, None)
    assert (layout.name, k) == ("standard-3", 2)
