"""The paper's printed rulings seen in the preview's ink: whether an outline's inside is ruled.

A squared or lined notebook page is printed with lines of one pitch that run straight across it, edge
to edge of their printed area; a hand-drawn sheet's lines and its writing are spaced as the hand put
them. Seen straight on (the outline's inside mapped to a rectangle, which undoes the photo's
perspective as far as the outline is the page's), the share of ink along each row of a ruled inside
repeats at the rulings' pitch, and its autocorrelation at that lag is high. A printed grid is also
square and fine: the same pitch both ways on the paper (mapped to the square, the two lags differ only as
the outline's sides do) and a small share of the outline, where a drawn sheet's nested lines and columns
of writing, when they repeat at all, repeat at a sixth to a twelfth of it.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._arrays import F64, U8, f64

__all__ = ["autocorrelation", "peaks", "ruled_ways"]

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


_FINE = (3, 10)
"""The lags (px of that square) a fine pitch lies within: a 5 mm grid on a page of 130-260 mm seen whole
(5-10 px). On the 36 squared-paper photos of seeds 26000-28000 in 6 styles the grids' borders showed one
at 5-7 px, while the drawn frames' insides repeated at 15-30 px, or (seed 28000, photo 1) at 10 px one
way only: none showed a fine pitch both ways."""
_DIP = 0.15
"""A fine pitch's peak of the autocorrelation rises this much over its lowest value at a shorter lag: a
smooth profile, whose autocorrelation only falls from lag 0, has no such peak."""
_FINE_REPEAT = 0.3
"""A fine pitch's peak reaches this (a grid seen from afar, broken up: 0.34-0.42; nearer: 0.5-0.8)."""
_SAME_PITCH = 0.2
"""The two ways' fine pitches, measured along the outline's sides, are one pitch within this share."""


def ruled_ways(mask: U8, quad: F64) -> int:
    """How many ways (0, 1 or 2: along the outline's top side, along its left side) the ink of `mask`
    inside the outline `quad` (4 × 2, clockwise from any corner) repeats at one pitch: 2 for a printed
    grid seen as a mesh, 1 for lined paper's rulings, 0 for a drawn sheet's lines and writing."""
    quad = f64(quad)
    square = f64([[0, 0], [_SIDE, 0], [_SIDE, _SIDE], [0, _SIDE]])
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), square.astype(np.float32))
    inside = cv2.warpPerspective(mask, warp, (_SIDE, _SIDE), flags=cv2.INTER_NEAREST)
    # The outer tenth of each side is left out: the outline's own lines lie there.
    cut = _SIDE // 10
    core = (inside[cut:-cut, cut:-cut] > 0).astype(np.float64)
    profiles = (core.mean(axis=0), core.mean(axis=1))
    ways = sum(_repeats(profile) for profile in profiles)
    # Decision: also a grid where both ways repeat at one fine pitch (`_one_fine_pitch`), below the
    # repeat's bar, because seen from afar a grid's lines are broken up in the preview and its border
    # repeats at only 0.42/0.38 (unseen seed 27000, photo 6, far: the grid's border taken for the sheet,
    # 141 px off), while a drawn frame's inside never showed a fine pitch either way.
    if ways < 2 and _one_fine_pitch(profiles, quad):
        return 2
    return ways


def _repeats(profile: F64) -> bool:
    """Whether `profile` (the share of ink per row or column) repeats at a lag within `_PITCHES`.

    Known weakness: at the shortest lags a smooth profile still matches itself, so one way of a grid's
    border can pass by smoothness alone (27006: 0.65 at 3 px, no repeat at the pitch that way); asking for
    a peak after a dip lost that photo again. `_one_fine_pitch` (a peak after a dip, one pitch both ways)
    is asked besides, not instead, for that reason: 27006 usual's border shows a pitch one way only."""
    centred = profile - profile.mean()
    energy = float(np.dot(centred, centred))
    if energy <= len(profile) * _FLAT**2:
        return False  # every row alike: lines running this way (or none), nothing crossing them
    low, high = _PITCHES
    stop = min(high, len(centred) - 1)
    return float(autocorrelation(centred, energy, stop - 1)[low:stop].max()) >= _REPEAT


def autocorrelation(centred: F64, energy: float, longest: int) -> F64:
    """The autocorrelation of a profile less its mean (`centred`; `energy`, its sum of squares, > 0) at the
    lags 0 .. `longest`, as shares of `energy`: 1 at lag 0, near 1 at a lag the profile repeats at."""
    return np.array([1.0] + [float(np.dot(centred[:-lag], centred[lag:])) / energy
                             for lag in range(1, longest + 1)])


def peaks(ac: F64, low: int, high: int) -> list[int]:
    """The lags `low` .. `high` at which the autocorrelation `ac` (known up to `high` + 1) peaks: no lower
    than at either neighbouring lag."""
    return [lag for lag in range(low, high + 1) if ac[lag - 1] <= ac[lag] >= ac[lag + 1]]


def _one_fine_pitch(profiles: tuple[F64, F64], quad: F64) -> bool:
    """Whether both `profiles` (along the outline `quad`'s top side, along its left side, as `ruled_ways`
    takes them) repeat at a fine pitch (`_fine_pitch`) and the two pitches, measured along the outline's
    sides (px of the image), are one within `_SAME_PITCH`."""
    across, down = _fine_pitch(profiles[0]), _fine_pitch(profiles[1])
    if across is None or down is None:
        return False
    top = (np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[2] - quad[3]))) / 2
    left = (np.hypot(*(quad[3] - quad[0])) + np.hypot(*(quad[2] - quad[1]))) / 2
    wide, tall = across * float(top), down * float(left)
    return abs(wide - tall) <= _SAME_PITCH * max(wide, tall)


def _fine_pitch(profile: F64) -> float | None:
    """The lag (px of the square, between whole px) within `_FINE` at which `profile`'s
    autocorrelation has its highest peak rising `_DIP` over its lowest at a shorter lag, where that
    peak reaches `_FINE_REPEAT`; None when there is none."""
    centred = profile - profile.mean()
    energy = float(np.dot(centred, centred))
    if energy <= len(profile) * _FLAT**2:
        return None
    low, high = _FINE
    if len(centred) <= high + 1:
        return None
    ac = autocorrelation(centred, energy, high + 1)
    best: tuple[float, int] | None = None
    for lag in peaks(ac, low, high):
        if ac[lag] >= _FINE_REPEAT and float(ac[1:lag].min()) <= ac[lag] - _DIP \
                and (best is None or ac[lag] > best[0]):
            best = (float(ac[lag]), lag)
    if best is None:
        return None
    lag = best[1]
    # The peak's top between whole lags (a parabola through it and its neighbours): a pitch of 5-7 px
    # is otherwise known only to a sixth.
    curve = ac[lag - 1] - 2 * ac[lag] + ac[lag + 1]
    shift = 0.5 * (ac[lag - 1] - ac[lag + 1]) / curve if curve < 0 else 0.0
    return lag + float(shift)
