"""Stage 5, cutting a block of ink into number tokens at an angle (`_cut_block`), on small synthetic masks."""

from __future__ import annotations

import numpy as np

from sheetscan.vision._cut_block import _turn_stats
from sheetscan.vision._zone_ink import components


def test_blob_boxes_turn_with_the_block() -> None:
    # A 4 × 5 box at (2, 3) of a 20 px wide, 10 px tall image. np.rot90 turns it a quarter
    # counter-clockwise: pixel (x, y) goes to (y, 20 − 1 − x), so the box goes to (3, 20 − 2 − 4) =
    # (3, 14), 5 wide and 4 tall; a second turn (the image now 10 wide) gives (14, 10 − 3 − 5) = (14, 2).
    mask = np.zeros((10, 20), np.uint8)
    mask[3:8, 2:6] = 255
    labels, stats, _ = components(mask)
    assert tuple(_turn_stats(stats, 1, mask.shape)[1, :4]) == (3, 14, 5, 4)
    assert tuple(_turn_stats(stats, 2, mask.shape)[1, :4]) == (14, 2, 4, 5)
    for turns in range(4):
        ys, xs = np.nonzero(np.rot90(labels, turns) == 1)
        x, y, w, h = _turn_stats(stats, turns, mask.shape)[1, :4]
        assert (x, y, x + w - 1, y + h - 1) == (xs.min(), ys.min(), xs.max(), ys.max())
