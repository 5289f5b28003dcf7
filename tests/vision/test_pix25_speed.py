"""The faster ways of stages 3-4 give exactly what the plain ways they replaced give.

Each truth here is worked out independently of the code under test: numpy's own float32 division, OpenCV's
own morphology (`cv2.morphologyEx`, `cv2.erode`, `cv2.dilate`), a run found by walking along a row.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision._lines import dark_ratio, nearest_run_spans, opening


def test_opencv_divides_whole_numbers_as_numpy_float32_does() -> None:
    # Every pair of uint8 values, the divisor at least 24 as `dark_ratio` makes it.
    top = np.repeat(np.arange(256, dtype=np.uint8), 256).reshape(256, 256)
    under = np.maximum(np.tile(np.arange(256, dtype=np.uint8), 256).reshape(256, 256), np.uint8(24))
    expected = np.divide(top, under, dtype=np.float32)
    got = np.asarray(cv2.divide(top, under, dtype=cv2.CV_32F))
    assert got.dtype == np.float32
    assert np.array_equal(got, expected)
    assert np.array_equal(np.asarray(cv2.max(np.arange(256, dtype=np.uint8).reshape(16, 16), 24)),
                          np.maximum(np.arange(256, dtype=np.uint8).reshape(16, 16), np.uint8(24)))


@pytest.mark.parametrize("channel", ["min", "max"])
def test_dark_ratio_is_the_darkness_over_the_paper_in_float32(channel: str) -> None:
    rng = np.random.default_rng(7)
    image = rng.integers(0, 256, (613, 917, 3)).astype(np.uint8)
    # The plain recipe, as the docstring gives it: the channel, its paper (a grey dilation, blurred, on a
    # copy `factor` times smaller), the ratio in float32 with the paper at least 24.
    pick = np.maximum if channel == "max" else np.minimum
    dark = pick(pick(image[..., 0], image[..., 1]), image[..., 2])
    factor = 613 // 300
    small = cv2.resize(dark, (917 // factor, 613 // factor), interpolation=cv2.INTER_AREA)
    k = max(3, round(3.0 * 3 / factor) | 1)
    paper = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    paper = cv2.blur(paper, (2 * k + 1, 2 * k + 1))
    paper = cv2.resize(paper, (917, 613), interpolation=cv2.INTER_LINEAR)
    expected = dark.astype(np.float32) / np.maximum(paper, 24).astype(np.float32)
    got = dark_ratio(image, line_width=3.0, channel=channel)
    assert got.dtype == np.float32
    assert np.array_equal(got, expected)


def _walked(row: np.ndarray, offsets: np.ndarray, max_len: int) -> tuple[float, float, bool]:
    """The run holding the ink nearest offset 0 in one row, found by walking: (first, last offset, valid);
    a row without ink gives offsets[1], offsets[0] and not valid (as the function always has)."""
    n = len(row)
    inked = [i for i in range(n) if row[i]]
    if not inked:
        return float(offsets[min(1, n - 1)]), float(offsets[0]), False
    nearest = min(inked, key=lambda i: (abs(offsets[i]), i))
    first = nearest
    while first > 0 and row[first - 1]:
        first -= 1
    last = nearest
    while last < n - 1 and row[last + 1]:
        last += 1
    return float(offsets[first]), float(offsets[last]), last + 1 - first <= max_len


def test_nearest_run_spans_finds_the_run_a_walk_along_the_row_finds() -> None:
    rng = np.random.default_rng(3)
    for _ in range(400):
        rows, n = int(rng.integers(1, 30)), int(rng.integers(1, 25))
        ink = rng.random((rows, n)) < rng.random()
        offsets = np.arange(-(n // 2), n - n // 2, dtype=np.float64)
        max_len = int(rng.integers(0, 12))
        start, end, valid = nearest_run_spans(ink, offsets, max_len)
        for r in range(rows):
            first, last, ok = _walked(ink[r], offsets, max_len)
            assert (start[r], end[r], bool(valid[r])) == (first, last, ok), (ink[r], offsets)
    empty = nearest_run_spans(np.zeros((0, 5), bool), np.arange(5.0), 3)
    assert all(len(a) == 0 for a in empty)


@pytest.mark.parametrize("seed", range(6))
def test_opening_by_a_straight_run_is_opencvs_opening(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(150):
        h, w = int(rng.integers(1, 45)), int(rng.integers(1, 45))
        if rng.random() < 0.5:
            image = ((rng.random((h, w)) < rng.random()) * 255).astype(np.uint8)
        else:
            image = rng.integers(0, 256, (h, w)).astype(np.uint8)
        length = int(rng.integers(1, 60))
        size = (length, 1) if rng.random() < 0.5 else (1, length)
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, size)
        expected = cv2.morphologyEx(image, cv2.MORPH_OPEN, kernel)
        assert np.array_equal(opening(image, kernel), expected), (h, w, size)


def test_opening_on_thin_images_and_other_kernels() -> None:
    rng = np.random.default_rng(11)
    for shape in [(1, 1), (4, 1), (1, 4), (3, 1), (1, 3), (2, 2), (97, 1), (1, 97)]:
        image = ((rng.random(shape) < 0.6) * 255).astype(np.uint8)
        for size in [(1, 1), (2, 1), (1, 2), (5, 1), (1, 5), (200, 1), (1, 200)]:
            kernel = cv2.getStructuringElement(cv2.MORPH_RECT, size)
            assert np.array_equal(opening(image, kernel), cv2.morphologyEx(image, cv2.MORPH_OPEN, kernel))
    # A kernel that is no straight run (a square, a cross) is opened by OpenCV itself.
    image = ((rng.random((50, 60)) < 0.5) * 255).astype(np.uint8)
    for kernel in (np.ones((3, 3), np.uint8), cv2.getStructuringElement(cv2.MORPH_CROSS, (5, 5))):
        assert np.array_equal(opening(image, kernel), cv2.morphologyEx(image, cv2.MORPH_OPEN, kernel))
    # A sheet-sized mask with long runs, as the stages open it (a view of a wider array too).
    sheet = np.zeros((700, 900), np.uint8)
    sheet[100:104, 20:880] = 255
    sheet[50:690, 300:303] = 255
    sheet[(rng.random(sheet.shape) < 0.05)] = 255
    for size in [(104, 1), (1, 104), (300, 1), (1, 300), (64, 1), (1, 64)]:
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, size)
        view = sheet[:, 10:890]
        assert np.array_equal(opening(view, kernel), cv2.morphologyEx(view, cv2.MORPH_OPEN, kernel))


def test_middles_lists_the_strokes_middles_a_boolean_index_lists() -> None:
    from sheetscan.vision._stroke_width import Middles

    rng = np.random.default_rng(5)
    for case in range(120):
        h, w = int(rng.integers(1, 70)), int(rng.integers(1, 70))
        mask = ((rng.random((h, w)) < rng.random()) * 255).astype(np.uint8)
        if case % 9 == 0:
            mask[:] = 0
        count, labels = cv2.connectedComponents(mask, connectivity=8)
        # The plain recipe: a middle pixel is ink no 3x3 neighbour of which is farther from the background.
        distance = cv2.distanceTransform((mask > 0).astype(np.uint8), cv2.DIST_L2, 3)
        ridge = (distance > 0) & (distance >= cv2.dilate(distance, np.ones((3, 3), np.uint8)))
        middles = Middles(mask, labels, count)
        assert middles.values.dtype == np.float32 and middles.owners.dtype == labels.dtype
        assert np.array_equal(middles.values, distance[ridge])
        assert np.array_equal(middles.owners, labels[ridge])
        area = np.bincount(labels[mask > 0], minlength=count)
        assert np.array_equal(middles.area[1:], area[1:])
