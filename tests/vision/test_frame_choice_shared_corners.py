"""Stage 2: a frame seen inside a bigger outline that shares two of its corners is nested in it, though the
shared corners were fitted a few px apart at the two ink levels (synthetic masks, 800 × 600, as the
preview sees them)."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._frame_choice import choose_frame
from sheetscan.vision._quad import FrameCandidate, quad_area

_SHAPE = (600, 800)
_FRAME = np.array([[120.0, 90.0], [520.0, 110.0], [500.0, 520.0], [100.0, 500.0]])
# The paper closed over the frame: the frame's top and bottom sides run on along rulings to the paper's
# right edge. Its left corners are the frame's, found 4 px further in at their level.
_BIGGER = np.array([[124.0, 93.0], [700.0, 122.0], [680.0, 530.0], [104.0, 497.0]])


def test_a_frame_beats_the_paper_closed_over_it_sharing_its_corners_a_few_px_off() -> None:
    # The bigger outline's ink: the frame, its top and bottom sides running on along rulings (squared
    # paper: rulings beside them too) to the paper's right edge. The frame's own level shows the frame
    # only. The frame's left corners lie 4-5 px outside the bigger outline; taken as not nested in it,
    # the bigger outline was chosen (unseen seed 31000, thin, photo 0: 709 px off, the wrong rotation).
    outer = np.zeros(_SHAPE, np.uint8)
    cv2.polylines(outer, [np.round(_BIGGER).astype(np.int32)], True, 255, 3)
    cv2.polylines(outer, [np.round(_FRAME).astype(np.int32)], True, 255, 3)
    for a, b in ((_FRAME[1], _BIGGER[1]), (_FRAME[2], _BIGGER[2])):
        for k in range(-2, 3):
            shift = np.array([0.0, 14.0 * k])
            start, end = (tuple(np.round(p + shift).astype(int)) for p in (a, b))
            cv2.line(outer, start, end, 255, 1 if k else 3)
    own = np.zeros(_SHAPE, np.uint8)
    cv2.polylines(own, [np.round(_FRAME).astype(np.int32)], True, 255, 3)
    frame = FrameCandidate(_FRAME, 1.0, quad_area(_FRAME), ())
    bigger = FrameCandidate(_BIGGER, 1.0, quad_area(_BIGGER), ())
    chosen = choose_frame([(bigger, outer), (frame, own)])
    assert chosen[0] is frame
