"""Stage 4, `_focus`: the blur measure is the same on every call for the same sheet (it decides whether
and how much the ink's strength is sharpened, and so which pixels pass as ink)."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._focus import blur_of, sharpened


def _edges(blur: float) -> np.ndarray:
    """A strength image (ink bright) of dark bars and rings, blurred by σ `blur` px, as large as a
    rectified sheet (the wrong last bits showed there, not on a quarter of it)."""
    rng = np.random.default_rng(5)
    image = np.zeros((600, 800), np.uint8)
    for _ in range(60):
        x, y = (int(v) for v in rng.integers(20, 580, 2))
        cv2.line(image, (x, y), (x + int(rng.integers(10, 200)), y + int(rng.integers(-40, 40))), 220, 3)
        cv2.circle(image, (int(rng.integers(30, 770)), y), int(rng.integers(5, 25)), 180, 2)
    blurred = cv2.GaussianBlur(image, (0, 0), blur)
    return np.asarray(cv2.resize(blurred, (2000, 1940), interpolation=cv2.INTER_LINEAR), np.uint8)


def test_the_blur_measure_and_the_sharpening_repeat_exactly() -> None:
    # cv2.magnitude gave every other call different last bits (15 of 30 on a rectified sheet).
    strength = _edges(1.8)
    measured = {blur_of(strength) for _ in range(6)}
    sharp = {sharpened(strength).tobytes() for _ in range(3)}
    assert len(measured) == 1 and len(sharp) == 1
    assert next(iter(measured)) > 1.5  # blurred enough to be sharpened: the sharpening is exercised
