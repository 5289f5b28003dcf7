"""Stage 4, ink: a photo out of focus keeps its thin strokes and the dots between numbers.

The truth is where the test itself put ink (MNIST test digits and round dots, `_handwriting`), never the
code's output. The blur is a Gaussian of σ 3 px on a sheet whose digits are 36 px tall (a photo badly out
of focus: the dots, 7 px across, spread over about 20 px and keep a third of their darkness).
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._focus import blur_of
from sheetscan.vision.ink import find_ink
from tests.vision._handwriting import Writer, blank, to_bgr, write_line


def _written(blur: float) -> tuple[np.ndarray, np.ndarray]:
    """A 400 × 900 sheet with two rows of numbers and their dots in a mid-grey pen, blurred by σ `blur`;
    returns the 8-bit photo and where the writing was put (0..1)."""
    canvas = blank(400, 900)
    writer = Writer(height=36, seed=4, pen=(0.35, 0.3, 0.3))
    write_line(canvas, "24.34.64.76", 100, 100, writer)
    write_line(canvas, "131.161.196", 100, 250, writer)
    truth = 1.0 - canvas[..., 0] / blank(1, 1)[0, 0, 0]
    image = to_bgr(canvas)
    return (np.asarray(cv2.GaussianBlur(image, (0, 0), blur), np.uint8) if blur > 0 else image), truth


def test_a_blurred_photo_keeps_the_dots_between_numbers() -> None:
    # Out of focus, each dot (7 px, written like the digits) must still be ink: a number stage without
    # its dots reads "24.34" as one number or cuts it at the wrong space.
    image, truth = _written(3.0)
    mask = find_ink(image).mask
    count, labels, stats, _ = cv2.connectedComponentsWithStats((truth > 0.5).astype(np.uint8), connectivity=8)
    dots = [i for i in range(1, count) if max(stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]) <= 8]
    assert len(dots) == 6
    lost = [tuple(stats[i, :2]) for i in dots if (mask[labels == i] > 0).mean() < 0.5]
    assert not lost, f"dots lost at {lost}"


def test_a_blurred_photo_keeps_its_strokes_whole_and_no_fatter_than_blur_makes_them() -> None:
    # Nearly all of the clearly written ink is found (a thin stroke's darkness falls below the strong
    # threshold when spread), nothing far from it is taken, and the strokes measure less than the
    # width the blur's spread edges gave them (the same ink unsharpened measures 10 px; in focus 5.7).
    image, truth = _written(3.0)
    ink = find_ink(image)
    assert float((ink.mask[truth > 0.5] > 0).mean()) >= 0.95
    near = cv2.dilate((truth > 0.05).astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    assert not (ink.mask[~near] > 0).any()
    assert ink.stroke_width <= 9.0


def test_the_blur_measured_grows_with_the_blur_put_on() -> None:
    # The measure of blur on the strength image, as the ink stage takes it: ink in focus measures under
    # the sharpening gate (1.5 px), each added blur adds to it, and a blur of σ 2 px on top passes the gate.
    measured = []
    for blur in (0.0, 1.0, 2.0, 3.0):
        image, _ = _written(blur)
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        measured.append(blur_of(np.asarray(255 - grey, np.uint8)))
    assert measured[0] < 1.5 < measured[2]
    assert measured == sorted(measured)
    # An edge blurred by σ₀ and then by 1 px measures at least √(σ₀² + 1) less a pixel's rounding.
    assert measured[1] >= np.hypot(measured[0], 1.0) - 0.25
