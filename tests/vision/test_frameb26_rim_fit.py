"""A frame drawn near the paper's edge: the side fit does not slide onto the paper's rim beyond it.

The preview's ink along a frame side drawn a few px inside the paper's edge also holds the table's rim
just outside the edge (a band of "ink": darker than the paper nearby). Where the outline as found lies
between the two, the nearest ink across the side was the rim's, and `refine_quad` fitted the side onto
the paper's edge (bench_styles seed 43000, motion, photo 5: 69 px off). A drawn line has paper on both
sides, so in the final fit (`off_rim`) only ink at most `_RIM_GAP` px outside a side with the table beyond
it counts.
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision._quad import refine_quad

FRAME = (56, 60, 340, 340)  # the frame's lines' centres: left, top, right, bottom (3 px wide)
PAPER_LEFT = 47  # the paper's left edge; the table (and its rim in the ink) lies left of it


def _scene() -> tuple[np.ndarray, np.ndarray]:
    """The grey (table, paper, frame) and the ink mask (the frame's lines and the rim's band)."""
    gray = np.full((400, 420), 60, np.uint8)
    gray[20:381, PAPER_LEFT:381] = 220
    mask = np.zeros_like(gray)
    left, top, right, bottom = FRAME
    for img, value in ((gray, 50), (mask, 255)):
        img[top - 1:bottom + 2, left - 1:left + 2] = value
        img[top - 1:bottom + 2, right - 1:right + 2] = value
        img[top - 1:top + 2, left - 1:right + 2] = value
        img[bottom - 1:bottom + 2, left - 1:right + 2] = value
    mask[20:381, PAPER_LEFT - 3:PAPER_LEFT] = 255  # the rim: just outside the paper's edge
    return gray, mask


def _found() -> np.ndarray:
    """The outline as found: its left side between the rim and the frame's left line (closer to the rim)."""
    _, top, right, bottom = FRAME
    return np.array([[49, top - 1], [right + 1, top - 1], [right + 1, bottom + 1], [49, bottom + 1]], float)


def test_side_beside_the_rim_fits_the_frame_line() -> None:
    gray, mask = _scene()
    fit = refine_quad(mask, _found(), band=10.0, gray=gray, off_rim=True)
    left = FRAME[0]
    assert abs(fit[0, 0] - left) <= 1.0 and abs(fit[3, 0] - left) <= 1.0
    # The other sides stay on their lines.
    assert abs(fit[1, 0] - FRAME[2]) <= 1.0 and abs(fit[0, 1] - FRAME[1]) <= 1.0
    assert abs(fit[2, 1] - FRAME[3]) <= 1.0


def test_without_the_grey_the_rim_takes_the_fit() -> None:
    """The case the rule is for: the nearest ink across that side is the rim (fitted without the rule:
    the fits the frame search weighs outlines by), 9 px outside the frame's line."""
    gray, mask = _scene()
    for fit in (refine_quad(mask, _found(), band=10.0), refine_quad(mask, _found(), band=10.0, gray=gray)):
        assert fit[0, 0] < PAPER_LEFT and fit[3, 0] < PAPER_LEFT


def test_frame_on_paper_all_round_is_fitted_as_before() -> None:
    """With paper beyond every side (no rim near), the grey changes nothing."""
    gray, mask = _scene()
    mask[:, :PAPER_LEFT] = 0
    gray[:, :PAPER_LEFT] = 220
    quad = _found()
    assert np.allclose(refine_quad(mask, quad, band=10.0, gray=gray, off_rim=True),
                       refine_quad(mask, quad, band=10.0))
