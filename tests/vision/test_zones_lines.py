"""The fast mask helpers of the zone and ink stages give the very pixels of the plain OpenCV / numpy
operations they stand for (small random masks; the truth is the plain operation's result)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision._lines import below, long_blobs, opening
from sheetscan.vision.ink import _touching


def _masks(count: int) -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    out = []
    for _ in range(count):
        h, w = (int(v) for v in rng.integers(5, 70, 2))
        out.append(((rng.random((h, w)) < rng.uniform(0.05, 0.7)) * 255).astype(np.uint8))
    return out


@pytest.mark.parametrize("length", [1, 4, 11, 30])
def test_long_blobs_are_those_whose_box_is_longer(length: int) -> None:
    # Blobs touching the image's edge and blobs inside others' holes included.
    for mask in _masks(60):
        _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        longest = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
        truth = (longest > length)[labels] & (labels > 0)
        found = long_blobs(mask, length)
        if not truth.any():
            assert found is None
        else:
            assert found is not None and np.array_equal(found, truth)


def test_below_is_a_single_precision_comparison_even_at_the_level_itself() -> None:
    rng = np.random.default_rng(3)
    ratio = rng.random((40, 50)).astype(np.float32)
    for level in (0.86, 0.7, 0.5):
        ratio[::7, ::3] = np.float32(level)  # values exactly at the level stay out
        assert np.array_equal(below(ratio, level), np.where(ratio < level, 255, 0).astype(np.uint8))


@pytest.mark.parametrize("kernel", [(9, 1), (1, 9), (8, 1), (1, 12)])
def test_opening_is_morphology_opening(kernel: tuple[int, int]) -> None:
    element = cv2.getStructuringElement(cv2.MORPH_RECT, kernel)
    for mask in _masks(30):
        assert np.array_equal(opening(mask, element), cv2.morphologyEx(mask, cv2.MORPH_OPEN, element))


def test_touching_pairs_are_those_of_a_grey_dilation_of_the_pieces() -> None:
    # The pairs the ink stage's crossing test uses: (piece, side) wherever a side pixel lies in the
    # 3 × 3 neighbourhood of a piece, the highest piece label counting where several are near.
    rng = np.random.default_rng(11)
    for _ in range(40):
        h, w = (int(v) for v in rng.integers(6, 60, 2))
        ink = rng.random((h, w)) < 0.5
        on_line = rng.random((h, w)) < 0.3
        _, pieces = cv2.connectedComponents((ink & on_line).astype(np.uint8), connectivity=8)
        _, sides = cv2.connectedComponents((ink & ~on_line).astype(np.uint8), connectivity=8)
        grown = cv2.dilate(pieces.astype(np.float32), np.ones((3, 3), np.uint8)).astype(np.int64)
        near = (grown > 0) & (sides > 0)
        truth = np.unique(np.stack([grown[near], sides[near]]), axis=1)
        assert np.array_equal(_touching(pieces.astype(np.int32), sides.astype(np.int32)), truth)
