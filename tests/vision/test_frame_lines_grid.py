"""The lines' ink level on squared paper whose grid comes close to a pale line's darkness."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision._frame_lines import line_contrast


def _squared(line: float, grid: float) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A dark-ratio image: paper 1.0, a grid every 24 px at `grid` (through the windows that sample the
    paper 3 bands inside the frame, x 42 and 378, y 42 and 258 for band 4), the frame at `line`."""
    ratio = np.ones((300, 420), np.float32)
    for v in range(18, 420, 24):
        ratio[:, v] = grid
    for v in range(18, 300, 24):
        ratio[v, :] = grid
    frame = (30.0, 30.0, 390.0, 270.0)
    cv2.rectangle(ratio, (30, 30), (390, 270), float(line), 2)
    return ratio, frame


def test_a_grid_as_dark_as_halfway_stays_out_of_the_ink() -> None:
    # Pencil at 0.69 on a grid at 0.83 (a dark photo of squared paper): halfway to the paper's 1.0 is
    # 0.845, which would take the whole grid for ink; halfway to the grid, (0.69 + 0.83) / 2 = 0.76,
    # keeps the frame and drops the grid.
    ratio, frame = _squared(0.69, 0.83)
    level = line_contrast(ratio, frame, band=4)
    assert level == pytest.approx(0.76, abs=1e-6)
    assert np.all(ratio[30, 40:380] < level) and not np.any(ratio[42, 50:370] < level)


def test_a_grid_well_clear_of_the_level_leaves_it_halfway_to_the_paper() -> None:
    # The same pencil on a grid at 0.9, 0.055 above the usual level 0.845 (more than the 0.03 clearance):
    # the level stays halfway to the paper.
    ratio, frame = _squared(0.69, 0.9)
    assert line_contrast(ratio, frame, band=4) == pytest.approx(0.845, abs=1e-6)


def test_marks_darker_than_a_printed_grid_do_not_lower_the_level() -> None:
    # A pen at 0.55 (level halfway to the paper: 0.775) with marks at 0.72 where the paper is sampled:
    # darker than the 0.8 a printed grid is taken to keep, so the level stays halfway to the paper.
    ratio, frame = _squared(0.55, 0.72)
    assert line_contrast(ratio, frame, band=4) == pytest.approx(0.775, abs=1e-6)
