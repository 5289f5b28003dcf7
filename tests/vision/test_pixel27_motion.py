"""Stage 4, `_motion._correlations`: the gradients' correlations, found from their spectra in OpenCV's packed
form for real images, are the sums of products the definition gives, lag by lag."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._motion import _correlations


def _by_sums(first: np.ndarray, second: np.ndarray, dy: int, dx: int, shape: tuple[int, int]) -> float:
    """Σ first(p + d) · second(p) over the images laid in zeros of `shape` (wrapping round at its edges)."""
    a = np.zeros(shape, np.float64)
    b = np.zeros(shape, np.float64)
    a[:first.shape[0], :first.shape[1]] = first
    b[:second.shape[0], :second.shape[1]] = second
    return float(np.sum(np.roll(a, (-dy, -dx), axis=(0, 1)) * b))


def test_the_correlations_are_the_sums_of_products_at_every_near_lag() -> None:
    rng = np.random.default_rng(27)
    strength = np.zeros((45, 58), np.uint8)
    for _ in range(12):
        x, y = (int(v) for v in rng.integers(2, 44, 2))
        cv2.line(strength, (x, y), (x + int(rng.integers(-12, 12)), y + int(rng.integers(-12, 12))),
                 int(rng.integers(80, 255)), int(rng.integers(1, 4)))
    longest = 5
    xx, yy, xy = _correlations(strength, 1, longest)
    values = strength.astype(np.float32)
    across = cv2.Sobel(values, cv2.CV_32F, 1, 0, ksize=3)
    down = cv2.Sobel(values, cv2.CV_32F, 0, 1, ksize=3)
    shape = xx.shape
    assert shape == (cv2.getOptimalDFTSize(45 + longest), cv2.getOptimalDFTSize(58 + longest))
    scale = float(np.sum(across.astype(np.float64) ** 2))
    for dy in range(-longest, longest + 1):
        for dx in range(-longest, longest + 1):
            expected = (_by_sums(across, across, dy, dx, shape), _by_sums(down, down, dy, dx, shape),
                        _by_sums(across, down, dy, dx, shape) + _by_sums(down, across, dy, dx, shape))
            for found, value in zip((xx, yy, xy), expected, strict=True):
                assert abs(float(found[dy % shape[0], dx % shape[1]]) - value) <= 1e-5 * scale
