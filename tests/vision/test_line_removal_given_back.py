"""The ruling beside writing that lies on it is not given back as "crossed" (`_line_removal.remove_lines`
with `written`): only where handwriting off the ruling crosses it, or between pieces of writing along it.

Squared paper's level ruling runs along rows 49-51 (the mask of the ruling, widened by the 3 x 3 the line
removal adds: rows 48-52), and, near the writing, the ruling passes the ink thresholds too (it is in the ink
mask all along x 0-199). Geometry is worked out by hand below; no figure comes from our own output.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._line_removal import remove_lines

SIZE = 200


def _sheet() -> tuple[np.ndarray, np.ndarray]:
    """The ink mask with the ruling all along rows 49-51, and the ruling's line mask (rows 49-51)."""
    mask = np.zeros((SIZE, SIZE), np.uint8)
    lines = np.zeros_like(mask)
    mask[49:52, :] = 255
    lines[49:52, :] = 255
    return mask, lines


def test_the_ruling_beside_a_stroke_lying_on_it_is_not_given_back() -> None:
    mask, lines = _sheet()
    # A stroke lying along the ruling from x 60 to 90 (writing on it: `written`), its soft edge on the
    # widened ruling's outer rows 48 and 52 (ink there too, x 58-92), and a stroke leaving it from its end,
    # off the ruling, down to the right: rows 53-79, x 92 + (row - 53), 3 px wide. Once the ruling is out,
    # the stroke on it and the one leaving it are two pieces (row 52 between them is ruling), so the
    # ruling's fringe beside the stroke on it touches two pieces of writing.
    written = np.zeros_like(mask)
    written[49:52, 60:91] = 255
    mask[48, 58:93] = 255
    mask[52, 58:93] = 255
    for row in range(53, 80):
        x = 92 + (row - 53)
        mask[row, x:x + 3] = 255
    out = remove_lines(mask, lines, written=written)
    # The writing on the ruling is kept, whole.
    assert (out[49:52, 60:91] > 0).all()
    # The ruling before the stroke lying on it (x < 60) is bare ruling and its soft edge: nothing of it
    # comes back, however near the stroke (within a line width of it).
    assert not out[47:54, 0:60].any()
    # Nor the stroke's soft edge on the ruling's outer rows beside it, away from the leaving stroke (which
    # starts at x 92: its reach is half a line width, at most 5 px, so x < 86 is beyond it).
    assert not out[48, 60:86].any()
    assert not out[52, 60:86].any()
    # Where the leaving stroke meets the ruling, the ruling between the two strokes comes back: one blob.
    _count, labels = cv2.connectedComponents(np.asarray(out > 0, np.uint8), connectivity=8)
    assert labels[50, 75] == labels[79, 119] != 0


def test_handwriting_crossing_the_ruling_still_gets_its_piece_back() -> None:
    mask, lines = _sheet()
    # An upright stroke crossing the ruling at x 140-142, rows 20-80: the ruling under it comes back
    # (ink on two sides of the ruling), as without any writing on the ruling.
    mask[20:81, 140:143] = 255
    written = np.zeros_like(mask)
    written[49:52, 60:91] = 255
    out = remove_lines(mask, lines, written=written)
    assert (out[49:52, 140:143] > 0).all()
    assert (out[49:52, 60:91] > 0).all()
    # Ruling away from both: gone.
    assert not out[47:54, 100:130].any()
    assert not out[47:54, 0:55].any()
