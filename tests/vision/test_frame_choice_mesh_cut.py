"""Stage 2: a bigger outline that differs from the frame by a part closed off along the frame's side is
not the sheet where that part is the paper's grid seen as a mesh (`_frame_choice._mesh_cut_off`), and is
where it is bare paper between rulings (synthetic masks, 800 × 600, as the preview sees them).

The rendered cases behind them: bench_styles seed 32000, steep, photo 1 (squared paper; the frame's top
and bottom sides run on along the grid to where the grid fades, 308 px off) and seed 26000, usual and
steep, photo 6 (lined paper; a whist band cut off by the pulka rectangle's side).
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._frame_choice import _mesh_cut_off, choose_frame
from sheetscan.vision._quad import FrameCandidate, quad_area

_SHAPE = (600, 800)
_FRAME = np.array([[100.0, 100.0], [500.0, 100.0], [500.0, 400.0], [100.0, 400.0]])
# The frame's top and bottom sides run on to x = 600, where a line parallel to its right side closes
# the bigger outline.
_BIGGER = np.array([[100.0, 100.0], [600.0, 100.0], [600.0, 400.0], [100.0, 400.0]])


def _masks(pitch: tuple[int, int] | None, rulings: int) -> tuple[np.ndarray, np.ndarray]:
    """The ink the frame is seen in (its own lines), and the ink of the level the bigger outline is seen
    at: its lines and, between the frame's right side and its own, a grid with vertical and horizontal
    lines every `pitch` px (None: none) and horizontal rulings every `rulings` px (0: none)."""
    own = np.zeros(_SHAPE, np.uint8)
    cv2.polylines(own, [np.round(_FRAME).astype(np.int32)], True, 255, 3)
    outer = own.copy()
    cv2.polylines(outer, [np.round(_BIGGER).astype(np.int32)], True, 255, 3)
    if pitch is not None:
        for x in range(500, 600, pitch[0]):
            cv2.line(outer, (x, 100), (x, 400), 255, 1)
        for y in range(100, 400, pitch[1]):
            cv2.line(outer, (500, y), (600, y), 255, 1)
    if rulings:
        for y in range(100, 400, rulings):
            cv2.line(outer, (500, y), (600, y), 255, 1)
    return own, outer


def _choose(own: np.ndarray, outer: np.ndarray) -> np.ndarray:
    candidates = [(FrameCandidate(_FRAME, 1.0, quad_area(_FRAME), ()), own),
                  (FrameCandidate(_BIGGER, 1.0, quad_area(_BIGGER), ()), outer)]
    paper = np.full(_SHAPE, 210, np.uint8)  # paper beyond both outlines' right sides
    return choose_frame(candidates, paper)[0].quad


def test_an_outline_closed_over_the_grid_is_not_the_frame() -> None:
    # The part past the frame's right side is the grid at a 10 px pitch (under `bare_share`'s reach of
    # 1.5 % of the outline's size, 5.8 px, from a line everywhere): the grid lines "bridge" the frame's
    # corners to the bigger outline's, which was taken by the chord rule.
    own, outer = _masks((10, 10), 0)
    assert _mesh_cut_off(_FRAME, (FrameCandidate(_BIGGER, 1.0, quad_area(_BIGGER), ()), outer))
    assert np.array_equal(_choose(own, outer), _FRAME)


def test_an_outline_closed_over_a_whist_band_on_lined_paper_is_the_frame() -> None:
    # The same outlines with only rulings (20 px apart) in the part cut off: bare paper between them, a
    # whist band of the frame cut off by a line across it, so the bigger outline is the frame.
    own, outer = _masks(None, 20)
    assert not _mesh_cut_off(_FRAME, (FrameCandidate(_BIGGER, 1.0, quad_area(_BIGGER), ()), outer))
    assert np.array_equal(_choose(own, outer), _BIGGER)
