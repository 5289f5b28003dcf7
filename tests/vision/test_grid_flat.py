"""Squared paper's printed grid divided out of the ink ratios (`_grid_flat.grid_free`)."""
from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._grid_flat import grid_free
from sheetscan.vision._lines import dark_ratio
from tests.vision._squared_paper import PAPER, squared_photo

_LINE_WIDTH = 3.6


def _ratios(image: np.ndarray) -> dict[str, np.ndarray]:
    return {channel: dark_ratio(image, line_width=_LINE_WIDTH, channel=channel) for channel in ("min", "max")}


def test_the_grid_is_divided_out_and_a_paler_pencil_frame_kept() -> None:
    image, frame = squared_photo(kept=1.0)
    ratios = _ratios(image)
    flat = grid_free(ratios, cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert flat is not None
    drawn = np.zeros(image.shape[:2], np.uint8)
    cv2.polylines(drawn, [np.round(frame).astype(np.int32)], True, 255, 1)
    paper = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(paper, [cv2.convexHull(PAPER.astype(np.int32))], 255)
    paper = cv2.erode(paper, np.ones((25, 25), np.uint8))
    near_frame = cv2.dilate(drawn, np.ones((9, 9), np.uint8))
    grid = (ratios["min"] < 0.9) & (paper > 0) & (near_frame == 0)
    # Before: the grid (0.78 in red) is darker than the pencil (0.86); after, it is paper and the frame
    # is still a line, also where it crosses the grid.
    assert float(np.median(ratios["min"][grid])) < 0.85
    assert float(np.median(flat["min"][grid])) > 0.95
    assert float(np.median(flat["min"][drawn > 0])) < 0.9
    assert float(np.percentile(flat["min"][drawn > 0], 90)) < 0.93


def test_plain_paper_has_no_grid_to_divide_out() -> None:
    image, _ = squared_photo(grid=False)
    assert grid_free(_ratios(image), cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)) is None
