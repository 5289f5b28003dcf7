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
