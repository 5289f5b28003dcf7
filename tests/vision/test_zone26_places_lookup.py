"""Speed (issue 5), session 26: the line trace looks its places up in a mask through their places in the
flattened mask, worked out once per mask shape (`_bend._ink_at_places`): what it gives must be the ink at
each rounded place across the line, in the mask or in the mask dilated by a square, off the mask paper.

Truth: each place worked out in plain Python (the rounded pixel, on the mask or not), in the mask or in
OpenCV's dilation of the whole mask.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._bend import _ink_at_places, trace_places
from tests.vision._ink_by_hand import ink_by_hand


def test_places_are_looked_up_as_the_rounded_pixels_of_each_mask() -> None:
    rng = np.random.default_rng(2600)
    height, width = 70, 90
    # Lines across the whole mask and beyond its edges (places off every side), and a short one inside
    # it (its box a small part of the mask).
    lines = [np.array([[-8.0, 5.0], [97.0, 12.0], [60.0, 78.0], [-8.0, 5.0]]),
             np.array([[30.0, 30.0], [36.0, 41.0]])]
    for polylines in (lines, lines[1:]):
        places = trace_places(polylines, step=2.0, search=6.0)
        assert places is not None
        # Two masks of one shape, then one of another: each looked up in its own pixels.
        for shape in ((height, width), (height, width), (height + 3, width - 5)):
            mask = np.where(rng.random(shape) < 0.04, 255, 0).astype(np.uint8)
            for side in (1, 3, 9):
                fat = mask if side == 1 else cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT,
                                                                                          (side, side)))
                truth = ink_by_hand(fat, places.points, places.normals, 6.0)
                assert np.array_equal(_ink_at_places(mask, places, side), truth)
                rows = np.flatnonzero(rng.random(len(places.points)) < 0.3)
                assert np.array_equal(_ink_at_places(mask, places, side, rows), truth[rows])
