"""Stage 4, digits written against a line the zone stage did not give: the line is a blob longer than any
writing and goes, but the digits touching it stay (`_long_blobs.cut_long_blobs`).

Small synthetic sheets (600 × 900): the truth is where the test drew each stroke. A line must run
straight for `grid_length` of the sheet (here 0.25: 150 px) to be found; the unfound line slants 4°, too
steep for the level opening (a 4° line leaves a level run of 150 px only if it is 10 px thick) and less
than the 8° the slanting-line search starts at, so no earlier pass takes it out and it reaches the
long-blob step joined to the digits.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._long_blobs import cut_long_blobs
from sheetscan.vision.ink import find_ink
from tests.vision._handwriting import blank, to_bgr

HEIGHT, WIDTH = 600, 900
START, END = (50, 250), (850, 306)  # the unfound line: 56 px down over 800 px, 4.0°


def _line_y(x: float) -> float:
    return START[1] + (END[1] - START[1]) * (x - START[0]) / (END[0] - START[0])


def _frame() -> tuple[np.ndarray, np.ndarray]:
    """The darkness of a drawn frame (the zone stage found it) and its line mask."""
    darkness = np.zeros((HEIGHT, WIDTH))
    cv2.rectangle(darkness, (20, 20), (WIDTH - 21, HEIGHT - 21), 0.6, 4)
    lines = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.rectangle(lines, (20, 20), (WIDTH - 21, HEIGHT - 21), 255, 8)
    return darkness, lines


def _ink(darkness: np.ndarray, lines: np.ndarray | None) -> np.ndarray:
    return find_ink(to_bgr(blank(HEIGHT, WIDTH) * (1.0 - darkness)[..., None]), line_mask=lines,
                    grid_length=0.25).mask


def _digits() -> tuple[np.ndarray, list[np.ndarray]]:
    """The unfound line (5 px) with a "1" and a "0" hanging from it (their tops run into the line), and
    each digit's own strokes."""
    line = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.line(line, START, END, 1, 5)
    one = np.zeros_like(line)
    cv2.line(one, (200, round(_line_y(200))), (200, round(_line_y(200)) + 45), 1, 5)
    zero = np.zeros_like(line)
    cv2.ellipse(zero, (420, round(_line_y(420)) + 24), (14, 22), 0, 0, 360, 1, 4)
    return line, [one, zero]


def test_digits_hanging_from_an_unfound_line_stay_and_the_line_goes() -> None:
    darkness, lines = _frame()
    line, digits = _digits()
    drawn = (line | digits[0] | digits[1]) > 0
    darkness[drawn] = 0.6
    mask = _ink(darkness, lines) > 0
    off_line = cv2.dilate(line, np.ones((9, 9), np.uint8)) == 0  # more than 4 px off the line's stroke
    for digit, name in zip(digits, ("1", "0"), strict=True):
        own = (digit > 0) & off_line
        kept = np.count_nonzero(mask & own) / np.count_nonzero(own)
        assert kept >= 0.9, f"only {kept:.0%} of the {name} kept"
    # Nothing else is ink: the line (beyond its width next to the digits) and its frame are gone.
    near_digits = cv2.dilate((digits[0] | digits[1]), np.ones((15, 15), np.uint8)) > 0
    assert not (mask & ~near_digits).any()


def test_a_line_drawn_twice_leaves_nothing() -> None:
    # A long blob alone (as the long-blob step gets it): two 4 px strokes along the 4° line, each
    # wavering 4 px off it with its own phase, so they cross and part again (a retraced line). No piece
    # of either is writing.
    mask = np.zeros((HEIGHT, WIDTH), np.uint8)
    xs = np.arange(START[0], END[0] + 1, 4, dtype=np.float64)
    for phase in (0.0, np.pi):
        ys = np.array([_line_y(x) for x in xs]) + 4.0 * np.sin(xs / 60.0 + phase)
        cv2.polylines(mask, [np.rint(np.stack([xs, ys], axis=1)).astype(np.int32)], False, 255, 4)
    assert not cut_long_blobs(mask, max_length=120, straight=150).any()


def test_a_lines_bent_end_is_not_writing() -> None:
    # A 5 px line straight for 600 px, then turning 10° for its last 100 px (shorter than the 150 px a
    # straight stretch must run): the bent end runs on along the line, it does not stand off it.
    mask = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.polylines(mask, [np.array([[50, 300], [650, 300], [748, 317]], np.int32)], False, 255, 5)
    assert not cut_long_blobs(mask, max_length=120, straight=150).any()


def test_without_the_drawn_lines_the_long_blob_goes_whole() -> None:
    # Decision (find_ink): without a line mask (the ink of everything, as the bench's truth zones look
    # for the lines' own ink) a long blob is dropped with all that is joined to it, as before.
    darkness, _ = _frame()
    line, digits = _digits()
    darkness[(line | digits[0] | digits[1]) > 0] = 0.6
    mask = _ink(darkness, None)
    assert not (mask[(digits[0] | digits[1]) > 0]).any()


def test_a_small_digit_against_an_unfound_line_stays() -> None:
    # The 5 px line (its `line_width` 9) with a "0" 24 px tall, under three line widths, hanging from it: 60 %
    # of the zero's ink lies within 1.5 line widths of the line's course, but it stands off the line by its
    # whole height; the line goes.
    mask = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.line(mask, START, END, 255, 5)
    zero = np.zeros_like(mask)
    centre = (420, round(_line_y(420)) + 2 + 12)
    cv2.ellipse(zero, centre, (8, 12), 0, 0, 360, 255, 3)
    out = cut_long_blobs(np.maximum(mask, zero), max_length=120, straight=150)
    off_line = (zero > 0) & (cv2.dilate(mask, np.ones((9, 9), np.uint8)) == 0)
    assert np.count_nonzero(out[off_line]) >= 0.9 * np.count_nonzero(off_line)
    out[centre[1] - 16:centre[1] + 16, centre[0] - 12:centre[0] + 12] = 0
    assert not out.any()
