"""Stage 5: a "1" slanting into the digit after it, written as one glyph with it, is offered cut off
past its right edge where it stands apart (`_digit_cuts._apart_stroke`): no column through a slanted
stroke is thin, so the thin-column cuts (`_edge_strokes`) never find it. A round digit's side, which
stands apart from its other side just as a "1" does, is not: it bends.

Glyphs drawn with OpenCV; the tests check the ways offered, not the network.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision import _digit_cuts, _group

HEIGHT = 40


def _one_glyph(mask: npt.NDArray[np.uint8]) -> _group.Glyph:
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    (blob,) = _group.blobs_of(stats)
    return _group.Glyph((blob,))


def _slanted_one_two() -> npt.NDArray[np.uint8]:
    """ "12" as one glyph, 40 px tall (bench 1003's "120" drawn again): a "1" leaning from (5, 4) to
    (11, 42), the hook of a "2" starting just right of its top, the 2's diagonal ending in a curl over
    the 1's foot, and its base."""
    mask = np.zeros((50, 48), np.uint8)
    cv2.line(mask, (5, 4), (11, 42), 255, 3)  # the "1", leaning right
    cv2.ellipse(mask, (22, 13), (10, 9), 0, 180, 360, 255, 3)  # the 2's hook
    cv2.line(mask, (32, 13), (15, 38), 255, 3)  # its diagonal
    cv2.ellipse(mask, (15, 39), (5, 4), 0, 0, 360, 255, 3)  # a curl at its foot, over the 1's foot
    cv2.line(mask, (12, 43), (40, 43), 255, 3)  # its base
    return mask


def test_a_slanted_one_run_into_its_digit_is_offered_cut_off() -> None:
    # Every column through the leaning 1 crosses it over many rows, and the columns right of it cross
    # the 2's hook, curl and base as well: no column there is thin, so the thin-column cuts take the 1
    # off only with the hook's start (x = 16). Some way must cut it off past its right edge where it
    # stands apart from the 2 (x 11-13), in a box standing the glyph's height.
    mask = _slanted_one_two()
    glyph = _one_glyph(mask)
    _, _, _, h = glyph.box
    options = _digit_cuts.cut_options(glyph, mask, height=HEIGHT, width=26, narrowest=0.75)
    cut = [o for o in options if len(o) >= 2 and 11 <= o[0][0] + o[0][2] <= 13 and o[0][3] >= 0.9 * h]
    assert cut, options


def test_a_round_digits_side_is_not_cut_off_as_a_one() -> None:
    # A wide "0" (an ellipse 34 px across): its left side stands apart from its right side in most rows,
    # as a "1" does from its digit, but it bends like a "(": no cut past it.
    mask = np.zeros((50, 44), np.uint8)
    cv2.ellipse(mask, (21, 25), (17, 20), 0, 0, 360, 255, 4)
    piece = mask[5:46, 4:40] > 0
    assert _digit_cuts._apart_stroke(piece, height=HEIGHT) is None
