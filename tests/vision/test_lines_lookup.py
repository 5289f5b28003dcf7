"""Speed (issue 5), session 11: `ink_at` without a bordered copy of the mask and `nearest_run_spans`
without a distance table give the answers worked out by hand below."""

from __future__ import annotations

import numpy as np

from sheetscan.vision._lines import ink_at, nearest_run_spans, nearest_runs


def test_ink_at_reads_the_mask_and_paper_off_it() -> None:
    mask = np.zeros((4, 5), np.uint8)  # 4 rows, 5 columns
    mask[0, 0] = mask[3, 4] = mask[1, 2] = 255
    x = np.array([[0, 4, 2, -1], [5, 0, 4, 2]])
    y = np.array([[0, 3, 1, 0], [3, 4, 0, -2]])
    # (0,0) ink, (4,3) ink, (2,1) ink, (-1,0) off the left; (5,3) off the right, (0,4) below the last
    # row, (4,0) paper, (2,-2) above the first row.
    expected = np.array([[True, True, True, False], [False, False, False, False]])
    found = ink_at(mask, x, y)
    assert found.dtype == np.bool_ and found.shape == (2, 4)
    assert np.array_equal(found, expected)


def test_nearest_run_spans_by_hand() -> None:
    offsets = np.arange(-3.0, 4.0)  # columns 0..6 are offsets -3..3
    ink = np.array([
        [0, 0, 1, 1, 0, 1, 0],  # nearest at offset 0; its run is offsets -1..0
        [0, 1, 0, 0, 0, 1, 0],  # -2 and +2 equally near: the lower column's run, -2..-2
        [0, 0, 0, 0, 0, 0, 0],  # no ink
        [1, 1, 1, 1, 1, 1, 0],  # one run -3..2, six columns: longer than 3
        [0, 0, 0, 0, 1, 1, 1],  # nearest at +1; its run runs to the last column, +1..3
    ], bool)
    start, end, valid = nearest_run_spans(ink, offsets, 3)
    assert np.array_equal(start[[0, 1, 3, 4]], [-1.0, -2.0, -3.0, 1.0])
    assert np.array_equal(end[[0, 1, 3, 4]], [0.0, -2.0, 2.0, 3.0])
    assert np.array_equal(valid, [True, True, False, False, True])
    centres, ok = nearest_runs(ink, offsets, 3)
    assert np.array_equal(centres[[0, 1, 4]], [-0.5, -2.0, 2.0])
    assert np.array_equal(ok, valid)


def test_nearest_run_spans_of_no_rows() -> None:
    start, end, valid = nearest_run_spans(np.zeros((0, 5), bool), np.arange(-2.0, 3.0), 3)
    assert start.shape == end.shape == valid.shape == (0,)
