"""Stage 2 on squared paper: where the outline chosen has the table beyond a side, the search is made again
with the grid divided out (`_frame_search.find_drawn_frame`, `_grid_flat.grid_free`), and a whole outline
found there with paper beyond every side, lying over the first and not alike it, is the frame.

A synthetic 600 × 600 preview (ratios as `dark_ratio` gives them: 1 = paper, the table 0.3 round it): the
paper 40..560, a grid every 12 px at 0.88 of the paper, darker (0.6) in a strip along the paper's left edge
(where the light falls off the grid shows as a mesh), and a frame 150..470 × 130..490 at 0.7 whose left
side lies in that strip. At the usual levels the frame and the mesh join, and the outline closed round them
runs along the paper's edges. (The rendered case: bench_styles seed 43000, photo 6, in usual, thin, small,
dark and steep: a faint frame on pink squared paper, 210-466 px off.)
"""
from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._arrays import F64, U8
from sheetscan.vision._frame_search import find_drawn_frame

SIZE = 600
_PAPER = (40, 560)
_PITCH = 12
_GRID = 0.88
_TABLE = 0.3
FRAME = np.array([[150, 130], [470, 130], [470, 490], [150, 490]], np.float64)


def _preview(frame: F64, *, mesh_to: int, frame_ink: float) -> tuple[U8, dict[str, np.ndarray]]:
    """The pooled preview (BGR: the paper bright on a dark table) and the ratios by channel, the grid
    darker (0.6) left of `mesh_to`."""
    start, end = _PAPER
    grey = np.full((SIZE, SIZE), 60, np.uint8)
    grey[start:end, start:end] = 230
    ratios = {channel: np.full((SIZE, SIZE), _TABLE, np.float32) for channel in ("min", "max")}
    for ratio in ratios.values():
        ratio[start:end, start:end] = 1.0
        for v in range(start + 6, end - 4, _PITCH):
            ratio[v, start:end] = _GRID
            ratio[start:end, v] = _GRID
            ratio[v, start:mesh_to] = 0.6
            if v < mesh_to:
                ratio[start:end, v] = 0.6
        cv2.polylines(ratio, [frame.astype(np.int32)], True, frame_ink, 2)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), ratios


def _error(quad: F64, frame: F64) -> float:
    """The worst corner's distance (px) from the drawn frame's, the corners taken in any rotation."""
    return min(float(np.hypot(*(np.roll(quad, k, axis=0) - frame).T).max()) for k in range(4))


def test_a_frame_joined_to_the_grid_along_the_paper_edge_is_found_with_the_grid_divided_out() -> None:
    pooled, ratios = _preview(FRAME, mesh_to=200, frame_ink=0.7)
    chosen, _ = find_drawn_frame(pooled, ratios.__getitem__, line_width=3.0)
    assert chosen is not None
    # Without it the outline closed along the paper's edges round the frame and the mesh (122 px off).
    assert _error(chosen[0].quad, FRAME) < 4.0


def test_a_frame_drawn_near_the_paper_edge_is_kept() -> None:
    # A dark frame whose left side runs 8 px inside the paper's edge (the table beyond it), on an even
    # grid: the search with the grid divided out finds it again alike, and it stays the sheet.
    frame = np.array([[48, 130], [470, 130], [470, 490], [48, 490]], np.float64)
    pooled, ratios = _preview(frame, mesh_to=0, frame_ink=0.5)
    chosen, _ = find_drawn_frame(pooled, ratios.__getitem__, line_width=3.0)
    assert chosen is not None
    assert _error(chosen[0].quad, frame) < 4.0
