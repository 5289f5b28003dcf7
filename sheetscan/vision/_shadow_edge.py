"""Stage 2: the preview's grey with a cast shadow's straight edge lifted out (`shadow_lifted`).

A phone or a hand held over the sheet casts a shadow with a soft straight edge across the paper and the
table alike, at about half the light under it. The frame search cuts its ink to the bright paper
(`_drawn_frame._paper_only`, a split of the grey into paper and table), and the paper in shadow is then
table: the frame's part in shadow is cut off along the shadow's edge, and the outline closed there is
the lit part of the sheet. With the edge's light profile divided out, the paper is one brightness on
both sides of it.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.vision._arrays import U8, u8

__all__ = ["shadow_lifted"]

_HOUGH_VOTES = 0.15
"""A straight run of step pixels is looked at as an edge when this share of the preview's longer side
votes for it (the shadow's edge crosses the whole photo)."""
_LINES = 6
"""The strongest distinct straight runs looked at."""
_REACH = 0.035
"""How far (a share of the longer side) either side of a line its two sides' grey is compared: past a
penumbra of 3 % of the sheet's side (the sheet about two thirds of the photo)."""
_DARKER = 0.8
"""A side is in shadow at a place along the line where its grey is under this share of the other's."""
_ALONG = 0.95
"""... at this share of the places along the line at least (where both sides lie on the photo)."""
_MIXED = 0.6
"""The lit side's darker places (its 10th percentile of grey) under this share of its brighter ones (the
90th): the table and the paper both lie there."""
_SHRINK = 4
"""The two sides' grey is compared on a copy of the preview this many times smaller (blurred anyway)."""
_LIGHT = (0.25, 0.75)
"""The median share of the light under the shadow that counts as a cast shadow's (0.4-0.5 rendered)."""


def shadow_lifted(dark: U8, stepped: U8) -> U8 | None:
    """`dark` (the preview's grey) with the light profile across a cast shadow's straight edge divided out,
    or None when no such edge is seen. `stepped` marks the dark side of steps in the light (the pixels
    `ridges_only` told back to paper).

    The edge is the strongest straight run of `stepped` (a Hough line among the `_LINES` strongest) along
    which one side is darker than the other (under `_DARKER` of it) at `_ALONG` of the places, by a median
    share within `_LIGHT`, and whose lit side passes from the paper onto the table (`_MIXED`).
    Decision: along the whole line across the photo, not only on the paper, because that is what tells
    a shadow's edge from the paper's own edge: past the paper's corners the paper's edge line runs on
    over the table, table on both sides (seen: the paper's sides darker on one side at 0.55-0.89 of the
    places, shadows' edges at 1.0, bench_styles shadow 31005, 37006, 38003, 43006). The light's profile
    across the edge is the median over the places along it of each offset's grey over the lit side's at
    `_REACH`, made to rise monotonically into the light; beyond `_REACH` on the dark side it stays as at
    `_REACH`.
    """
    size = max(dark.shape)
    # Every other pixel both ways: the step's band is a few px wide, and the search costs a quarter.
    found = cv2.HoughLines(np.ascontiguousarray(stepped[::2, ::2]), 1, np.pi / 180,
                           max(10, round(_HOUGH_VOTES * size / 2)))
    if found is None:
        return None
    h, w = dark.shape
    small = cv2.resize(dark, (max(1, w // _SHRINK), max(1, h // _SHRINK)), interpolation=cv2.INTER_AREA)
    grey = cv2.GaussianBlur(small, (0, 0), 0.01 * size / _SHRINK).astype(np.float32) + 1.0
    seen: list[tuple[float, float]] = []
    for half_rho, theta in np.asarray(found, np.float64).reshape(-1, 2):
        rho = 2.0 * half_rho
        if any(abs(rho - r) < 0.02 * size and min(abs(theta - t), np.pi - abs(theta - t)) < np.radians(3)
               for r, t in seen):
            continue
        seen.append((float(rho), float(theta)))
        profile = _shadow_profile(dark, grey, float(rho), float(theta), size)
        if profile is not None:
            return _lifted(dark, float(rho), float(theta), *profile)
        if len(seen) >= _LINES:
            break
    return None


def _shadow_profile(dark: U8, grey: NDArray[np.float32], rho: float, theta: float, size: int
                    ) -> tuple[int, NDArray[np.float64], NDArray[np.float64]] | None:
    """For the line x cos θ + y sin θ = ρ, when it is a shadow's edge: the side in shadow (-1: where
    x cos θ + y sin θ < ρ, +1 the other), the offsets into the light (px) and the light's share at each;
    else None. `grey` is `dark` shrunk `_SHRINK` times and blurred (texture and lines averaged out), plus
    one."""
    h, w = dark.shape
    normal = np.array([np.cos(theta), np.sin(theta)])
    along = np.array([-normal[1], normal[0]])
    reach = max(3, round(_REACH * size))
    t = np.arange(-float(np.hypot(h, w)), float(np.hypot(h, w)), 2.0)
    points = rho * normal + t[:, None] * along
    minus, plus = points - reach * normal, points + reach * normal
    on = _inside(minus, w, h) & _inside(plus, w, h)
    if on.sum() < 0.1 * size:
        return None
    points = points[on]
    a = grey[_pixels(minus[on] / _SHRINK, grey.shape[1], grey.shape[0])]
    b = grey[_pixels(plus[on] / _SHRINK, grey.shape[1], grey.shape[0])]
    share = a / b
    side = -1
    if float(np.median(share)) > 1.0:
        share, side = 1.0 / share, 1
    if float(np.mean(share < _DARKER)) < _ALONG or not _LIGHT[0] <= float(np.median(share)) <= _LIGHT[1]:
        return None
    # Decision: the lit side must pass from the paper onto the table along the line (its grey's 10th
    # percentile under `_MIXED` of its 90th), because a shadow cast across the sheet falls on the table
    # past the paper's ends, while a paper's edge spanning the photo (the table a strip beyond it) has
    # the paper on its lit side all along and the table dark beside it everywhere, as a shadow's edge
    # would: taken for one, the table there was lifted to the paper's grey (bench_styles seed 40000,
    # photo 6, in five styles; on the census's 19 such photos 0.63-0.97, on 108 shadows' 0.06-0.85: 13
    # of those, their corners the same either way, are no longer lifted).
    # Twice as far into the light: the line may lie a little into the table beside a paper's edge.
    lit = grey[_pixels((points - 2 * side * reach * normal) / _SHRINK, grey.shape[1], grey.shape[0])]
    if float(np.percentile(lit, 10)) >= _MIXED * float(np.percentile(lit, 90)):
        return None
    # Into the light: from the shadow's side (-reach) to the lit side (+reach) along `side`'s opposite.
    offsets = np.arange(-reach, reach + 1, dtype=np.float64)
    into = -side * normal
    light = cv2.GaussianBlur(dark, (3, 3), 0).astype(np.float32) + 1.0
    lit = light[_pixels(points + reach * into, w, h)]
    shares = np.array([float(np.median(light[_pixels(points + o * into, w, h)] / lit)) for o in offsets])
    shares = np.minimum(np.maximum.accumulate(shares), 1.0)
    return side, offsets, shares


def _inside(points: NDArray[np.float64], w: int, h: int) -> NDArray[np.bool_]:
    """Which of `points` (x, y) lie on an image `w` wide and `h` high."""
    return (points[:, 0] >= 0) & (points[:, 0] <= w - 1) & (points[:, 1] >= 0) & (points[:, 1] <= h - 1)


def _pixels(points: NDArray[np.float64], w: int, h: int) -> tuple[NDArray[np.int_], NDArray[np.int_]]:
    """Rows and columns of `points` (x, y), rounded and kept on an image `w` wide and `h` high."""
    x = np.clip(np.round(points[:, 0]).astype(int), 0, w - 1)
    y = np.clip(np.round(points[:, 1]).astype(int), 0, h - 1)
    return y, x


def _lifted(dark: U8, rho: float, theta: float, side: int, offsets: NDArray[np.float64],
            shares: NDArray[np.float64]) -> U8:
    """`dark` divided by the light's share at each pixel's offset into the light from the line."""
    h, w = dark.shape
    x = np.arange(w, dtype=np.float32)[None, :] * np.float32(np.cos(theta))
    y = np.arange(h, dtype=np.float32)[:, None] * np.float32(np.sin(theta))
    offset = np.float32(-side) * (x + y - np.float32(rho))
    gain = np.interp(offset, offsets, shares).astype(np.float32)
    return u8(np.clip(dark.astype(np.float32) / np.maximum(gain, 0.05), 0, 255).astype(np.uint8))
