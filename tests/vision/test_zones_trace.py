"""Stage 3, following drawn lines place by place (`trace_band`) where something meets or crosses them.

Small synthetic masks: the truth is where the test drew the lines.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._bend import trace_band


def _spoke_meeting_a_frame(start: tuple[int, int] = (100, 180)) -> tuple[np.ndarray, list[np.ndarray]]:
    """A 4 px level frame line (rows 100-103, x 20-280) and a 4 px spoke coming up to it from `start`
    (below-left: at about 30° by default), meeting it at x ≈ 235; the model polylines lie where the
    lines are drawn."""
    mask = np.zeros((200, 300), np.uint8)
    mask[100:104, 20:281] = 255
    cv2.line(mask, start, (236, 102), 255, 4)
    lines = [np.array([[20.0, 101.5], [280.0, 101.5]]),
             np.array([[float(start[0]), float(start[1])], [236.0, 102.0]])]
    return mask, lines


# A spoke meeting the frame steeply (about 68°) touches it at once. One meeting it at 30° lies beside the
# frame, apart from it, for a stretch first: there the frame's own stroke is followed anyway (the single
# stroke nearest the model, as wide as the line), so no gap is left for the tests below to see.
STEEP = (200, 190)


def _trace(mask: np.ndarray, lines: list[np.ndarray], fill: float, ends: np.ndarray | None = None
           ) -> np.ndarray:
    meeting = np.array([[236.0, 102.0]]) if ends is None else ends
    return trace_band(mask, lines, search=12.0, step=2.0, max_run=12, merge=3, pad=1.0, fill=fill,
                      ends=meeting, end_reach=40.0)


def test_the_frame_line_is_followed_on_where_a_spoke_meets_it() -> None:
    # Where the spoke joins the frame line, the run of ink across the frame line takes in the spoke
    # and is too wide to be line, so those places are left out; the frame line still runs on there.
    mask, lines = _spoke_meeting_a_frame()
    band = _trace(mask, lines, fill=16.0)
    frame = np.zeros_like(mask)
    frame[100:104, 30:271] = 255
    missed = np.count_nonzero((frame > 0) & (band == 0))
    assert missed == 0, f"{missed} px of the frame line left out of the band"
    # Only the lines' own width is taken: nothing 8 px or more off both lines.
    near = cv2.dilate(mask, np.ones((15, 15), np.uint8))
    assert not np.any((band > 0) & (near == 0))


def test_without_filling_the_meeting_is_left_out() -> None:
    # A steep spoke without `fill`: the meeting place is a gap in the band (what the fill closes).
    mask, lines = _spoke_meeting_a_frame(STEEP)
    band = _trace(mask, lines, fill=0.0)
    assert np.count_nonzero(band[100:104, 225:245] == 0) > 0



def test_a_gap_far_from_where_lines_meet_is_left_alone() -> None:
    # A steep spoke with the meeting point given far away: the gap stays (a digit written across a
    # line in the middle of a zone keeps what it has beside the line).
    mask, lines = _spoke_meeting_a_frame(STEEP)
    band = _trace(mask, lines, fill=16.0, ends=np.array([[20.0, 101.5]]))
    assert np.count_nonzero(band[100:104, 225:245] == 0) > 0
