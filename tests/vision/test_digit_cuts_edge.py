"""Stage 5: a "1" run into the digit after it is offered cut off where the two join, not only at the
thinnest column near the glyph's edge (which may lie inside the next digit's loop); and a "1" cut
off through two strokes (a slice of a digit's curve) makes the way without it worth no less.

Synthetic glyphs drawn with numpy and readings given by hand, so the tests check which cuts are
offered and what they cost, not the network.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision import _digit_cuts, _group
from sheetscan.vision._steps import Choice
from sheetscan.vision._swallow import absorbed
from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import DigitReading, NumberImage, read_number

Box = tuple[int, int, int, int]


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
    options = _digit_cuts.cut_options(glyph, mask, height=50, width=36, narrowest=0.75, edges=0.4)
    ones = [o for o in options if len(o) == 2 and o[0] == (x, y, 6, 50) and o[1][0] == x + 6]
    assert ones, options
    # The cut at the thinnest column near the left edge, the loop's wall, is still offered (the
    # recogniser and the totals choose).
    assert any(len(o) == 2 and o[0] == (x, y, 13, 50) for o in options), options


def test_no_nearer_cut_when_the_thinnest_column_is_the_joint() -> None:
    # The same glyph with a loop 7 px thick (its columns 14 px of ink): the joint (12) is the thinnest
    # column near the left edge already, so there is no nearer one; the right edge (the loop's side)
    # has none either.
    mask = _one_six(loop=7)
    x, y, w, h = _one_glyph(mask).box
    piece = mask[y:y + h, x:x + w] > 0
    thinnest, nearer = _digit_cuts._edge_strokes(piece, piece.sum(axis=0).astype(np.float64))
    assert thinnest[0] == 6
    assert nearer == []
    # With the thin loop the joint is the nearer one.
    mask = _one_six()
    piece = mask[y:y + h, x:x + w] > 0
    thinnest, nearer = _digit_cuts._edge_strokes(piece, piece.sum(axis=0).astype(np.float64))
    assert thinnest[0] > 12 and nearer == [6]


def _choice(gray: np.ndarray, boxes: tuple[Box, ...], digits: list[tuple[int, float]],
            score: float) -> Choice:
    right = gray.shape[1]
    quad = ((0.0, 0.0), (float(right), 0.0), (float(right), 40.0), (0.0, 40.0))
    token = NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False, glyph_cuts=((boxes,),),
                        image=NumberImage(gray=gray, digit_boxes=boxes), digit_size=(40.0, 26.0))
    reading = read_number(tuple(DigitReading(((d, p),), 1.0 - p) for d, p in digits))
    return (((token, reading),), score)


def test_a_slice_of_a_digits_curve_is_no_swallowed_one() -> None:
    # A "6" 34 px wide (wider than a "1" could be swallowed in: 1.2 x 26 = 31.2 px): its stem down the
    # left (x 0 … 3) and a loop (rows 20 … 39) drawn 4 px thick. A way cuts 8 px off its left side and
    # reads them as a sure "1" ("16"); the cut column (x = 8) crosses the loop's top and its bottom,
    # two strokes: a slice of the 6, and the whole 6 keeps its score.
    six = np.zeros((40, 34), np.uint8)
    six[:, 0:4] = 200
    six[20:24, :] = 200
    six[36:40, :] = 200
    six[20:40, 30:34] = 200
    whole = _choice(six, ((0, 0, 34, 40),), [(6, 0.99)], -0.01)
    # (The rest reads the 6 as surely as the whole, so only the joint tells: `_swallow._rest_as_sure`.)
    sliced = _choice(six, ((0, 0, 8, 40), (8, 20, 26, 20)), [(1, 0.99), (6, 0.99)], -0.02)
    assert absorbed([whole, sliced]) == [whole, sliced]
    # A "16" written touching: a "1" (x 0 … 3) whose foot (rows 36 … 39) runs into the same 6 drawn
    # from x = 10. Cut at x = 6 the column crosses the foot alone: a "1" run into its digit, and the
    # way without it is worth 1.5 less.
    sixteen = np.zeros((40, 44), np.uint8)
    sixteen[:, 0:4] = 200
    sixteen[36:40, 4:10] = 200
    sixteen[:, 10:] = six
    one_six = _choice(sixteen, ((0, 0, 44, 40),), [(6, 0.99)], -0.01)
    cut = _choice(sixteen, ((0, 0, 6, 40), (6, 0, 38, 40)), [(1, 0.99), (6, 0.99)], -0.02)
    assert absorbed([one_six, cut]) == [(one_six[0], one_six[1] - 1.5), cut]
