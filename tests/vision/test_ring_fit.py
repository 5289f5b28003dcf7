"""Stage 3, the centre circle as the closed curve around the spokes' meeting point (`ring_around`):
found whatever its size and freehand shape, and masked all the way round.

Small synthetic masks: the truth is where the test drew the ring, the spokes and the writing.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision._ring_fit import fit_ring, ring_around
from sheetscan.vision.zones import _line_mask

EXPECTED = (400.0, 300.0, 68.0)
"""Where the layout's model puts the circle (cx, cy, r) on every test sheet below."""


def _spokes(mask: np.ndarray, cx: int, cy: int, r: int) -> None:
    # Four diagonal spokes from the sheet's corners' direction, each ending on the ring (radius r).
    for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        start = (round(cx + dx * r / np.sqrt(2)), round(cy + dy * r / np.sqrt(2)))
        end = (cx + dx * 260, cy + dy * 260)
        cv2.line(mask, start, end, 255, 4)


def _big_ring_sheet() -> np.ndarray:
    # The ring drawn 1.6 times the model's radius: centre (405, 310), radius 109 (= 1.6 × 68 = 108.8),
    # stroke 4 px, spokes ending on it, a target "20" inside (a hook and a loop), and two digit loops
    # outside just beyond the ring (the arcs a wider random search can take for a ring).
    mask = np.zeros((600, 800), np.uint8)
    cv2.circle(mask, (405, 310), 109, 255, 4)
    _spokes(mask, 405, 310, 109)
    cv2.ellipse(mask, (385, 310), (14, 22), 0, 180, 360, 255, 4)  # the "2"'s hook
    cv2.line(mask, (371, 312), (399, 332), 255, 4)
    cv2.ellipse(mask, (425, 310), (14, 22), 0, 0, 360, 255, 4)  # the "0"
    cv2.circle(mask, (405, 450), 18, 255, 4)  # a digit below the ring (its top 128 px off the centre)
    cv2.circle(mask, (545, 300), 18, 255, 4)  # one to its right
    return mask


def test_a_ring_half_as_large_again_is_found_around_the_centre() -> None:
    mask = _big_ring_sheet()
    ring = ring_around(mask, EXPECTED, line_width=4.0)
    assert ring is not None
    assert np.hypot(ring.cx - 405, ring.cy - 310) < 2.0
    assert ring.r == pytest.approx(109, abs=2.0)
    # The 4 px stroke: its edges 2 px either side of the middle, within a pixel of rounding.
    assert ring.inner == pytest.approx(107, abs=1.5) and ring.outer == pytest.approx(111, abs=1.5)
    assert ring.coverage >= 0.95
    # The random search keeps to radii under 1.5 times the model's (102 px): it cannot find this one.
    searched = fit_ring(mask, EXPECTED, line_width=4.0)
    assert searched is None or abs(searched.r - 109) > 5 or searched.coverage < 0.8


def test_the_big_ring_is_masked_all_round_and_the_target_is_not() -> None:
    mask = _big_ring_sheet()
    ring_only = np.zeros_like(mask)
    cv2.circle(ring_only, (405, 310), 109, 255, 4)
    line_mask, ring = _line_mask(mask, mask, [], None, EXPECTED, 4.0, search=40.0)
    assert ring is not None and ring.r == pytest.approx(109, abs=2.0)
    covered = np.count_nonzero((line_mask > 0) & (ring_only > 0)) / np.count_nonzero(ring_only)
    assert covered >= 0.95
    # The "0" written inside (20 px off the centre, the ring 109 px off) is no line.
    zero = np.zeros_like(mask)
    cv2.ellipse(zero, (425, 310), (14, 22), 0, 0, 360, 255, 4)
    assert np.count_nonzero((line_mask > 0) & (zero > 0)) == 0


def test_an_egg_shaped_ring_is_found_and_masked() -> None:
    # A freehand ring flattened into an ellipse: half-axes 80 across and 104 down, centre (398, 305).
    # A round fit to it lies between the two half-axes; the mask follows the drawn curve.
    mask = np.zeros((600, 800), np.uint8)
    cv2.ellipse(mask, (398, 305), (80, 104), 0, 0, 360, 255, 4)
    ring = ring_around(mask, EXPECTED, line_width=4.0)
    assert ring is not None
    assert np.hypot(ring.cx - 398, ring.cy - 305) < 6.0
    assert 80 < ring.r < 104
    line_mask, _ = _line_mask(mask, mask, [], None, EXPECTED, 4.0, search=40.0)
    covered = np.count_nonzero((line_mask > 0) & (mask > 0)) / np.count_nonzero(mask)
    assert covered >= 0.95


def test_a_small_gap_where_the_stroke_began_is_closed() -> None:
    # The ring drawn from 4° to 360°: a gap of 4° × π/180 × 90 = 6.3 px of arc, less its 4 px stroke's
    # round ends (2 px each side) = about 2.3 px of paper, under the 5 px the hole's edge is closed by.
    mask = np.zeros((600, 800), np.uint8)
    cv2.ellipse(mask, (400, 300), (90, 90), 0, 4, 360, 255, 4)
    ring = ring_around(mask, EXPECTED, line_width=4.0)
    assert ring is not None and ring.r == pytest.approx(90, abs=2.0)


def test_an_open_arc_is_no_closed_ring() -> None:
    # Three quarters of a ring (270°): the hole runs out through the open quarter, so nothing closed holds
    # the centre; the caller then searches the ink as before.
    mask = np.zeros((600, 800), np.uint8)
    cv2.ellipse(mask, (400, 300), (90, 90), 0, 0, 270, 255, 4)
    _spokes(mask, 400, 300, 90)
    assert ring_around(mask, EXPECTED, line_width=4.0) is None


def test_spokes_alone_make_no_ring() -> None:
    # The spokes run on to the meeting point, with no circle: the cells between them are wedges that
    # hold no centre and run out of the window (the hole the centre is in is none).
    mask = np.zeros((600, 800), np.uint8)
    _spokes(mask, 400, 300, 0)
    assert ring_around(mask, EXPECTED, line_width=4.0) is None


def test_a_square_cell_around_the_centre_is_no_ring() -> None:
    # A square of 180 px around the centre (a drawn box, not a circle): closed and holding the centre,
    # but its hole fills its bounding box (area share 1 > 0.87 of an ellipse's π/4 = 0.785 at most).
    mask = np.zeros((600, 800), np.uint8)
    cv2.rectangle(mask, (310, 210), (490, 390), 255, 4)
    assert ring_around(mask, EXPECTED, line_width=4.0) is None
