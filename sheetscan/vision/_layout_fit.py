"""Measuring a drawn sheet's lines on the rectified image: the nested rectangles, spokes, splits, circle.

Everything here works in the rectified image's own frame (before the sheet is turned upright): sides
are named by where they are in that image ("left", "top", "right", "bottom"). The caller maps them to
the upright sheet once the layout and rotation are chosen.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import cv2
import numpy as np

from sheetscan.vision._arrays import F64, U8, f64, u8
from sheetscan.vision._lines import opening
from sheetscan.vision._paper_lines import coverage, without_rulings

__all__ = ["Measured", "line_masks", "measure", "pulka_bands"]

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
    wavering_splits: Callable[[str], tuple[float, ...]] | None = field(default=None, compare=False,
                                                                        repr=False)
    """Per side, when asked: positions along the side of lines crossing its whist band as a freehand line
    does, wavering as it goes (`_wavering_crossings`), for where the layout chosen needs more splits
    than `whist_splits` holds; not counted among the splits that tell the layout."""


def line_masks(mask: U8, length: int, slack: int, along: int = 1, *, columns: tuple[int, int] | None = None,
               rows: tuple[int, int] | None = None) -> tuple[U8, U8]:
    """Horizontal and vertical long-line masks: ink that runs straight for `length` px.

    The mask is first thickened across the direction by `slack` px, so a wobbly or slightly slanted
    hand-drawn line still forms one unbroken run; digits and dots are shorter than `length`. With
    `along` > 1 it is thickened along the direction too, so a faint line seen in dashes (a hard pencil's
    or a fine pen's stroke fading in and out at the lines' level) forms one run as well.

    With `columns` (first, end), the horizontal mask is given over those columns only (every row), and
    with `rows` the vertical one over those rows only (every column): the same pixels as the whole
    masks' there (see `_strip`).
    """
    height, width = mask.shape[:2]
    reach = length + along
    c0, c1 = _places(columns, width)
    r0, r1 = _places(rows, height)
    # Decision: each mask is worked out on the strip its profile is read from only, because `measure`
    # sums the horizontal one over the middle columns and the vertical one over the middle rows alone, and
    # the openings were most of its time (13 ms of 35 a 12 MP photo's sheet, bench 1000 photos 0-7).
    a0, a1 = _strip(c0, c1, width, reach)
    across_h = cv2.dilate(mask[:, a0:a1], cv2.getStructuringElement(cv2.MORPH_RECT, (along, slack)))
    long_h = cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1))
    horizontal = opening(across_h, long_h)[:, c0 - a0:c1 - a0]
    b0, b1 = _strip(r0, r1, height, reach)
    across_v = cv2.dilate(mask[b0:b1], cv2.getStructuringElement(cv2.MORPH_RECT, (slack, along)))
    long_v = cv2.getStructuringElement(cv2.MORPH_RECT, (1, length))
    vertical = opening(across_v, long_v)[r0 - b0:r1 - b0]
    return u8(horizontal), u8(vertical)


def _places(span: tuple[int, int] | None, size: int) -> tuple[int, int]:
    """The places (first, end) a slice `first:end` of a side `size` long takes (numpy's rules: counted from
    the end when negative, cut to the side), or the whole side for None."""
    if span is None:
        return 0, size
    first, end, _ = slice(*span).indices(size)
    return first, max(first, end)


def _strip(first: int, end: int, size: int, reach: int) -> tuple[int, int]:
    """The span of a side `size` long to work `line_masks` out on for its places `first` … `end` − 1: `reach`
    px more either way, within the image.

    A place of the long-line mask depends on the mask within `reach` (the opening's length plus the
    thickening along) of it: the thickening reaches at most half of `along` either way, and the erosion
    and the dilation at most half of `length` each. So the strip's values, wherever those places take
    them from, are the whole mask's; at the image's own edge the strip's edge is the image's.
    """
    return max(0, first - reach), min(size, end + reach)


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


def pulka_bands(pulka_rect: dict[str, float | None], gora_rect: dict[str, float | None]) -> dict[str, float]:
    """Per side where both rectangles' sides were seen: the pulka band's width between them (px)."""
    return {side: abs(inner - outer) for side in SIDES
            if (outer := pulka_rect.get(side)) is not None and (inner := gora_rect.get(side)) is not None}


def _rectangles(drawn: dict[str, list[float]], frame_side: dict[str, float]
                ) -> tuple[dict[str, float | None], dict[str, float | None]]:
    """The pulka and the gora rectangle's sides among the lines seen from each side (`drawn`, from the side
    inwards; the frame's side at `frame_side`): the first two lines, or, where the whist band before the
    first or the pulka band between them is out of `_BAND_SPREAD` with the middle one of the other sides'
    bands of its kind (two of them seen or more), the two lines whose bands are nearest those (the
    least sum of how many times off each is), and where no two are within that spread, the first line
    with no gora side (None: not seen) if its whist band is within it.

    Decision: one hand draws each band about as wide all round the sheet (our forms print the whist band
    13-16 % of the sheet on every side, the pulka band 7-8 %), so a band several times wider or narrower
    than the others' is closed by some other line: under a glare that washed out the gora rectangle's
    side, the circle's edge or the middle's lines were taken for it (bench_styles seed 31006, glare: the
    left pulka band 454 px, the others 117-139; seed 38001, glare: the top one 685 px, the others
    90-128), and a line of writing in the whist band was taken for the pulka rectangle's side and that
    side for the gora's (seed 31001, thin: the top pulka band 46 px, the others 133-138; seed 43005,
    thin: the left whist band 65 px, the others 237-260). A side left without its gora side is placed by
    the other bands (`_layout_choice.measured_proportions`), and its spokes count as not seen.
    """
    pulka = {side: lines[0] if lines else None for side, lines in drawn.items()}
    gora = {side: lines[1] if len(lines) > 1 else None for side, lines in drawn.items()}
    whists = {side: abs(outer - frame_side[side]) for side, outer in pulka.items() if outer is not None}
    bands = pulka_bands(pulka, gora)
    for side, lines in drawn.items():
        if side not in whists:
            continue
        usual_whist, usual_band = _usual(whists, side), _usual(bands, side)
        if _within_spread(whists[side], usual_whist) and _within_spread(bands.get(side), usual_band):
            continue
        pairs = [(_times_off(abs(outer - frame_side[side]), usual_whist)
                  + _times_off(abs(inner - outer), usual_band), outer, inner)
                 for outer, inner in itertools.combinations(lines, 2)
                 if _within_spread(abs(outer - frame_side[side]), usual_whist)
                 and _within_spread(abs(inner - outer), usual_band)]
        if pairs:
            _, pulka[side], gora[side] = min(pairs)
        elif _within_spread(whists[side], usual_whist):
            gora[side] = None
    return pulka, gora


def _usual(bands: dict[str, float], side: str) -> float | None:
    """The middle one of the other sides' bands in `bands`, where two or more were seen."""
    others = [band for name, band in bands.items() if name != side]
    return float(np.median(others)) if len(others) >= 2 else None


def _within_spread(band: float | None, usual: float | None) -> bool:
    """Whether a band `band` px wide is within `_BAND_SPREAD` times of `usual` either way (so where either
    is not known)."""
    return band is None or usual is None or usual / _BAND_SPREAD <= band <= _BAND_SPREAD * usual


def _times_off(band: float, usual: float | None) -> float:
    """How many times a band is off the usual one, as a logarithm (0 where the usual one is not known)."""
    return 0.0 if usual is None else abs(math.log(band / usual))


_BAND_SPREAD = 2.5
"""A band this many times wider or narrower than the middle one of the other sides' of its kind is not
closed by the rectangles' sides (`_rectangles`): drawn sheets' bands differ by at most about 1.9 times
(the renderer's widest spread, each side 0.8-1.2 of one width and the form's 13-16 % or 7-8 % of the
sheet), the stray lines above made them 3-6 times."""


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
        on_ink = _circle_coverage(crop, cx, cy, r)
        if on_ink < 0.6:
            continue
        score = on_ink - float(np.hypot(cx - centre[0], cy - centre[1])) / max(right - left, bottom - top)
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


def _without_rulings(mask: U8, frame: tuple[float, float, float, float], slack: int) -> U8:
    """`without_rulings(mask, frame, slack)`: the paper's printed lines looked for first on the mask shrunk
    to half (a pixel there inked where any of its four is), as it is and thickened by a pixel, and on the
    whole mask only where some are found there; else the mask is kept as it is (nothing to erase).

    Decision: plain paper, most sheets, has none, and looking for them took 10-14 ms of CPU a sheet of a 12
    MP photo against 5-7 for both looks at the half mask (bench 1000 photos 0-6, best of 7, a loaded
    machine). Over 303 looks of bench seed 1000 and bench_styles seeds 30000-45007 (353 photos), the whole
    mask's erased something on 30; the half mask as it is missed 3 of them (seed 33001: a faint ruling
    broken up at half size), thickened it missed 2 others (thin 30000, 30003: the rulings joined to the
    writing beside them and read as hidden strips), and the two together none; they saw rulings on 2 sheets
    more, where the whole mask's look then found none (only the time of that look lost).
    """
    height, width = mask.shape[:2]
    # (Made even first with a row or column of paper: OpenCV halves an even image by its 2 x 2 blocks at
    # once, an odd one by its general area rule, 20-30 times as slow.)
    even = cv2.copyMakeBorder(mask, 0, height % 2, 0, width % 2, cv2.BORDER_CONSTANT, value=0)
    small = cv2.resize(even, ((width + 1) // 2, (height + 1) // 2), interpolation=cv2.INTER_AREA)
    small = u8(cv2.threshold(small, 0, 255, cv2.THRESH_BINARY)[1])
    left, top, right, bottom = ((v - 0.5) / 2 for v in frame)  # (a half pixel's middle: two whole ones')
    for look in (small, u8(cv2.dilate(small, np.ones((3, 3), np.uint8)))):
        if not np.array_equal(without_rulings(look, (left, top, right, bottom), max(3, slack // 2)), look):
            return without_rulings(mask, frame, slack)
    return mask


_WIDE = 0.7
"""The share of a side's length (its middle) where `measure` looks last for lines parallel to it (the usual
look is along its middle 0.4)."""


def measure(mask: U8, frame: tuple[float, float, float, float], *, faint: bool = False) -> Measured:
    """Measure the drawn lines of a sheet whose outer rectangle is `frame` in `mask`'s image.

    `faint`: the lines are barely darker than the level `mask` was cut at, so they are seen in dashes.
    """
    left, top, right, bottom = frame
    fw, fh = right - left, bottom - top
    size = max(fw, fh)
    length = max(15, int(0.05 * size))
    slack = max(3, int(0.006 * size))
    mask = _without_rulings(mask, frame, slack)
    min_gap = max(6, int(0.02 * size))

    # Rows crossing the middle of the sheet (away from the spokes at the corners and the circle's sides):
    # the horizontal sides of the rectangles; likewise columns for the vertical sides.
    x_a, x_b = int(left + 0.3 * fw), int(right - 0.3 * fw)
    y_a, y_b = int(top + 0.3 * fh), int(bottom - 0.3 * fh)

    def profiles(along: int, xs: tuple[int, int] = (x_a, x_b), ys: tuple[int, int] = (y_a, y_b)
                 ) -> tuple[F64, F64]:
        horizontal, vertical = line_masks(mask, length, slack, along=along, columns=xs, rows=ys)
        return (f64(horizontal.sum(axis=1).astype(np.float64) / 255.0),
                f64(vertical.sum(axis=0).astype(np.float64) / 255.0))

    rows, cols = profiles(1)

    @cache
    def bridged() -> tuple[F64, F64]:
        return profiles(slack)

    @cache
    def wide_profiles() -> tuple[F64, F64]:  # bridged, along the middle `_WIDE` of each side
        off = (1 - _WIDE) / 2
        return profiles(slack, (int(left + off * fw), int(right - off * fw)),
                        (int(top + off * fh), int(bottom - off * fh)))

    def lines(axis: int, start: float, stop: float, span: float) -> tuple[float | None, list[float], F64]:
        plain = (rows, cols)[axis]
        edge, found = _lines_from(plain, start, stop, 0.3 * span, min_gap)
        if len(found) >= 2:
            return edge, found, plain
        # Decision: dashes are bridged only from a side where the unbridged lines do not already show
        # both rectangles' sides along 0.3 of the middle, because bridging moved the lines measured on
        # the usual photos by up to 11 px (digits beside a line joined its run), and bridged, a column of
        # whist digits written close together (a blurred or far photo) reads as a line, and was taken
        # for the pulka rectangle's side (bench_styles seed 8000, blur and far, photo 5).
        if faint:
            return (*_inner_lines(bridged()[axis], start, stop, span, min_gap), bridged()[axis])
        # Decision: where such a side's frame is not faint, bridged lines seen along 0.3 beat those seen
        # unbridged along 0.15 only (`_inner_lines`), because a pencil's lines may be seen in dashes at
        # the lines' level along one way only (the frame's vertical sides whole, every horizontal line in
        # dots: bench_styles seed 20000, thin, photo 3, on lined paper, no layout found), and motion blur
        # across a line does the same (seed 21000, motion, photo 4: along 0.15 a column of digits was
        # taken for the gora rectangle's left side). Decision: bridged, only lines seen along the usual
        # 0.3 count there, because a column of blurred whist digits reaches 0.15-0.18 of it bridged, and
        # was taken for the gora rectangle's side (seed 22000, motion, photo 0).
        again = _lines_from(bridged()[axis], start, stop, 0.3 * span, min_gap)
        if len(again[1]) >= 2:
            return (*again, bridged()[axis])
        edge, found = _inner_lines(plain, start, stop, span, min_gap)
        # Decision: a side that shows fewer than both rectangles' sides in the middle, even bridged, is
        # looked at along the sheet's middle `_WIDE` (bridged; lines seen along 0.3 of it, and along 0.15
        # where that shows fewer than two, as `_inner_lines` looks), and those lines count where both
        # rectangles' sides show there, because glare washes out a patch of the lines across the middle
        # of the sheet and pencil lines vanish in it, while their ends beyond the patch still show
        # (bench_styles seed 27000, glare, photo 6: the bottom pulka and gora sides seen along 0.25 of
        # the middle, that side's zones placed by the default proportions; the gora's side shows along
        # 0.2 of the wide span).
        if max(len(again[1]), len(found)) < 2:
            wide = wide_profiles()[axis]
            far = _inner_lines(wide, start, stop, (_WIDE / 0.4) * span, min_gap)
            if len(far[1]) >= 2:
                return (*far, wide)
        if len(again[1]) > len(found):
            return (*again, bridged()[axis])
        return edge, found, plain

    edge_top, from_top, along_top = lines(0, top, top + 0.48 * fh, x_b - x_a)
    edge_bottom, from_bottom, along_bottom = lines(0, bottom, bottom - 0.48 * fh, x_b - x_a)
    edge_left, from_left, along_left = lines(1, left, left + 0.48 * fw, y_b - y_a)
    edge_right, from_right, along_right = lines(1, right, right - 0.48 * fw, y_b - y_a)
    # Proportions are measured from the frame's lines as drawn where they were seen.
    seen_frame = (edge_left if edge_left is not None else left, edge_top if edge_top is not None else top,
                  edge_right if edge_right is not None else right,
                  edge_bottom if edge_bottom is not None else bottom)

    # The rectangles' sides among them (every line seen stays in `lines_from`).
    drawn = {"left": _drawn_sides(along_left, from_left), "top": _drawn_sides(along_top, from_top),
             "right": _drawn_sides(along_right, from_right),
             "bottom": _drawn_sides(along_bottom, from_bottom)}
    pulka_rect, gora_rect = _rectangles(drawn, {"left": seen_frame[0], "top": seen_frame[1],
                                                "right": seen_frame[2], "bottom": seen_frame[3]})

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
        outer = p[side]
        horizontal_side = side in ("top", "bottom")
        lo, hi = (left, right) if horizontal_side else (top, bottom)
        whist_splits[side] = ()
        if outer is None:
            continue
        # Lines across the whist band (frame side → pulka rectangle side), along the side's middle
        # 90 %: the whist splits (and, for three players, the mid spoke's outer part).
        whist_splits[side] = _crossings(fat, frame_side[side], outer, lo + 0.05 * (hi - lo),
                                        hi - 0.05 * (hi - lo), horizontal_side, min_gap)
    # Decision: where a whist band is crossed by the paper's printed lines (squared paper's grid the
    # ruling eraser left, seen at one pitch), the spokes are looked for without the slack along the
    # lines: the mid spoke on the ink thickened across the band only, the corners' diagonals on the ink
    # itself, with no slack beside them. The grid, faint and dashed at the lines' level, crosses every
    # band once its dashes are joined, and every place in its 40-47 px mesh lies within the slack of
    # ink: a standard-3 sheet showed mid spokes on all four sides and all four diagonals 0.9-1.0, read
    # as standard-4 (bench_styles seed 33000, photo 1: big, dark, glare, steep, thick). A drawn line is
    # solid, and is still seen whole so.
    across_h = across_v = fat
    beside = slack
    if any(at_one_pitch(whist_splits[side], PITCHES[0] * size, PITCHES[1] * size) for side in SIDES):
        across_h, across_v = (u8(cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, k)))
                              for k in ((1, slack), (slack, 1)))
        beside = 0
    for side in SIDES:
        outer, inner = p[side], q[side]
        horizontal_side = side in ("top", "bottom")
        lo, hi = (left, right) if horizontal_side else (top, bottom)
        mid_spoke[side] = 0.0
        mid_spoke_at[side] = (lo + hi) / 2
        if outer is None or inner is None:
            continue
        # A line across the pulka band near the middle of the side: the mid-edge spoke.
        crossing = _crossings(across_v if horizontal_side else across_h, outer, inner, lo + 0.3 * (hi - lo),
                              hi - 0.3 * (hi - lo), horizontal_side, min_gap)
        # Decision: not where the rectangles' own sides cross the band, because with wide whist bands
        # (0.3 of the sheet) the pulka rectangle's side runs across it at the search's end, and a
        # standard-4 sheet read a spoke there (bench_styles seed 7000, thin, photo 2).
        ends = ("left", "right") if horizontal_side else ("top", "bottom")
        across = [rect[end] for rect in (p, q) for end in ends]
        crossing = tuple(v for v in crossing if all(c is None or abs(v - c) >= min_gap for c in across))
        if crossing:
            at = min(crossing, key=lambda v: abs(v - (lo + hi) / 2))
            # Decision: a line that does not run on across the whist band beside it (no whist split
            # within `min_gap`) counts as half a spoke (its place is kept), because the three-player
            # sheet's top spoke runs from the circle out to the frame, while a digit crosses the pulka
            # band only: a "1" across the narrow band under a standard-4 sheet's bottom read as a mid
            # spoke and, with a glare hiding one corner's diagonal, the sheet as a standard-3 one
            # (bench_styles seed 35000, glare, photo 6). Only half, because a spoke's outer part is not
            # always seen (lined paper, seed 28000 photo 3: not found across the band, the spoke
            # dropped, its zones were placed by the usual proportions).
            confirmed = any(abs(at - s) < min_gap for s in whist_splits[side])
            mid_spoke[side] = 1.0 if confirmed else 0.5
            mid_spoke_at[side] = at

    @cache
    def wavering(side: str) -> tuple[float, ...]:  # looked for only where the layout chosen asks
        outer = p[side]
        if outer is None:
            return ()
        horizontal_side = side in ("top", "bottom")
        lo, hi = (left, right) if horizontal_side else (top, bottom)
        return _wavering_crossings(fat, frame_side[side], outer, lo + 0.05 * (hi - lo),
                                    hi - 0.05 * (hi - lo), horizontal_side, min_gap)

    for corner, (sx, sy) in {"TL": ("left", "top"), "TR": ("right", "top"), "BR": ("right", "bottom"),
                             "BL": ("left", "bottom")}.items():
        if None in (p[sx], p[sy], q[sx], q[sy]):
            corner_spoke[corner] = 0.0
            continue
        a = f64([q[sx], q[sy]])
        b = f64([p[sx], p[sy]])
        # Skip the ends, where the rectangles' own sides meet the diagonal.
        corner_spoke[corner] = coverage(fat, a + 0.2 * (b - a), a + 0.8 * (b - a), tolerance=beside)
        if corner_spoke[corner] < _WHOLE_DIAGONAL:
            corner_spoke[corner] = max(corner_spoke[corner], _diagonal_nearby(fat, a, b, slack))
    return Measured(frame=frame, drawn_frame=seen_frame, pulka_rect=pulka_rect, gora_rect=gora_rect,
                    circle=circle,
                    mid_spoke=mid_spoke,
                    mid_spoke_at=mid_spoke_at, corner_spoke=corner_spoke, whist_splits=whist_splits,
                    lines_from={"left": tuple(from_left), "top": tuple(from_top), "right": tuple(from_right),
                                "bottom": tuple(from_bottom)},
                    wavering_splits=wavering)


PITCH_FIT = 0.12
"""How far (a share of the pitch) a gap between two printed lines may be off the pitch, or off a
multiple of it where lines between were not seen (`at_one_pitch`)."""

PITCHES = (0.015, 0.06)
"""The pitches of printed lines looked for, as shares of the frame's longer side: squared paper's 5 mm and
lined paper's 6-10 mm on a sheet of 150-300 mm (`at_one_pitch`)."""


def at_one_pitch(positions: tuple[float, ...], shortest: float, longest: float) -> bool:
    """Whether five lines or more at `positions` lie at one pitch between `shortest` and `longest` px:
    three gaps or more of one pitch, and three in four of the gaps up to four and a half pitches long
    one pitch or a few (`PITCH_FIT`), where lines between them were not seen (hidden under writing or
    too faint there).

    Lines that a hand draws or writes across a band are spaced as the sheet's parts and the writing
    fall, not at one pitch: one such run of lines is the paper's print (squared paper's grid, lined
    paper's rulings).
    """
    if len(positions) < 5:
        return False
    gaps = np.diff(np.sort(np.array(positions, dtype=np.float64)))[None, :]
    # Every pitch at once (rows), each gap (columns) as the pitch it is tried at divides it.
    pitch = np.arange(max(1.0, shortest), longest + 1.0)[:, None]
    near = gaps <= 4.5 * pitch
    steps = np.maximum(1.0, np.round(gaps / pitch))
    fit = (np.abs(gaps / steps - pitch) <= PITCH_FIT * pitch) & near
    single = (fit & (steps == 1)).sum(axis=1)
    return bool(np.any((single >= 3) & (fit.sum(axis=1) >= 0.75 * near.sum(axis=1))))


_WHOLE_DIAGONAL = 0.9
"""A corner's diagonal seen along this share of it is taken as found where it was looked for; one seen
along less is looked for nearby too (`_diagonal_nearby`), and counts only if seen whole there."""


def _diagonal_nearby(fat: U8, a: F64, b: F64, slack: int) -> float:
    """How fully a diagonal from near `a` to near `b` is seen, moved as a whole up to 3 `slack` either
    way: its coverage where it is seen along `_WHOLE_DIAGONAL` or more of it, else 0.

    Decision: the rectangles' corners are where their sides, measured along the sheet's middle, meet;
    a hand-drawn side running slanted or bent (a sheet bent in the photo, a freehand drawing) lies
    20-40 px off that at the corner, and the drawn diagonal then ran beside the one looked for: seen
    along none of it, a standard-4 sheet read as a standard-3 one (bench_styles seed 36000, usual and
    thin, photo 2: the bottom-left diagonal seen whole 33 px left and 23 px up). Decision: moved, it
    must lie on the thickened ink itself (no `slack` beside it, which the look where it was expected
    allows), and be seen whole, because with that slack anywhere in a squared paper's mesh, or beside
    thick writing, some place nearby showed a "whole" diagonal in a bare corner (seed 33000, thin, photo
    1; seed 35000, thick, photo 1: 0.6-0.7 → 0.96-1.0, read as standard-4).
    """
    h, w = fat.shape
    shifts = np.arange(-3 * slack, 3 * slack + 1, max(1, slack // 2), dtype=np.float64)
    # Every place moved to at once (rows), each the segment's 48 points as `coverage` samples them.
    dx, dy = (v.ravel()[:, None] for v in np.meshgrid(shifts, shifts))
    t = np.linspace(0.2, 0.8, 48)[None, :]
    x = np.clip((a[0] + t * (b[0] - a[0]) + dx).round().astype(int), 0, w - 1)
    y = np.clip((a[1] + t * (b[1] - a[1]) + dy).round().astype(int), 0, h - 1)
    best = float((fat[y, x] > 0).mean(axis=1).max())
    return best if best >= _WHOLE_DIAGONAL else 0.0


_WAVER_GAPS = 0.15
"""The share of a whist band's middle rows a freehand split may go unseen in (`_wavering_crossings`): as
much as a straight one may (`_crossings` asks for 0.85 of them in one column)."""

_WAVER_LEAN = 0.25
"""How far a freehand split's ends may lie apart along the side, as a share of the band's depth crossed
(`_wavering_crossings`): a corner's diagonal leans about as far as the band is deep, or further."""


def _band(fat: U8, start: float, stop: float, lo: float, hi: float, horizontal_side: bool
          ) -> tuple[U8, int] | None:
    """The middle 70 % of the band from `start` to `stop` (rows across it, columns along the side from `lo`
    to `hi`) and the side's position of its first column; None when it is empty."""
    a, b = sorted((start, stop))
    depth = b - a
    a_i, b_i = int(a + 0.15 * depth), int(b - 0.15 * depth)
    lo_i, hi_i = int(lo), int(hi)
    if b_i <= a_i or hi_i <= lo_i:
        return None
    band = fat[a_i:b_i, lo_i:hi_i] if horizontal_side else fat[lo_i:hi_i, a_i:b_i].T
    return band, lo_i


def _wavering_crossings(fat: U8, start: float, stop: float, lo: float, hi: float, horizontal_side: bool,
                         min_gap: int) -> tuple[float, ...]:
    """Positions between `lo` and `hi` where a line crosses the band from `start` to `stop` (its middle 70 %
    as `_crossings` looks) wavering as it goes: a path down the band's rows moving at most a column a row,
    on ink in all but `_WAVER_GAPS` of them, its ends at most `_WAVER_LEAN` of the depth apart along the
    side; placed halfway between its ends.

    Decision: a freehand whist split drawn with a fine pen wavers across the band by more than the slack
    it is thickened by, so no one column holds it over 0.85 of the band, and `_crossings` missed it: the
    band's parts were then placed evenly (bench_styles seed 31000, thin, photo 4: the top band's split 15
    px either side of its line, 0.77 of one column at best; seed 38000, thin, photo 3: the bottom seat's
    one split).
    """
    found = _band(fat, start, stop, lo, hi, horizontal_side)
    if found is None:
        return ()
    band, lo_i = found
    # Decision: followed in blocks of 2 × 2 px (ink in any of their pixels), because that is a quarter of
    # the work, and a path moving a block a block still follows a line leaning 1 px a row.
    rows, cols = band.shape[0] // 2, band.shape[1] // 2
    if rows < 1 or cols < 1:
        return ()
    ink = np.asarray((band[:2 * rows, :2 * cols] > 0).reshape(rows, 2, cols, 2).any(axis=(1, 3)), bool)
    # Every column's best path so far at once: its unseen rows and the column it began in.
    unseen = (~ink[0]).astype(np.int32)
    began = np.arange(cols)
    big = np.iinfo(np.int32).max // 2
    for row in ink[1:]:
        before = np.full((3, cols), big, np.int32)
        began_at = np.tile(began, (3, 1))
        before[0, 1:], began_at[0, 1:] = unseen[:-1], began[:-1]  # from the column to the left
        before[1] = unseen
        before[2, :-1], began_at[2, :-1] = unseen[1:], began[1:]  # from the column to the right
        best = np.argmin(before, axis=0)
        pick = np.arange(cols)
        unseen = before[best, pick] + (~row).astype(np.int32)
        began = began_at[best, pick]
    ends = np.arange(cols)
    seen = 1.0 - unseen / rows
    seen[np.abs(ends - began) > _WAVER_LEAN * rows] = 0.0
    peaks = _peaks(seen.astype(np.float64), 1.0 - _WAVER_GAPS, max(1, min_gap // 2))
    # Decision: paths placed within `min_gap` of a path seen more fully are that line again, because a
    # path may end a few blocks aside along a stroke at the band's end (a digit's, the pulka side's), and
    # one split seen twice 18 px apart was taken for a band's two (bench_styles seed 40000, glare, photo 2).
    kept: list[float] = []
    for i in sorted(peaks, key=lambda i: -seen[i]):
        # (Halfway between the blocks it began and ended in, each block's middle 0.5 px past its first one.)
        at = float(lo_i + began[i] + i + 0.5)
        if all(abs(at - other) >= min_gap for other in kept):
            kept.append(at)
    return tuple(sorted(kept))


def _crossings(fat: U8, start: float, stop: float, lo: float, hi: float, horizontal_side: bool,
               min_gap: int) -> tuple[float, ...]:
    """Positions between `lo` and `hi` where ink crosses the band from `start` to `stop` (nearly) fully.

    For a top/bottom side the band spans rows start..stop and positions are x; for left/right sides it
    spans columns and positions are y. Only the middle 70 % of the band is required, so a line that
    stops just short of a rectangle still counts.
    """
    found = _band(fat, start, stop, lo, hi, horizontal_side)
    if found is None:
        return ()
    band, lo_i = found
    share = (band > 0).mean(axis=0)
    # A crossing line is a narrow run of columns inked over (almost) the whole band depth.
    peaks = _peaks(share.astype(np.float64), 0.85, min_gap)
    return tuple(float(lo_i + i) for i in peaks)
