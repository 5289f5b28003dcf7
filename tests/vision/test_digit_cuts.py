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
