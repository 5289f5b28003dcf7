"""Speed (issue 5), session 26: stage 3 looks for the paper's printed lines on the mask shrunk to half first
(`_layout_fit._without_rulings`), and on the whole mask only where it sees some there. What it gives must be
what the paper's eraser gives on the whole mask: a plain sheet kept as it is, the lines of lined paper
(solid, or faint and seen in dashes) erased where they run into the margins and no drawn line crosses them.

Truth: masks drawn here (a frame, a drawn rectangle, writing; lined paper's rulings running on into both
margins), and which pixels are the rulings'.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._layout_fit import _without_rulings
from sheetscan.vision._paper_lines import without_rulings

_SIZE = (840, 1000)
_FRAME = (60.0, 60.0, 940.0, 780.0)
_SLACK = 6


def _sheet() -> np.ndarray:
    """The frame's lines, a drawn rectangle inside it, and a few digit-like strokes."""
    mask = np.zeros(_SIZE, np.uint8)
    cv2.rectangle(mask, (60, 60), (940, 780), 255, 4)
    cv2.rectangle(mask, (236, 236), (796, 556), 255, 4)
    for x in range(300, 700, 60):
        cv2.line(mask, (x, 400), (x + 10, 440), 255, 3)
    return mask


def _rulings(mask: np.ndarray, *, dash: int = 0) -> tuple[np.ndarray, list[int]]:
    """The sheet on lined paper: level rulings 3 px wide across the whole image, 36 px apart, clear of the
    drawn lines' rows; drawn in dashes `dash` px long with gaps of 3 when `dash` is given."""
    out = mask.copy()
    rows = [y for y in range(24, _SIZE[0], 36) if all(abs(y - side) > 12 for side in (60, 236, 556, 780))]
    for y in rows:
        if dash:
            for x in range(0, _SIZE[1], dash + 3):
                cv2.line(out, (x, y), (min(_SIZE[1] - 1, x + dash - 1), y), 255, 3)
        else:
            cv2.line(out, (0, y), (_SIZE[1] - 1, y), 255, 3)
    return out, rows


def test_a_plain_sheet_is_kept_as_it_is() -> None:
    mask = _sheet()
    assert np.array_equal(_without_rulings(mask, _FRAME, _SLACK), mask)
    assert np.array_equal(without_rulings(mask, _FRAME, _SLACK), mask)


def test_lined_papers_rulings_are_erased_as_on_the_whole_mask() -> None:
    for dash in (0, 12):
        lined, rows = _rulings(_sheet(), dash=dash)
        clean = _without_rulings(lined, _FRAME, _SLACK)
        assert np.array_equal(clean, without_rulings(lined, _FRAME, _SLACK)), dash
        # Every ruling is gone in the middle of the bands, away from the drawn lines.
        for y in rows:
            assert not clean[y - 1:y + 2, 120:200].any(), (dash, y)
        # The drawn rectangle stays whole.
        assert clean[236, 240:792].all() and clean[556, 240:792].all(), dash
