"""Stage 2: an outline closed by the paper's edges and a drawn line slanting across the sheet is no frame
(synthetic masks and grey images, 1000 × 750, as the preview sees them)."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._drawn_frame import frame_candidates

_SHAPE = (750, 1000)
_PAPER, _INK = 225, 90


def _outline(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A 3 px outline on bare paper: its ink mask and the grey image."""
    mask = np.zeros(_SHAPE, np.uint8)
    cv2.polylines(mask, [np.round(quad).astype(np.int32)], True, 255, 3)
    grey = np.where(mask > 0, _INK, _PAPER).astype(np.uint8)
    return mask, grey


def test_a_sliver_closed_by_a_diagonal_is_not_a_frame() -> None:
    # As bench_styles seed 16000, small, photo 0, with the frame placed low on squared paper: at one
    # level the paper's left and bottom edges and the two spokes meeting at the circle (one straight
    # line from the paper's top-left corner to the frame's bottom-right one) close an outline whose
    # corners are 38, 138, 95 and 89 degrees; fully drawn and seen at that level only,
    # it was taken for the frame (corners 2086 px off). No photographed rectangle has a 38 degree corner.
    sliver = np.array([[204.0, 100.0], [666.0, 647.0], [665.0, 686.0], [224.0, 709.0]])
    mask, grey = _outline(sliver)
    assert not frame_candidates(mask, grey)


def test_a_rectangle_photographed_steeply_is_still_a_frame() -> None:
    # A frame seen from 40 degrees off the perpendicular: its far side 0.6 of the near one, corners of
    # 70 and 110 degrees (the steepest the renderer photographs, bench_styles steep, 50 degrees, gave
    # corners within 30 degrees of right).
    quad = np.array([[330.0, 150.0], [670.0, 150.0], [850.0, 640.0], [150.0, 640.0]])
    mask, grey = _outline(quad)
    found = frame_candidates(mask, grey)
    assert found
    assert float(np.abs(found[0][0].quad - quad).max()) < 6.0
