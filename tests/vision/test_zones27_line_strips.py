"""`_layout_fit.line_masks` worked out on the strips its profiles are read from: the same pixels there
as the whole sheet's masks."""

import numpy as np

from sheetscan.vision._layout_fit import line_masks


def test_a_line_running_on_past_the_strip_is_kept_within_it() -> None:
    # A level line 51 px long (columns 10-60) and a dash 20 px long, both 1 px thick; the strip asked for
    # (columns 50-80) holds only the line's last 11 px, shorter than the length of 31 looked for: the
    # line is still a long line there, as it is on the whole mask. Likewise upright, for rows 50-80.
    mask = np.zeros((120, 140), np.uint8)
    mask[20, 10:61] = 255
    mask[40, 55:75] = 255
    mask[10:61, 100] = 255
    mask[55:75, 120] = 255
    horizontal, vertical = line_masks(mask, 31, 1, columns=(50, 80), rows=(50, 80))
    expected_h = np.zeros((120, 30), np.uint8)
    expected_h[20, 0:11] = 255
    expected_v = np.zeros((30, 140), np.uint8)
    expected_v[0:11, 100] = 255
    assert np.array_equal(horizontal, expected_h)
    assert np.array_equal(vertical, expected_v)


def test_strips_are_the_whole_masks_there() -> None:
    rng = np.random.default_rng(27)
    for _ in range(60):
        height, width = (int(v) for v in rng.integers(8, 160, 2))
        mask = np.where(rng.random((height, width)) < rng.choice([0.1, 0.4, 0.8]), 255, 0).astype(np.uint8)
        length, slack, along = int(rng.integers(2, 40)), int(rng.integers(1, 7)), int(rng.integers(1, 7))
        columns = tuple(sorted(int(v) for v in rng.integers(0, width + 1, 2)))
        rows = tuple(sorted(int(v) for v in rng.integers(0, height + 1, 2)))
        whole_h, whole_v = line_masks(mask, length, slack, along)
        horizontal, vertical = line_masks(mask, length, slack, along, columns=columns, rows=rows)
        assert np.array_equal(horizontal, whole_h[:, columns[0]:columns[1]])
        assert np.array_equal(vertical, whole_v[rows[0]:rows[1]])
