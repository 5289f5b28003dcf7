"""A small synthetic sheet with one drawn level line and its line mask, for the ink stage's tests of
what lies against a line."""

from __future__ import annotations

import numpy as np

from sheetscan.vision.ink import find_ink
from tests.vision._handwriting import blank, to_bgr


def sheet_with_line() -> tuple[np.ndarray, np.ndarray]:
    """A 1200 × 1200 sheet with a drawn level line (rows 599-602, x 300-899, 60 % darker than the paper)
    and its line mask (rows 597-604): the darkness to add strokes to, and the mask."""
    darkness = np.zeros((1200, 1200))
    darkness[599:603, 300:900] = 0.6
    lines = np.zeros((1200, 1200), np.uint8)
    lines[597:605, 300:900] = 255
    return darkness, lines


def ink_of(darkness: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """The ink stage's mask of the sheet with `darkness` on white paper, given the line mask."""
    return find_ink(to_bgr(blank(1200, 1200) * (1.0 - darkness)[..., None]), line_mask=lines).mask
