"""Stage 4, ink: handwriting apart from paper, light, shadow and drawn lines (small synthetic sheets).

The truth is where the test itself put ink (MNIST test digits, `_handwriting`), never the code's output.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision.ink import find_ink
from tests.vision._handwriting import Writer, blank, put_ink, to_bgr

BLACK_PEN = (0.12, 0.12, 0.12)
VIOLET_PEN = (0.55, 0.15, 0.45)


def _sheet(pen: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """A 240×400 sheet with four digits; returns the canvas and where the ink was put (0..1)."""
    canvas = blank(240, 400)
    truth = np.zeros((240, 400))
    writer = Writer(height=36, seed=2, pen=pen)
    x = 30
    for digit in (3, 5, 8, 0):
        ink = writer.glyph(digit)
        put_ink(canvas, ink, x, 100, pen)
        truth[100:100 + ink.shape[0], x:x + ink.shape[1]] = ink
        x += ink.shape[1] + 60
    return canvas, truth


def _light_and_shadow(canvas: np.ndarray) -> np.ndarray:
    """A lamp on the left (paper goes from full to 55 % brightness) and a soft shadow across the top."""
    h, w = canvas.shape[:2]
    light = np.linspace(1.0, 0.55, w)[None, :] * np.ones((h, 1))
    shadow = np.ones((h, w))
    shadow[: h // 3] = 0.7
    shadow = cv2.GaussianBlur(shadow, (0, 0), 12)
    return canvas * (light * shadow)[..., None]


def _scores(mask: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """Share of clear ink found, and share of far-from-ink paper wrongly taken for ink."""
    ink = truth > 0.5
    near = cv2.dilate((truth > 0.05).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    found = float((mask[ink] > 0).mean())
    false = float((mask[~near] > 0).mean())
    return found, false


@pytest.mark.parametrize("pen", [(0.55, 0.25, 0.1), BLACK_PEN, VIOLET_PEN])
def test_ink_is_found_under_uneven_light_and_shadow(pen: tuple[float, float, float]) -> None:
    canvas, truth = _sheet(pen)
    image = to_bgr(_light_and_shadow(canvas))
    ink = find_ink(image, grid_length=0.3)
    found, false = _scores(ink.mask, truth)
    assert found >= 0.9, f"found only {found:.1%} of the ink"
    assert false <= 0.002, f"{false:.2%} of the paper taken for ink"
    # Each digit is one blob (the four digits are 60 px apart).
    count, _ = cv2.connectedComponents(ink.mask)
    assert count - 1 == 4


def test_strength_is_ink_bright_on_dark_paper() -> None:
    canvas, truth = _sheet(BLACK_PEN)
    ink = find_ink(to_bgr(_light_and_shadow(canvas)), grid_length=0.3)
    assert ink.strength[truth == 0].mean() < 10  # paper is near 0 everywhere, shadow or not
    assert ink.strength[truth > 0.9].mean() > 150


def test_drawn_lines_are_removed_but_a_digit_crossing_one_stays_whole() -> None:
    canvas, truth = _sheet((0.55, 0.25, 0.1))
    lines = np.zeros(truth.shape, dtype=np.uint8)
    # A pen-drawn horizontal line through the middle of every digit, and a vertical one far from them.
    cv2.line(lines, (0, 118), (399, 118), 255, 3)
    cv2.line(lines, (385, 0), (385, 239), 255, 3)
    drawn = canvas.copy()
    drawn[lines > 0] = drawn[lines > 0] * 0.3 + np.array((0.5, 0.2, 0.1)) * 0.7
    ink = find_ink(to_bgr(drawn), line_mask=lines, grid_length=0.3)
    # No line left away from the digits.
    far = cv2.dilate((truth > 0.05).astype(np.uint8), np.ones((15, 15), np.uint8)) == 0
    assert not ink.mask[far & (lines > 0)].any()
    # Every digit is still a single blob although the line cut through it.
    count, _labels = cv2.connectedComponents(ink.mask)
    assert count - 1 == 4
    found, _ = _scores(ink.mask, truth)
    assert found >= 0.9


def test_blank_paper_has_no_ink() -> None:
    image = to_bgr(_light_and_shadow(blank(200, 300)))
    noisy = np.clip(image.astype(np.int16) + np.random.default_rng(1).normal(0, 4, image.shape), 0, 255)
    ink = find_ink(noisy.astype(np.uint8))
    assert not ink.mask.any()
    assert ink.stroke_width == 0.0


def test_stroke_width_follows_the_pen() -> None:
    # Strokes as long as a digit is tall (longer blobs would be taken for drawn lines).
    thin = np.full((240, 300), 240, np.uint8)
    thick = thin.copy()
    cv2.line(thin, (100, 100), (100, 130), 30, 3)
    cv2.line(thick, (100, 100), (100, 130), 30, 9)
    assert find_ink(thin, grid_length=0.3).stroke_width < find_ink(thick, grid_length=0.3).stroke_width
    assert find_ink(thick, grid_length=0.3).stroke_width == pytest.approx(9, abs=2.5)


def test_squared_paper_ruling_is_removed_and_digits_stay_whole() -> None:
    # 600 × 900 squared paper, light blue ruling every 30 px, four 36 px digits written across it.
    canvas = blank(600, 900)
    for k in range(0, 900, 30):
        canvas[:, k:k + 2] = canvas[:, k:k + 2] * 0.6 + np.array((0.8, 0.55, 0.35)) * 0.4
    for k in range(0, 600, 30):
        canvas[k:k + 2, :] = canvas[k:k + 2, :] * 0.6 + np.array((0.8, 0.55, 0.35)) * 0.4
    truth = np.zeros((600, 900))
    writer = Writer(height=36, seed=5)
    x = 100
    for digit in (2, 7, 4, 9):
        ink = writer.glyph(digit)
        put_ink(canvas, ink, x, 250, writer.pen)
        truth[250:250 + ink.shape[0], x:x + ink.shape[1]] = ink
        x += ink.shape[1] + 80
    ink = find_ink(to_bgr(canvas))
    found, false = _scores(ink.mask, truth)
    assert found >= 0.9 and false <= 0.002
    count, _ = cv2.connectedComponents(ink.mask)
    assert count - 1 == 4


def test_a_faint_pen_whose_stroke_fades_stays_one_stroke() -> None:
    # A pale pen on a 1200 px sheet (digits about 30 px, a fortieth of it): a "1" whose upper 20 px
    # are 38 % darker than the paper and lower 14 px 26 % (below the sheet-wide strong threshold of
    # 32 %, above the faintest 20 %, and farther than the hysteresis reach of 3 px from the dark
    # part). It is one stroke, so the mask must hold it as one blob of its whole 34 px length.
    canvas = blank(1200, 1200)
    darkness = np.zeros((1200, 1200))
    darkness[500:520, 598:602] = 0.38
    darkness[520:534, 598:602] = 0.26
    mask = find_ink(to_bgr(canvas * (1.0 - darkness)[..., None])).mask
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    assert count - 1 == 1, f"{count - 1} blobs"
    assert int(stats[1, cv2.CC_STAT_HEIGHT]) >= 33


def test_faint_squared_paper_alone_does_not_pass() -> None:
    # Ruling 26 % darker than the paper with no writing near it stays below the threshold: only
    # ink that passes the sheet's own threshold lowers it around itself.
    canvas = blank(200, 200)
    darkness = np.zeros((200, 200))
    darkness[50:52, 20:40] = 0.26  # short faint dashes, too short to be taken for ruling lines
    darkness[120:140, 100:102] = 0.26
    mask = find_ink(to_bgr(canvas * (1.0 - darkness)[..., None]), max_extent=1.0).mask
    assert not mask.any()


def test_ruling_beside_a_drawn_line_does_not_pass() -> None:
    # A pencil line 45 % darker than the paper (the sheet's own drawn line, given as the line mask) on a
    # 1200 px sheet, with squared paper's ruling beside it: a level dash and an upright one, 28 % darker,
    # 12 px from it (beyond what the ink stage drops as the line's fringe, within a digit's reach). The
    # ruling alone stays below the strong threshold (32 %); were the drawn line taken for writing, the
    # threshold around it would fall to 0.6 × 45 % = 27 % and the ruling would pass, to be read as a
    # "1" or a "4".
    canvas = blank(1200, 1200)
    darkness = np.zeros((1200, 1200))
    darkness[599:603, 300:900] = 0.45
    darkness[615:617, 500:540] = 0.28
    darkness[568:587, 700:702] = 0.28
    lines = np.zeros((1200, 1200), np.uint8)
    lines[598:604, 300:900] = 255
    mask = find_ink(to_bgr(canvas * (1.0 - darkness)[..., None]), line_mask=lines).mask
    assert not mask.any(), f"{int(np.count_nonzero(mask))} px of ruling taken for ink"


def test_a_faint_digit_beside_a_drawn_line_keeps_its_own_threshold() -> None:
    # The drawn line sets no threshold, but a faint writer's own strokes still do: a stroke whose
    # dark part passes the strong threshold keeps its fainter part beside the line too.
    canvas = blank(1200, 1200)
    darkness = np.zeros((1200, 1200))
    darkness[590:594, 300:900] = 0.45
    darkness[600:620, 598:602] = 0.38
    darkness[620:634, 598:602] = 0.26
    lines = np.zeros((1200, 1200), np.uint8)
    lines[589:595, 300:900] = 255
    mask = find_ink(to_bgr(canvas * (1.0 - darkness)[..., None]), line_mask=lines).mask
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    assert count - 1 == 1, f"{count - 1} blobs"
    assert int(stats[1, cv2.CC_STAT_HEIGHT]) >= 33
