"""The paper's printed rulings seen in the preview's ink: whether an outline's inside is ruled.

A squared or lined notebook page is printed with lines of one pitch that run straight across it, edge
to edge of their printed area; a hand-drawn sheet's lines and its writing are spaced as the hand put
them. Seen straight on (the outline's inside mapped to a rectangle, which undoes the photo's
perspective as far as the outline is the page's), the share of ink along each row of a ruled inside
repeats at the rulings' pitch, and its autocorrelation at that lag is high.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._arrays import F64, U8, f64

__all__ = ["ruled_ways"]

_SIDE = 256
"""The outline's inside is looked at mapped to a square this many px on a side (a pitch of 5 mm is
5-12 px there on an outline spanning the usual 100-250 mm)."""
_PITCHES = (3, 40)
"""The lags (px of that square) at which a repeat counts as the rulings' pitch."""
_FLAT = 0.02
"""A profile whose rows differ by under this share of ink (its standard deviation) is flat: nothing
repeats."""
_REPEAT = 0.5
"""A profile whose autocorrelation reaches this at such a lag repeats at it (a printed grid: ~0.7-0.9)."""


def ruled_ways(mask: U8, quad: F64) -> int:
    """How many ways (0, 1 or 2: along the outline's top side, along its left side) the ink of `mask`
    inside the outline `quad` (4 × 2, clockwise from any corner) repeats at one pitch: 2 for a printed
    grid seen as a mesh, 1 for lined paper's rulings, 0 for a drawn sheet's lines and writing."""
    square = f64([[0, 0], [_SIDE, 0], [_SIDE, _SIDE], [0, _SIDE]])
    warp = cv2.getPerspectiveTransform(f64(quad).astype(np.float32), square.astype(np.float32))
    inside = cv2.warpPerspective(mask, warp, (_SIDE, _SIDE), flags=cv2.INTER_NEAREST)
    # The outer tenth of each side is left out: the outline's own lines lie there.
    cut = _SIDE // 10
    core = (inside[cut:-cut, cut:-cut] > 0).astype(np.float64)
    return sum(_repeats(core.mean(axis=axis)) for axis in (0, 1))


def _repeats(profile: F64) -> bool:
    """Whether `profile` (the share of ink per row or column) repeats at a lag within `_PITCHES`.

    Known weakness: at the shortest lags a smooth profile still matches itself, so one way of a grid's
    border can pass by smoothness alone (27006: 0.65 at 3 px, no repeat at the pitch that way); asking for
    a peak after a dip lost that photo again. A test for one pitch on both axes would be sounder (README,
    What remains)."""
    centred = profile - profile.mean()
    energy = float(np.dot(centred, centred))
    if energy <= len(profile) * _FLAT**2:
        return False  # every row alike: lines running this way (or none), nothing crossing them
    low, high = _PITCHES
    lags = range(low, min(high, len(centred) - 1))
    best = max(float(np.dot(centred[:-lag], centred[lag:])) for lag in lags)
    return best / energy >= _REPEAT
