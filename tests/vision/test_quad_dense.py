"""`_quad._dense`: a closed outline as OpenCV gives it (only the ends of straight runs) with a point
every pixel, which `_quad_by_lines` fits the sides of a frame to."""

from __future__ import annotations

import numpy as np

from sheetscan.vision._quad import _dense


def test_a_square_gets_a_point_every_pixel_in_order() -> None:
    square = np.array([[0.0, 0.0], [3.0, 0.0], [3.0, 3.0], [0.0, 3.0]])
    expected = [[0, 0], [1, 0], [2, 0], [3, 0], [3, 1], [3, 2], [3, 3], [2, 3], [1, 3], [0, 3], [0, 2],
                [0, 1]]
    assert _dense(square).tolist() == expected


def test_a_slanted_run_is_split_by_its_longer_axis() -> None:
    # 4 px across and 2 down: 4 steps of a quarter, then back along the same run.
    dense = _dense(np.array([[0.0, 0.0], [4.0, 2.0]]))
    assert dense.tolist() == [[0, 0], [1, 0.5], [2, 1], [3, 1.5], [4, 2], [3, 1.5], [2, 1], [1, 0.5]]


def test_repeated_points_and_a_single_point_are_kept_once_each() -> None:
    assert _dense(np.array([[5.0, 5.0]])).tolist() == [[5, 5]]
    assert _dense(np.array([[1.0, 1.0], [1.0, 1.0], [2.0, 1.0]])).tolist() == [[1, 1], [1, 1], [2, 1]]
