"""Stage 2: a crowded whole outline with the paper's printed grid inside it is not the sheet where a whole
outline without the grid inside crosses it (`_frame_choice._crosses_mesh`): that one is the frame, seen
where the grid drops out (synthetic masks, 1000 × 750, as the preview sees them).

The rendered case behind it: bench_styles seed 33000, glare, photo 1 (squared paper; the frame drawn whole
at one level, and at a fainter one the grid as a mesh, closed where the glare cuts it off into an outline
bigger than the frame that the frame's top-right corner reaches out of: 511 px off).
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._frame_choice import choose_frame
from sheetscan.vision._quad import FrameCandidate, quad_area

_SHAPE = (750, 1000)
_FRAME = np.array([[150.0, 150.0], [800.0, 120.0], [820.0, 600.0], [170.0, 620.0]])
# The mesh's outline: bigger than the frame, its right side cut short so that the frame's right
# corners lie 30 px outside it.
_MESH = np.array([[80.0, 80.0], [770.0, 60.0], [790.0, 680.0], [100.0, 700.0]])


def _frame_ink() -> np.ndarray:
    """The frame's own lines, a rectangle inside it and two lines of writing: a drawn sheet's ink."""
    ink = np.zeros(_SHAPE, np.uint8)
    cv2.polylines(ink, [np.round(_FRAME).astype(np.int32)], True, 255, 3)
    inner = _FRAME.mean(axis=0) + 0.5 * (_FRAME - _FRAME.mean(axis=0))
    cv2.polylines(ink, [np.round(inner).astype(np.int32)], True, 255, 3)
    cv2.line(ink, (250, 250), (400, 247), 255, 4)
    cv2.line(ink, (560, 480), (700, 478), 255, 4)
    return ink


def _mesh_ink(pitch: int | None) -> np.ndarray:
    """The fainter level's ink: the frame's, the mesh outline's sides and, inside it, grid lines every
    `pitch` px both ways (None: writing in place of a grid, short strokes at no one pitch)."""
    ink = _frame_ink()
    cv2.polylines(ink, [np.round(_MESH).astype(np.int32)], True, 255, 3)
    inside = np.zeros(_SHAPE, np.uint8)
    cv2.fillPoly(inside, [np.round(_MESH).astype(np.int32)], 255)
    lines = np.zeros(_SHAPE, np.uint8)
    if pitch is not None:
        for x in range(0, _SHAPE[1], pitch):
            cv2.line(lines, (x, 0), (x, _SHAPE[0]), 255, 3)
        for y in range(0, _SHAPE[0], pitch):
            cv2.line(lines, (0, y), (_SHAPE[1], y), 255, 3)
    else:
        rng = np.random.default_rng(5)
        for _ in range(400):
            x, y = int(rng.integers(100, 760)), int(rng.integers(100, 680))
            cv2.line(lines, (x, y), (x + int(rng.integers(8, 30)), y + int(rng.integers(-12, 12))), 255, 3)
    return np.asarray(np.maximum(ink, cv2.bitwise_and(lines, inside)), np.uint8)


def _candidates(pitch: int | None) -> list[tuple[FrameCandidate, np.ndarray]]:
    frame = FrameCandidate(quad=_FRAME, coverage=1.0, area=quad_area(_FRAME), touches=())
    mesh = FrameCandidate(quad=_MESH, coverage=1.0, area=quad_area(_MESH), touches=(), crowded=True)
    return [(mesh, _mesh_ink(pitch)), (frame, _frame_ink())]


def test_the_frame_crossing_the_grids_mesh_is_chosen() -> None:
    chosen = choose_frame(_candidates(24))
    assert np.allclose(chosen[0].quad, _FRAME)


def test_a_crowded_outline_of_writing_is_kept() -> None:
    # Crowded by writing, no grid inside: the rule does not apply, and the bigger outline is kept as before.
    chosen = choose_frame(_candidates(None))
    assert np.allclose(chosen[0].quad, _MESH)
