"""Stage 2: a frame drawn in fine pencil seen only in dashes, and a lined paper's red margin beside it.

Synthetic photos (2400 × 1800 BGR, the preview sees them at half size); the truth is the frame as drawn.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from sheetscan.vision._drawn_frame import _square_cornered
from sheetscan.vision.photo import load_photo
from sheetscan.vision.sheet import find_sheet

_SIZE = (1800, 2400)
_PAPER = np.array([[300.0, 200.0], [2150.0, 160.0], [2200.0, 1640.0], [260.0, 1680.0]])
_FRAME = np.array([[480.0, 340.0], [1960.0, 310.0], [1990.0, 1500.0], [460.0, 1530.0]])
_PAPER_GREY = 225


def _pt(p: np.ndarray) -> tuple[int, int]:
    return round(float(p[0])), round(float(p[1]))


def _paper_on_a_table(seed: int) -> np.ndarray:
    """Paper with a little grain on a dark table."""
    rng = np.random.default_rng(seed)
    image = np.full((*_SIZE, 3), (55, 70, 80), np.uint8)
    cv2.fillPoly(image, [_PAPER.astype(np.int32)], (_PAPER_GREY,) * 3)
    grain = rng.normal(0.0, 3.0, _SIZE)[..., None]
    return np.clip(image + grain, 0, 255).astype(np.uint8)


def _dashed(image: np.ndarray, a: np.ndarray, b: np.ndarray, grey: int, *, on: float, off: float) -> None:
    """A straight pencil line from `a` to `b` drawn in dashes `on` px long with `off` px gaps."""
    length = float(np.hypot(*(b - a)))
    step = (b - a) / length
    start = 0.0
    while start < length:
        stop = min(length, start + on)
        cv2.line(image, _pt(a + start * step), _pt(a + stop * step), (grey,) * 3, 3, cv2.LINE_AA)
        start = stop + off


def _sheet_lines(image: np.ndarray, draw: object) -> None:
    """The frame, a rectangle inside it and the spokes joining their corners, each with `draw`."""
    inner = _FRAME.mean(axis=0) + 0.6 * (_FRAME - _FRAME.mean(axis=0))
    for quad in (_FRAME, inner):
        for k in range(4):
            draw(image, quad[k], quad[(k + 1) % 4])  # type: ignore[operator]
    for outer_corner, inner_corner in zip(_FRAME, inner, strict=True):
        draw(image, outer_corner, inner_corner)  # type: ignore[operator]


def _encoded(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image)
    assert ok
    return data.tobytes()


def test_a_frame_seen_only_in_dashes_is_found() -> None:
    # Fine pencil at 0.87 of the paper (196 on 225), in dashes 40 px long with 30 px gaps (15 px at the
    # preview: the small closing does not join them), as bench_styles seed 11000, thin, photo 1: no
    # level closes an outline, and on 5616ee0 the photo gave no sheet. The dashes of each side lie on
    # one straight line: the frame is the drawn one, within 6 px (0.25 % of the photo).
    image = _paper_on_a_table(1)
    _sheet_lines(image, lambda im, a, b: _dashed(im, a, b, 196, on=40.0, off=30.0))
    sheet = find_sheet(load_photo(_encoded(image)))
    assert float(np.abs(sheet.corners - _FRAME).max()) < 6.0


@pytest.mark.parametrize(("corner_deg", "kept"), [(90.0, True), (50.0, True), (40.0, False), (7.0, False)])
def test_joined_dashes_close_only_outlines_with_near_right_corners(corner_deg: float, kept: bool) -> None:
    # A parallelogram with corners of corner_deg and 180 - corner_deg: within 45 degrees of a right angle
    # it may be a photographed rectangle; a sliver (the table's grain joined into lines: a wooden table
    # gave corners of 7 and 170 degrees) is not.
    t = math.radians(corner_deg)
    side = 300.0 * np.array([math.cos(t), math.sin(t)])
    quad = np.array([[0.0, 0.0], [500.0, 0.0], np.array([500.0, 0.0]) + side, side])
    assert _square_cornered(quad) is kept


def test_a_red_margin_beside_the_frame_is_not_its_side() -> None:
    # Lined paper's red margin runs 24 px outside the frame's left side (12 px at the preview), from a
    # little above the frame to a little below it, and the frame's top and bottom sides overshoot their
    # left corners across it (as drawn freehand): the outline's hull then lies on the margin, as in
    # bench_styles seed 11000, photo 5, dark and blur (the left side 11-16 px off at the preview on
    # 5616ee0). One pen drew the frame: the coloured line is not its side.
    image = _paper_on_a_table(3)
    margin = _FRAME[[0, 3]] + np.array([[-24.0, -40.0], [-24.0, 40.0]])
    cv2.line(image, _pt(margin[0]), _pt(margin[1]), (120, 110, 230), 3, cv2.LINE_AA)
    _sheet_lines(image, lambda im, a, b: cv2.line(im, _pt(a), _pt(b), (110, 110, 110), 3, cv2.LINE_AA))
    for corner, along in ((_FRAME[0], _FRAME[0] - _FRAME[1]), (_FRAME[3], _FRAME[3] - _FRAME[2])):
        tip = corner + 34.0 * along / float(np.hypot(*along))
        cv2.line(image, _pt(corner), _pt(tip), (110, 110, 110), 3, cv2.LINE_AA)
    sheet = find_sheet(load_photo(_encoded(image)))
    assert float(np.abs(sheet.corners - _FRAME).max()) < 6.0
