"""Axis-aligned boxes for matching what was read with what the truth file says was written.

Used by the end-to-end tests (tests/vision/test_scan.py), the reading benchmark (bench/bench_scan.py)
and the training-crop harvester (tools/pipeline_crops.py), so that all of them match alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Box = tuple[float, float, float, float]
"""(left, top, right, bottom)."""


def box_of(points: Any) -> Box:
    """The box around a list of (x, y) points (a quad, a polygon)."""
    array = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return (float(array[:, 0].min()), float(array[:, 1].min()), float(array[:, 0].max()),
            float(array[:, 1].max()))


def area(box: Box) -> float:
    """The box's area (0 for an empty box)."""
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def intersection(a: Box, b: Box) -> float:
    """The area the two boxes share."""
    return area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def overlap(a: Box, b: Box) -> float:
    """Intersection over the smaller box's area: 1 when one box lies inside the other."""
    return intersection(a, b) / max(min(area(a), area(b)), 1e-9)
