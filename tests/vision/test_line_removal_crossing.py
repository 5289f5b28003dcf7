"""Stage 4, small writing against a drawn line: a piece of the line is given back to the writing only when
the writing reaches it from both sides of the line, not when two digits written side by side reach it from
the same side (`_line_removal.remove_lines`).

The small synthetic sheet of `_line_sheet`: a 4 px line (rows 599-602, x 300-899) under an 8 px mask (rows
597-604), which the line removal widens by a pixel (rows 596-605) and measures 11 px wide, so a piece of the
line counts as reached within 5 px (half of the 11 px square) of the ink off the mask. The truth is where
each test put its strokes.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._line_removal import remove_lines
from tests.vision._line_sheet import ink_of, sheet_with_line


def _blobs(mask: np.ndarray) -> tuple[int, np.ndarray]:
    count, labels = cv2.connectedComponents(np.asarray(mask > 0, np.uint8), connectivity=8)
    return count - 1, labels


def test_two_digits_hanging_side_by_side_from_a_line_stay_apart() -> None:
    # Two 4 px strokes hanging from the line's lower edge, 4 px apart: x 600-603 and x 608-611, rows 603-630
    # (a small "1" and the side of the "0" after it). Off the mask (rows 606 on) each reaches 5 px up, to
    # row 601, and 5 px sideways: both reach the line's ink in rows 601-602 over x 595-616, one piece of it.
    # Both come from below the line: that piece is the line's, not a stroke crossing it, so it is not given
    # back and the two digits are two blobs, with no ink in the masked rows between them.
    darkness, lines = sheet_with_line()
    darkness[603:631, 600:604] = 0.6
    darkness[603:631, 608:612] = 0.6
    mask = ink_of(darkness, lines)
    count, labels = _blobs(mask[580:640, 580:640])
    assert count == 2, f"{count} blobs"
    assert labels[625 - 580, 601 - 580] != labels[625 - 580, 609 - 580]
    assert not mask[596:606, 580:640].any(), f"{int(np.count_nonzero(mask[596:606, 580:640]))} line px kept"


def test_strokes_meeting_the_line_from_both_sides_a_little_apart_get_its_piece_back() -> None:
    # A stroke from above ending on the line (x 700-703, rows 570-598) and one from below starting on it
    # 4 px to the right (x 708-711, rows 603-630): a digit crossing the line with a kink (a "4"'s stem). Each
    # side's reach (5 px) takes in the line's ink between them (x 695-716, rows 599-602): one piece, reached
    # from above and from below, given back, so the digit stays one blob.
    darkness, lines = sheet_with_line()
    darkness[570:599, 700:704] = 0.6
    darkness[603:631, 708:712] = 0.6
    mask = ink_of(darkness, lines)
    count, labels = _blobs(mask[560:640, 680:730])
    assert count == 1, f"{count} blobs"
    assert labels[575 - 560, 701 - 680] == labels[625 - 560, 709 - 680] != 0


def test_a_line_s_own_stretch_beside_its_mask_still_gets_the_piece_it_reaches_back() -> None:
    # `remove_lines` alone, on a 400 x 400 mask: a level line's mask along rows 199-201 and its ink along rows
    # 199-202 (the removal widens the mask to rows 198-202 and measures it 9 px wide: reach 4 px). Below it,
    # the line's own stretch that its mask missed (a retraced strand), rows 203-205, x 100-299: 200 px long,
    # longer than any digit (0.3 of the 400 px `line_length`). A stroke hangs from the line at x 301-304,
    # rows 203-230. Both reach the line's ink over x 96-308 (rows 199-202, within 4 px of rows 203 on): one
    # piece, reached only from below. The strand is no digit, so the piece is given back as before: the
    # strand, the piece and the stroke are one blob, which the ink stage then takes as a line (a long blob),
    # not a "1".
    mask = np.zeros((400, 400), np.uint8)
    lines = np.zeros_like(mask)
    mask[199:203, :] = 255
    lines[199:202, :] = 255
    mask[203:206, 100:300] = 255
    mask[203:231, 301:305] = 255
    out = remove_lines(mask, lines, line_length=400.0)
    assert out[200, 150] and out[200, 302], "the piece of line between them was not given back"
    count, labels = _blobs(out)
    assert labels[204, 150] == labels[225, 302] != 0, f"{count} blobs"


def test_a_stroke_crossing_a_line_near_its_end_gets_its_piece_back() -> None:
    # `remove_lines` alone, on a 200 x 200 mask: a short level line (a strike through a crossed-out number)
    # with its mask along rows 99-101, x 40-80 (widened by the removal to rows 98-102, x 39-81, measured
    # 9 px wide: reach 4 px) and its ink along rows 99-101, x 36-80: its tip x 36-38 is off the mask. A stroke
    # crosses it at x 50-53, rows 85-115: off the mask above (rows 85-97) and below (rows 103-115), it reaches
    # the line's ink over x 46-57: one piece, reached from above and below. Within 9 px of that piece the
    # line ends (x 39), and the paper above and below it joins round its end; the piece still runs along the
    # line, with the stroke's two parts on either side of its course, so it is given back: one blob.
    mask = np.zeros((200, 200), np.uint8)
    lines = np.zeros_like(mask)
    mask[99:102, 36:81] = 255
    lines[99:102, 40:81] = 255
    mask[85:116, 50:54] = 255
    out = remove_lines(mask, lines, line_length=200.0)
    count, labels = _blobs(out)
    assert out[100, 51], "the piece of line under the stroke was not given back"
    assert labels[88, 51] == labels[112, 51] != 0, f"{count} blobs"
