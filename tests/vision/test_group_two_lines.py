"""Two lines of writing joined where a digit of one touches a digit of the other are cut apart
(`_group.line_cut`, `_cut_block._two_lines`): a number is one line of digits.

The masks are drawn here by hand, so every expected row is counted from the drawing."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision import _group
from sheetscan.vision._cut_block import _two_lines
from sheetscan.vision._zone_ink import components


def _ring(mask: np.ndarray, top: int, left: int, tall: int = 40, wide: int = 28, stroke: int = 4) -> None:
    """A "0": an ellipse outline filling rows top .. top + tall - 1."""
    centre = (left + wide // 2, top + tall // 2)
    axes = (wide // 2 - stroke // 2, tall // 2 - stroke // 2)
    cv2.ellipse(mask, centre, axes, 0, 0, 360, 255, stroke)


def _stacked() -> np.ndarray:
    """Two "0"s one above the other (rows 0-39 and 44-83) joined by a 4-pixel bridge (rows 40-43)."""
    mask = np.zeros((84, 28), np.uint8)
    _ring(mask, 0, 0)
    _ring(mask, 44, 0)
    mask[38:46, 12:16] = 255
    return mask


def test_two_touching_lines_are_cut_inside_the_bridge() -> None:
    # Height 84 = 2.1 digit heights of 40 (between 1.8 and 2.6); the bridge rows 40-43 hold 4 pixels
    # of ink each against 20+ at the rings' tops and bottoms: the waist.
    piece = _stacked() > 0
    row = _group.line_cut(piece, height=40.0)
    assert row is not None and 39 <= row <= 44


def test_one_digit_is_never_cut() -> None:
    mask = np.zeros((48, 28), np.uint8)
    _ring(mask, 0, 0, tall=48)
    assert _group.line_cut(mask > 0, height=40.0) is None  # 1.2 digit heights: one line
    # Two lines joined but only 1.7 heights tall (84 rows against a measured 50): one tall digit,
    # as likely as two lines.
    assert _group.line_cut(_stacked() > 0, height=50.0) is None


def test_big_writing_is_measured_against_its_own_digit_height() -> None:
    # The same 84 rows in a zone written 60 tall are 1.4 digit heights: one line of big digits.
    assert _group.line_cut(_stacked() > 0, height=60.0) is None


def test_a_rule_and_a_solid_stroke_are_not_cut() -> None:
    rule = np.ones((84, 4), bool)  # a thin upright line: narrower than 0.4 digit heights
    assert _group.line_cut(rule, height=40.0) is None
    block = np.ones((84, 28), bool)  # no waist: every row as wide as the rest
    assert _group.line_cut(block, height=40.0) is None
    assert _group.line_cut(np.ones((120, 28), bool), height=40.0) is None  # 3 heights: not two lines


def test_two_lines_gives_the_pieces_as_blobs_and_leaves_the_rest() -> None:
    # A zone: a row of two "0"s (x 0 and 40) above a row of two (x 0 and 40), the left pair joined.
    mask = np.zeros((84, 70), np.uint8)
    for left in (0, 40):
        _ring(mask, 0, left)
        _ring(mask, 44, left)
    mask[38:46, 12:16] = 255
    labels, stats, _ = components(mask)
    blobs = _group.blobs_of(stats)
    assert len(blobs) == 3
    cut = _two_lines(mask, labels, blobs, 40.0)
    assert cut is not None
    _, _, _, pieces = cut
    assert len(pieces) == 4
    assert sorted(b.h for b in pieces)[-1] <= 46  # no piece spans both lines any more
    groups = _group.group_numbers(pieces, height=40.0, stroke=4.0)
    assert [len(g.glyphs) for g in groups] == [2, 2] and [g.row for g in groups] == [0, 1]
    assert _two_lines(mask, labels, [b for b in blobs if b.h < 60], 40.0) is None
