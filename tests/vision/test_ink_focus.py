"""Stage 4, ink, out of focus: a pale pen's strokes are kept, a dark pen's are not fattened until their loops
close, and squared paper's ruling is not taken for ink with the lower thresholds a blur needs.

The truth is where the test itself put ink (MNIST test digits, `_handwriting`) and ruling, never the code's
output. The blur is a Gaussian of σ 3 px on digits 36 px tall, as `test_dots_blur` has it (a photo badly out
of focus; `bench_styles`' blur is σ 2.2 px on a 12 MP photo).
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision.ink import find_ink
from tests.vision._handwriting import Writer, blank, to_bgr, write_line

DARK_PEN = (0.15, 0.15, 0.18)
"""BGR 0..1: a black ballpoint (85 % darker than the paper)."""
PALE_PEN = (0.55, 0.55, 0.55)
"""BGR 0..1: a worn-out pen or a soft pencil, about 41 % darker than the paper: in focus each stroke passes
the strong threshold (32 %); spread by the blur, a thin stroke's middle keeps less than half of that."""


def _blurred(canvas: np.ndarray, blur: float = 3.0) -> np.ndarray:
    return np.asarray(cv2.GaussianBlur(to_bgr(canvas), (0, 0), blur), np.uint8)


def _truth(writing: np.ndarray) -> np.ndarray:
    """Where ink was put (0..1): how much darker than the paper each pixel of `writing` is."""
    return 1.0 - writing[..., 0] / blank(1, 1)[0, 0, 0]


def test_a_pale_pen_out_of_focus_keeps_its_strokes() -> None:
    # A row in a dark pen above a row in a pale one (the number stage needs every stroke: a "0" beside a
    # dark "4" lost to the thresholds read "40" as "4"). Each of the pale row's digits keeps at least half of
    # its ink (its thinnest strokes, paler still, may break), and the row most of it.
    canvas = blank(400, 900)
    write_line(canvas, "40.46.61", 100, 80, Writer(height=36, seed=2, pen=DARK_PEN))
    pale = blank(400, 900)
    write_line(pale, "40.46.61", 100, 250, Writer(height=36, seed=5, pen=PALE_PEN))
    canvas = np.minimum(canvas, pale)
    truth = _truth(pale) > 0.5 * (1.0 - PALE_PEN[0] / blank(1, 1)[0, 0, 0])
    mask = find_ink(_blurred(canvas)).mask
    count, labels, stats, _ = cv2.connectedComponentsWithStats(truth.astype(np.uint8), connectivity=8)
    digits = [i for i in range(1, count) if stats[i, cv2.CC_STAT_HEIGHT] >= 20]
    assert len(digits) == 6
    kept = [float((mask[labels == i] > 0).mean()) for i in digits]
    assert min(kept) >= 0.5, f"ink kept of each pale digit: {[round(k, 2) for k in kept]}"
    assert float((mask[truth] > 0).mean()) >= 0.8


def test_a_dark_pen_out_of_focus_keeps_its_strokes_thin_and_its_loops_open() -> None:
    # Digits with loops in a black pen, blurred: the blur spreads each stroke's edge far out, and a threshold
    # fixed for the sheet drew the strokes twice as wide as written (loops closed: "0" read as a blot, digits
    # joined to their neighbours). The ink found is at most 1.75 times the ink put (the blur's spread a
    # threshold cannot undo), and the paper inside each loop (a pixel in from the strokes) stays paper.
    canvas = blank(300, 900)
    write_line(canvas, "0.8.6.9.0", 100, 100, Writer(height=30, seed=1, pen=DARK_PEN))
    put = _truth(canvas)
    count, labels, stats, _ = cv2.connectedComponentsWithStats((put <= 0.1).astype(np.uint8), connectivity=4)
    holes = [i for i in range(1, count) if i != labels[0, 0] and stats[i, cv2.CC_STAT_AREA] >= 30]
    assert len(holes) >= 3  # loops written open enough to have paper inside: the test has something to check
    inner = cv2.erode(np.isin(labels, holes).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    mask = find_ink(_blurred(canvas)).mask > 0
    assert float(mask.sum()) <= 1.75 * float((put > 0.5).sum())
    filled = float(mask[inner].mean())
    assert filled <= 0.08, f"{filled:.0%} of the loops' paper taken for ink"


def test_squared_paper_out_of_focus_is_not_ink() -> None:
    # Rulings 2 px wide and 30 % darker than the paper, blurred as the writing: with the thresholds lowered
    # for the blur, stretches and crossings of the ruling passed for ink and were read as "1"s. Nothing found
    # away from the writing may be more than a speck; the writing is still found.
    canvas = blank(600, 900)
    for k in range(7, 900, 30):
        canvas[:, k:k + 2] *= 0.7
    for k in range(11, 600, 30):
        canvas[k:k + 2, :] *= 0.7
    writing = blank(600, 900)
    write_line(writing, "24.34.64.76", 100, 200, Writer(height=36, seed=4, pen=DARK_PEN))
    write_line(writing, "131.161.196", 100, 380, Writer(height=36, seed=4, pen=PALE_PEN))
    truth = _truth(writing)
    mask = find_ink(_blurred(np.minimum(canvas, writing))).mask
    near = cv2.dilate((truth > 0.05).astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    on_writing = set(np.unique(labels[(mask > 0) & near]).tolist())
    specks = [i for i in range(1, count) if i not in on_writing and stats[i, cv2.CC_STAT_AREA] > 2]
    assert not specks, f"{len(specks)} blobs of ruling taken for ink, e.g. at {stats[specks[0], :2]}"
    assert float((mask[truth > 0.5] > 0).mean()) >= 0.8
