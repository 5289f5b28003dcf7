"""Stage 2, which outline is the drawn frame (`_frame_choice.choose_frame`): of two outlines seen at as
many ink levels and about as big, the one drawn whole along every side goes before one closed over a gap.

Small synthetic masks, 800 × 700 px. (The rendered case behind it: bench_styles seed 27000, dark, photo 4,
lined paper: the frame seen whole at one level, and at another an outline 2 % bigger closed along a spoke
and the paper's margin, which was taken for the sheet and read as a 3-player one.)
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._arrays import F64, U8, f64
from sheetscan.vision._frame_choice import choose_frame
from sheetscan.vision._quad import FrameCandidate, quad_area, side_coverage

_FRAME = f64([[200, 100], [700, 100], [700, 600], [200, 600]])
# Reaches past the frame's top-right corner and closes along a chord (a spoke) from there to a point
# below the frame's bottom side; its left side runs beside the frame's (a ruling, the paper's margin).
_KITE = f64([[150, 90], [780, 90], [500, 610], [150, 610]])


def _drawn(quad: F64, gap: bool) -> U8:
    mask = np.zeros((700, 800), np.uint8)
    cv2.polylines(mask, [np.round(quad).astype(np.int32)], True, 255, 3)
    if gap:  # one side a tenth undrawn
        a, b = quad[1], quad[2]
        p, q = a + 0.45 * (b - a), a + 0.55 * (b - a)
        cv2.line(mask, (int(p[0]), int(p[1])), (int(q[0]), int(q[1])), 0, 7)
    return mask


def _candidate(quad: F64, gap: bool) -> tuple[FrameCandidate, U8]:
    mask = _drawn(quad, gap)
    coverage = min(side_coverage(mask, quad, tolerance=2.0))
    area = quad_area(quad)
    return FrameCandidate(quad, coverage, area, ()), mask


def test_the_outline_drawn_whole_beats_one_as_big_closed_over_a_gap() -> None:
    frame, kite = _candidate(_FRAME, gap=False), _candidate(_KITE, gap=True)
    # The kite: 0.9 of its right side drawn; (630 + 350) / 2 * 520 = 254800 px², over the frame's
    # 500 * 500 = 250000, so that the bigger alone would be the kite.
    assert frame[0].coverage >= 0.98 and 0.85 < kite[0].coverage < 0.95
    assert kite[0].area > 0.9 * frame[0].area
    dark = np.full((700, 800), 220, np.uint8)
    chosen = choose_frame([kite, frame], dark)
    assert np.array_equal(chosen[0].quad, _FRAME)
