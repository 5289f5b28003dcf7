"""Quadrilaterals in a photo: the drawn outer rectangle, corner order, true aspect ratio, refinement."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.vision._arrays import F64, U8, f64, u8
from sheetscan.vision._lines import (
    fit_line,
    ink_at,
    intersect,
    line_through,
    nearest_run_spans,
    point_line_distance,
)

__all__ = [
    "FrameCandidate", "alike", "find_frames", "order_clockwise", "overrun_sides", "quad_area",
    "rectangle_aspect", "refine_quad", "ring_ink", "segment_coverage", "side_coverage", "side_reach",
    "side_widths", "table_sides", "without_rims",
]


@dataclass(frozen=True, eq=False)  # holds arrays: compared by identity
class FrameCandidate:
    """A closed four-sided outline of dark lines found in a mask."""

    quad: F64
    """4 × 2 corners, clockwise from the top-left-most one (image coordinates, y down)."""
    coverage: float
    """The smallest share of any side that lies on ink (1.0 = all four sides fully drawn)."""
    area: float
    """Area of the quadrilateral in pixels."""
    touches: tuple[str, ...]
    """The image borders the outline runs into ("left", "top", "right", "bottom")."""
    crowded: bool = False
    """Over a fifth of the inside is ink (much or bold writing, or lines thickened at a faint level)
    though it is no mesh (`_ink_share`): such an outline may also be the frame merged with writing."""


def order_clockwise(quad: F64) -> F64:
    """The 4 corners clockwise on screen (y down), starting from the one nearest the top-left."""
    q = f64(quad).reshape(4, 2)
    center = q.mean(axis=0)
    angles = np.arctan2(q[:, 1] - center[1], q[:, 0] - center[0])
    q = q[np.argsort(angles)]  # increasing screen angle = clockwise on screen
    # Start at the corner pointing most towards the upper left (direction (-1, -1)).
    rel = q - center
    start = int(np.argmax(-(rel[:, 0] + rel[:, 1]) / (np.hypot(rel[:, 0], rel[:, 1]) + 1e-9)))
    return np.roll(q, -start, axis=0)


def quad_area(quad: F64) -> float:
    """The area inside `quad` (its corners in order), in px²."""
    return float(cv2.contourArea(quad.astype(np.float32)))


def alike(quad: F64, other: F64, reach: float) -> bool:
    """Whether every corner of `quad` lies within `reach` px of the same corner of `other`."""
    return float(np.hypot(*(quad - other).T).max()) < reach


def _quad_from_hull(hull: F64) -> F64 | None:
    """Approximate a convex hull by 4 corners (Douglas–Peucker with a growing tolerance)."""
    perimeter = cv2.arcLength(hull.astype(np.float32), True)
    for eps in (0.01, 0.02, 0.03, 0.045, 0.06, 0.08, 0.1):
        approx = cv2.approxPolyDP(hull.astype(np.float32), eps * perimeter, True).reshape(-1, 2)
        if len(approx) == 4:
            return f64(approx)
        if len(approx) < 4:
            break
    # Fall back on the 4 hull points extreme along the two diagonals of the hull's own frame.
    rect = cv2.minAreaRect(hull.astype(np.float32))
    box = f64(cv2.boxPoints(rect))
    picks = [hull[int(np.argmin(np.hypot(*(hull - corner).T)))] for corner in box]
    out = f64(picks)
    return out if len({tuple(p) for p in out.round(1)}) == 4 else None


def _dense(outline: F64) -> F64:
    """The closed outline with a point every pixel (OpenCV keeps only the ends of straight runs)."""
    nxt = np.roll(outline, -1, axis=0)
    steps = np.maximum(1, np.ceil(np.abs(nxt - outline).max(axis=1)).astype(int))
    # One pass over every point instead of a part per segment (the same arithmetic, point for point):
    # a long contour has thousands of segments, and the loop over them was most of this function's time.
    segment = np.repeat(np.arange(len(outline)), steps)
    first = np.cumsum(steps) - steps  # each segment's first point in the result
    share = (np.arange(len(segment)) - first[segment]) / steps[segment]
    return f64(outline[segment] + (nxt[segment] - outline[segment]) * share[:, None])


def _quad_by_lines(points: F64, size: float, seed: int = 0) -> F64 | None:
    """The 4 strongest straight runs of an outline (sequential RANSAC), intersected into a quadrilateral.

    Writing over a corner or a stray stroke joined to the frame bends its convex hull, but adds few
    points compared with the four long sides, so the sides still win here.
    """
    rng = np.random.default_rng(seed)
    if len(points) > 3000:
        points = points[rng.choice(len(points), 3000, replace=False)]
    tol = max(1.5, 0.005 * size)
    remaining = points
    lines: list[tuple[F64, F64]] = []
    for _ in range(4):
        if len(remaining) < 20:
            return None
        pairs = rng.integers(0, len(remaining), (300, 2))
        a, b = remaining[pairs[:, 0]], remaining[pairs[:, 1]]
        d = b - a
        length = np.hypot(d[:, 0], d[:, 1])
        keep = length > 0.1 * size
        if not keep.any():
            return None
        a, d, length = a[keep], d[keep], length[keep]
        n = np.stack([-d[:, 1], d[:, 0]], axis=1) / length[:, None]
        # Each point's distance from each pair's line, in place: its temporaries were much of the time.
        dist = np.subtract(remaining[None, :, 0], a[:, None, 0])
        dist *= n[:, None, 0]
        down = np.subtract(remaining[None, :, 1], a[:, None, 1])
        down *= n[:, None, 1]
        dist += down
        np.abs(dist, out=dist)
        best = int(np.argmax(np.count_nonzero(dist < tol, axis=1)))
        inliers = remaining[dist[best] < tol]
        fitted = fit_line(inliers)
        if fitted is None:
            return None
        lines.append(fitted)
        remaining = remaining[point_line_distance(remaining, fitted) > 2 * tol]
    center = points.mean(axis=0)

    def angle(line: tuple[F64, F64]) -> float:
        p, d = line
        foot = p + ((center - p) @ d) * d  # nearest point of the line to the centre
        return float(np.arctan2(foot[1] - center[1], foot[0] - center[0]))

    lines.sort(key=angle)
    corners = []
    for i in range(4):
        q = intersect(lines[i - 1], lines[i])
        if q is None:
            return None
        corners.append(q)
    quad = f64(corners)
    if not cv2.isContourConvex(quad.astype(np.float32)):
        return None
    return quad


def side_coverage(mask: U8, quad: F64, *, tolerance: float = 2.0, samples: int = 60) -> list[float]:
    """For each side (i → i+1) of `quad`, the share of sample points with ink within `tolerance` px."""
    return _coverage(_fattened(mask, tolerance), quad, samples)


def _fattened(mask: U8, tolerance: float) -> U8:
    """`mask` dilated by a square reaching `tolerance` px each way (rounded up, at least 1)."""
    r = max(1, math.ceil(tolerance))
    return u8(cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * r + 1, 2 * r + 1))))


def _coverage(fat: U8, quad: F64, samples: int = 60) -> list[float]:
    """`side_coverage` on the mask already dilated by its tolerance (`_fattened`)."""
    h, w = fat.shape
    out: list[float] = []
    t = np.linspace(0.05, 0.95, samples)[:, None]
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        pts = a + t * (b - a)
        x = np.clip(pts[:, 0].round().astype(int), 0, w - 1)
        y = np.clip(pts[:, 1].round().astype(int), 0, h - 1)
        inside = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
        out.append(float(np.mean((fat[y, x] > 0) & inside)))
    return out


def segment_coverage(mask: U8, a: F64, b: F64, *, tolerance: float = 2.0, ends: float = 0.15,
                     samples: int = 24) -> float:
    """Share of points along the segment a → b (its ends cut by `ends` of its length) that have ink in
    `mask` within `tolerance` px across it; points outside the image count as bare."""
    d = f64(b) - f64(a)
    length = float(np.hypot(*d))
    if length < 1e-9:
        return 0.0
    normal = np.array([-d[1], d[0]]) / length
    t = np.linspace(ends, 1 - ends, samples)[:, None, None]
    across = np.arange(-math.ceil(tolerance), math.ceil(tolerance) + 1)[None, :, None]
    pts = (f64(a) + t * d + across * normal).round().astype(int)  # samples × offsets × 2
    x, y = pts[..., 0], pts[..., 1]
    ink = ink_at(mask, x, y)
    return float(np.mean(ink.any(axis=1)))


def _touches(points: F64, shape: tuple[int, int], margin: float) -> tuple[str, ...]:
    h, w = shape
    found: list[str] = []
    if points[:, 0].min() <= margin:
        found.append("left")
    if points[:, 1].min() <= margin:
        found.append("top")
    if points[:, 0].max() >= w - 1 - margin:
        found.append("right")
    if points[:, 1].max() >= h - 1 - margin:
        found.append("bottom")
    return tuple(found)


def find_frames(
    mask: U8, *, gray: U8 | None = None, min_area_share: float = 0.04, min_coverage: float = 0.55,
    edges: list[F64] | None = None,
) -> list[FrameCandidate]:
    """Closed four-sided ink outlines in `mask`, best first (large, fully drawn, not the background).

    Each connected ink component's convex hull is reduced to 4 corners; it is kept when every side
    runs along ink for at least `min_coverage` of its length. A component running into three or more
    image borders is the table or the paper's own edge, not a drawn sheet. The outlines dropped as the
    paper's edge (`gray` shows the table beyond them) are added to `edges` when it is given.
    """
    h, w = mask.shape
    # Outer boundaries of every component, also of those lying inside another one's hole (the drawn
    # frame sits inside the dark outline of the paper's edge).
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    found: list[FrameCandidate] = []
    size = max(h, w)
    # The mask dilated by the sides' tolerance once for all its outlines (`side_coverage` dilated it
    # again for each), made when the first outline gets that far.
    fat: U8 | None = None
    for contour, links in zip(contours, hierarchy[0] if hierarchy is not None else [], strict=False):
        if links[3] != -1:
            continue
        _, _, cw, ch = cv2.boundingRect(contour)
        if cw * ch < min_area_share * h * w:
            continue
        hull = f64(cv2.convexHull(contour).reshape(-1, 2))
        touches = _touches(hull, (h, w), 2.0)
        if len(touches) >= 3:
            continue
        quad = _quad_from_hull(hull)
        if quad is None:
            continue
        quad = order_clockwise(quad)
        area = quad_area(quad)
        if area < min_area_share * h * w:
            continue
        if fat is None:
            fat = _fattened(mask, side_reach(size))
        cover = _coverage(fat, quad)
        if min(cover) < 0.9 and not touches:
            # Something joined to the frame bent its hull: find the four sides themselves instead.
            by_lines = _quad_by_lines(_dense(f64(contour.reshape(-1, 2))), size)
            if by_lines is not None:
                by_lines = order_clockwise(by_lines)
                other = _coverage(fat, by_lines)
                if min(other) > min(cover):
                    quad, cover = by_lines, other
                    area = quad_area(quad)
        if min(cover) < min_coverage and not touches:
            continue
        # A drawn frame has bare paper on both sides; the paper's edge has the table outside it, a
        # table texture has texture inside its outline. Handwriting near the frame is allowed for.
        # (The outline lies on the outer edge of its ink: inside is looked at past each side's ink.)
        widths = side_widths(mask, quad, size)
        outside = ring_ink(mask, quad, (0.007 * size, 0.011 * size))
        inside = _inner_ring_ink(mask, quad, (0.007 * size, 0.011 * size, 0.02 * size), widths)
        if (outside is not None and outside > 0.15) or (inside is not None and inside > 0.3):
            continue
        # A sheet is mostly bare paper between its lines; a dense mesh is a printed grid (or a texture)
        # seen at too faint a contrast.
        ink, bare = _ink_share(mask, quad)
        if ink > _CROWDED and (bare < 0.05 or ink > 1 / 3):
            continue
        if gray is not None and sum(table_sides(gray, quad, size, widths)) >= 3:
            if edges is not None:
                edges.append(quad)
            continue
        # Decision: an outline whose every side is a band over 1 % of the photo wide is not drawn (a
        # 3 mm felt-tip line on an A4 sheet filling the photo is about 0.8 %): it is the dark rim the
        # table makes along the paper's edge, seen from inside it, where the paper-edge test above
        # compares rim with rim.
        if min(widths) > 0.01 * size:
            continue
        # Decision: an outline with drawn lines (as thin as its own sides) leaving two or more of its
        # corners outwards is a rectangle inside the frame (seen whole where the frame's own lines are
        # too faint), not the frame: reading it as the sheet would lose the whole photo.
        if _spoked_corners(mask, quad, size, thin=max(3.0, 1.5 * float(np.median(widths)))) >= 2:
            continue
        found.append(FrameCandidate(quad, min(cover), area, touches, crowded=ink > _CROWDED))
    found.sort(key=lambda c: -c.area)
    if not found:
        return found
    # Decision: prefer a big outline nested inside another, because the paper's own edge against a
    # plain table also shows as a closed outline of "ink" around the drawn frame.
    best = found[0]
    for cand in found[1:]:
        inside_best = all(
            cv2.pointPolygonTest(best.quad.astype(np.float32), (float(px), float(py)), False) >= 0
            for px, py in cand.quad
        )
        if inside_best and cand.area > 0.5 * best.area:
            best = cand
    return [best, *(c for c in found if c is not best)]


def _runs_across(mask: U8, starts: F64, stops: F64, *, band: int, samples: int = 40, ends: float = 0.1
                 ) -> tuple[F64, F64, NDArray[np.bool_]]:
    """Along each segment starts[k] → stops[k] (K × 2 each; their ends cut by `ends`), at `samples`
    points, the ink run across the segment nearest it within `band` px: (start offsets, end offsets,
    found), each K × `samples`, as `nearest_run_spans` gives them."""
    starts, stops = f64(starts).reshape(-1, 2), f64(stops).reshape(-1, 2)
    offsets = np.arange(-band, band + 1, dtype=np.float64)
    d = stops - starts
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-12)[:, None]
    t = np.linspace(ends, 1 - ends, samples)
    base = starts[:, None, :] + t[None, :, None] * d[:, None, :]  # K × samples × 2
    grid = base[:, :, None, :] + offsets[None, None, :, None] * normal[:, None, None, :]
    x, y = grid[..., 0].round().astype(int), grid[..., 1].round().astype(int)
    ink = ink_at(mask, x, y)
    first, last, valid = nearest_run_spans(ink.reshape(-1, len(offsets)), offsets, len(offsets))
    shape = (len(starts), samples)
    return f64(first.reshape(shape)), f64(last.reshape(shape)), valid.reshape(shape)


def side_widths(mask: U8, quad: F64, size: int) -> list[float]:
    """Each side's ink width across it (px), looked for within `_width_band` of `size` (`_side_widths`)."""
    return _side_widths(mask, quad, band=_width_band(size))


def _side_widths(mask: U8, quad: F64, *, band: int) -> list[float]:
    """For each side, the median width (px) of the ink run lying on it, measured across the side
    (0 where no sample finds one)."""
    start, end, valid = _runs_across(mask, quad, np.roll(quad, -1, axis=0), band=band, samples=20)
    widths = end - start + 1
    return [float(np.median(widths[i][valid[i]])) if valid[i].any() else 0.0 for i in range(4)]


def overrun_sides(mask: U8, quad: F64, size: int) -> int:
    """How many sides the two sides next to them run on past as thin drawn lines (past both corners).

    A line inside the frame taken for one of its sides (a ruling, a grid line, a drawn line, where the
    frame's own side is lost in shade) has the frame's other sides going on past it; a frame's side
    has at most its corners' overshoot there.
    """
    near, far = 0.015 * size, 0.05 * size
    band = max(2, round(0.005 * size))
    thin = max(3.0, 0.008 * size)

    # For each corner, the two sides meeting there carried on past it: [k] the side from the corner
    # before, [4 + k] the side from the corner after.
    corners = np.concatenate([quad, quad])
    others = np.concatenate([np.roll(quad, 1, axis=0), np.roll(quad, -1, axis=0)])
    d = corners - others
    d = d / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
    start, end, valid = _runs_across(mask, corners + near * d, corners + far * d, band=band, samples=24,
                                     ends=0.0)
    goes_on = np.mean(valid & (end - start + 1 <= thin), axis=1) >= 0.7
    # Side j (corner j → j + 1) is overrun by the side before it past corner j and the one after it
    # past corner j + 1.
    return sum(bool(goes_on[j] and goes_on[4 + (j + 1) % 4]) for j in range(4))


def _spoked_corners(mask: U8, quad: F64, size: int, *, thin: float) -> int:
    """How many corners a drawn line (at most `thin` px wide) leaves outwards (within 25° of the
    corner's bisector).

    The corners of a rectangle drawn inside the frame carry on outwards in the spokes that join them
    to the frame's corners (along the diagonal: within 20° of the bisector up to an aspect of 2); past
    the frame's own corners is bare margin (its sides' overshoots, rulings and grid lines run along
    the sides, 45° off the bisector).
    """
    # A spoke leaves from the corner itself (the paper's rim past a frame drawn near it is across a
    # strip of bare margin), and lies along the ray within a few px at the best of the angles tried;
    # lines crossing the ray (a ruling mesh seen at a slant) come that near it only where they cross.
    band = max(2, round(0.003 * size))
    before, after = quad - np.roll(quad, 1, axis=0), quad - np.roll(quad, -1, axis=0)
    out = before / np.maximum(np.hypot(before[:, 0], before[:, 1]), 1e-9)[:, None] \
        + after / np.maximum(np.hypot(after[:, 0], after[:, 1]), 1e-9)[:, None]
    out = out / np.maximum(np.hypot(out[:, 0], out[:, 1]), 1e-9)[:, None]  # each corner's bisector
    turns = np.radians(np.arange(-25, 26, 5))
    cos, sin = np.cos(turns)[None, :], np.sin(turns)[None, :]
    rays = np.stack([cos * out[:, :1] - sin * out[:, 1:], sin * out[:, :1] + cos * out[:, 1:]], axis=-1)
    rays = rays.reshape(-1, 2)  # corner-major: 4 × len(turns)
    corners = np.repeat(quad, len(turns), axis=0)
    start, end, valid = _runs_across(mask, corners + 0.005 * size * rays, corners + 0.05 * size * rays,
                                     band=band, samples=24, ends=0.0)
    share = np.mean(valid & (end - start + 1 <= thin), axis=1).reshape(4, len(turns))
    return int(np.count_nonzero(share.max(axis=1) >= 0.7))


def refine_quad(mask: U8, quad: F64, *, band: float, keep: float = 0.8, samples: int = 160,
                gray: U8 | None = None, off_rim: bool = False) -> F64:
    """Fit each side of `quad` to the ink near it (robust line fit), and intersect the fits.

    Along each side, at `samples` places in its middle `keep` share (so corner overshoots and lines
    meeting the side do not pull the fit), the ink within `band` px across the side is averaged into
    one point; a Huber line through those points is the side.

    With `gray` (the image `mask` was cut from) and `off_rim`, a side with the table beyond it
    (`table_sides`) is fitted to ink at most `_RIM_GAP` px outside it. With `gray`, a side whose fit lies
    on the paper's edge (the table beyond it, `table_sides`) where the side as found does not, over
    `side_reach` off it, is fitted again to the ink within `side_reach` of where it was found.
    """
    fits = [_side_fit(mask, quad[i], quad[(i + 1) % 4], band=band, keep=keep, samples=samples)
            for i in range(4)]
    lines = [line for line, _ in fits]
    corners = _corners(lines, quad, band)
    if gray is None or corners is quad:
        return corners
    # Decision: a side with the table beyond it as found (a frame drawn near the paper's edge, or the
    # paper's edge itself) is fitted to ink at most `_RIM_GAP` px outside it, because a drawn line has
    # paper on both sides while the table's rim, a band of "ink" just outside the paper's edge, lies
    # beyond: where the outline as found ran between the frame's line and the rim (the frame's corner
    # ticks overshooting it), the ink nearest to the side was the rim's along part of it, and the side
    # was fitted across both lines, onto the rim at one end (bench_styles seed 43000, motion, photo 5:
    # the outline as found 8.7 px of the preview off the frame, fitted 17 px off, 69 px of the photo;
    # fitted to the frame, 3 px). The rim lies wholly beyond the paper's edge, the frame's line on it.
    # Decision: only for the final fit (`off_rim`, `sheet`'s), not the fits the frame search weighs its
    # outlines by, because there a false outline along the paper's edge fitted inwards showed a second
    # side undrawn, and the frame that replaced it where one side was (`_frame_search._drawn_in_darkest`)
    # was lost (bench_styles seed 31000, shadow, photo 4: 12 -> 624 px off).
    # (Only a side whose ink reaches over `_RIM_GAP` outside it can be fitted otherwise: the others are
    # not looked at, as `table_sides` costs about a millisecond.)
    size = max(mask.shape)
    found_on_table: list[bool] | None = None
    if off_rim and any(reached for _, reached in fits):
        found_on_table = table_sides(gray, quad, size, side_widths(mask, quad, size))
        for side in range(4):
            if fits[side][1] and found_on_table[side]:
                lines[side] = _side_line(mask, quad[side], quad[(side + 1) % 4], band=band, keep=keep,
                                         samples=samples, outward=_RIM_GAP)
        corners = _corners(lines, quad, band)
        if corners is quad:
            return corners
    # Decision: a drawn frame has paper on both sides of every line, so a fit that moved a side onto the
    # paper's edge, the table beyond it, while the side as found had paper beyond it, was pulled off its
    # line: the frame's side seen only in dots (a faint line under motion blur, dark only where it
    # crosses squared paper's grid) leaves most of the places along it to the nearest ink across the
    # band, the table's rim a few px outside (bench_styles seed 37000, motion, photo 1: the preview's
    # outline right, the bottom side fitted onto the rim, 101.5 px off). The side is then fitted to
    # the ink where `find_frames` counted it as drawn. A frame drawn close to the paper's edge has the
    # table beyond that side as found too, and keeps its fit.
    # (The sides moved off first: most fits stay within reach, and then the paper beyond is not looked at.)
    reach = side_reach(size)
    moved = [side for side in range(4) if _moved_off(quad, corners, side, reach)]
    if not moved:
        return corners
    if found_on_table is None:
        found_on_table = table_sides(gray, quad, size, side_widths(mask, quad, size))
    fit_on_table = table_sides(gray, corners, size, side_widths(mask, corners, size))
    pulled = [side for side in moved if fit_on_table[side] and not found_on_table[side]]
    if not pulled:
        return corners
    for side in pulled:
        lines[side] = _side_line(mask, quad[side], quad[(side + 1) % 4], band=reach, keep=keep,
                                 samples=samples)
    return _corners(lines, quad, band)


_RIM_GAP = 2.0
"""How far (px) outside a side with the table beyond it ink still counts for that side's fit (`refine_quad`):
the outline as found lies on the outer edge of its lines' ink."""


def _moved_off(quad: F64, fitted: F64, side: int, reach: float) -> bool:
    """Whether the side `side` of `fitted` has an end over `reach` px off the line of that side of `quad`.

    Decision: only such a side is fitted again (`refine_quad`), because a fit within the reach of the
    side as found is still on the ink `find_frames` counted for it: a frame drawn near the paper's edge
    has its fit's outer ring on the table by a px or two, and fitting it again moved its corners by
    0.1-1 px, enough to change a digit's reading (bench_styles seed 42000, shadow, photo 2)."""
    line = line_through(quad[side], quad[(side + 1) % 4])
    ends = f64([fitted[side], fitted[(side + 1) % 4]])
    return float(point_line_distance(ends, line).max()) > reach


def side_reach(size: int) -> float:
    """How far (px) ink may lie off a side of an outline in a mask whose longer side is `size` and still
    count for it being drawn (`find_frames`' coverage)."""
    return max(2.0, 0.01 * size)


def _width_band(size: int) -> int:
    """How far (px) across a side `_side_widths` looks for its ink, in a mask whose longer side is `size`."""
    return max(4, round(0.012 * size))


def _side_line(mask: U8, a: F64, b: F64, *, band: float, keep: float, samples: int,
               outward: float | None = None) -> tuple[F64, F64]:
    """The line the side a → b lies on in `mask` (`refine_quad`), or the side itself where too few
    places along it find ink within `band` px; `outward`: only ink at most this many px outside the side
    (away from the inside of an outline whose corners run clockwise on screen) counts."""
    return _side_fit(mask, a, b, band=band, keep=keep, samples=samples, outward=outward)[0]


def _side_fit(mask: U8, a: F64, b: F64, *, band: float, keep: float, samples: int,
              outward: float | None = None) -> tuple[tuple[F64, F64], bool]:
    """`_side_line`, and whether the ink it was fitted to reaches over `_RIM_GAP` px outside the side (the
    only case where `outward=_RIM_GAP` fits it otherwise)."""
    offsets = np.arange(-int(band), int(band) + 1, dtype=np.float64)
    side = line_through(a, b)
    normal = np.array([-side[1][1], side[1][0]])
    t = np.linspace((1 - keep) / 2, (1 + keep) / 2, samples)
    base = a[None, :] + t[:, None] * (b - a)[None, :]
    grid = base[:, None, :] + offsets[None, :, None] * normal[None, None, :]  # samples × offsets × 2
    x = grid[..., 0].round().astype(int)
    y = grid[..., 1].round().astype(int)
    ink = ink_at(mask, x, y)
    if outward is not None:
        ink = ink & (offsets >= -outward)[None, :]
    first, last, good = nearest_run_spans(ink, offsets, max(3, len(offsets) // 3))
    centres = (first + last) / 2
    fitted = None
    enough = bool(good.sum() >= max(8, samples // 5))
    if enough:
        fitted = fit_line(base[good] + centres[good][:, None] * normal[None, :])
    return fitted or side, enough and bool(np.any(first[good] < -_RIM_GAP))


def _corners(lines: list[tuple[F64, F64]], quad: F64, band: float) -> F64:
    """The corners where the side lines meet, or `quad` itself when any lies over 3 `band` off its corner
    (or two sides are parallel)."""
    corners = []
    for i in range(4):
        p = intersect(lines[i - 1], lines[i])
        if p is None or float(np.hypot(*(p - quad[i]))) > 3 * band:
            return quad
        corners.append(p)
    return f64(corners)


def rectangle_aspect(quad: F64, principal: tuple[float, float]) -> float:
    """Width / height of the real rectangle seen as `quad` (clockwise from its top-left corner).

    Zhang & He, "Whiteboard scanning and image enhancement" (2007): the focal length follows from the
    vanishing geometry of the quadrilateral, then the true aspect ratio from it. Falls back on the mean
    side lengths when the view is too frontal for the focal length to be measurable.
    """
    tl, tr, br, bl = (np.array([p[0], p[1], 1.0]) for p in quad)
    m1, m2, m3, m4 = tl, tr, bl, br
    u0, v0 = principal
    widths = (np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[2] - quad[3]))) / 2
    heights = (np.hypot(*(quad[3] - quad[0])) + np.hypot(*(quad[2] - quad[1]))) / 2
    fallback = float(widths / max(heights, 1e-9))
    k2 = np.dot(np.cross(m1, m4), m3) / np.dot(np.cross(m2, m4), m3)
    k3 = np.dot(np.cross(m1, m4), m2) / np.dot(np.cross(m3, m4), m2)
    n2 = k2 * m2 - m1
    n3 = k3 * m3 - m1
    if abs(n2[2] * n3[2]) < 1e-12:
        return fallback
    along_u = n2[0] * n3[0] - (n2[0] * n3[2] + n2[2] * n3[0]) * u0 + n2[2] * n3[2] * u0 * u0
    along_v = n2[1] * n3[1] - (n2[1] * n3[2] + n2[2] * n3[1]) * v0 + n2[2] * n3[2] * v0 * v0
    f2 = -(along_u + along_v) / (n2[2] * n3[2])
    diag = math.hypot(2 * u0, 2 * v0)
    if not (0.3 * diag) ** 2 < f2 < (6 * diag) ** 2:
        return fallback
    a_inv = np.linalg.inv(np.array([[math.sqrt(f2), 0, u0], [0, math.sqrt(f2), v0], [0, 0, 1]]))
    q = a_inv.T @ a_inv
    ratio = math.sqrt(float(n2 @ q @ n2) / float(n3 @ q @ n3))
    # Foreshortening at the tilts we read (up to ~35-40°) changes the seen ratio by at most ~1/cos 40°;
    # a bigger correction means the photo breaks the model (cropped, not centred): keep the seen one.
    if not 0.3 < ratio < 3.5 or not 0.75 < ratio / fallback < 1.33:
        return fallback
    return ratio


def table_sides(gray: U8, quad: F64, size: int, widths: list[float]) -> list[bool]:
    """For each side of the outline, whether it separates two different surfaces (the paper from the
    table beyond it).

    A drawn frame has the same paper on both sides; the paper's own edge has the table outside. The
    brightness just outside and just inside is compared side by side (medians, so handwriting does not
    matter); a frame drawn close to the paper's edge may see the table beyond one or two sides, the
    paper's edge sees it beyond three or four (those in the photo). The outline lies on the outer
    edge of its ink; inside is looked at past each side's ink run (`widths`, px across the side).
    """
    # Decision: inside is measured from the ink's inner edge, as in `_inner_ring_ink`: a felt-tip
    # frame's line filled the ring 0.6-1 % of the size inside, and the frame read as the paper's edge.
    differing = []
    for side in range(4):
        outside = ring_values(gray, quad, (0.006 * size, 0.01 * size), sides=(side,))
        inside = ring_values(gray, quad, (-0.006 * size - widths[side], -0.01 * size - widths[side]),
                             sides=(side,))
        if outside.size < 10 or inside.size < 10:
            differing.append(False)
            continue
        out_level, in_level = float(np.median(outside)), float(np.median(inside))
        differing.append(abs(out_level - in_level) > 0.15 * max(in_level, 1.0))
    return differing


def without_rims(mask: U8, gray: U8, edges: list[F64]) -> U8:
    """`mask` without the table's rim along the paper's edges `edges` (outlines `find_frames` dropped
    as the paper's edge): beyond each side with the table past it, up to the rim's inner edge.

    The table next to the paper reads as a band of "ink" (darker than the paper nearby) lying wholly
    on the table's side of the paper's edge. A frame drawn within a few px of that edge, or joined to
    it by a name written in the margin, is one component with it and was dropped with it; cleared up
    to a pixel past the band's inner edge (a straight line fitted along the side), the frame's own
    line, on the paper, stays.
    """
    size = max(mask.shape)
    band = max(4, round(0.02 * size))
    out = mask.copy()
    for quad in edges:
        widths = side_widths(mask, quad, size)
        table = table_sides(gray, quad, size, widths)
        ends = np.roll(quad, -1, axis=0)
        _, inner, valid = _runs_across(mask, quad, ends, band=band, samples=60)
        t = np.linspace(0.1, 0.9, 60)[:, None]  # where `_runs_across` samples (its `ends`)
        for side in range(4):
            a, b = quad[side], ends[side]
            if not table[side] or int(np.count_nonzero(valid[side])) < 8:
                continue
            along = (b - a) / max(float(np.hypot(*(b - a))), 1e-9)
            normal = np.array([-along[1], along[0]])  # inwards (the quad is clockwise, y down)
            on_edge = (a + t * (b - a))[valid[side]] + (inner[side][valid[side]] + 1.5)[:, None] * normal
            fitted = fit_line(on_edge)
            if fitted is None:
                continue
            point, direction = fitted
            foot_a = point + ((a - point) @ direction) * direction
            foot_b = point + ((b - point) @ direction) * direction
            strip = f64([a - band * normal, b - band * normal, foot_b, foot_a])
            cv2.fillPoly(out, [np.round(strip).astype(np.int32)], 0)
    return out


def ring_values(image: U8, quad: F64, offsets: tuple[float, ...], samples: int = 60,
                sides: tuple[int, ...] = (0, 1, 2, 3)) -> NDArray[np.uint8]:
    """Pixel values at points offset from the sides along their outward normal (negative = inward)."""
    h, w = image.shape[:2]
    center = quad.mean(axis=0)
    values: list[NDArray[np.uint8]] = []
    t = np.linspace(0.1, 0.9, samples)[:, None]
    for i in sides:
        a, b = quad[i], quad[(i + 1) % 4]
        d = (b - a) / max(float(np.hypot(*(b - a))), 1e-9)
        normal = np.array([d[1], -d[0]])
        if normal @ (a - center) < 0:
            normal = -normal
        # Every offset at once, in the order of a loop over them: this runs ~100 times a photo.
        pts = ((a + t * (b - a))[None] + np.asarray(offsets, np.float64)[:, None, None] * normal
               ).reshape(-1, 2).round().astype(int)
        ok = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
        pts = pts[ok]
        values.append(image[pts[:, 1], pts[:, 0]])
    return np.concatenate(values) if values else np.zeros(0, np.uint8)


_CROWDED = 0.2
"""Share of ink inside an outline above which it is a mesh unless bare paper is left (`_ink_share`)."""


def _ink_share(mask: U8, quad: F64) -> tuple[float, float]:
    """The share of the inside of the quadrilateral that is ink, and (when over `_CROWDED`, else 1.0)
    the share lying more than 1.5 % of the outline's size (the square root of its area) from any ink.

    A sheet is mostly bare paper between its lines; a printed grid or a texture seen at too faint a
    contrast is a mesh of ink.
    Decision: an outline over a fifth ink is a mesh only when under a twentieth of it is bare that
    far from ink, or when over a third is ink, because big or bold writing, or a thin frame seen only
    at a faint level (where the writing thickens), covers over a fifth of the frame with ink (0.22-0.30
    on the bench_styles photos that were lost that way), while a grid's or a texture's ink comes near
    every point: on bench_styles photos (seeds 7000 and 9000, 8 a style, every ink level) the meshes
    left up to 2.4 % of the inside that far from ink, the frames 7.5 % or more (0-3.5 % with the
    paper's grid seen too); a part-seen grid inside an outline (bench seed 4000 photo 4) was 0.37 ink
    and 9.6 % bare.
    """
    inside, area = _inside(mask, quad)
    ink = float(np.count_nonzero(cv2.bitwise_and(mask, inside))) / area
    if ink <= _CROWDED:
        return ink, 1.0
    return ink, _far_share(mask, inside, area)


def bare_share(mask: U8, quad: F64) -> float:
    """The share of the inside of the quadrilateral lying more than 1.5 % of the outline's size (the
    square root of its area) from any ink in `mask` (as `_ink_share` measures it, at any ink share).

    A level that shows the paper's printed grid as a mesh leaves almost none (a grid's ink comes near
    every point); a drawn sheet's bare paper between its lines leaves some.
    """
    return _far_share(mask, *_inside(mask, quad))


def _inside(mask: U8, quad: F64) -> tuple[U8, int]:
    """The inside of the quadrilateral as a mask of `mask`'s shape (255 inside), and its area in px (>= 1)."""
    inside = np.zeros_like(mask)
    cv2.fillPoly(inside, [np.round(quad).astype(np.int32)], 255)
    return inside, max(1, int(np.count_nonzero(inside)))


def _far_share(mask: U8, inside: U8, area: int) -> float:
    """The share of `inside` (`area` px) lying more than 1.5 % of the square root of its area from any ink."""
    far = cv2.distanceTransform(cv2.bitwise_not(mask), cv2.DIST_L2, 3) > 0.015 * math.sqrt(area)
    return float(np.count_nonzero(far & (inside > 0))) / area


def _inner_ring_ink(mask: U8, quad: F64, depths: tuple[float, ...], widths: list[float]) -> float | None:
    """Share of ink at points `depths` px inside each side's own ink run (`widths`, px across the side,
    from the outline on its outer edge); None when every point is off the image.

    Decision: measured from the ink's inner edge, because a felt-tip frame's line (7 px wide at the
    preview's size, plus the preview's darkest-pixel pooling) filled the ring at 0.7-1.1 % of the size
    inside it, and the frame was taken for a texture's outline and lost (bench_styles seed 7000,
    thick, photo 2).
    """
    values = [ring_values(mask, quad, tuple(-depth - widths[side] for depth in depths), 80, sides=(side,))
              for side in range(4)]
    joined = np.concatenate(values)
    return float(np.mean(joined > 0)) if joined.size else None


def ring_ink(mask: U8, quad: F64, offsets: tuple[float, ...], samples: int = 80) -> float | None:
    """Share of ink at points offset from every side along its outward normal (negative = inward).

    Points outside the image are skipped; None when all are. A drawn frame has bare paper on both
    sides of it; the paper's edge has the table outside, a table texture has texture inside.
    """
    values = ring_values(mask, quad, offsets, samples)
    return float(np.mean(values > 0)) if values.size else None
