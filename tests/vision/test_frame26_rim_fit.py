"""`_quad.refine_quad` with the photo's grey: a side of a drawn frame seen only in dots is fitted to its own
dots, not to the table's rim a few px outside it (the paper's edge, with the table beyond)."""
from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._quad import refine_quad

_PAPER, _TABLE = 200, 60  # grey levels of the paper and of the dark table round it


def _dotted_side_near_rim() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A frame whose bottom side shows as 3 px dots every 12 px, the paper's bottom edge 6-11 px below it
    (the table beyond, its rim a 5 px band of ink in the mask); the frame's other sides drawn whole.
    Returns the mask, the grey image and the frame's corners."""
    frame = np.array([[60.0, 60.0], [440.0, 60.0], [440.0, 300.0], [60.0, 300.0]])
    paper = np.array([[20.0, 20.0], [480.0, 20.0], [480.0, 306.0], [20.0, 311.0]])
    gray = np.full((400, 500), _TABLE, np.uint8)
    cv2.fillPoly(gray, [paper.astype(np.int32)], _PAPER)
    mask = np.zeros((400, 500), np.uint8)
    cv2.polylines(mask, [frame[[3, 0, 1, 2]].astype(np.int32)], False, 255, 2)
    for x in range(66, 436, 12):
        cv2.rectangle(mask, (x - 1, 299), (x + 1, 301), 255, -1)
    rim = np.array([paper[3], paper[2], paper[2] + [0, 5], paper[3] + [0, 5]])
    cv2.fillPoly(mask, [rim.astype(np.int32)], 255)
    cv2.fillPoly(gray, [rim.astype(np.int32)], _TABLE)
    return mask, gray, frame


def test_a_dotted_side_is_fitted_to_its_dots_not_to_the_table_rim_beyond_it() -> None:
    mask, gray, frame = _dotted_side_near_rim()
    refined = refine_quad(mask, frame, band=12, gray=gray)
    assert np.hypot(*(refined - frame).T).max() < 2.0


def test_without_the_grey_the_dotted_side_is_pulled_onto_the_rim() -> None:
    # The case the grey is for: the nearest ink across most of the places along the side is the rim.
    mask, _, frame = _dotted_side_near_rim()
    refined = refine_quad(mask, frame, band=12)
    assert np.hypot(*(refined - frame).T).max() > 5.0

