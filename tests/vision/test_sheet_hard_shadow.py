"""Stage 2 under a hard shadow: the edge of a shadow cast across the sheet (a phone held over it) is a
step in the light, not a drawn line.

Synthetic photos (2400 × 1800 BGR; the preview sees them at half size). The truth is the frame as drawn,
and the ratios a drawn line and the paper have to the paper around them, computed by hand below. (The
rendered cases behind them: bench_styles seed 16000, shadow, photos 0, 2 and 6, where the shadow's edge
closed the outline taken for the sheet.)
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision._lines import dark_ratio, ridges_only
from sheetscan.vision.photo import load_photo
from sheetscan.vision.sheet import find_sheet

_SIZE = (1800, 2400)
_PAPER = np.array([[300.0, 200.0], [2150.0, 160.0], [2200.0, 1640.0], [260.0, 1680.0]])
_FRAME = np.array([[480.0, 340.0], [1960.0, 310.0], [1990.0, 1500.0], [460.0, 1530.0]])
_PAPER_GREY = 225
_INK_GREY = 140  # grey pencil, 0.62 of the paper (a black pen's frame stands out of the step's band)
_LIGHT = 0.45  # the shadow keeps this share of the light (bench_styles' shadow: 0.4-0.5)


def _pt(p: np.ndarray) -> tuple[int, int]:
    return round(float(p[0])), round(float(p[1]))


def _sheet(seed: int) -> np.ndarray:
    """Paper with a little grain on a dark table, the frame, a rectangle inside it and the spokes joining
    their corners drawn in grey pencil (5 px)."""
    rng = np.random.default_rng(seed)
    image = np.full((*_SIZE, 3), (55, 70, 80), np.uint8)
    cv2.fillPoly(image, [_PAPER.astype(np.int32)], (_PAPER_GREY,) * 3)
    inner = _FRAME.mean(axis=0) + 0.6 * (_FRAME - _FRAME.mean(axis=0))
    for quad in (_FRAME, inner):
        cv2.polylines(image, [np.round(quad).astype(np.int32)], True, (_INK_GREY,) * 3, 5, cv2.LINE_AA)
    for a, b in zip(_FRAME, inner, strict=True):
        cv2.line(image, _pt(a), _pt(b), (_INK_GREY,) * 3, 5, cv2.LINE_AA)
    grain = rng.normal(0.0, 3.0, _SIZE)[..., None]
    return np.clip(image + grain, 0, 255).astype(np.uint8)


def _shadowed(image: np.ndarray, a: tuple[float, float], b: tuple[float, float]) -> np.ndarray:
    """`image` with everything left of the directed line a -> b (the side towards the photo's top
    left) lit at `_LIGHT`, the shadow's edge a few pixels soft."""
    ys, xs = np.mgrid[0 : _SIZE[0], 0 : _SIZE[1]].astype(np.float32)
    (ax, ay), (bx, by) = a, b
    side = (bx - ax) * (ys - ay) - (by - ay) * (xs - ax)
    lit = (side >= 0).astype(np.float32)
    lit = cv2.GaussianBlur(lit, (0, 0), 3.0)
    light = _LIGHT + (1.0 - _LIGHT) * lit
    return np.clip(image * light[..., None], 0, 255).astype(np.uint8)


def _encoded(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image)
    assert ok
    return bytes(data.tobytes())


@pytest.mark.parametrize(("seed", "edge"), [
    # The shadow's edge runs across the frame's left and right sides below its top side: with the
    # frame's sides and bottom it closes an outline (the frame cut short at the top).
    (1, ((0.0, 1000.0), (2400.0, 300.0))),
    (2, ((0.0, 600.0), (2400.0, 500.0))),
    # ... and across the frame's top and bottom sides, steep, its right part in the shadow.
    (3, ((1500.0, 0.0), (1100.0, 1800.0))),
])
def test_the_frame_is_found_across_a_hard_shadow(seed: int, edge: tuple[tuple[float, float], ...]) -> None:
    photo = load_photo(_encoded(_shadowed(_sheet(seed), *edge)))
    sheet = find_sheet(photo)
    # The frame's corners as drawn, within 1 % of the photo's size (the pen is 5 px wide).
    error = float(np.hypot(*(np.asarray(sheet.corners, np.float64) - _FRAME).T).max())
    assert error < 24.0, (np.round(sheet.corners).tolist(), error)


def test_ridges_only_keeps_lines_and_drops_the_step() -> None:
    # A grey image: paper 200; a vertical drawn line 3 px wide at 60 (ratio 60 / 200 = 0.3 of the paper
    # in the light); everything right of column 200 in a shadow keeping 0.45 of the light (paper 90, the
    # line there 27: still 0.3 of the paper around it). The second line lies at columns 300-302.
    image = np.full((200, 400), 200, np.uint8)
    image[:, 100:103] = 60
    image[:, 300:303] = 60
    image[:, 200:] = np.round(image[:, 200:] * 0.45).astype(np.uint8)
    ratio = dark_ratio(image, line_width=3.0)
    # The premise: the paper estimate (the brightest nearby) takes the lit paper over the step, so the
    # first pixels of the shadowed paper are "ink" (90 / 200 = 0.45 of the paper, under 0.78).
    assert float(ratio[100, 201]) < 0.6
    ridges = ridges_only(image, ratio, line_width=3.0)
    # The shadowed paper is paper again, 8 px off the lines: 90 / 90 = 1 where the two paper estimates
    # differ by a step (ratio under 0.85 of the step-free one), and where they differ by less, the ratio
    # kept is over 0.85 (of a step-free 1): no ink at the stage's faintest usual level, 0.78.
    paper = np.ones(400, bool)
    for column in (100, 300):
        paper[column - 8 : column + 11] = False
    assert float(ridges[:, paper].min()) >= 0.85
    assert float(ridges[100, 201]) == pytest.approx(1.0)
    # Both lines keep the ratio they had, 0.3 of the paper (60 / 200, 27 / 90).
    for column in (100, 300):
        assert float(ridges[100, column + 1]) == pytest.approx(float(ratio[100, column + 1]))
        assert float(ridges[100, column + 1]) == pytest.approx(0.3, abs=0.02)
    # And nothing is made darker anywhere.
    assert bool(np.all(ridges >= ratio))
