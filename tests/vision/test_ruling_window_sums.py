"""`_ruling._window_sums`: the ruling's pixel count and strength in each window, summed window by window or
from running sums over the sheet, equal to plain sums."""

from __future__ import annotations

import numpy as np
import pytest

from sheetscan.vision import _ruling


@pytest.mark.parametrize("direct", [0.0, 1e9])
def test_window_sums_equal_plain_sums_either_way(direct: float, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_ruling, "_DIRECT", direct)
    rng = np.random.default_rng(3)
    h, w = 90, 130
    ruling = np.asarray(rng.random((h, w)) < 0.3, np.uint8)
    strength = np.asarray(rng.integers(0, 256, (h, w)), np.uint8)
    # Windows off every edge (clipped), one pixel, and the whole sheet.
    x0 = np.array([0, 120, 50, 7, 0], np.int64)
    x1 = np.array([10, 130, 51, 40, 130], np.int64)
    y0 = np.array([0, 80, 44, 60, 0], np.int64)
    y1 = np.array([25, 90, 45, 90, 90], np.int64)
    found, total = _ruling._window_sums(ruling, strength, (x0, x1, y0, y1))
    for i in range(len(x0)):
        on = ruling[y0[i]:y1[i], x0[i]:x1[i]] > 0
        assert found[i] == np.count_nonzero(on)
        assert total[i] == float(strength[y0[i]:y1[i], x0[i]:x1[i]][on].astype(np.int64).sum())
    assert found.dtype == np.int64 and total.dtype == np.float64
