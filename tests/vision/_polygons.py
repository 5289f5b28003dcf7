"""Polygons compared by area: how well a zone found matches the truth's."""

from __future__ import annotations

import cv2
import numpy as np


def polygon_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two polygons (N × 2 points), rasterised at 1 px."""
    x0, y0 = np.floor(np.minimum(a.min(0), b.min(0))).astype(int)
    x1, y1 = np.ceil(np.maximum(a.max(0), b.max(0))).astype(int)
    ca = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    cb = np.zeros_like(ca)
    cv2.fillPoly(ca, [np.round(a - [x0, y0]).astype(np.int32)], 1)
    cv2.fillPoly(cb, [np.round(b - [x0, y0]).astype(np.int32)], 1)
    return float((ca & cb).sum()) / max(1, int((ca | cb).sum()))
