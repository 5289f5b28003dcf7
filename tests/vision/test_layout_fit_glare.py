"""Stage 3 where glare washes out the lines across the middle of the sheet: a side whose rectangles'
sides show only beyond the middle columns `measure` looks along is looked at along its middle 0.7.

A synthetic line mask in rectified pixels: the frame 1300 × 1900 px (slack 11 px, a line must run 95 px;
the middle columns looked along are x 440-960, the wide ones x 245-1155, and a line must show along 0.3
of them: 156 and 273 px).
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._layout_fit import measure

_FRAME = (50, 50, 1350, 1950)
_PULKA = (265, 235, 1095, 1718)
_GORA = (300, 315, 1060, 1615)


def _mask() -> np.ndarray:
    mask = np.zeros((2000, 1400), np.uint8)
    for left, top, right, bottom in (_FRAME, _PULKA, _GORA):
        cv2.rectangle(mask, (left, top), (right, bottom), 255, 4)
    return mask


def test_rectangles_sides_seen_only_beyond_a_washed_out_middle_are_found() -> None:
    mask = _mask()
    # The glare: nothing left of the lines from x 470 to 930 below y 1400. Of the bottom sides, 60 px
    # show within the middle columns (30 each end), under 0.3 and 0.15 of them (156, 78); within the
    # wide ones the pulka's 205 + 165 = 370 px and the gora's 170 + 130 = 300 px, over 273.
    mask[1400:1960, 470:930] = 0
    measured = measure(mask, (50.0, 50.0, 1350.0, 1950.0))
    assert measured.pulka_rect["bottom"] is not None and abs(measured.pulka_rect["bottom"] - _PULKA[3]) <= 3
    assert measured.gora_rect["bottom"] is not None and abs(measured.gora_rect["bottom"] - _GORA[3]) <= 3
    # The other sides, seen in the middle as before.
    assert measured.pulka_rect["top"] is not None and abs(measured.pulka_rect["top"] - _PULKA[1]) <= 3


def test_a_narrower_gora_side_beyond_the_glare_is_seen_along_half_the_share() -> None:
    # A gora rectangle 690 px wide (x 340-1030): beyond the same glare 130 + 100 = 230 px of its
    # bottom side show in the wide columns (about 250 bridged), under 0.3 of them (273), over the
    # second look's 0.15 (each piece longer than a line's 95 px).
    mask = _mask()
    cv2.rectangle(mask, (_GORA[0], _GORA[1]), (_GORA[2], _GORA[3]), 0, 4)
    cv2.rectangle(mask, (340, _GORA[1]), (1030, _GORA[3]), 255, 4)
    mask[1400:1960, 470:930] = 0
    measured = measure(mask, (50.0, 50.0, 1350.0, 1950.0))
    assert measured.pulka_rect["bottom"] is not None and abs(measured.pulka_rect["bottom"] - _PULKA[3]) <= 3
    assert measured.gora_rect["bottom"] is not None and abs(measured.gora_rect["bottom"] - _GORA[3]) <= 3


def test_a_side_without_rectangles_sides_stays_without_them() -> None:
    # The same sheet with the bottom sides of both rectangles gone: the wide look finds nothing there.
    mask = _mask()
    mask[1600:1730, 280:1080] = 0
    mask[1400:1960, 470:930] = 0
    measured = measure(mask, (50.0, 50.0, 1350.0, 1950.0))
    assert measured.pulka_rect["bottom"] is None and measured.gora_rect["bottom"] is None
