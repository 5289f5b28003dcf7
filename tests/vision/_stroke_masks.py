"""Small masks of pen strokes for the strike tests: digits 30 px tall (`HEIGHT`), strokes 2 px wide."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision import _group, _strikes

HEIGHT = 30  # the digit height of every mask: strokes from y = 10 to y = 40

Stroke = tuple[tuple[int, int], tuple[int, int]]


def stroke_mask(strokes: list[Stroke]) -> np.ndarray:
    """A 60 x 90 mask with each stroke drawn 2 px wide."""
    mask = np.zeros((60, 90), np.uint8)
    for start, end in strokes:
        cv2.line(mask, start, end, 255, 2)
    return mask


def strikes_in(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The long strikes `find_strikes` finds in `mask` (its blobs, `HEIGHT`, a 2 px pen)."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    return _strikes.find_strikes(mask, _group.blobs_of(stats), height=HEIGHT, stroke=2)
