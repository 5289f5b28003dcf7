"""Stage 2: of two outlines of one frame drawn as well on the ridges, one closed along a step in the light
(the paper's edge) and one clear of it, the one clear of it is the frame (`_frame_search._drawn_better`).

Small synthetic ratio images (400 × 400: 1 = paper, 0.3 = ink, as `dark_ratio` gives them), the outlines
built by hand. The paper's left edge slants towards the frame's left side (8 px off it at the frame's top,
2 % of the image as in the photo below; 1 px at its bottom), the table beyond it dark, and the paper's rim
a dark line along the edge. (The rendered case behind it: bench_styles seed 36000, photo 2, usual, glare
and thin, where a pen lying across the paper's edge beside the frame closed an outline along the edge at
the faintest level, 77 px off.)
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._frame_search import _drawn_better
from sheetscan.vision._quad import FrameCandidate, quad_area

_FRAME = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 300.0], [100.0, 300.0]])
_EDGE_TOP, _EDGE_BOTTOM = (92.0, 100.0), (99.0, 300.0)  # the paper's left edge, through these points
_ALONG_EDGE = np.array([[92.0, 100.0], [300.0, 100.0], [300.0, 300.0], [100.0, 300.0]])
"""The first outline: the frame's top side run on to the paper's edge, its left side along the edge."""


def _edge_x(y: np.ndarray | float, at: float = 0.0) -> np.ndarray:
    """The x of the paper's left edge at `y` (shifted by `at`)."""
    (x0, y0), (x1, y1) = _EDGE_TOP, _EDGE_BOTTOM
    return np.asarray(x0 + (x1 - x0) * (np.asarray(y) - y0) / (y1 - y0) + at)


def _images(frame: np.ndarray = _FRAME, *, rim: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The ratio (table beyond the edge dark, the rim and the frame drawn, the frame's top side run on to
    the edge as a squared paper's grid line runs on from it) and the ridges (the table told back to paper:
    its step is no line; the rim and the frame are)."""
    ys, xs = np.mgrid[0:400, 0:400]
    table = xs < _edge_x(ys)
    ridged = np.ones((400, 400), np.float32)
    cv2.polylines(ridged, [frame.astype(np.int32)], True, 0.3, 3)
    cv2.line(ridged, (round(_EDGE_TOP[0]), 100), (100, 100), 0.3, 3)
    if rim:
        along = np.abs(xs - _edge_x(ys, 1.0)) <= 1.0
        ridged[along & (ys > 20) & (ys < 380)] = 0.3
    ratio = ridged.copy()
    ratio[table] = 0.3
    ridged[table] = 1.0
    return ratio, ridged


def _outline(quad: np.ndarray, ridged: np.ndarray) -> tuple[FrameCandidate, np.ndarray]:
    mask = np.where(ridged < 0.78, 255, 0).astype(np.uint8)
    return FrameCandidate(quad=quad, coverage=1.0, area=quad_area(quad), touches=()), mask


def _grey(ratio: np.ndarray) -> np.ndarray:
    """The preview's grey: paper 200, table and ink 60."""
    return np.where(ratio < 0.78, 60, 200).astype(np.uint8)


def test_the_outline_clear_of_the_step_wins_though_smaller() -> None:
    ratio, ridged = _images()
    chosen, again = _outline(_ALONG_EDGE, ridged), _outline(_FRAME, ridged)
    assert again[0].area < chosen[0].area
    assert _drawn_better(again, chosen, ratio, ridged, _grey(ratio))


def test_not_where_the_outline_found_again_runs_along_the_step_too() -> None:
    # The frame drawn along the paper's edge: both outlines have their left side on the step.
    ratio, ridged = _images()
    along = np.array([[93.0, 100.0], [300.0, 100.0], [300.0, 300.0], [100.0, 300.0]])
    chosen = _outline(_ALONG_EDGE, ridged)
    again = _outline(along + np.array([[0.0, 2.0], [0.0, 2.0], [0.0, 0.0], [0.0, 0.0]]), ridged)
    assert not _drawn_better(again, chosen, ratio, ridged, _grey(ratio))


def test_not_a_smaller_outline_beyond_the_fits_reach() -> None:
    # An outline found again well inside (a ruling 40 px in, drawn whole): another outline, not the same
    # frame seen off the step: the first stays.
    inner = np.array([[140.0, 100.0], [300.0, 100.0], [300.0, 300.0], [140.0, 300.0]])
    ratio, ridged = _images()
    cv2.line(ridged, (140, 100), (140, 300), 0.3, 3)
    cv2.line(ratio, (140, 100), (140, 300), 0.3, 3)
    chosen, again = _outline(_ALONG_EDGE, ridged), _outline(inner, ridged)
    assert not _drawn_better(again, chosen, ratio, ridged, _grey(ratio))


def test_not_where_both_are_fitted_to_the_same_lines() -> None:
    # No rim drawn along the edge: the first outline's side, found along the step, is fitted onto the
    # frame's own line, as the outline found again is: the first stays.
    ratio, ridged = _images(rim=False)
    chosen, again = _outline(_ALONG_EDGE, ridged), _outline(_FRAME, ridged)
    assert not _drawn_better(again, chosen, ratio, ridged, _grey(ratio))
