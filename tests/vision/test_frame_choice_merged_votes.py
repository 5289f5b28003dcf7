"""Stage 2: the levels where the frame was seen merged with its writing (crowded outlines lying on its
lines, dropped for the clean one: `_frame_choice._merged_into`) count among the levels that saw it
(`votes`), so that an outline seen at one level only, bigger, does not beat it (synthetic masks, 1000 ×
750, as the preview sees them).

The rendered case behind it: bench_styles seed 37000, thick, photo 2 (lined paper): the thick frame seen
clean at one level and crowded by its writing at two, an outline of the red margin and a ruling seen
at one level, bigger, taken for the sheet: 247 px off.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._frame_choice import choose_frame
from sheetscan.vision._quad import FrameCandidate, quad_area

_SHAPE = (750, 1000)
_FRAME = np.array([[335.0, 118.0], [714.0, 178.0], [686.0, 670.0], [295.0, 645.0]])
# The margin and a ruling with the frame's right and bottom sides: over the frame's top-left corner.
_MARGIN = np.array([[310.0, 147.0], [745.0, 211.0], [705.0, 632.0], [278.0, 650.0]])


def _frame_ink() -> np.ndarray:
    """The frame's lines and a rectangle inside it."""
    ink = np.zeros(_SHAPE, np.uint8)
    cv2.polylines(ink, [np.round(_FRAME).astype(np.int32)], True, 255, 5)
    inner = _FRAME.mean(axis=0) + 0.5 * (_FRAME - _FRAME.mean(axis=0))
    cv2.polylines(ink, [np.round(inner).astype(np.int32)], True, 255, 5)
    return ink


def _crowded_ink() -> np.ndarray:
    """A fainter level: the frame's ink with its writing grown into blobs."""
    ink = _frame_ink()
    for y in range(200, 620, 40):
        cv2.line(ink, (380, y), (640, y + 4), 255, 12)
    return ink


def _margin_ink() -> np.ndarray:
    """Another level: the frame's ink, the red margin and the rulings."""
    ink = _frame_ink()
    cv2.polylines(ink, [np.round(_MARGIN).astype(np.int32)], True, 255, 3)
    for y in range(60, 720, 30):
        cv2.line(ink, (290, y), (760, y + 30), 255, 2)
    return ink


def _candidates(crowded_levels: int) -> list[tuple[FrameCandidate, np.ndarray]]:
    """The margin's outline, the frame seen clean at one level and, a few px off, crowded at
    `crowded_levels` more."""
    margin = FrameCandidate(quad=_MARGIN, coverage=1.0, area=quad_area(_MARGIN), touches=(), crowded=True)
    frame = FrameCandidate(quad=_FRAME, coverage=1.0, area=quad_area(_FRAME), touches=())
    found = [(margin, _margin_ink()), (frame, _frame_ink())]
    for k in range(crowded_levels):
        quad = _FRAME + np.array([4.0 - 2 * k, 4.0])
        found.append((FrameCandidate(quad=quad, coverage=1.0, area=quad_area(quad), touches=(), crowded=True),
                      _crowded_ink()))
    return found


def test_the_frame_seen_crowded_at_two_more_levels_is_chosen() -> None:
    chosen = choose_frame(_candidates(2))
    assert np.allclose(chosen[0].quad, _FRAME)


def test_seen_at_one_level_each_the_bigger_is_chosen() -> None:
    # Without the crowded levels, each outline is seen at one level: the bigger goes first, as before.
    chosen = choose_frame(_candidates(0))
    assert np.allclose(chosen[0].quad, _MARGIN)


_SHAPE_UP = (1000, 750)
_WHOLE = np.array([[133.0, 344.0], [428.0, 201.0], [563.0, 495.0], [265.0, 625.0]])
# The frame's lower part, closed off along a line across it (a shadow's edge): over half its area.
_PART = np.array([[171.0, 426.0], [486.0, 326.0], [562.0, 495.0], [264.0, 625.0]])


def _shaded_ink() -> np.ndarray:
    """The whole frame's level: its outline, and the shaded part beyond the line all ink."""
    ink = np.zeros(_SHAPE_UP, np.uint8)
    cv2.fillPoly(ink, [np.round(np.array([_WHOLE[0], _WHOLE[1], _PART[1], _PART[0]])).astype(np.int32)], 255)
    cv2.polylines(ink, [np.round(_WHOLE).astype(np.int32)], True, 255, 3)
    return ink


def _part_ink(crowded: bool) -> np.ndarray:
    """The part's level: its outline only (the frame's sides beyond it lost in the shade)."""
    ink = np.zeros(_SHAPE_UP, np.uint8)
    cv2.polylines(ink, [np.round(_PART).astype(np.int32)], True, 255, 3)
    if crowded:
        for y in range(450, 600, 30):
            cv2.line(ink, (280, y), (480, y - 20), 255, 12)
    return ink


def test_a_part_seen_crowded_within_the_frame_does_not_count_for_the_part() -> None:
    # The frame seen whole at three levels; its part closed off by the shadow's edge seen clean at one
    # and crowded at another. The crowded one lies within the frame: it does not add to the part's
    # levels, and the frame is kept (bench_styles seed 37000, shadow, photo 5).
    whole = [(FrameCandidate(quad=_WHOLE + k, coverage=1.0, area=quad_area(_WHOLE), touches=()),
              _shaded_ink()) for k in range(3)]
    part = [(FrameCandidate(quad=_PART, coverage=1.0, area=quad_area(_PART), touches=(), crowded=crowded),
             _part_ink(crowded)) for crowded in (True, False)]
    chosen = choose_frame([part[0], *whole, part[1]])
    assert np.allclose(chosen[0].quad, _WHOLE, atol=3.0)
