"""Stage 5: a "1" run into the digit after it is offered cut off where the two join, not only at the
thinnest column near the glyph's edge (which may lie inside the next digit's loop).

Synthetic glyphs drawn with numpy, so the test checks which cuts are offered, not the network.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision import _group


def _one_glyph(mask: np.ndarray) -> _group.Glyph:
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    (blob,) = _group.blobs_of(stats)
    return _group.Glyph((blob,))


def _one_six(loop: int = 4) -> np.ndarray:
    """ "16" as one glyph 50 px tall and 50 wide: a "1" 6 px thick (x 0 … 5), joined at its foot
    (rows 38 … 49, x 6 … 7) to a "6": a stem 5 px thick (x 8 … 12) and a loop (x 8 … 49, rows
    20 … 49) drawn `loop` px thick; 5 px of paper around."""
    mask = np.zeros((50, 50), np.uint8)
    mask[:, 0:6] = 255  # the "1"
    mask[38:50, 6:8] = 255  # where it touches the 6
    mask[:, 8:13] = 255  # the 6's stem
    mask[20:20 + loop, 8:50] = 255  # its loop: top, bottom and right side
    mask[50 - loop:50, 8:50] = 255
    mask[20:50, 46:50] = 255
    return np.pad(mask, 5)


def test_a_one_joined_at_its_foot_is_offered_cut_off_where_it_joins() -> None:
    # Column profile: the "1" 50, the joint 12 (x 6, 7), the stem 50, the loop 8 (x 13 … 45), its side
    # 30. Within 0.4 of the width from the left edge (x <= 20) the thinnest column is inside the loop
    # (8 < 12), which cuts the 6's stem off with the "1" (read "10"); the "1" alone is the box of the
    # first 6 columns, cut at the joint, where the profile first stops falling.
    mask = _one_six()
    glyph = _one_glyph(mask)
    x, y, w, h = glyph.box
    assert (w, h) == (50, 50)
    options = _group.cut_options(glyph, mask, height=50, width=36, narrowest=0.75, edges=0.4)
    ones = [o for o in options if len(o) == 2 and o[0] == (x, y, 6, 50) and o[1][0] == x + 6]
    assert ones, options
    # The cut inside the loop is still offered (the recogniser and the totals choose).
    assert any(len(o) == 2 and o[0][2] > 13 and o[0][2] <= 20 for o in options), options


def test_no_nearer_cut_when_the_thinnest_column_is_the_joint() -> None:
    # The same glyph with a loop 7 px thick (its columns 14 px of ink): the joint (12) is the thinnest
    # column near the left edge already, so there is no nearer one; the right edge (the loop's side)
    # has none either.
    mask = _one_six(loop=7)
    x, y, w, h = _one_glyph(mask).box
    piece = mask[y:y + h, x:x + w] > 0
    thinnest, nearer = _group._edge_strokes(piece, piece.sum(axis=0).astype(np.float64))
    assert thinnest[0] == 6
    assert nearer == []
    # With the thin loop the joint is the nearer one.
    mask = _one_six()
    piece = mask[y:y + h, x:x + w] > 0
    thinnest, nearer = _group._edge_strokes(piece, piece.sum(axis=0).astype(np.float64))
    assert thinnest[0] > 12 and nearer == [6]
