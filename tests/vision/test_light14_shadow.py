"""Stage 2 under a hard shadow: which of two outlines, the first search's and the one found again on the
ridges (`sheet._drawn_better`), is the sheet's frame.

Small synthetic ratio images (400 × 400: 1 = paper, 0.3 = ink, as `dark_ratio` gives them); the outlines
are built by hand. (The rendered case behind them: bench_styles seed 17000, shadow, photo 2, where the
shadow's edge crosses a frame drawn whole and the search on the ridges found the paper's rim.)
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._quad import FrameCandidate
from sheetscan.vision.sheet import _drawn_better

_FRAME = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 300.0], [100.0, 300.0]])
_PAPER = np.array([[40.0, 40.0], [360.0, 40.0], [360.0, 360.0], [40.0, 360.0]])


def _ratio() -> np.ndarray:
    """Paper with the frame drawn whole (3 px), and the paper's rim drawn on three sides whole and on the
    fourth (the bottom) for 80 % of its length."""
    ratio = np.ones((400, 400), np.float32)
    cv2.polylines(ratio, [_FRAME.astype(np.int32)], True, 0.3, 3)
    rim = _PAPER.astype(np.int32)
    for a, b in ((rim[0], rim[1]), (rim[1], rim[2]), (rim[3], rim[0])):
        cv2.line(ratio, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 0.3, 3)
    cv2.line(ratio, (40, 360), (296, 360), 0.3, 3)
    return ratio


def _outline(quad: np.ndarray, ratio: np.ndarray) -> tuple[FrameCandidate, np.ndarray]:
    mask = np.where(ratio < 0.78, 255, 0).astype(np.uint8)
    area = float(cv2.contourArea(quad.astype(np.float32)))
    return FrameCandidate(quad=quad, coverage=1.0, area=area, touches=()), mask


def test_a_frame_drawn_whole_keeps_its_place_beside_a_larger_outline() -> None:
    ratio = _ratio()
    # The frame as the first search found it: its corners 8 px out of its lines (the outside of its
    # blob), so that its sides as found lie off the ink; the larger outline is the paper's rim.
    found = _FRAME + np.array([[-8.0, -8.0], [8.0, -8.0], [8.0, 8.0], [-8.0, 8.0]])
    chosen, again = _outline(found, ratio), _outline(_PAPER, ratio)
    assert not _drawn_better(again, chosen, ratio, ratio, 400)
    # ... and the rim drawn whole as well: both sides as drawn, no side of the frame on a step.
    whole = ratio.copy()
    cv2.line(whole, (296, 360), (360, 360), 0.3, 3)
    assert not _drawn_better(_outline(_PAPER, whole), _outline(found, whole), whole, whole, 400)


def test_the_larger_outline_wins_where_a_step_made_a_side_of_the_first() -> None:
    # The first outline: the frame cut short at y = 200 by a shadow's edge, which the ratios see as a
    # band of ink across the sheet (0.4); the outline found again is the frame.
    ratio = _ratio()
    ratio[198:203, 60:340] = 0.4
    cut = np.array([[100.0, 200.0], [300.0, 200.0], [300.0, 300.0], [100.0, 300.0]])
    chosen, again = _outline(cut, ratio), _outline(_FRAME, _ratio())
    # On the ridges the band is paper (the frame's lines crossing it kept): the cut side is undrawn.
    ridged = ratio.copy()
    ridged[198:203, 60:340] = 1.0
    ridged[198:203, 98:103] = 0.3
    ridged[198:203, 298:303] = 0.3
    assert _drawn_better(again, chosen, ratio, ridged, 400)
    # Where the band's ratio was only raised to ink at the ridges' level (a soft penumbra), both are
    # drawn whole on the ridges: the larger wins, as the cut side lies on the step ...
    ridged[198:203, 60:340] = 0.8
    assert _drawn_better(again, chosen, ratio, ridged, 400)
    # ... and not where the band is a drawn line (no step: the ridges are the ratios).
    assert not _drawn_better(again, chosen, ratio, ratio, 400)


def test_a_larger_outline_drawn_worse_does_not_win() -> None:
    ratio = _ratio()
    # The first outline: the frame whose top side lies along a step (`ridged` above `ratio` there) but
    # is ink on the ridges as well; the larger one is the rim with its bottom side 80 % drawn.
    stepped = ratio.copy()
    stepped[97:104, 100:300] = 0.2
    chosen, again = _outline(_FRAME, ratio), _outline(_PAPER, ratio)
    assert not _drawn_better(again, chosen, stepped, ratio, 400)

