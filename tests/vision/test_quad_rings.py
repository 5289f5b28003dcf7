"""`_quad.ring_values` and `_quad.side_coverage`: what an outline's sides see beside and along them, on
small synthetic images whose values are known by hand."""

from __future__ import annotations

import numpy as np

from sheetscan.vision._quad import ring_values, side_coverage

# A 10 px square, clockwise in image coordinates (y down), in a 20 × 20 image.
_SQUARE = np.array([[5.0, 5.0], [15.0, 5.0], [15.0, 15.0], [5.0, 15.0]])


def _numbered() -> np.ndarray:
    """Each pixel's value tells where it is: 20 × y + x (all under 256 for y <= 11)."""
    y, x = np.mgrid[0:20, 0:20]
    return (np.minimum(20 * y + x, 255)).astype(np.uint8)


def test_ring_values_go_side_by_side_then_offset_by_offset_outwards_first() -> None:
    image = _numbered()
    # The top side, 5 samples at 0.1 ... 0.9 of it: x = 6, 8, 10, 12, 14; 2 px out is y = 3, 1 px in y = 6.
    values = ring_values(image, _SQUARE, (2.0, -1.0), samples=5, sides=(0,))
    assert values.tolist() == [60 + x for x in (6, 8, 10, 12, 14)] + [120 + x for x in (6, 8, 10, 12, 14)]


def test_ring_values_skip_points_off_the_image() -> None:
    image = _numbered()
    # 10 px above the top side is off the image: only the points 1 px inside are left.
    values = ring_values(image, _SQUARE, (10.0, -1.0), samples=5, sides=(0,))
    assert values.tolist() == [120 + x for x in (6, 8, 10, 12, 14)]
    # The left side's outward normal points to x < 5: 3 px out is x = 2, at y = 14, 12, 10, 8, 6.
    left = ring_values(image, _SQUARE, (3.0,), samples=5, sides=(3,))
    assert left.tolist() == [min(20 * y + 2, 255) for y in (14, 12, 10, 8, 6)]


def test_side_coverage_counts_ink_within_the_tolerance_of_each_side() -> None:
    mask = np.zeros((20, 20), np.uint8)
    mask[3, :] = 255  # a line 2 px above the top side
    mask[:, 18] = 255  # and one 3 px right of the right side
    near = side_coverage(mask, _SQUARE, tolerance=2.0)
    assert near == [1.0, 0.0, 0.0, 0.0]
    assert side_coverage(mask, _SQUARE, tolerance=3.0)[:2] == [1.0, 1.0]
