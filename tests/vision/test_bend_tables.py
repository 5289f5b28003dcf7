"""Speed (issue 5), session 14: the line trace's tables made in fewer passes give what the plain
definitions give (`_bend._ink_across`: the ink at every rounded place across a line; `_bend._dilated_at`:
the same in the mask dilated over the places' box only; `_bend._near`: a place within reach of a point
where lines end; `zones._densify`: the places put in along a polyline).

Truth: each definition worked out place by place in plain Python.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from sheetscan.vision._bend import _dilated_at, _ink_across, _near
from sheetscan.vision._lines import ink_at
from sheetscan.vision.zones import _densify
from tests.vision._ink_by_hand import ink_by_hand


def test_ink_across_is_the_ink_at_each_rounded_place() -> None:
    rng = np.random.default_rng(16)
    for height, width in ((40, 50), (1, 7), (33, 1)):
        mask = np.where(rng.random((height, width)) < 0.4, 255, 0).astype(np.uint8)
        # Places on the image, off every side of it, and on half pixels (rounded to even).
        halves = [[2.5, 3.5], [0.5, 0.5], [-0.5, -0.5], [width - 0.5, height - 0.5]]
        points = np.concatenate([rng.uniform(-15, max(height, width) + 15, (60, 2)), np.array(halves)])
        angles = rng.uniform(0, 2 * np.pi, len(points))
        normals = np.stack([np.cos(angles), np.sin(angles)], axis=1)
        normals[-4:] = [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, -1.0]]
        for search in (0.0, 3.0, 7.9):
            ink, offsets = _ink_across(mask, points, normals, search)
            assert offsets.tolist() == list(range(-int(search), int(search) + 1))
            assert np.array_equal(ink, ink_by_hand(mask, points, normals, search))


def test_dilated_at_is_the_whole_masks_dilation_at_each_place() -> None:
    rng = np.random.default_rng(19)
    for height, width in ((60, 80), (9, 120), (1, 30)):
        # Sparse ink, so that a box a pixel too small or shifted by one misses a dot a place should see.
        mask = np.where(rng.random((height, width)) < 0.03, 255, 0).astype(np.uint8)
        for side in (2, 3, 4, 9):
            whole = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side)))
            for _ in range(30):
                # A small cluster of places somewhere on, across or off the mask's edges.
                cx, cy = rng.uniform(-10, width + 10), rng.uniform(-10, height + 10)
                x = np.rint(cx + rng.uniform(-6, 6, 25)).astype(np.intp)
                y = np.rint(cy + rng.uniform(-6, 6, 25)).astype(np.intp)
                assert np.array_equal(_dilated_at(mask, side, x, y), ink_at(whole, x, y))
            x = rng.integers(-5, width + 5, 200).astype(np.intp)
            y = rng.integers(-5, height + 5, 200).astype(np.intp)
            assert np.array_equal(_dilated_at(mask, side, x, y), ink_at(whole, x, y))
    empty = np.zeros(0, np.intp)
    assert _dilated_at(np.full((5, 5), 255, np.uint8), 3, empty, empty).shape == (0,)


def test_ink_across_dilated_is_the_ink_across_the_dilated_mask() -> None:
    rng = np.random.default_rng(190)
    mask = np.where(rng.random((50, 70)) < 0.05, 255, 0).astype(np.uint8)
    points = rng.uniform(-5, 75, (40, 2))
    angles = rng.uniform(0, 2 * np.pi, len(points))
    normals = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    fat = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5)))
    ink, _ = _ink_across(mask, points, normals, 6.0, dilated=5)
    assert np.array_equal(ink, ink_by_hand(fat, points, normals, 6.0))


def test_near_is_the_nearest_end_within_reach() -> None:
    rng = np.random.default_rng(160)
    ends = np.concatenate([rng.uniform(0, 200, (12, 2)), [[50.0, 50.0]]])
    # Places 3-4-5 from an end: exactly at the reach counts; a hair under does not.
    points = np.concatenate([rng.uniform(-20, 220, (300, 2)), [[53.0, 54.0], [55.0, 50.0], [50.0, 45.0]]])
    for reach in (0.0, 4.999999, 5.0, 17.5, 400.0):
        by_hand = [min(float(np.hypot(px - ex, py - ey)) for ex, ey in ends.tolist()) <= reach
                   for px, py in points.tolist()]
        assert _near(points, ends, reach).tolist() == by_hand
    assert _near(np.array([[53.0, 54.0]]), np.array([[50.0, 50.0]]), 5.0).tolist() == [True]
    assert _near(np.array([[53.0, 54.0]]), np.array([[50.0, 50.0]]), 4.999999).tolist() == [False]
    assert _near(points, np.zeros((0, 2)), 10.0).tolist() == [False] * len(points)


def _densify_by_hand(line: np.ndarray, step: float) -> list[list[float]]:
    out = [line[0].tolist()]
    for a, b in itertools.pairwise(line):
        count = max(1, int(np.hypot(*(b - a)) // step))  # numpy's hypot, as the stage always took
        out.extend((a + (b - a) * (i / count)).tolist() for i in range(1, count + 1))
    return out


def test_densify_puts_each_segments_places_in_order() -> None:
    rng = np.random.default_rng(1600)
    lines = [rng.uniform(0, scale, (n, 2)) for n in (1, 2, 3, 6) for scale in (5.0, 90.0, 2500.0)]
    lines += [np.array([[3.0, 4.0], [3.0, 4.0], [43.0, 4.0]]),  # a segment of no length: one place, its end
              np.array([[0.0, 0.0], [40.0, 0.0], [40.0, 39.999]])]  # exactly 2 steps, and a hair under
    for line in lines:
        for step in (20.0, 7.3):
            assert _densify(line, step).tolist() == _densify_by_hand(line, step)
    assert _densify(np.array([[0.0, 0.0], [40.0, 0.0]])).tolist() == [[0.0, 0.0], [20.0, 0.0], [40.0, 0.0]]
