"""The level the drawn lines are cut at: clear of a grid whose lines differ in darkness, and in the
darkest channel when the brightest one shows less ink only because it is cut lower."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision._frame_lines import line_contrast, lines_mask


def _squared(line: float, grid: tuple[float, ...]) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A dark-ratio image: paper 1.0, a grid every 24 px whose lines take the darkness of `grid` in turn
    (squared paper with bolder lines), the frame at `line`."""
    ratio = np.ones((300, 420), np.float32)
    for j, v in enumerate(range(18, 420, 24)):
        ratio[:, v] = np.minimum(ratio[:, v], grid[j % len(grid)])
    for j, v in enumerate(range(18, 300, 24)):
        ratio[v, :] = np.minimum(ratio[v, :], grid[j % len(grid)])
    frame = (30.0, 30.0, 390.0, 270.0)
    cv2.rectangle(ratio, (30, 30), (390, 270), float(line), 2)
    return ratio, frame


def test_a_grid_with_darker_lines_stays_out_of_the_ink() -> None:
    # A pen at 0.6 on a grid whose lines are 0.82 and 0.87 in turn. The paper as sampled 3 bands inside
    # the frame: its median mark 0.87, 0.07 above the usual level (1 + 0.6) / 2 = 0.8, but every other
    # grid line, 0.82, only 0.02 above it: at 0.8 the bolder lines' darker stretches show as dashes. A
    # quarter of the places see them, so the level is halfway to them, (0.6 + 0.82) / 2 = 0.71.
    ratio, frame = _squared(0.6, (0.82, 0.87))
    level = line_contrast(ratio, frame, band=4)
    assert level == pytest.approx(0.71, abs=1e-6)
    assert np.all(ratio[30, 40:380] < level) and not np.any(ratio[42, 50:370] < level)


def test_an_even_grid_well_clear_of_the_level_leaves_it_halfway_to_the_paper() -> None:
    # The same pen on a grid all at 0.87: no mark within 0.03 of 0.8, the level stays halfway to the paper.
    ratio, frame = _squared(0.6, (0.87,))
    assert line_contrast(ratio, frame, band=4) == pytest.approx(0.8, abs=1e-6)


def test_pale_grey_inner_lines_are_kept_on_plain_paper() -> None:
    # Grey ink (all channels alike) on plain paper 240: the frame drawn at 180 (0.75), the rectangles
    # inside it at 202 (0.84), as a frame gone over harder than the inner lines. Both channels see the
    # same; the darkest is cut halfway to the paper, 0.875. The brightest was cut at most at 0.8 (kept
    # under a ruling's darkness, though the paper has none), which drops the inner lines: it showed less
    # ink only because it was cut lower, was chosen for that, and the inner lines were lost (bench_styles
    # seed 9000, blur, photo 3: the pulka rectangle's side missed, the paper's fold taken for a spoke).
    image = np.full((400, 500, 3), 240, np.uint8)
    frame = (30.0, 30.0, 470.0, 370.0)
    cv2.rectangle(image, (30, 30), (470, 370), (180, 180, 180), 3)
    for inset in (50, 100):
        cv2.rectangle(image, (30 + inset, 30 + inset), (470 - inset, 370 - inset), (202, 202, 202), 3)
    mask, *_ = lines_mask(image, frame, 3.0, band=4)
    assert mask[30, 60:440].all()
    assert mask[80, 100:400].all() and mask[130, 150:350].all()
