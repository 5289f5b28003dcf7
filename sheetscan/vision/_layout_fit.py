"""Measuring a drawn sheet's lines on the rectified image: the nested rectangles, spokes, splits, circle.

Everything here works in the rectified image's own frame (before the sheet is turned upright): sides
are named by where they are in that image ("left", "top", "right", "bottom"). The caller maps them to
the upright sheet once the layout and rotation are chosen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.vision._arrays import F64, U8, f64, u8
from sheetscan.vision._lines import opening, runs_of, without_crossed
from sheetscan.vision._threads import in_background

__all__ = ["Measured", "Ring", "fit_ring", "line_masks", "measure", "without_rulings"]

SIDES = ("left", "top", "right", "bottom")


@dataclass(frozen=True)
class Measured:
    """What was measured of the drawn lines, in rectified pixels (None = not found)."""

    frame: tuple[float, float, float, float]
    """The outer rectangle (left, top, right, bottom) as stage 2 placed it."""
    drawn_frame: tuple[float, float, float, float]
    """The outer rectangle's sides where its drawn lines were seen across the sheet's middle."""
    pulka_rect: dict[str, float | None]
    """Each side of the pulka rectangle (inner edge of the whists): x for left/right, y for top/bottom."""
    gora_rect: dict[str, float | None]
    """Each side of the gora rectangle (inner edge of the pulka)."""
    circle: tuple[float, float, float] | None
    """The centre circle (cx, cy, r)."""
    mid_spoke: dict[str, float]
    """Per side: how fully (0..1) a straight line crosses the pulka band near the side's middle."""
    mid_spoke_at: dict[str, float]
    """Per side: where that line is, along the side (x for top/bottom, y for left/right)."""
    corner_spoke: dict[str, float]
    """Per corner of the gora rectangle ("TL", "TR", "BR", "BL"): how fully a diagonal crosses the
    pulka band there."""
    whist_splits: dict[str, tuple[float, ...]]
    """Per side: positions along the side (x or y) of lines crossing the whist band."""
    lines_from: dict[str, tuple[float, ...]] | None = None
    """Per side: every line seen parallel to it inside the frame's line, towards the middle (the pulka
    rectangle's side, then the gora's, then any further one)."""


def line_masks(mask: U8, length: int, slack: int, along: int = 1) -> tuple[U8, U8]:
    """Horizontal and vertical long-line masks: ink that runs straight for `length` px.

    The mask is first thickened across the direction by `slack` px, so a wobbly or slightly slanted
    hand-drawn line still forms one unbroken run; digits and dots are shorter than `length`. With
    `along` > 1 it is thickened along the direction too, so a faint line seen in dashes (a hard pencil's
    or a fine pen's stroke fading in and out at the lines' level) forms one run as well.
    """
    across_h = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (along, slack)))
    long_h = cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1))
    horizontal = opening(across_h, long_h)
    across_v = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (slack, along)))
    long_v = cv2.getStructuringElement(cv2.MORPH_RECT, (1, length))
    vertical = opening(across_v, long_v)
    return u8(horizontal), u8(vertical)


def _peaks(profile: F64, threshold: float, min_gap: int) -> list[int]:
    """Local maxima of `profile` above `threshold`, at least `min_gap` apart (strongest kept)."""
    # (The same comparisons, made on the whole profile at once rather than place by place in Python.)
    middle = profile[1:-1]
    at = (middle >= threshold) & (middle >= profile[:-2]) & (middle >= profile[2:])
    idx = (np.flatnonzero(at) + 1).tolist()
    idx.sort(key=lambda i: -profile[i])
    kept: list[int] = []
    for i in idx:
        if all(abs(i - j) >= min_gap for j in kept):
            kept.append(i)
    return sorted(kept)


def _inner_lines(profile: F64, start: float, stop: float, span: float, min_gap: int
                 ) -> tuple[float | None, list[float]]:
    """The frame's own line near `start` (None if not seen) and the lines after it towards `stop`.

    The frame line is looked for within 2 `min_gap` of where stage 2 put it: a wobbly hand-drawn
    side may lie a little off the fitted quadrilateral, and must not be taken for an inner line.
    A line is seen along 0.3 of `span` (the middle rows or columns it crosses); where that shows
    fewer than the two rectangles' sides, along 0.15 of it.
    """
    edge, found = _lines_from(profile, start, stop, 0.3 * span, min_gap)
    if len(found) >= 2:
        return edge, found
    # Decision: a rectangle's side missing at the usual share is looked for again at half of it,
    # because a pale pencil side broken into dashes (0.25 of the middle rows of a fine-pen sheet,
    # bench_styles seed 7000, thin, photo 3) was missed and the gora rectangle's side taken for the
    # pulka's; only where a side is missing, so that no sheet whose lines were all seen changes.
    _, again = _lines_from(profile, start, stop, 0.15 * span, min_gap)
    return edge, (again if len(again) > len(found) else found)


def _lines_from(profile: F64, start: float, stop: float, threshold: float, min_gap: int
                ) -> tuple[float | None, list[float]]:
    """`_inner_lines` with lines seen where `profile` reaches `threshold`."""
    step = 1 if stop > start else -1
    smooth = _smoothed(profile)
    n = len(smooth)
    reach = 2 * min_gap
    lo, hi = sorted((start - step * reach, stop))
    lo_i, hi_i = max(1, int(lo)), min(n - 2, int(hi))
    if hi_i <= lo_i:
        return None, []
    found = [float(p) for p in _peaks(smooth, threshold, min_gap) if lo_i <= p <= hi_i]
    found.sort(key=lambda p: step * p)
    near = [p for p in found if abs(p - start) <= reach]
    frame_line = min(near, key=lambda p: abs(p - start)) if near else None
    base = frame_line if frame_line is not None else start
    return frame_line, [p for p in found if step * (p - base) >= min_gap]


def _smoothed(profile: F64) -> F64:
    """A line profile smoothed over a few px (a wobbly line's peak spread over neighbouring rows)."""
    return f64(cv2.GaussianBlur(profile.reshape(1, -1).astype(np.float64), (0, 0), 2.0)).ravel()


def _drawn_sides(profile: F64, found: list[float]) -> list[float]:
    """The lines `_lines_from` found in `profile` that are drawn sides, not writing.

    Decision: where more lines than the two rectangles' sides are seen from a side, those seen along
    less than half as much of the middle as the strongest of them are left out (as long as two are
    left), because one hand drew every side with one pen, so a side is seen about as fully as the
    others, while a column of big writing turned along the band reads as a line only where its digits
    touch: it was taken for the pulka rectangle's side (bench_styles seed 6000, big, photo 5: 0.30 of
    the middle rows, the sides 0.8-0.93).
    """
    if len(found) <= 2:
        return found
    smooth = _smoothed(profile)
    strongest = max(float(smooth[int(p)]) for p in found)
    kept = [p for p in found if float(smooth[int(p)]) >= _WEAK_LINE * strongest]
    return kept if len(kept) >= 2 else found


_WEAK_LINE = 0.5
"""A line seen along less than this share of the strongest line from its side is writing (`_drawn_sides`)."""


def _coverage(mask: U8, a: F64, b: F64, *, samples: int = 48, tolerance: int = 0) -> float:
    """Share of points on the segment a→b that lie on ink."""
    h, w = mask.shape
    t = np.linspace(0.0, 1.0, samples)[:, None]
    pts = a + t * (b - a)
    x = np.clip(pts[:, 0].round().astype(int), 0, w - 1)
    y = np.clip(pts[:, 1].round().astype(int), 0, h - 1)
    if tolerance:
        d = (b - a) / max(float(np.hypot(*(b - a))), 1e-9)
        normal = np.array([-d[1], d[0]])
        # Every offset across the segment at once (rows), each place as `off * normal` moves it.
        offs = np.arange(-tolerance, tolerance + 1)[:, None]
        xo = np.clip((pts[None, :, 0] + offs * normal[0]).round().astype(int), 0, w - 1)
        yo = np.clip((pts[None, :, 1] + offs * normal[1]).round().astype(int), 0, h - 1)
        return float((mask[yo, xo] > 0).any(axis=0).mean())
    return float((mask[y, x] > 0).mean())


Circle = tuple[float, float, float]


def _find_circle(mask: U8, box: tuple[float, float, float, float], height: float) -> Circle | None:
    """The round hole of the centre circle inside `box` (the gora rectangle or the middle of the sheet)."""
    left, top, right, bottom = (round(v) for v in box)
    if right - left < 10 or bottom - top < 10:
        return None
    crop = np.ascontiguousarray(mask[top:bottom, left:right])
    contours, hierarchy = cv2.findContours(crop, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return None
    centre = np.array([(right - left) / 2, (bottom - top) / 2])
    best: tuple[float, tuple[float, float, float]] | None = None
    for contour, links in zip(contours, hierarchy[0], strict=True):
        if links[3] == -1 or len(contour) < 12:
            continue  # only holes: the inside of a drawn circle
        # The target written inside may touch the circle and bite into the hole; its convex hull is
        # still the circle's inner edge.
        hull = cv2.convexHull(contour)
        _, _, bw, bh = cv2.boundingRect(hull)
        if not 0.05 * height <= max(bw, bh) <= 0.5 * height or not 0.6 < bw / bh < 1.6:
            continue
        # An ellipse filling its box has area π/4 · w · h; a zone cell (a polygon) has more.
        if not 0.7 * math.pi / 4 <= cv2.contourArea(hull) / (bw * bh) <= 0.87:
            continue
        points = contour.reshape(-1, 2).astype(np.float32)
        hull_pts = hull.reshape(-1, 2).astype(np.float32)
        on_edge = np.array([abs(cv2.pointPolygonTest(hull_pts, (float(x), float(y)), True)) < 2.0
                            for x, y in points])
        if on_edge.sum() < 12:
            continue
        (cx, cy), (ax1, ax2), _ = cv2.fitEllipse(points[on_edge])
        r = max(ax1, ax2) / 2 + 1.0  # the hole's edge is the line's inner edge; its middle is further
        coverage = _circle_coverage(crop, cx, cy, r)
        if coverage < 0.6:
            continue
        score = coverage - float(np.hypot(cx - centre[0], cy - centre[1])) / max(right - left, bottom - top)
        if best is None or score > best[0]:
            best = (score, (cx + left, cy + top, r))
    if best is None:
        return None
    cx, cy, r = best[1]
    return cx, cy, r


def _circle_coverage(mask: U8, cx: float, cy: float, r: float, samples: int = 90) -> float:
    """Share of the circle's outline (±3 px) that lies on ink."""
    h, w = mask.shape
    angles = np.linspace(0, 2 * np.pi, samples, endpoint=False)
    hit = np.zeros(samples, bool)
    for dr in (-3.0, -1.5, 0.0, 1.5, 3.0):
        x = np.clip(np.round(cx + (r + dr) * np.cos(angles)).astype(int), 0, w - 1)
        y = np.clip(np.round(cy + (r + dr) * np.sin(angles)).astype(int), 0, h - 1)
        hit |= mask[y, x] > 0
    return float(hit.mean())


def without_rulings(mask: U8, frame: tuple[float, float, float, float], slack: int) -> U8:
    """`mask` without the paper's own straight lines: the rulings of lined or squared paper, a fold or
    the ruled margin, wherever they show at the lines' level (a fine pen's lines are as faint as they).

    A drawn line ends at the outer rectangle; a line of the paper runs on past it into the margin on
    both sides. A straight line is taken where ink crosses both margin strips (left and right for a
    horizontal one, above and below for a vertical one) and runs (nearly) all the way between them; where
    one strip is hidden (a shadow, the table, the paper's edge fill it with "ink"), a line crossing the
    other strip that runs all the way to just inside the frame's far side. Its pixels are erased, except
    where a drawn line crosses it (ink on both sides of it there), so the drawn lines are not cut.
    """
    left, top, right, bottom = frame

    def erased(transposed: bool) -> U8 | None:
        m = np.ascontiguousarray(mask.T) if transposed else mask
        lo, hi = (top, bottom) if transposed else (left, right)
        erase, widest = _lines_across(m, lo, hi, slack)
        if not widest:
            return None
        # A drawn line crossing the paper's line has ink a little above and below it there: kept.
        d = widest // 2 + 2
        erase = without_crossed(erase, m, off=d, reach=2 * d)
        return u8(erase.T) if transposed else erase

    # Decision: the vertical lines are looked for in a second thread while this one looks for the
    # horizontal ones, because each way looks only at `mask` itself, and OpenCV and numpy let go of the
    # GIL; what is erased is the same.
    aside = in_background(lambda: erased(True))
    out = mask.copy()
    for erase in (erased(False), aside.result()):
        if erase is not None:
            out = u8(cv2.bitwise_and(out, cv2.bitwise_not(erase)))
    return out


def _lines_across(m: U8, lo: float, hi: float, slack: int) -> tuple[U8, int]:
    """The rows-wise lines of `m` that run past the frame's sides at columns `lo` and `hi` (see
    `without_rulings`), drawn at their width, and the widest one's width (0 when none)."""
    h, w = m.shape
    length = hi - lo
    width = int(lo - 2 * slack)  # the margin strips, clear of a hand-drawn frame's overshoot at the corners
    erase = np.zeros_like(m)
    if width < 5 or int(hi + 2 * slack) + width > w:
        return erase, 0
    # Decision: thickened along the lines too (by `slack`), so a ruling as faint as the lines' level,
    # which the mask holds only in dashes, is still one run across the margin strip and one line across
    # the paper: thickened across only, squared paper's dashed grid was never erased and crossed every
    # whist band, read as spokes on every side (bench_styles seed 16000 photo 3, usual: standard-4 for a
    # standard-3 sheet). A drawn line ends at the frame, and `slack` more does not carry it into the strip.
    thick = u8(cv2.dilate(m, cv2.getStructuringElement(cv2.MORPH_RECT, (slack, slack))))
    run = cv2.getStructuringElement(cv2.MORPH_RECT, (max(3, int(0.8 * width)), 1))

    def crossing(x0: int) -> tuple[list[tuple[int, int]], NDArray[np.bool_]]:
        # Runs of rows that ink crosses straight (not a line along the strip, nor a fold's shadow or a
        # digit), no wider than a line; and the rows under wider runs (the strip hidden there).
        share = (opening(np.ascontiguousarray(thick[:, x0:x0 + width]), run) > 0).mean(axis=1)
        hidden = np.zeros(h, bool)
        for r0, r1 in runs_of(share >= 0.5):
            if r1 - r0 + 1 > 3 * slack:  # (and a line at its edge, cut short where the strip's hidden)
                hidden[max(0, r0 - slack):r1 + slack + 1] = True
        return [r for r in runs_of(share >= 0.8) if r[1] - r[0] + 1 <= 3 * slack], hidden

    near_x, far_x = 1, w - 1 - width
    near_in, far_in = int(lo + 2 * slack), int(hi - 2 * slack)
    starts, start_hidden = crossing(near_x)
    ends, end_hidden = crossing(far_x)
    # (from, origins, targets as (run, the column it is seen at)) for both ways round: margin to margin
    # (once), and margin to just inside the frame's far side where the far margin is hidden.
    tries = [
        (near_x, starts, [(e, far_x + width) for e in ends]
         + [(e, far_in) for e in crossing(far_in - width)[0] if end_hidden[(e[0] + e[1]) // 2]]),
        (far_x + width, ends,
         [(e, near_in) for e in crossing(near_in)[0] if start_hidden[(e[0] + e[1]) // 2]]),
    ]
    widest = 0
    for x_from, origins, targets in tries:
        for s0, s1 in origins:
            a = (s0 + s1) / 2
            best: tuple[int, float] | None = None
            best_cover = 0.9
            for (e0, e1), x_end in targets:
                b = (e0 + e1) / 2
                if abs(b - a) > 0.1 * length:
                    continue
                cover = _coverage(thick, f64([x_from, a]), f64([x_end, b]), samples=max(48, int(length // 8)))
                if cover >= best_cover:
                    best, best_cover = (x_end, b), cover
            if best is None:
                continue
            line_width = max(3, s1 - s0 + 1 - slack + 3)  # its own width (the strip saw it thickened)
            widest = max(widest, line_width)
            x_end, b = best
            slope = (b - a) / (x_end - x_from)
            cv2.line(erase, (0, round(a - slope * x_from)), (w - 1, round(a + slope * (w - 1 - x_from))), 255,
                     line_width)
    return erase, widest


def measure(mask: U8, frame: tuple[float, float, float, float], *, faint: bool = False) -> Measured:
    """Measure the drawn lines of a sheet whose outer rectangle is `frame` in `mask`'s image.

    `faint`: the lines are barely darker than the level `mask` was cut at, so they are seen in dashes.
    """
    left, top, right, bottom = frame
    fw, fh = right - left, bottom - top
    size = max(fw, fh)
    length = max(15, int(0.05 * size))
    slack = max(3, int(0.006 * size))
    mask = without_rulings(mask, frame, slack)
    min_gap = max(6, int(0.02 * size))

    # Rows crossing the middle of the sheet (away from the spokes at the corners and the circle's sides):
    # the horizontal sides of the rectangles; likewise columns for the vertical sides.
    x_a, x_b = int(left + 0.3 * fw), int(right - 0.3 * fw)
    y_a, y_b = int(top + 0.3 * fh), int(bottom - 0.3 * fh)

    def profiles(along: int) -> tuple[F64, F64]:
        horizontal, vertical = line_masks(mask, length, slack, along=along)
        return (f64(horizontal[:, x_a:x_b].sum(axis=1).astype(np.float64) / 255.0),
                f64(vertical[y_a:y_b, :].sum(axis=0).astype(np.float64) / 255.0))

    rows, cols = profiles(1)
    # Decision: dashes are bridged only for faint lines, because bridging moved the lines measured on
    # the usual photos by up to 11 px (digits beside a line joined its run); and even then only from a
    # side where the unbridged lines do not already show both rectangles' sides, because bridged, a
    # column of whist digits written close together (a blurred or far photo) reads as a line, and was
    # taken for the pulka rectangle's side (bench_styles seed 8000, blur and far, photo 5).
    bridged = profiles(slack) if faint else None

    def lines(axis: int, start: float, stop: float, span: float) -> tuple[float | None, list[float], F64]:
        if bridged is None:
            return (*_inner_lines((rows, cols)[axis], start, stop, span, min_gap), (rows, cols)[axis])
        edge, found = _lines_from((rows, cols)[axis], start, stop, 0.3 * span, min_gap)
        if len(found) >= 2:
            return edge, found, (rows, cols)[axis]
        return (*_inner_lines(bridged[axis], start, stop, span, min_gap), bridged[axis])

    edge_top, from_top, along_top = lines(0, top, top + 0.48 * fh, x_b - x_a)
    edge_bottom, from_bottom, along_bottom = lines(0, bottom, bottom - 0.48 * fh, x_b - x_a)
    edge_left, from_left, along_left = lines(1, left, left + 0.48 * fw, y_b - y_a)
    edge_right, from_right, along_right = lines(1, right, right - 0.48 * fw, y_b - y_a)
    # Proportions are measured from the frame's lines as drawn where they were seen.
    seen_frame = (edge_left if edge_left is not None else left, edge_top if edge_top is not None else top,
                  edge_right if edge_right is not None else right,
                  edge_bottom if edge_bottom is not None else bottom)

    def nth(found: list[float], n: int) -> float | None:
        return found[n] if len(found) > n else None

    # The rectangles' sides among them (every line seen stays in `lines_from`).
    drawn = {"left": _drawn_sides(along_left, from_left), "top": _drawn_sides(along_top, from_top),
             "right": _drawn_sides(along_right, from_right),
             "bottom": _drawn_sides(along_bottom, from_bottom)}
    pulka_rect = {side: nth(drawn[side], 0) for side in SIDES}
    gora_rect = {side: nth(drawn[side], 1) for side in SIDES}

    g = {k: v for k, v in gora_rect.items()}
    box = (g["left"] or left + 0.25 * fw, g["top"] or top + 0.25 * fh,
           g["right"] or right - 0.25 * fw, g["bottom"] or bottom - 0.25 * fh)
    circle = _find_circle(mask, box, fh)

    mid_spoke: dict[str, float] = {}
    mid_spoke_at: dict[str, float] = {}
    corner_spoke: dict[str, float] = {}
    whist_splits: dict[str, tuple[float, ...]] = {}
    fat = u8(cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (slack, slack))))
    p, q = pulka_rect, gora_rect
    frame_side = {"left": left, "top": top, "right": right, "bottom": bottom}
    for side in SIDES:
        outer, inner = p[side], q[side]
        horizontal_side = side in ("top", "bottom")
        lo, hi = (left, right) if horizontal_side else (top, bottom)
        mid_spoke[side] = 0.0
        mid_spoke_at[side] = (lo + hi) / 2
        whist_splits[side] = ()
        if outer is None:
            continue
        # Lines across the whist band (frame side → pulka rectangle side), along the side's middle
        # 90 %: the whist splits (and, for three players, the mid spoke's outer part).
        whist_splits[side] = _crossings(fat, frame_side[side], outer, lo + 0.05 * (hi - lo),
                                        hi - 0.05 * (hi - lo), horizontal_side, min_gap)
        if inner is None:
            continue
        # A line across the pulka band near the middle of the side: the mid-edge spoke.
        crossing = _crossings(fat, outer, inner, lo + 0.3 * (hi - lo), hi - 0.3 * (hi - lo), horizontal_side,
                              min_gap)
        # Decision: not where the rectangles' own sides cross the band, because with wide whist bands
        # (0.3 of the sheet) the pulka rectangle's side runs across it at the search's end, and a
        # standard-4 sheet read a spoke there (bench_styles seed 7000, thin, photo 2).
        ends = ("left", "right") if horizontal_side else ("top", "bottom")
        across = [rect[end] for rect in (p, q) for end in ends]
        crossing = tuple(v for v in crossing if all(c is None or abs(v - c) >= min_gap for c in across))
        if crossing:
            at = min(crossing, key=lambda v: abs(v - (lo + hi) / 2))
            mid_spoke[side] = 1.0
            mid_spoke_at[side] = at
    for corner, (sx, sy) in {"TL": ("left", "top"), "TR": ("right", "top"), "BR": ("right", "bottom"),
                             "BL": ("left", "bottom")}.items():
        if None in (p[sx], p[sy], q[sx], q[sy]):
            corner_spoke[corner] = 0.0
            continue
        a = f64([q[sx], q[sy]])
        b = f64([p[sx], p[sy]])
        # Skip the ends, where the rectangles' own sides meet the diagonal.
        corner_spoke[corner] = _coverage(fat, a + 0.2 * (b - a), a + 0.8 * (b - a), tolerance=slack)
    return Measured(frame=frame, drawn_frame=seen_frame, pulka_rect=pulka_rect, gora_rect=gora_rect,
                    circle=circle,
                    mid_spoke=mid_spoke,
                    mid_spoke_at=mid_spoke_at, corner_spoke=corner_spoke, whist_splits=whist_splits,
                    lines_from={"left": tuple(from_left), "top": tuple(from_top), "right": tuple(from_right),
                                "bottom": tuple(from_bottom)})


def _crossings(fat: U8, start: float, stop: float, lo: float, hi: float, horizontal_side: bool,
               min_gap: int) -> tuple[float, ...]:
    """Positions between `lo` and `hi` where ink crosses the band from `start` to `stop` (nearly) fully.

    For a top/bottom side the band spans rows start..stop and positions are x; for left/right sides it
    spans columns and positions are y. Only the middle 70 % of the band is required, so a line that
    stops just short of a rectangle still counts.
    """
    a, b = sorted((start, stop))
    depth = b - a
    a_i, b_i = int(a + 0.15 * depth), int(b - 0.15 * depth)
    lo_i, hi_i = int(lo), int(hi)
    if b_i <= a_i or hi_i <= lo_i:
        return ()
    band = fat[a_i:b_i, lo_i:hi_i] if horizontal_side else fat[lo_i:hi_i, a_i:b_i].T
    share = (band > 0).mean(axis=0)
    # A crossing line is a narrow run of columns inked over (almost) the whole band depth.
    peaks = _peaks(share.astype(np.float64), 0.85, min_gap)
    return tuple(float(lo_i + i) for i in peaks)


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
