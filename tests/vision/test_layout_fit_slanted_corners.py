"""Stage 3 on a hand-drawn sheet whose rectangles' sides lean: a corner's diagonal drawn where the leaning
sides meet, off the corner that the sides measured along the sheet's middle make, is still seen
(`_layout_fit.measure`'s corner spokes); a bare corner's grid mesh is not taken for one."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._layout_choice import choose_layout
from sheetscan.vision._layout_fit import measure

# A standard-4 sheet in rectified pixels (the frame 1900 px tall: measure's slack is 11 px). The left
# sides of both rectangles lean: 40 px right of their middle at the top, 40 px left of it at the bottom.
_FRAME = (50, 50, 1950, 1950)
_PULKA = (350, 400, 1600, 1540)
_GORA = (580, 590, 1410, 1310)
_FRAME_PX = (50.0, 50.0, 1950.0, 1950.0)
_LEAN = 40


def _corners(rect: tuple[int, int, int, int]) -> dict[str, tuple[int, int]]:
    """The drawn corners of a rectangle whose left side leans by `_LEAN` each way of its middle."""
    left, top, right, bottom = rect
    return {"TL": (left + _LEAN, top), "TR": (right, top), "BR": (right, bottom),
            "BL": (left - _LEAN, bottom)}


def _sheet(diagonals: tuple[str, ...]) -> np.ndarray:
    """The sheet's lines, solid and 4 px wide, with the corner diagonals `diagonals` drawn between the
    rectangles' drawn corners."""
    mask = np.zeros((2000, 2000), np.uint8)
    cv2.rectangle(mask, _FRAME[:2], _FRAME[2:], 255, 4)
    for rect in (_PULKA, _GORA):
        c = _corners(rect)
        for a, b in (("TL", "TR"), ("TR", "BR"), ("BR", "BL"), ("BL", "TL")):
            cv2.line(mask, c[a], c[b], 255, 4)
    cx, cy = (_GORA[0] + _GORA[2]) // 2, (_GORA[1] + _GORA[3]) // 2
    cv2.circle(mask, (cx, cy), 95, 255, 4)
    outer, inner = _corners(_PULKA), _corners(_GORA)
    for corner in diagonals:
        cv2.line(mask, inner[corner], outer[corner], 255, 4)
    return mask


def test_diagonals_drawn_at_leaning_sides_corners_are_seen() -> None:
    # The left corners measured from the sides' middles lie 40 px right of the drawn ones: looked for
    # there alone, the diagonals were seen along none of their length, and the sheet read as a
    # standard-3 one (bench_styles seed 36000, usual and thin, photo 2).
    m = measure(_sheet(("TL", "TR", "BR", "BL")), _FRAME_PX)
    assert m.corner_spoke["TL"] >= 0.9 and m.corner_spoke["BL"] >= 0.9
    layout, _, _, _ = choose_layout(m, None)
    assert layout.name == "standard-4"


def test_a_bare_corners_grid_mesh_is_no_diagonal() -> None:
    # Control: a grid's mesh (47 px apart, fine lines, inside the pulka band only so it is not erased
    # as the paper's) fills the bare top-left corner; a diagonal moved about in it is not seen whole.
    mask = _sheet(("BR", "BL"))
    band = np.zeros_like(mask)
    for v in range(_FRAME[0] + 10, _GORA[0] + 100, 47):
        cv2.line(band, (v, _FRAME[1] + 10), (v, _GORA[1] + 100), 255, 2)
    for v in range(_FRAME[1] + 10, _GORA[1] + 100, 47):
        cv2.line(band, (_FRAME[0] + 10, v), (_GORA[0] + 100, v), 255, 2)
    m = measure(np.maximum(mask, band), _FRAME_PX)
    assert m.corner_spoke["TL"] < 0.9
