"""Stage 3 on squared paper whose grid the ruling eraser left: the grid's lines, seen at one pitch across
the whist bands, are not taken for the spokes (`_layout_fit.measure`), so a standard-3 sheet drawn on it
is still read as one."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._layout_choice import choose_layout
from sheetscan.vision._layout_fit import measure

# A standard-3 sheet in rectified pixels (the frame 1900 px tall: measure's slack is 11 px), its mid
# spoke across the bottom band and its diagonals at the top corners.
_FRAME = (50, 50, 1950, 1950)
_PULKA = (350, 400, 1650, 1600)
_GORA = (580, 590, 1420, 1400)
_FRAME_PX = (50.0, 50.0, 1950.0, 1950.0)
_PITCH = 45


def _sheet() -> np.ndarray:
    """The sheet's lines, solid and 4 px wide."""
    mask = np.zeros((2000, 2000), np.uint8)
    for left, top, right, bottom in (_FRAME, _PULKA, _GORA):
        cv2.rectangle(mask, (left, top), (right, bottom), 255, 4)
    cv2.circle(mask, ((_GORA[0] + _GORA[2]) // 2, (_GORA[1] + _GORA[3]) // 2), 95, 255, 4)
    mid = (_PULKA[0] + _PULKA[2]) // 2
    cv2.line(mask, (mid, _GORA[3]), (mid, _PULKA[3]), 255, 4)
    cv2.line(mask, (mid, _PULKA[3]), (mid, _FRAME[3]), 255, 4)
    cv2.line(mask, (_GORA[0], _GORA[1]), (_PULKA[0], _PULKA[1]), 255, 4)
    cv2.line(mask, (_GORA[2], _GORA[1]), (_PULKA[2], _PULKA[1]), 255, 4)
    return mask


def _dashed_grid(on: int, off: int) -> np.ndarray:
    """A squared paper's grid inside the frame only (so the margin strips show none of it), each line
    2 px wide and seen in dashes `on` px long, `off` px apart: printed lines faint at the lines' level."""
    grid = np.zeros((2000, 2000), np.uint8)
    lo, hi = _FRAME[0] + 20, _FRAME[2] - 20
    for v in range(lo, hi, _PITCH):
        for s in range(lo, hi, on + off):
            cv2.line(grid, (v, s), (v, min(hi, s + on - 1)), 255, 2)
            cv2.line(grid, (s, v), (min(hi, s + on - 1), v), 255, 2)
    return grid


def test_a_dashed_grid_left_by_the_eraser_is_not_read_as_spokes() -> None:
    # The grid's dashes, joined by the slack, crossed every band and filled every corner: mid spokes on
    # all four sides and four "diagonals", read as standard-4 (bench_styles seed 33000, photo 1).
    m = measure(np.maximum(_sheet(), _dashed_grid(6, 6)), _FRAME_PX)
    assert m.mid_spoke["left"] == 0.0 and m.mid_spoke["right"] == 0.0 and m.mid_spoke["top"] == 0.0
    assert m.corner_spoke["BL"] < 0.9 and m.corner_spoke["BR"] < 0.9
    layout, _, _, _ = choose_layout(m, None)
    assert layout.name == "standard-3"


def test_the_drawn_spokes_are_still_seen_on_the_grid() -> None:
    # Control: the sheet's own solid spokes stay whole when looked for without the slack.
    m = measure(np.maximum(_sheet(), _dashed_grid(6, 6)), _FRAME_PX)
    assert m.mid_spoke["bottom"] == 1.0
    assert m.corner_spoke["TL"] >= 0.9 and m.corner_spoke["TR"] >= 0.9
