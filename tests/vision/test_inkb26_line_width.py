"""inkb26: the drawn lines' width (`_line_removal.line_width`) from every other row of the sheet."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision._line_removal import line_width


def _grid(thickness: int, *, size: int = 400, step: int = 80) -> np.ndarray:
    """A sheet with level and upright lines `thickness` px thick every `step` px (255 = line)."""
    lines = np.zeros((size, size), np.uint8)
    for start in range(20, size - thickness, step):
        lines[start:start + thickness, :] = 255
        lines[:, start:start + thickness] = 255
    return lines


@pytest.mark.parametrize("thickness", [3, 5, 7, 9, 11])
def test_a_thicker_grid_measures_wider_and_about_its_thickness(thickness: int) -> None:
    width = line_width(_grid(thickness))
    # Twice the half-width and 2 px, odd: a line t px thick measures t + 1 ... t + 4 (the chamfer distance
    # of its middle is about half of t, rounded up), never below 3.
    assert width % 2 == 1
    assert thickness + 1 <= width <= thickness + 4
    assert line_width(_grid(thickness + 4)) > width


@pytest.mark.parametrize("thickness", [3, 4, 7, 8])
@pytest.mark.parametrize("top", [20, 21])
def test_level_lines_measure_their_thickness_whichever_rows_they_lie_on(thickness: int, top: int) -> None:
    # Not every pixel is looked at: level lines starting on an odd row or an even one measure alike (sampled
    # by rows, the middle row of a line of odd thickness was left out on every other sheet).
    lines = np.zeros((300, 300), np.uint8)
    for start in range(top, 280 - thickness, 60):
        lines[start:start + thickness, 10:290] = 255
    width = line_width(lines)
    assert thickness + 1 <= width <= thickness + 4
    assert width == line_width(np.ascontiguousarray(lines.T))


def test_no_lines_measure_the_least_width() -> None:
    assert line_width(np.zeros((30, 30), np.uint8)) == 3


@pytest.mark.parametrize("thickness", [3, 5, 7])
@pytest.mark.parametrize("size", [400, 401, 406])
def test_slanting_lines_measure_as_a_level_line_as_thick(thickness: int, size: int) -> None:
    # Lines at 45 degrees either way, on sheets whose widths take different sampling steps.
    lines = np.zeros((size, size), np.uint8)
    for offset in range(-300, 301, 60):
        cv2.line(lines, (offset, 0), (offset + size, size), 255, thickness)
    mirrored = np.ascontiguousarray(lines[:, ::-1])
    level = np.zeros((size, size), np.uint8)
    for start in range(20, size - thickness, 60):
        level[start:start + thickness, :] = 255
    assert abs(line_width(lines) - line_width(level)) <= 2
    assert line_width(mirrored) == line_width(lines)
