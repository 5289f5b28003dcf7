"""Stage 4, `_focus.blur_of`: its steepest edges are found among the squared steepnesses, with the root taken
only of those kept, and it must measure exactly what taking the root of every pixel measures."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._focus import _least_square_reaching, blur_of


def _blur_by_every_root(strength: np.ndarray, *, again: float = 1.0, share: float = 0.005) -> float:
    """The blur measure written out plainly: the root of every pixel's squared steepness, then the steepest
    share's level, its local peaks and the steepness they keep once blurred again (its docstring)."""
    values = strength.astype(np.float32)
    across = cv2.Sobel(values, cv2.CV_32F, 1, 0, ksize=3)
    down = cv2.Sobel(values, cv2.CV_32F, 0, 1, ksize=3)
    steep = np.sqrt(across * across + down * down)
    sample = steep.ravel()[::7]
    count = max(1, int(share * sample.size))
    level = float(np.partition(sample, sample.size - count)[sample.size - count])
    if level <= 0.0:
        return 0.0
    ys, xs = np.nonzero(steep[1:-1, 1:-1] >= level)
    ys, xs = ys + 1, xs + 1
    around = np.max(np.stack([steep[ys + dy, xs + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)]), axis=0)
    peak = steep[ys, xs] >= around
    ys, xs = ys[peak], xs[peak]
    blurred = cv2.GaussianBlur(values, (0, 0), again)
    gx = (blurred[ys - 1, xs + 1] + 2 * blurred[ys, xs + 1] + blurred[ys + 1, xs + 1]
          - blurred[ys - 1, xs - 1] - 2 * blurred[ys, xs - 1] - blurred[ys + 1, xs - 1])
    gy = (blurred[ys + 1, xs - 1] + 2 * blurred[ys + 1, xs] + blurred[ys + 1, xs + 1]
          - blurred[ys - 1, xs - 1] - 2 * blurred[ys - 1, xs] - blurred[ys - 1, xs + 1])
    ratio = steep[ys, xs] / np.maximum(np.hypot(gx, gy), 1e-6)
    ratio = ratio[ratio > 1.0001]
    if ratio.size == 0:
        return 0.0
    return float(np.median(again / np.sqrt(ratio * ratio - 1.0)))


def test_the_least_square_is_the_first_whose_root_reaches_the_level() -> None:
    # Half of all levels share their rounded root with the float just below their square: comparing the
    # squares with level² alone would drop the pixels lying there.
    rng = np.random.default_rng(3)
    for level in rng.uniform(0.01, 3000.0, 2000).astype(np.float32):
        least = _least_square_reaching(level)
        assert np.sqrt(least) >= level
        assert np.sqrt(np.nextafter(least, np.float32(0))) < level


def test_the_blur_is_what_every_root_measures() -> None:
    # Strokes, dots and noise, sharp and blurred, large and tiny (three rows: the smallest with inner pixels).
    rng = np.random.default_rng(11)
    sheets = []
    for blur in (0.0, 0.8, 1.6, 2.4):
        image = np.zeros((300, 420), np.uint8)
        for _ in range(40):
            x, y = (int(v) for v in rng.integers(10, 290, 2))
            cv2.line(image, (x, y), (x + int(rng.integers(5, 120)), y + int(rng.integers(-30, 30))),
                     int(rng.integers(60, 255)), int(rng.integers(1, 5)))
            cv2.circle(image, (int(rng.integers(5, 415)), y), int(rng.integers(1, 4)), 200, -1)
        if blur:
            image = cv2.GaussianBlur(image, (0, 0), blur)
        sheets.append(image)
    sheets += [rng.integers(0, 256, (h, w)).astype(np.uint8) for h, w in ((3, 3), (3, 40), (17, 5), (64, 64))]
    sheets.append(np.zeros((50, 50), np.uint8))
    for strength in sheets:
        assert blur_of(strength) == _blur_by_every_root(strength)
