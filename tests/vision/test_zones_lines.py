"""The fast mask helpers of the zone and ink stages give the very pixels of the plain OpenCV / numpy
operations they stand for (small random masks; the truth is the plain operation's result)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision._line_removal import _touching
from sheetscan.vision._lines import below, hanging_pieces, hysteresis, long_blobs, opening
from sheetscan.vision._straight import unbroken_slanting


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
    # 3 × 3 neighbourhood of a piece, the highest piece label counting where several are near; and for
    # each pair a pixel of the side where it is so.
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
        pairs, seeds = _touching(pieces.astype(np.int32), sides.astype(np.int32))
        assert np.array_equal(pairs, truth)
        # Each pair's pixel is one of that side's pixels where that piece is the highest label near.
        ys, xs = np.divmod(seeds, w)
        assert np.array_equal(sides[ys, xs], pairs[1]) and np.array_equal(grown[ys, xs], pairs[0])


def test_hysteresis_keeps_the_faint_blobs_holding_a_dark_pixel() -> None:
    rng = np.random.default_rng(11)
    for mask in _masks(60):
        # A ratio image: random levels, darker (lower) where the mask is set.
        ratio = np.where(mask > 0, rng.uniform(0.3, 0.9, mask.shape), rng.uniform(0.8, 1.1, mask.shape))
        ratio = ratio.astype(np.float32)
        faint = (ratio < 0.85).astype(np.uint8)
        _, labels = cv2.connectedComponents(faint, connectivity=8)
        dark = np.unique(labels[(ratio < 0.5) & (faint > 0)])
        truth = np.where(np.isin(labels, dark) & (faint > 0), 255, 0)
        assert np.array_equal(hysteresis(ratio, 0.5, 0.85), truth)


def test_hanging_pieces_are_the_ink_off_the_lines_wholly_within_reach() -> None:
    for mask in _masks(60):
        h = mask.shape[0]
        lines = np.zeros_like(mask)
        lines[h // 2:h // 2 + 2, :] = 255
        reach = 3
        near = cv2.dilate(lines, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)) > 0
        rest = (mask > 0) & (lines == 0)
        _, labels = cv2.connectedComponents(rest.astype(np.uint8), connectivity=8)
        reaching = np.unique(labels[rest & ~near])
        hanging = rest & ~np.isin(labels, reaching)
        # Less a stroke of its own lying along the line: longer than twice the reach, thicker on average
        # than half of it, at least twice as long as wide, with the lines just outside its box across its
        # longer side over at least half its length but not past both its ends, and next to them along
        # less than two thirds of it.
        near_lines = cv2.dilate(lines, np.ones((3, 3), np.uint8)) > 0
        for label in np.unique(labels[hanging]):
            ys, xs = np.nonzero(labels == label)
            x, y, w, hh = xs.min(), ys.min(), xs.max() - xs.min() + 1, ys.max() - ys.min() + 1
            side = max(w, hh)
            if side <= 2 * reach or 2 * len(xs) <= reach * side or side < 2 * min(w, hh):
                continue
            piece = (labels == label) & near_lines
            if w >= hh:
                seen = [lines[max(0, y - reach):y, c].any() or lines[y + hh:y + hh + reach, c].any()
                        for c in range(x, x + w)]
                ends = [lines[y:y + hh, max(0, x - reach):x].any(),
                        lines[y:y + hh, x + w:x + w + reach].any()]
                bordered = [piece[:, c].any() for c in range(x, x + w)]
            else:
                seen = [lines[r, max(0, x - reach):x].any() or lines[r, x + w:x + w + reach].any()
                        for r in range(y, y + hh)]
                ends = [lines[max(0, y - reach):y, x:x + w].any(),
                        lines[y + hh:y + hh + reach, x:x + w].any()]
                bordered = [piece[r, :].any() for r in range(y, y + hh)]
            if 2 * sum(seen) >= len(seen) and not all(ends) and 3 * sum(bordered) < 2 * len(bordered):
                hanging &= labels != label
        truth = np.where(hanging, 255, 0)
        assert np.array_equal(hanging_pieces(lines, mask, reach=reach), truth)


def test_unbroken_slanting_segments_are_those_of_the_plain_per_segment_check() -> None:
    # The plain check, one segment at a time: slanting 8-82 degrees, and at least 95 % of about one
    # sample a pixel along it (np.linspace's places, rounded) on ink.
    def plain(half: np.ndarray, segments: np.ndarray) -> np.ndarray:
        kept = []
        for x0, y0, x1, y1 in segments:
            count = max(2, int(np.hypot(x1 - x0, y1 - y0)))
            xs = np.rint(np.linspace(x0, x1, count)).astype(int)
            ys = np.rint(np.linspace(y0, y1, count)).astype(int)
            slope = abs(float(np.degrees(np.arctan2(y1 - y0, x1 - x0)))) % 90.0
            if 8.0 <= slope <= 82.0 and (half[ys, xs] > 0).mean() >= 0.95:
                kept.append((x0, y0, x1, y1))
        return np.array(kept, np.int64).reshape(-1, 4)

    rng = np.random.default_rng(3)
    for _ in range(100):
        h, w = (int(v) for v in rng.integers(40, 160, 2))
        half = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(1, 8))):
            a = tuple(int(v) for v in rng.integers(0, [w, h]))
            b = tuple(int(v) for v in rng.integers(0, [w, h]))
            cv2.line(half, a, b, 255, int(rng.integers(1, 3)))
        half[rng.random((h, w)) < 0.02] = 255
        segments = np.stack([rng.integers(0, w, 40), rng.integers(0, h, 40), rng.integers(0, w, 40),
                             rng.integers(0, h, 40)], axis=1).astype(np.int32)
        found = cv2.HoughLinesP(half, 1, np.pi / 180, threshold=10, minLineLength=10, maxLineGap=1)
        if found is not None:
            segments = np.concatenate([segments, np.asarray(found, np.int32).reshape(-1, 4)])
        assert np.array_equal(unbroken_slanting(half, segments), plain(half, segments))
