"""The truth of the line trace's lookups (test_bend_tables, test_zone26_places_lookup): the ink at every
rounded place across a line, worked out place by place in plain Python."""

from __future__ import annotations

import numpy as np


def ink_by_hand(mask: np.ndarray, points: np.ndarray, normals: np.ndarray, search: float) -> np.ndarray:
    """For each point (N × 2, x y) and each whole offset within `search` along its normal, whether the rounded
    pixel there lies on `mask` and is ink (non-zero)."""
    height, width = mask.shape
    offsets = range(-int(search), int(search) + 1)
    out = np.zeros((len(points), len(offsets)), bool)
    for i, ((px, py), (nx, ny)) in enumerate(zip(points.tolist(), normals.tolist(), strict=True)):
        for j, o in enumerate(offsets):
            x, y = round(px + o * nx), round(py + o * ny)  # Python rounds halves to even, as numpy
            out[i, j] = 0 <= x < width and 0 <= y < height and mask[y, x] > 0
    return out
