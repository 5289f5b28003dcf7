"""Stage 4, ink: squared paper photographed in poor light, whose crossings must not pass for written dots.

The truth is where the test itself put ink (MNIST test digits and round dots, `_handwriting`), never the
code's output. The photo is dark (0.4 of the light) with sensor noise (σ 6 grey levels), as
`bench_styles`' dark style makes it: the ruling is then about as strong as the weak threshold, so the
noise breaks it into pieces, while each crossing, two rulings' darkness on one spot, passes the strong
threshold.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision.ink import find_ink
from tests.vision._handwriting import Writer, blank, to_bgr, write_line

PERIOD = 30
"""The ruling's period in px (a 600 × 900 sheet: squares a little smaller than the digits)."""


def _dark_squared(darkness: float, *, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """A 600 × 900 squared sheet (rulings 2 px wide, each `darkness` darker than the paper, so a crossing
    is 1 − (1 − darkness)² darker) with two rows of numbers and their dots, photographed dark and
    noisy; returns the 8-bit photo and where the writing was put (0..1)."""
    canvas = blank(600, 900)
    ruling = np.ones((600, 900))
    for k in range(7, 900, PERIOD):
        ruling[:, k:k + 2] *= 1.0 - darkness
    for k in range(11, 600, PERIOD):
        ruling[k:k + 2, :] *= 1.0 - darkness
    canvas *= ruling[..., None]
    writing = blank(600, 900)
    writer = Writer(height=36, seed=4, pen=(0.12, 0.12, 0.12))
    write_line(writing, "24.34.64.76", 100, 200, writer)
    write_line(writing, "131.161.196", 100, 380, writer)
    truth = 1.0 - writing[..., 0] / blank(1, 1)[0, 0, 0]
    canvas = np.minimum(canvas, writing)
    noise = np.random.default_rng(seed).normal(0.0, 6.0 / 255.0, canvas.shape)
    return to_bgr(canvas * 0.4 + noise), truth


def test_dark_noisy_ruling_leaves_no_specks_at_its_crossings() -> None:
    # Rulings 20 % darker than the paper: each pixel passes the weak threshold (16 %) only now and then
    # under the noise (about 0.06 of the dimmed paper's brightness), the crossings (36 %) pass the strong
    # one (32 %). Every piece of ink found off the writing must be a pixel or two of noise, too small
    # to be taken for a dot (`_group.is_dot` wants at least 2 px and a quarter of a stroke width
    # squared): 300 crossings read as dots made "45" two numbers.
    image, truth = _dark_squared(0.20)
    mask = find_ink(image).mask
    near = cv2.dilate((truth > 0.05).astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    on_writing = set(np.unique(labels[(mask > 0) & near]).tolist())
    specks = [i for i in range(1, count) if i not in on_writing and stats[i, cv2.CC_STAT_AREA] > 2]
    assert not specks, f"{len(specks)} blobs of ruling taken for ink, e.g. at {stats[specks[0], :2]}"


def test_dark_noisy_ruling_keeps_the_digits_and_the_written_dots() -> None:
    # The same sheet: the digits are found whole enough to read, and each of the five dots written
    # between the numbers (round, 7 px across, black) is still ink.
    image, truth = _dark_squared(0.20)
    mask = find_ink(image).mask
    clear = truth > 0.5
    assert float((mask[clear] > 0).mean()) >= 0.85
    count, labels, stats, _ = cv2.connectedComponentsWithStats((truth > 0.5).astype(np.uint8), connectivity=8)
    dots = [i for i in range(1, count) if max(stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]) <= 8]
    assert len(dots) == 5
    for i in dots:
        assert (mask[labels == i] > 0).mean() >= 0.5, f"dot at {stats[i, :2]} lost"
