"""Stage 2: the frame with one corner cut off along a chord (a column of writing or a spoke meeting a
corner) is not the sheet, where the frame's cut-off side has paper beyond it (synthetic masks, 800 × 600,
as the preview sees them)."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._frame_choice import choose_frame
from sheetscan.vision._quad import FrameCandidate, quad_area

_SHAPE = (600, 800)
_FRAME = np.array([[120.0, 90.0], [690.0, 110.0], [670.0, 520.0], [100.0, 500.0]])
# A point on the frame's top side 0.45 of the way from its top-right corner: the chord runs from it to
# the bottom-right corner, cutting the top-right corner off.
_ON_TOP = _FRAME[1] + 0.45 * (_FRAME[0] - _FRAME[1])
_PART = np.array([_FRAME[0], _ON_TOP, _FRAME[2], _FRAME[3]])


def _masks() -> tuple[np.ndarray, np.ndarray]:
    """The ink of the level the frame is seen whole at (its lines, the chord, and lined paper's rulings
    along its top side, so that a line there has ink beside it too), and of the level the part is seen
    at (the frame without its pale stretch past the chord's top end, and the chord)."""
    outer = np.zeros(_SHAPE, np.uint8)
    cv2.polylines(outer, [np.round(_FRAME).astype(np.int32)], True, 255, 3)
    for k in range(-3, 4):
        if k:
            shift = np.array([0.0, 14.0 * k])
            cv2.line(outer, tuple(np.round(_FRAME[0] + shift).astype(int)),
                     tuple(np.round(_FRAME[1] + shift).astype(int)), 255, 1)
    own = np.zeros(_SHAPE, np.uint8)
    cv2.polylines(own, [np.round(_PART).astype(np.int32)], True, 255, 3)
    for mask in (outer, own):
        cv2.line(mask, tuple(np.round(_ON_TOP).astype(int)), tuple(np.round(_FRAME[2]).astype(int)), 255, 3)
    return outer, own


def _candidates() -> list[tuple[FrameCandidate, np.ndarray]]:
    outer, own = _masks()
    return [(FrameCandidate(_PART, 0.97, quad_area(_PART), ()), own),
            (FrameCandidate(_FRAME, 1.0, quad_area(_FRAME), ()), outer)]


def test_the_frame_beats_itself_with_a_corner_cut_off_along_a_chord() -> None:
    # Three of the part's corners are the frame's and the fourth lies on the frame's top side: the chord
    # from it to the bottom-right corner (the right whist band's column of numbers) closed the frame at a
    # level where its pale right part was not seen, and the part was taken as a frame seen inside the
    # frame (bench_styles seed 30000, thin, photo 4, lined paper: 563 px off).
    paper = np.full(_SHAPE, 210, np.uint8)
    chosen = choose_frame(_candidates(), paper)
    assert np.array_equal(chosen[0].quad, _FRAME)


def test_a_corner_cut_off_at_the_papers_edge_leaves_the_part() -> None:
    # The same outlines with the table past the bigger one's right side (the paper's edge, not a drawn
    # side): the part stays the frame.
    grey = np.full(_SHAPE, 210, np.uint8)
    beyond = np.array([_FRAME[1], [800.0, _FRAME[1][1]], [800.0, _FRAME[2][1]], _FRAME[2]])
    cv2.fillPoly(grey, [np.round(beyond).astype(np.int32)], 90)
    chosen = choose_frame(_candidates(), grey)
    assert np.array_equal(chosen[0].quad, _PART)


def test_a_crowded_outline_with_a_corner_pulled_out_along_a_side_is_not_the_frame() -> None:
    # The frame merged with writing at its bottom-right corner: that corner pulled out along the right
    # side, so the frame's own corner lies on the bigger outline's side, and the frame looks like it with
    # a corner cut off. The bigger one is crowded (its writing), so the frame, seen at more levels, stays
    # (bench_styles seed 30000, thin, photo 6: the merged outline was taken, 257 px off).
    pulled = _FRAME.copy()
    pulled[2] = _FRAME[1] + 1.15 * (_FRAME[2] - _FRAME[1])
    mask = np.zeros(_SHAPE, np.uint8)
    for quad in (_FRAME, pulled):
        cv2.polylines(mask, [np.round(quad).astype(np.int32)], True, 255, 3)
    frame = FrameCandidate(_FRAME, 1.0, quad_area(_FRAME), ())
    again = FrameCandidate(_FRAME + 1.0, 1.0, quad_area(_FRAME), ())
    merged = FrameCandidate(pulled, 1.0, quad_area(pulled), (), crowded=True)
    paper = np.full(_SHAPE, 210, np.uint8)
    assert choose_frame([(frame, mask), (again, mask), (merged, mask)], paper)[0] is frame
