"""Stage 5: two "1"s written touching make a glyph narrower than a digit ("11" as two strokes joined at
their flags and feet); it is offered cut between them (`_digit_cuts._two_strokes`), a narrow 0 is not.

Synthetic glyphs drawn with OpenCV, digits 34 px tall, cut as `_cut_block` cuts them (narrow below
0.75 digit heights, edge cuts from 0.4)."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision import _digit_cuts, _group

HEIGHT = 34.0


def _options(mask: np.ndarray) -> list[list[_group.Box]]:
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    (blob,) = _group.blobs_of(stats)
    return _digit_cuts.cut_options(_group.Glyph((blob,)), mask, height=HEIGHT, width=24.0, edges=0.4,
                                   narrowest=0.75)


def _two_ones() -> np.ndarray:
    """Two slanted "1"s 8 px apart (a 17 px glyph), joined by their flags at the top and their feet."""
    mask = np.zeros((44, 40), np.uint8)
    cv2.line(mask, (12, 6), (10, 36), 255, 4)
    cv2.line(mask, (20, 6), (18, 36), 255, 4)
    cv2.line(mask, (8, 9), (22, 6), 255, 3)  # the flags run together
    cv2.line(mask, (9, 36), (21, 36), 255, 3)  # and the feet
    return mask


def test_two_ones_written_touching_are_offered_cut_between_them() -> None:
    options = _options(_two_ones())
    two = [o for o in options if len(o) == 2]
    assert two, options
    # The cut falls between the strokes (x 12-14 and 18-22 at the middle rows).
    assert any(13 <= o[1][0] <= 18 for o in two), two
    assert all(box[3] >= 0.75 * 30 for o in two for box in o)


def test_a_narrow_zero_is_not_cut_into_two_ones() -> None:
    mask = np.zeros((44, 40), np.uint8)
    cv2.ellipse(mask, (18, 21), (7, 15), 0, 0, 360, 255, 4)  # a 0, 18 px wide
    options = _options(mask)
    assert not any(len(o) == 2 and abs(o[0][2] - o[1][2]) <= 4 for o in options), options
