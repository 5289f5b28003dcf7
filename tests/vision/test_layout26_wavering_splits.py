"""Stage 3's whist splits drawn freehand with a fine pen: a split that wavers across its band by more than
the slack the lines are thickened by is still found where it lies (`_layout_fit._wavering_crossings`),
a band's one split seen is kept where its other one is not seen (`_layout_choice._pick`), and a corner's
diagonal, which crosses the band's end leaning as far as the band is deep, is no split."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.layouts import layout_for
from sheetscan.vision._layout_choice import measured_proportions
from sheetscan.vision._layout_fit import measure

# A standard-4 sheet in rectified pixels (the frame 1900 px: measure thickens the lines by 11 px).
_FRAME = (50, 50, 1950, 1950)
_PULKA = (350, 400, 1650, 1600)
_GORA = (580, 590, 1420, 1500)
_FRAME_PX = (50.0, 50.0, 1950.0, 1950.0)
_TOP_SEAT = 2  # standard-4's seats sit at the bottom, left, top and right edges (layouts.py)


def _sheet(top_band: list[int], *, waver: float) -> np.ndarray:
    """The rectangles, the circle, all four corners' diagonals, two straight splits across the bottom,
    left and right bands, and across the top band a split at each of `top_band` (x), wavering `waver` px
    either side of its place as it goes down the band (a period of 160 px), 3 px wide as a fine pen's."""
    mask = np.zeros((2000, 2000), np.uint8)
    for left, top, right, bottom in (_FRAME, _PULKA, _GORA):
        cv2.rectangle(mask, (left, top), (right, bottom), 255, 4)
    cv2.circle(mask, (1000, 1045), 95, 255, 4)
    for sx, sy in ((0, 1), (2, 1), (2, 3), (0, 3)):
        cv2.line(mask, (_FRAME[sx], _FRAME[sy]), (_GORA[sx], _GORA[sy]), 255, 4)
    for at in (800, 1200):
        cv2.line(mask, (at, _PULKA[3]), (at, _FRAME[3]), 255, 4)
        cv2.line(mask, (_FRAME[0], at), (_PULKA[0], at), 255, 4)
        cv2.line(mask, (_PULKA[2], at), (_FRAME[2], at), 255, 4)
    ys = np.arange(_FRAME[1], _PULKA[1] + 1)
    for at in top_band:
        xs = at + waver * np.sin(2 * np.pi * ys / 160.0)
        points = np.stack([xs, ys], axis=1).round().astype(np.int32)
        cv2.polylines(mask, [points], False, 255, 3)
    return mask


def _top_fraction(x: int) -> float:
    """Where a split at `x` lies along the top edge from its writer's left end (the right end, as seen)."""
    return 1.0 - (x - _FRAME[0]) / (_FRAME[2] - _FRAME[0])


def _top_splits(mask: np.ndarray) -> tuple[float, ...]:
    m = measure(mask, _FRAME_PX)
    proportions, _ = measured_proportions(layout_for(4), m, 0)
    return proportions.whist_splits[_TOP_SEAT]


def test_splits_wavering_across_the_band_are_found_where_they_lie() -> None:
    # Wavering 16 px either side, no one column holds 0.85 of the band (bench_styles seed 31000, thin,
    # photo 4): the top seat's parts were placed evenly (1/3, 2/3 of the edge), 0.04-0.11 off.
    splits = _top_splits(_sheet([600, 1100], waver=16.0))
    expected = sorted((_top_fraction(600), _top_fraction(1100)))
    assert len(splits) == 2
    assert np.allclose(splits, expected, atol=0.01), (splits, expected)


def test_a_bands_one_split_seen_is_kept() -> None:
    # One straight split across the top band, the other not drawn: the one seen stays where it is, the
    # other takes its even place (both were placed evenly).
    splits = _top_splits(_sheet([600], waver=0.0))
    assert len(splits) == 2
    assert abs(splits[0] - 1.0 / 3.0) < 1e-9
    assert abs(splits[1] - _top_fraction(600)) < 0.01


def test_a_corners_diagonal_is_no_wandering_split() -> None:
    # The top band with no split at all: the diagonals cross its ends, leaning as far as it is deep.
    m = measure(_sheet([], waver=0.0), _FRAME_PX)
    assert m.whist_splits["top"] == ()
    assert m.wavering_splits is not None and m.wavering_splits("top") == ()
