"""`_zone_ink.line_remnants`: which blobs near a zone's outline are pieces of the drawn line the line
mask missed, and which are digits written close to it (small synthetic label images)."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._zone_ink import line_remnants

_OUTLINE = np.array([[10, 10], [190, 10], [190, 190], [10, 190]], dtype=np.float64)
"""A zone from x = 10 to 190 and y = 10 to 190."""


def _removed(mask: np.ndarray) -> tuple[set[int], np.ndarray]:
    """The labels `line_remnants` takes out of the mask's blobs (stroke 3 px), and the label image."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    removed = line_remnants(labels, stats, np.arange(1, count), _OUTLINE, 3.0)
    return set(removed.tolist()), labels


def test_a_leading_one_lying_level_in_a_turned_zone_is_kept_beside_the_digits_touching_after_it() -> None:
    # A zone written turned: its numbers run up the sheet, so a "1" lies level. The "1" of "130"
    # (x 100 … 140, 10 px above the bottom edge, parallel to it) has the "30" above it, the two
    # digits touching: one blob as tall as the "1" is long (40 px across x) but 75 px long up the
    # sheet. A lone bit of the line lies along the same edge further left.
    mask = np.zeros((200, 200), np.uint8)
    cv2.line(mask, (20, 185), (60, 185), 255, 3)
    cv2.line(mask, (100, 180), (140, 180), 255, 3)
    cv2.rectangle(mask, (100, 95), (140, 170), 255, 3)
    cv2.line(mask, (100, 132), (140, 132), 255, 3)
    removed, labels = _removed(mask)
    assert removed == {int(labels[185, 40])}


def test_a_bit_of_the_line_beside_a_flat_mark_is_still_taken_out() -> None:
    # The same level stroke 10 px above the bottom edge, but beside it lies a flat mark (a dash,
    # 12 px across x): nothing a digit's height long along the stroke, so the stroke is the line's.
    mask = np.zeros((200, 200), np.uint8)
    cv2.line(mask, (100, 180), (140, 180), 255, 3)
    cv2.rectangle(mask, (110, 150), (121, 170), 255, -1)
    removed, labels = _removed(mask)
    assert removed == {int(labels[180, 120])}
