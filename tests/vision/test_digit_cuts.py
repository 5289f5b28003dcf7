"""Stage 5, cutting a glyph of touching ink into digits (`_digit_cuts`), on small synthetic masks."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision import _digit_cuts, _group


def test_touching_digits_are_cut_at_the_thinnest_column() -> None:
    mask = np.zeros((40, 80), np.uint8)
    cv2.rectangle(mask, (5, 5), (30, 35), 255, 3)  # a "0" 26 px wide
    cv2.rectangle(mask, (36, 5), (62, 35), 255, 3)  # another, 6 px to its right
    cv2.line(mask, (30, 20), (36, 20), 255, 2)  # joined by a thin stroke
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    (blob,) = _group.blobs_of(stats)
    boxes = _digit_cuts.digit_boxes(_group.Glyph((blob,)), mask, height=31, width=26)
    assert len(boxes) == 2
    cut = boxes[1][0]
    assert 30 <= cut <= 37


def test_a_glyph_of_two_touching_digits_is_offered_whole_and_cut_at_the_joint() -> None:
    mask = np.zeros((40, 60), np.uint8)
    cv2.line(mask, (8, 5), (8, 35), 255, 3)  # a "1"
    cv2.rectangle(mask, (16, 5), (40, 35), 255, 3)  # a "0" right next to it
    cv2.line(mask, (8, 20), (16, 20), 255, 2)  # touching it
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    (blob,) = _group.blobs_of(stats)
    options = _digit_cuts.cut_options(_group.Glyph((blob,)), mask, height=31, width=25)
    assert [(blob.x, blob.y, blob.w, blob.h)] in options
    two = [o for o in options if len(o) == 2]
    assert two, options
    # Some cut falls in the gap between the "1" (x ≤ 9) and the "0" (x ≥ 15).
    assert any(10 <= o[1][0] <= 15 for o in two), two


def _glyph(mask: np.ndarray) -> _group.Glyph:
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    (blob,) = _group.blobs_of(stats)
    return _group.Glyph((blob,))


def test_a_zero_written_wider_than_one_and_a_half_digits_is_offered_whole() -> None:
    # One ring 71 px wide in writing 40 px tall (1.8 digit heights): a single 0, whatever its width.
    mask = np.zeros((50, 90), np.uint8)
    cv2.ellipse(mask, (45, 25), (35, 19), 0, 0, 360, 255, 4)
    glyph = _glyph(mask)
    assert glyph.box[2] > 1.6 * 40
    options = _digit_cuts.cut_options(glyph, mask, height=40, width=26, narrowest=0.75)
    assert [glyph.box] in options


def test_two_touching_zeros_as_wide_are_not_offered_whole() -> None:
    # Two rings side by side, touching: each hole is under half the glyph's width, so two digits.
    mask = np.zeros((50, 90), np.uint8)
    cv2.ellipse(mask, (27, 25), (18, 19), 0, 0, 360, 255, 4)
    cv2.ellipse(mask, (62, 25), (18, 19), 0, 0, 360, 255, 4)
    glyph = _glyph(mask)
    assert glyph.box[2] > 1.6 * 40
    options = _digit_cuts.cut_options(glyph, mask, height=40, width=26, narrowest=0.75)
    assert [glyph.box] not in options
    assert any(len(option) == 2 for option in options)


def test_a_wide_zero_left_a_little_open_is_still_offered_whole() -> None:
    # The same 0, its end stopping short of its start: a gap of about 8 px at its top.
    mask = np.zeros((50, 90), np.uint8)
    cv2.ellipse(mask, (45, 25), (35, 19), 0, -80, 255, 255, 4)
    glyph = _glyph(mask)
    assert glyph.box[2] > 1.6 * 40 and mask[6:9, 45].max() == 0
    options = _digit_cuts.cut_options(glyph, mask, height=40, width=26, narrowest=0.75)
    assert [glyph.box] in options


def _one_zero() -> np.ndarray:
    """ "10" as one glyph: a "1" (x 5 … 8, rows 3 … 40) joined to a "0" by a stroke 7 px thick (x 9 … 14),
    the 0 an outline (x 15 … 45, rows 3 … 40) drawn 2 px thick. Column profile: the joint 7 px, the 0's
    left side 38 px, the columns inside its loop 4 px: the thinnest columns of the middle run through
    the 0's loop."""
    mask = np.zeros((44, 50), np.uint8)
    mask[3:41, 5:9] = 255
    mask[18:25, 9:15] = 255
    cv2.rectangle(mask, (15, 3), (45, 40), 255, 2)
    return mask


def test_the_first_middle_cut_of_touching_digits_is_at_their_joint_not_in_a_loop() -> None:
    mask = _one_zero()
    glyph = _glyph(mask)
    options = _digit_cuts.cut_options(glyph, mask, height=38, width=26, narrowest=0.75)
    # Whole first (no wider than a digit is tall), then the middle cuts: the first of them at the joint
    # (x 9 … 14), not through the 0's loop (x 17 … 43) where the columns are thinnest.
    assert options[0] == [glyph.box]
    (_, right), *_ = (o for o in options[1:] if len(o) == 2)
    assert 9 <= right[0] <= 15, options


def test_touching_round_digits_are_cut_at_their_joint_not_in_a_loop() -> None:
    # "00" as one glyph 48 px wide: two outlines 2 px thick joined by a stroke 7 px thick (x 21 … 26).
    # The columns inside the loops hold 6 px of ink, fewer than the joint's 7: the thinnest column
    # near the even cut point is inside the second 0's loop.
    mask = np.zeros((36, 52), np.uint8)
    cv2.rectangle(mask, (2, 3), (20, 32), 255, 2)
    mask[14:21, 21:27] = 255
    cv2.rectangle(mask, (27, 3), (47, 32), 255, 2)
    boxes = _digit_cuts.digit_boxes(_glyph(mask), mask, height=30, width=22)
    assert len(boxes) == 2 and 21 <= boxes[1][0] <= 27, boxes


def test_a_loop_only_raises_the_cost_of_its_own_columns() -> None:
    piece = np.zeros((40, 60), bool)
    piece[5:35, 5:25] = True
    piece[10:30, 10:20] = False  # a hole 10 px across: a loop
    piece[5:35, 40:44] = True  # a stroke beside it
    piece[5:35, 47:51] = True
    piece[5:7, 44:47] = piece[33:35, 44:47] = True  # a sliver of paper 3 px across between two strokes
    loop = _digit_cuts._loop_columns(piece)
    assert loop[10:20].all() and not loop[:10].any() and not loop[20:].any()
