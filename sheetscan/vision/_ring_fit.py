"""Fitting the sheet's drawn centre circle to its own ink on the rectified image (`fit_ring`, by RANSAC
near where the layout puts it; `ring_around`, as the closed curve of ink around the expected centre).

The zones stage uses the ring found to place the gora's cells and the target written inside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.vision._arrays import F64, U8, f64, u8

__all__ = ["Ring", "fit_ring", "ring_around"]


@dataclass(frozen=True)
class Ring:
    """A drawn circle fitted to its own ink."""

    cx: float
    """Centre x (px)."""
    cy: float
    """Centre y (px)."""
    r: float
    """Radius to the middle of the stroke (px)."""
    inner: float
    """Radius of the stroke's inner edge (px)."""
    outer: float
    """Radius of the stroke's outer edge (px)."""
    coverage: float
    """Share (0..1) of the way round where the ring's ink was seen."""


def _circles_through(p: F64) -> tuple[F64, F64, F64]:
    """Centres (x, y) and radii of the circles through each triple of points (K × 3 × 2)."""
    a, b, c = p[:, 0], p[:, 1], p[:, 2]
    d = 2 * (a[:, 0] * (b[:, 1] - c[:, 1]) + b[:, 0] * (c[:, 1] - a[:, 1]) + c[:, 0] * (a[:, 1] - b[:, 1]))
    d = np.where(np.abs(d) < 1e-9, np.nan, d)
    sa, sb, sc = (a**2).sum(1), (b**2).sum(1), (c**2).sum(1)
    ux = (sa * (b[:, 1] - c[:, 1]) + sb * (c[:, 1] - a[:, 1]) + sc * (a[:, 1] - b[:, 1])) / d
    uy = (sa * (c[:, 0] - b[:, 0]) + sb * (a[:, 0] - c[:, 0]) + sc * (b[:, 0] - a[:, 0])) / d
    return f64(ux), f64(uy), f64(np.hypot(a[:, 0] - ux, a[:, 1] - uy))


def _least_squares_circle(points: F64) -> tuple[float, float, float]:
    """The algebraic (Kåsa) least-squares circle through `points`."""
    x, y = points[:, 0], points[:, 1]
    design = np.stack([x, y, np.ones_like(x)], axis=1)
    (a, b, c), *_ = np.linalg.lstsq(design, x**2 + y**2, rcond=None)
    cx, cy = a / 2, b / 2
    return float(cx), float(cy), float(math.sqrt(max(c + cx**2 + cy**2, 0.0)))


def fit_ring(mask: U8, expected: tuple[float, float, float], *, line_width: float,
             exclude: U8 | None = None, tries: int = 160, bins: int = 48, shift: float = 0.6) -> Ring | None:
    """The drawn circle near `expected` (cx, cy, r), fitted to its own ink by RANSAC, or None.

    A freehand circle is seldom where the layout's model puts it, nor exactly its size. The ink
    around the expected circle (from half to one and a half times its radius, less `exclude`: the
    spokes that end on it) is sampled; circles through random triples of it are scored by how much of
    the way round their ink runs within about a line's width (the target written inside, a digit
    nearby or a spoke cover only a small arc), and the best is refined by least squares on its inliers.
    The stroke's own width is then measured from the ink across the fitted ring. The ring's centre may
    lie up to `shift` radii from the expected one; a larger `shift` samples the ink further out (and
    further in) alike. (`ring_around` finds it as the closed curve around the centre instead.)
    """
    ex, ey, er = expected
    h, w = mask.shape
    # Decision: the defaults (centre within 0.6 radii, ink from 0.5 to 1.6 radii out) are the ones
    # measured on the bench; a wider `shift` widens the ring of ink looked at by as much.
    wider = max(0.0, shift - 0.6)
    near_r, far_r = max(0.0, 0.5 - wider), 1.6 + wider
    x0, x1 = max(0, int(ex - far_r * er)), min(w, int(ex + far_r * er) + 1)
    y0, y1 = max(0, int(ey - far_r * er)), min(h, int(ey + far_r * er) + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    crop = mask[y0:y1, x0:x1] > 0
    if exclude is not None:
        crop &= exclude[y0:y1, x0:x1] == 0
    ys, xs = np.nonzero(crop)
    pts = f64(np.stack([xs + x0, ys + y0], axis=1))
    dist = np.hypot(pts[:, 0] - ex, pts[:, 1] - ey)
    pts = pts[(dist > near_r * er) & (dist < far_r * er)]
    if len(pts) < 30:
        return None
    rng = np.random.default_rng(0)  # deterministic: the same photo always gives the same ring
    if len(pts) > 1500:
        pts = pts[rng.choice(len(pts), 1500, replace=False)]
    tol = max(2.0, 0.75 * line_width)
    triples = pts[rng.integers(0, len(pts), (tries, 3))]
    ux, uy, ur = _circles_through(triples)
    plausible = (np.isfinite(ux) & (ur > 0.6 * er) & (ur < 1.5 * er)
                 & (np.hypot(ux - ex, uy - ey) < shift * er))
    if not plausible.any():
        return None
    ux, uy, ur = ux[plausible], uy[plausible], ur[plausible]
    best, best_score = -1, -1.0
    for start in range(0, len(ux), 64):  # in chunks: a candidate × point distance table stays small
        qx, qy, qr = ux[start:start + 64, None], uy[start:start + 64, None], ur[start:start + 64, None]
        near = np.abs(np.hypot(pts[None, :, 0] - qx, pts[None, :, 1] - qy) - qr) <= tol
        angle = np.arctan2(pts[None, :, 1] - qy, pts[None, :, 0] - qx)
        sector = _sector(angle, bins)
        hit = np.zeros((len(qx), bins), bool)
        rows = np.nonzero(near)
        hit[rows[0], sector[rows]] = True
        # Coverage first; among equal coverage, more ink on the ring.
        score = hit.sum(axis=1) + near.mean(axis=1)
        i = int(np.argmax(score))
        if score[i] > best_score:
            best, best_score = start + i, float(score[i])
    return _refined(pts, (float(ux[best]), float(uy[best]), float(ur[best])), er, tol=tol, bins=bins)


def _refined(pts: F64, start: tuple[float, float, float], er: float, *, tol: float, bins: int,
             limits: tuple[float, float] = (0.6, 1.5)) -> Ring | None:
    """The ring through the ink points `pts` near the circle `start`, refined by least squares on its
    inliers, with its stroke's measured width; None when it is seen less than half the way round or its
    radius is not within `limits` times the expected radius `er`."""
    cx, cy, cr = start
    for _ in range(3):
        on = np.abs(np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) - cr) <= 1.5 * tol
        if on.sum() < 12:
            return None
        cx, cy, cr = _least_squares_circle(pts[on])
    radial = np.hypot(pts[:, 0] - cx, pts[:, 1] - cy)
    on = np.abs(radial - cr) <= 2 * tol
    sector = _sector(np.arctan2(pts[on, 1] - cy, pts[on, 0] - cx), bins)
    coverage = len(np.unique(sector)) / bins
    if coverage < 0.5 or not limits[0] * er < cr < limits[1] * er:
        return None
    # The stroke's extent across the ring: its inner and outer edges in each sector, the median
    # over sectors (a spoke's end or a digit touching the ring sits in a few sectors only).
    r_on = radial[on]
    edges = [(float(r_on[sector == b].min()), float(r_on[sector == b].max())) for b in np.unique(sector)]
    inner = float(np.median([e[0] for e in edges]))
    outer = float(np.median([e[1] for e in edges]))
    return Ring(cx=cx, cy=cy, r=cr, inner=min(inner, cr - 1.0), outer=max(outer, cr + 1.0), coverage=coverage)


def ring_around(mask: U8, expected: tuple[float, float, float], *, line_width: float,
                exclude: U8 | None = None, bins: int = 48) -> Ring | None:
    """The drawn circle near `expected` (cx, cy, r) as the closed curve of ink nearest around the
    expected centre, or None when the hole there is not a drawn circle's.

    Of whatever size (0.6 to 2.2 times the expected radius) and freehand shape: the hole in the ink
    (its gaps of about a line's width closed) that holds the centre, with the target written inside it
    filled in, is taken when it is round enough to be a drawn circle, and the ring is the circle
    through the ink lining it, its stroke's width measured across it (`Ring`, as `fit_ring`'s).
    """
    ex, ey, er = expected
    h, w = mask.shape
    far = 2.5 * er
    x0, x1 = max(0, int(ex - far)), min(w, int(ex + far) + 1)
    y0, y1 = max(0, int(ey - far)), min(h, int(ey + far) + 1)
    if x1 - x0 < 8 or y1 - y0 < 8 or not (x0 <= ex < x1 and y0 <= ey < y1):
        return None
    ink = np.ascontiguousarray(mask[y0:y1, x0:x1])
    # Decision: gaps of up to about a line's width are closed, because a freehand ring is seldom
    # closed exactly where its stroke began, nor where a spoke meets it; a wider gap lets the hole
    # run out into the gora's cells, and then no ring is taken here.
    close = max(3, round(line_width)) | 1
    closed = cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close, close)))
    paper = u8(np.where(closed > 0, np.uint8(0), np.uint8(255)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=4)
    centre = (float(ex - x0), float(ey - y0))
    best: tuple[float, NDArray[np.int32]] | None = None
    for label in range(1, count):
        left, top, bw, bh = (int(v) for v in stats[label, :4])
        if (min(bw, bh) < 1.2 * er or not left <= centre[0] <= left + bw or not top <= centre[1] <= top + bh):
            continue  # cannot hold the centre, or too small to be the ring's hole
        region = u8(np.where(labels == label, np.uint8(255), np.uint8(0)))
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        outline = max(contours, key=cv2.contourArea)
        area = cv2.contourArea(outline)
        # Only a hole holding the centre (the target written inside it filled in), big enough not
        # to be a digit's own loop and not the gora's cells (nor the whole sheet).
        if not 0.6 * er < math.sqrt(area / math.pi) < 2.2 * er:
            continue
        if cv2.pointPolygonTest(outline, centre, False) < 0:
            continue
        xs, ys, bw, bh = cv2.boundingRect(outline)
        if xs == 0 or ys == 0 or xs + bw >= x1 - x0 or ys + bh >= y1 - y0 or len(outline) < 12:
            continue  # runs out of the search window: not closed around the centre
        hull = cv2.convexHull(outline)
        # A drawn circle's hole is round and nearly convex (the target inside may bite into it); a
        # cell between spokes is a wedge.
        if not 0.6 < bw / bh < 1.6 or area / max(cv2.contourArea(hull), 1.0) < 0.85:
            continue
        if not 0.7 * math.pi / 4 <= cv2.contourArea(hull) / (bw * bh) <= 0.87:
            continue
        if best is None or area < best[0]:
            best = (area, np.ascontiguousarray(outline, dtype=np.int32))
    if best is None:
        return None
    # The ring's stroke: the ink lining the hole, within a line and the closing beyond its edge (the
    # spokes' ends and the target inside are left out: beyond that, or inside the hole).
    hole = np.zeros_like(ink)
    cv2.drawContours(hole, [best[1]], -1, 255, cv2.FILLED)
    reach = close + 2 * max(2, round(line_width))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    lining = (cv2.dilate(hole, disc) > 0) & (hole == 0) & (ink > 0)
    if exclude is not None:
        lining &= exclude[y0:y1, x0:x1] == 0
    on_y, on_x = np.nonzero(lining)
    if len(on_x) < 30:
        return None
    pts = f64(np.stack([on_x + x0, on_y + y0], axis=1))
    # Decision: the ring is the least-squares circle through its own stroke, however egg-shaped: its
    # radius is then the stroke's mean distance from the centre, and its width is measured across the
    # stroke in each sector (not as distances from a round fit, which an egg's stroke lies off by more
    # than its width on two sides).
    cx, cy, cr = _least_squares_circle(pts)
    if not 0.6 * er < cr < 2.2 * er:
        return None
    radial = np.hypot(pts[:, 0] - cx, pts[:, 1] - cy)
    sector = _sector(np.arctan2(pts[:, 1] - cy, pts[:, 0] - cx), bins)
    seen = np.unique(sector)
    width = float(np.median([np.ptp(radial[sector == b]) for b in seen]))
    return Ring(cx=cx, cy=cy, r=cr, inner=cr - max(1.0, width / 2), outer=cr + max(1.0, width / 2),
                coverage=len(seen) / bins)


def _sector(angle: F64, bins: int) -> NDArray[np.int64]:
    """Which of `bins` equal sectors round a circle each angle (radians, from `arctan2`) lies in."""
    sector: NDArray[np.int64] = ((angle + np.pi) / (2 * np.pi) * bins).astype(np.int64) % bins
    return sector
