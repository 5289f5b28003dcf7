"""Stage 3's mid spoke: a three-player sheet's top spoke runs from the circle out to the frame, so a line
across the pulka band that runs on across the whist band beside it is taken for a whole one, and a line
across the pulka band alone (a digit, or a spoke whose outer part is not seen) for half of one, its place
kept (`_layout_fit.measure`)."""

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


def test_a_digit_across_the_pulka_band_alone_is_half_a_mid_spoke() -> None:
    # Taken for a whole spoke, it outweighed the three corners' spokes and the splits of every band:
    # standard-3 (bench_styles seed 35000, glare, photo 6). As half of one, the splits settle the tie.
    m = measure(_four_player_sheet_with_a_one_across_the_bottom_band(), _FRAME_PX)
    assert m.mid_spoke["bottom"] == 0.5
    layout, _, _, _ = choose_layout(m, None)
    assert layout.name == "standard-4"


def _three_player_sheet_upside_down(outer_part: bool) -> np.ndarray:
    """A standard-3 sheet turned 180 degrees: spokes at the top corners, and the mid spoke across the
    bottom pulka band at x = 1000 and (`outer_part`) on across the whist band to the frame."""
    mask = _rectangles()
    for corner in ("TL", "TR"):
        _diagonal(mask, corner)
    cv2.line(mask, (1000, _GORA[3]), (1004, _PULKA[3]), 255, 4)
    if outer_part:
        cv2.line(mask, (1004, _PULKA[3]), (1008, _FRAME[3]), 255, 4)
    return mask


def test_a_spoke_running_on_across_the_whist_band_is_a_mid_spoke() -> None:
    m = measure(_three_player_sheet_upside_down(True), _FRAME_PX)
    assert m.mid_spoke["bottom"] == 1.0
    layout, k, _, _ = choose_layout(m, None)
    assert (layout.name, k) == ("standard-3", 2)


def test_a_spoke_whose_outer_part_is_not_seen_keeps_its_place() -> None:
    # Lined paper, seed 28000 photo 3: the spoke's outer part not found across the whist band. Its place
    # still gives the top split; the corners still tell the layout and its turn.
    m = measure(_three_player_sheet_upside_down(False), _FRAME_PX)
    assert m.mid_spoke["bottom"] == 0.5
    assert abs(m.mid_spoke_at["bottom"] - 1002) <= 10  # (the line as thickened by the slack)
    layout, k, _, _ = choose_layout(m, None)
    assert (layout.name, k) == ("standard-3", 2)
