"""Stage 4, ink: the stroke width is measured on the writing, not on the specks a dark, noisy photo leaves.

The truth is the width the test's own writing measures (MNIST test digits, `_handwriting`, scaled so their
strokes are several px wide), never the code's output. The photo is dark (0.3 of the light) with sensor
noise (σ 7 grey levels) per colour channel: the darkest channel of three noisy ones passes the thresholds
at thousands of lone pixels and pairs over the paper.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision.ink import find_ink
from tests.vision._handwriting import Writer, blank, to_bgr, write_line


def _middle_width(ink: np.ndarray) -> float:
    """Twice the median distance to the background along the middles of `ink` (bool): a stroke's width."""
    distance = cv2.distanceTransform(ink.astype(np.uint8), cv2.DIST_L2, 3)
    ridge = (distance > 0) & (distance >= cv2.dilate(distance, np.ones((3, 3), np.uint8)))
    return float(2.0 * np.median(distance[ridge]))


def test_the_stroke_width_of_a_dark_noisy_photo_is_the_writings() -> None:
    # The number stage cuts and groups digits by the stroke width (its gaps, its dots): measured at 1.9 px
    # on strokes of 8.5 (bench_styles dark, seed 6000), a photo's numbers fell apart into single digits.
    writing = blank(700, 1100)
    writer = Writer(height=60, seed=3, pen=(0.12, 0.12, 0.14))
    write_line(writing, "24.34.64.76", 80, 150, writer)
    write_line(writing, "131.161.196", 80, 420, writer)
    truth = (1.0 - writing[..., 0] / blank(1, 1)[0, 0, 0]) > 0.5
    expected = _middle_width(truth)
    assert expected >= 5.0  # strokes wide enough for a speck to be told from them
    noise = np.random.default_rng(8).normal(0.0, 7.0 / 255.0, writing.shape)
    ink = find_ink(to_bgr(writing * 0.3 + noise))
    count = cv2.connectedComponents(ink.mask, connectivity=8)[0]
    assert count > 500  # the noise does leave specks: the test checks what it means to
    # The ink found takes the strokes' soft edges down to the weak threshold (16 % darker), wider than the
    # half-darkness outline the truth is measured on: up to half as wide again, never below it by a quarter.
    assert 0.75 * expected <= ink.stroke_width <= 1.5 * expected, (ink.stroke_width, expected)
