"""Following the drawn lines where a single homography cannot: bent paper and freehand wobble.

After the layout's outlines are fitted, every model line is compared with the ink near it: at regular
places along the line, the nearest run of ink across it gives how far the drawn line lies off the model
there. A smooth displacement field (a low-degree polynomial in x and y, fitted robustly to those
offsets) then moves the zone outlines onto the lines as drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.vision._arrays import F64, U8, f64, u8
from sheetscan.vision._lines import flat_places, ink_at, nearest_run_spans, nearest_runs

__all__ = ["Displacement", "TracePlaces", "fit_displacement", "trace_band", "trace_bands", "trace_places"]


@dataclass(frozen=True, eq=False)  # holds arrays: compared by identity
class Displacement:
    """A smooth shift field over the sheet: `apply(points)` moves points onto the drawn lines."""

    coefficients: F64
    """2 × terms: the polynomial's coefficients for the x and the y shift."""
    center: tuple[float, float]
    """Where the normalised coordinates are 0."""
    half: float
    """Half the sheet's size: normalised coordinates run about −1..1."""
    degree: int
    """Polynomial degree."""
    residual: float
    """Root-mean-square distance (px) of the drawn lines from the shifted model after the fit."""
    before: float
    """The same before any shift: how much the fit helped."""

    def shift(self, points: F64) -> F64:
        """The shift (N × 2) at each point."""
        basis = _basis(f64(points).reshape(-1, 2), self.center, self.half, self.degree)
        return f64(basis @ self.coefficients.T)

    def apply(self, points: F64) -> F64:
        """The points moved by the field."""
        pts = f64(points).reshape(-1, 2)
        return pts + self.shift(pts)


def _basis(points: F64, center: tuple[float, float], half: float, degree: int) -> F64:
    x = (points[:, 0] - center[0]) / half
    y = (points[:, 1] - center[1]) / half
    terms = [x**i * y**j for total in range(degree + 1) for i in range(total + 1) for j in (total - i,)]
    return f64(np.stack(terms, axis=1))


def _samples(polylines: list[F64], step: float, skip: float) -> tuple[F64, F64]:
    """Places along the lines (N × 2) and the unit normal at each, away from the segment ends."""
    segments = [f64(np.stack([line[:-1], line[1:]], axis=1)) for line in polylines if len(line) > 1]
    if not segments:
        return f64(np.zeros((0, 2))), f64(np.zeros((0, 2)))
    ab = np.concatenate(segments)  # S × 2 × 2: every segment's two ends, all lines at once
    delta = ab[:, 1] - ab[:, 0]
    length = np.hypot(delta[:, 0], delta[:, 1])
    usable = length >= 2 * skip + step
    ab, delta, length = ab[usable], delta[usable], length[usable]
    # Places at skip, skip + step, ... short of length - skip on each segment (as np.arange would).
    counts = np.maximum(0, np.ceil((length - 2 * skip) / step)).astype(np.int64)
    if counts.sum() == 0:
        return f64(np.zeros((0, 2))), f64(np.zeros((0, 2)))
    seg = np.repeat(np.arange(len(ab)), counts)
    first = np.cumsum(counts) - counts
    ts = skip + (np.arange(len(seg)) - first[seg]) * step
    d = delta / length[:, None]
    points = ab[seg, 0] + ts[:, None] * d[seg]
    normals = np.stack([-d[seg, 1], d[seg, 0]], axis=1)
    return f64(points), f64(normals)


def _ink_across(mask: U8, points: F64, normals: F64, search: float, *,
                dilated: int = 1) -> tuple[NDArray[np.bool_], F64]:
    """Ink at every whole-pixel offset within `search` across each sample point (rows = points), and
    the offsets; points off the image count as paper. With `dilated` above 1, the ink of `mask`
    dilated by a square of that side (`cv2.dilate`, its anchor in the middle)."""
    xs, ys, offsets = _across(points, normals, search)
    return _ink_on(mask, xs, ys, dilated), offsets


def _across(points: F64, normals: F64, search: float) -> tuple[NDArray[np.intp], NDArray[np.intp], F64]:
    """The whole pixels (x table, y table: rows = points) at every whole offset within `search` across each
    sample point, and the offsets (`_ink_across`)."""
    offsets = np.arange(-int(search), int(search) + 1, dtype=np.float64)
    # Decision: each coordinate table made in one array and rounded in place, because those are the
    # same numbers as the rounded sums, with fewer passes over tables of places × offsets.
    whole = []
    for axis in (0, 1):
        place = np.multiply.outer(normals[:, axis], offsets)  # the same products as offsets × normal
        place += points[:, axis, None]
        np.rint(place, out=place)  # what `ndarray.round()` does
        whole.append(place.astype(np.intp))
    return whole[0], whole[1], offsets


def _ink_on(mask: U8, xs: NDArray[np.intp], ys: NDArray[np.intp], dilated: int) -> NDArray[np.bool_]:
    """The ink of `mask` (dilated by a square of side `dilated` when above 1) at the pixels (xs, ys)."""
    if dilated > 1:
        return _dilated_at(mask, dilated, xs, ys)
    return ink_at(mask, xs, ys)


def _dilated_at(mask: U8, side: int, x: NDArray[np.intp], y: NDArray[np.intp]) -> NDArray[np.bool_]:
    """`ink_at(cv2.dilate(mask, a side × side square), x, y)`, the square's anchor in its middle, with
    only the part of the mask the places (and the square around them) lie in dilated.

    Decision: the dilation is made over the box of the places only, because a dilated pixel depends on
    the mask within the square around it alone: inside the box the values are those of the whole
    mask's dilation (the box reaches the square's width past every place, or the mask's edge, beyond
    which there is no ink either way), and a place off the mask stays off the box (the box starts at
    0 when a place lies left of the mask, and so on). The ring's band is traced over a few hundred
    pixels of a whole sheet's mask: its trace went 10.5 -> 3.4-4.8 ms of CPU a photo (6 bench photos,
    seed 1000, old and new alternated on the calls captured from their scans).
    """
    box = _dilated_box(mask.shape, side, x, y)
    if box is None:
        return np.zeros(x.shape, np.bool_)
    x0, x1, y0, y1 = box
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    if _mostly(box, mask.shape):
        # (Most of the mask: dilated whole, as a contiguous image, and looked up where the places are.)
        return ink_at(u8(cv2.dilate(mask, kernel)), x, y)
    fat = u8(cv2.dilate(mask[y0:y1, x0:x1], kernel))
    return ink_at(fat, x - x0, y - y0)


def _dilated_box(shape: tuple[int, ...], side: int, x: NDArray[np.intp], y: NDArray[np.intp]
                 ) -> tuple[int, int, int, int] | None:
    """The part of a mask of `shape` (x0, x1, y0, y1) whose dilation by a square of side `side` gives its
    values at the places (x, y) (`_dilated_at`), or None when no place lies where the mask's can reach."""
    height, width = shape[:2]
    if x.size == 0:
        return None
    # cv2's default anchor: pixel (x, y) takes the mask from x − anchor to x − anchor + side − 1.
    anchor = side // 2
    x0, x1 = max(0, int(x.min()) - anchor), min(width, int(x.max()) - anchor + side)
    y0, y1 = max(0, int(y.min()) - anchor), min(height, int(y.max()) - anchor + side)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, x1, y0, y1


def _mostly(box: tuple[int, int, int, int], shape: tuple[int, ...]) -> bool:
    """Whether `box` (x0, x1, y0, y1) is over half of a mask of `shape`: then the whole mask is dilated."""
    x0, x1, y0, y1 = box
    return 2 * (x1 - x0) * (y1 - y0) > shape[0] * shape[1]


def fit_displacement(mask: U8, polylines: list[F64], *, center: tuple[float, float], half: float,
                     search: float, step: float, skip: float, degree: int = 3,
                     max_run: int = 12) -> Displacement | None:
    """Fit the shift field that carries the model `polylines` onto the ink of `mask`.

    `search` is how far across a line the drawn line may lie (px); `skip` keeps samples away from the
    ends of segments, where other lines meet. None when too few places show their line.
    """
    points, normals = _samples(polylines, step, skip)
    if len(points) < 40:
        return None
    ink, offsets = _ink_across(mask, points, normals, search)
    found, ok = nearest_runs(ink, offsets, max_run)
    if ok.sum() < 40:
        return None
    p, n = points[ok], normals[ok]
    d = found[ok]
    basis = _basis(p, center, half, degree)
    design = np.hstack([n[:, :1] * basis, n[:, 1:] * basis])  # normal component of the shift
    terms = basis.shape[1]
    # A little ridge pulls the field towards no shift where few lines tell anything.
    ridge = 1.0 * np.sqrt(len(p) / 100.0)
    weights = np.ones(len(p))
    coef = np.zeros(2 * terms)
    for _ in range(4):
        # Normal equations of the weighted, ridged least squares: a 2·terms square system (tiny),
        # far cheaper than a general least-squares solver on the tall matrix.
        weighted = design * weights[:, None]
        normal = weighted.T @ weighted + ridge**2 * np.eye(2 * terms)
        coef = np.linalg.solve(normal, weighted.T @ (d * weights))
        residual = design @ coef - d
        # Huber-like reweighting: a digit touching a line or a stray stroke does not pull the field.
        weights = 1.0 / np.maximum(1.0, np.abs(residual) / 3.0)
    residual = design @ coef - d
    good = np.abs(residual) < 3 * max(1.0, float(np.median(np.abs(residual))))
    rms_after = float(np.sqrt(np.mean(residual[good] ** 2))) if good.any() else float("inf")
    rms_before = float(np.sqrt(np.mean(d[good] ** 2))) if good.any() else 0.0
    return Displacement(coefficients=f64(coef.reshape(2, terms)), center=center, half=half, degree=degree,
                        residual=rms_after, before=rms_before)


def trace_band(mask: U8, polylines: list[F64], *, search: float, step: float, max_run: int, merge: int,
               pad: float, fill: float = 0.0, ends: F64 | None = None, end_reach: float = 0.0) -> U8:
    """255 over the drawn lines as they lie near each model polyline, followed place by place (the
    union of `trace_bands`' two bands)."""
    traced, filled = trace_bands(mask, polylines, search=search, step=step, max_run=max_run, merge=merge,
                                 pad=pad, fill=fill, ends=ends, end_reach=end_reach)
    return u8(np.maximum(traced, filled))


@dataclass(frozen=True, eq=False)  # holds arrays: compared by identity
class TracePlaces:
    """Where `trace_bands` looks for the drawn lines along model polylines (`trace_places`): made once for
    several masks traced along the same lines with the same `step` and `search`."""

    which: NDArray[np.intp]
    """The polyline of each place."""
    points: F64
    """The places (N × 2), every `step` px along each polyline, line by line."""
    normals: F64
    """The unit normal across the line at each place (N × 2)."""
    xs: NDArray[np.intp]
    """The whole pixels across each place (N × offsets), x (`_across`)."""
    ys: NDArray[np.intp]
    """The same, y."""
    offsets: F64
    """The whole offsets across the line within `search`."""
    far: NDArray[np.bool_]
    """For each place, which of the `_WINDOW` places either side along the line (N × (2 `_WINDOW` + 1)) lie
    too far from it to be its neighbours on the line (another polyline or segment, or past either end)."""
    flat: dict[tuple[int, int], tuple[NDArray[np.intp], NDArray[np.bool_]]] = field(
        default_factory=dict, repr=False)
    """Per mask shape (height, width), the pixels' places in the flattened mask (cut to it, as `ink_at`
    takes them) and which pixels lie on it: made at the first look (`_ink_at_places`)."""


_WINDOW = 4
"""How many places either side along the line are a place's neighbours in `trace_bands`."""


def trace_places(polylines: list[F64], *, step: float, search: float) -> TracePlaces | None:
    """The places `trace_bands` looks at along `polylines` every `step` px, across within `search` px; None
    when there is none."""
    # Sampled line by line (the same places, in the same order, as all lines at once) to know each
    # place's line.
    per_line = [_samples([line], step, 0.0) for line in polylines]
    which = np.repeat(np.arange(len(polylines)), [len(p) for p, _ in per_line])
    if len(which) == 0:
        return None
    points = f64(np.concatenate([p for p, _ in per_line]))
    normals = f64(np.concatenate([n for _, n in per_line]))
    xs, ys, offsets = _across(points, normals, search)
    window = _WINDOW
    n = len(points)
    padded_p = np.concatenate([np.full((window, 2), np.inf), points, np.full((window, 2), np.inf)])
    idx = np.arange(n)[:, None] + np.arange(2 * window + 1)[None, :]
    # Neighbours from another polyline or segment lie far away; only close places count.
    far = np.hypot(*(padded_p[idx] - points[:, None, :]).transpose(2, 0, 1)) > (window + 0.5) * step
    return TracePlaces(which=which, points=points, normals=normals, xs=xs, ys=ys, offsets=offsets, far=far)


def _ink_at_places(mask: U8, places: TracePlaces, side: int,
                   rows: NDArray[np.intp] | None = None) -> NDArray[np.bool_]:
    """`_ink_on(mask, places.xs, places.ys, side)` (of the rows `rows` only, when given), the same answer,
    with the pixels' places in the flattened mask worked out once for every mask of its shape.

    Decision: the places are made once for the masks traced along the same lines (`trace_bands`), and
    so are the pixels' places in them, because `ink_at` worked them out (and which lie on the mask) from
    the pixel tables at every look: the same lookups (`take` with the places cut to the mask, then told
    off outside it).
    """
    height, width = mask.shape
    if side > 1:
        x, y = (places.xs, places.ys) if rows is None else (places.xs[rows], places.ys[rows])
        # (The box `_dilated_at` dilates: where it is not most of the mask, that box is dilated alone.)
        box = _dilated_box(mask.shape, side, x, y)
        if box is None or not _mostly(box, mask.shape):
            return _dilated_at(mask, side, x, y)
        mask = u8(cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))))
    if (height, width) not in places.flat:
        index, inside = flat_places(height, width, places.xs, places.ys)
        np.clip(index, 0, height * width - 1, out=index)
        places.flat[height, width] = index, inside
    index, inside = places.flat[height, width]
    if rows is not None:
        index, inside = index[rows], inside[rows]
    ink: NDArray[np.bool_] = np.take(mask, index) > 0
    ink &= inside
    return ink


def trace_bands(mask: U8, polylines: list[F64], *, search: float, step: float, max_run: int, merge: int,
                pad: float, fill: float = 0.0, ends: F64 | None = None, end_reach: float = 0.0,
                beside: U8 | None = None, across: float = 0.0, places: TracePlaces | None = None
                ) -> tuple[U8, U8]:
    """255 over the drawn lines as they lie near each model polyline, followed place by place: the
    places traced, and apart from them the places filled in (see `fill`).

    A freehand line wanders off any smooth model by more than a line's width, and a line drawn twice
    is two strokes side by side. At every `step` px along each polyline, the run of ink nearest the
    model across it (within `search` px) is the drawn line there; strokes less than `merge` px apart
    count as one run, so both strokes of a retraced line are taken. Runs wider than `max_run` or than
    1.5 times their line's usual run plus 2 px (a digit or a blot on the line) are left out, unless the
    single stroke nearest the model, not merged with the ink beside it, is as wide as the line's usual
    run (a digit written close beside the line: the line goes on beside it); places whose offset jumps
    away from their neighbours' (a digit next to a gap in the line) are left out too. Each kept run
    is painted `pad` px wider on both sides. With `fill`, a place left out within `fill` px of a kept
    place of the same line running the same way, and within `end_reach` px of one of the points `ends`
    (where the model's lines end and meet), takes that place's run (see `_borrowed`): the line goes on
    where another meets it.

    With `beside`, what lies beside the drawn line is painted on it: at every place whose neighbours show
    the line (and whose line shows it at enough places to have a usual run), the stretch across the model
    within `across` px that lies further than half the line's usual run plus `pad` px from the centre the
    neighbours agree on, except within `end_reach` px of the points `ends` (a line overshooting the line it
    meets lies in that one's band). Where the neighbours do not show the line, a digit stands against it all
    around, and there the model's band is left as it is: clearing it too, as the nearest place that knows,
    left pieces of line that were read as digits.

    `places` is `trace_places(polylines, step=step, search=search)` when already made.
    """
    band = np.zeros_like(mask)
    filled = np.zeros_like(mask)
    # Decision: the places along the lines, the pixels across them and which places are neighbours are
    # made once for the masks traced along the same lines (`trace_places`: the zone stage traces the
    # lines' faint ink, then what is left beside the first stroke), because they depend on the lines
    # alone: the same numbers.
    if places is None:
        places = trace_places(polylines, step=step, search=search)
    if places is None:
        return band, filled
    which, points, normals, offsets = places.which, places.points, places.normals, places.offsets
    ink = _ink_at_places(mask, places, merge)
    start, end, ok = nearest_run_spans(ink, offsets, max_run + merge)
    centre = (start + end) / 2
    # The dilation widened each run by about merge / 2 on each side.
    start, end = start + merge / 2, end - merge / 2
    # Decision: a run much wider than its own line's usual width (1.5 times it, plus 2 px) is a digit
    # or a blot touching the line, not line: painted, it took the digit's end out of the writing. Each
    # line has its own usual width (a spoke may be drawn heavier than the frame). Measured with
    # bench_scan's full pipeline, numbers read: seed 1000 92.71% -> 93.10%, 2000 92.43% -> 93.38%,
    # 3000 81.69% -> 82.55%.
    width = end - start
    typical = np.zeros(len(ok))
    for i in range(len(polylines)):
        on = which == i
        if np.count_nonzero(on & ok) >= 10:
            typical[on] = float(np.median(width[on & ok]))
    fits = (typical == 0) | (width <= 1.5 * typical + 2)
    wide = ok & ~fits
    ok &= fits
    if wide.any():
        # Decision: where the merged run is too wide because a digit stands within `merge` px of the
        # line, the single stroke nearest the model (not merged) is the line if it is as wide as the
        # line's usual run: no wider (with the 1.5 × + 2 px slack here too, the line and a digit's top
        # touching it passed, and the tops of a row of digits hanging from a freehand line were masked:
        # bench seed 1000 photo 20, 3 numbers lost) and no narrower (the thin ruling of squared paper
        # crossing a pale line was taken for it, and the line itself was left to be read as a "1").
        # A merged run's width above counts one pixel less than the same stroke's own: the dilation
        # widened it by merge − 1, and merge was taken off.
        thin = _ink_at_places(mask, places, 1, np.flatnonzero(wide))  # (the rows of `_ink_across` there)
        thin_start, thin_end, thin_ok = nearest_run_spans(thin, offsets, max_run)
        thin_width = thin_end - thin_start
        good = thin_ok & (thin_width >= typical[wide]) & (thin_width <= typical[wide] + 1)
        place = np.flatnonzero(wide)[good]
        start[place], end[place] = thin_start[good], thin_end[good]
        centre[place] = (thin_start[good] + thin_end[good]) / 2
        ok[place] = True
    # Neighbours along the line: a place is kept when its centre agrees with the median of the valid
    # places around it (the drawn line moves smoothly; a digit beside a gap does not).
    window = _WINDOW
    n = len(points)
    gap = np.full(window, np.nan)
    padded_c = np.concatenate([gap, np.where(ok, centre, np.nan), gap])
    idx = np.arange(n)[:, None] + np.arange(2 * window + 1)[None, :]
    around = padded_c[idx]
    # Neighbours from another polyline or segment lie far away; only close places count.
    around[places.far] = np.nan
    count = np.sum(~np.isnan(around), axis=1)
    enough = count >= 3
    median = np.full(n, np.inf)
    if enough.any():
        median[enough] = _row_nanmedian(around[enough], count[enough])
    keep = ok & enough & (np.abs(centre - median) <= max(2.0, 0.5 * max_run))
    thickness = max(1, round(step) + 2)
    # Which places lie within `end_reach` of a point of `ends` (where the model's lines end and meet);
    # worked out only when asked for below.
    asked = beside is not None or fill > 0
    near_end = _near(points, ends, end_reach) if ends is not None and len(ends) and asked else None
    if beside is not None:
        known = enough & (typical > 0)
        if near_end is not None:
            # Where the model's lines end and meet, a line may overshoot the other: its stub beyond is in
            # the other line's band, which is left there as it is.
            known &= ~near_end
        _paint_beside(beside, points[known], normals[known], median[known], typical[known], pad=pad,
                      across=across, thickness=thickness)
    if not keep.any():
        return band, filled
    source = np.where(keep, np.arange(len(keep)), -1)
    if fill > 0 and near_end is not None:
        borrowed = _borrowed(keep, which, points, normals, fill)
        source = np.where(near_end, borrowed, source)
    for canvas, painted in ((band, keep), (filled, (source >= 0) & ~keep)):
        if painted.any():
            runs = source[painted]
            near = points[painted] + (start[runs] - pad)[:, None] * normals[painted]
            far = points[painted] + (end[runs] + pad)[:, None] * normals[painted]
            segments = np.round(np.stack([near, far], axis=1)).astype(np.int32)  # K × 2 × 2
            cv2.polylines(canvas, list(segments), False, 255, thickness)
    return u8(band), u8(filled)


def _near(points: F64, ends: F64, reach: float) -> NDArray[np.bool_]:
    """Whether each point lies within `reach` px of one of `ends` (both N × 2, finite): its distance
    (`np.hypot`) to the nearest is at most `reach`."""
    dx = points[:, None, 0] - ends[None, :, 0]
    dy = points[:, None, 1] - ends[None, :, 1]
    # Decision: the distance is taken only for the pairs less than `reach` apart either way, because
    # no other pair can be within it (a hypot is never less than either side), and the nearest end is
    # within `reach` exactly when one of them is: the same answer as the least of every distance.
    box = np.abs(dx) <= reach
    box &= np.abs(dy) <= reach
    point, end = np.nonzero(box)
    near = np.zeros(len(points), np.bool_)
    near[point[np.hypot(dx[point, end], dy[point, end]) <= reach]] = True
    return near


def _row_nanmedian(rows: F64, count: NDArray[np.intp]) -> F64:
    """`np.nanmedian(rows, axis=1)`, the same numbers, for rows holding `count` (at least 1) values that are
    not NaN: the middle value, or the mean of the two middle ones (as numpy: their sum halved).

    numpy takes a short row's nan-median through masked arrays, many times slower than a sort (NaN sorts
    last)."""
    ordered = np.sort(rows, axis=1)
    high = count // 2
    low = np.where(count % 2 == 1, high, high - 1)
    line = np.arange(len(rows))
    return f64((ordered[line, low] + ordered[line, high]) / 2.0)


def _paint_beside(canvas: U8, place: F64, normal: F64, centre: F64, typical: F64, *, pad: float,
                  across: float, thickness: int) -> None:
    """Paint on `canvas`, at each place, the stretches across the model (within `across` px of it) further
    than `typical` / 2 + `pad` px from the drawn line's `centre` there (see `trace_bands`' `beside`)."""
    if len(place) == 0:
        return
    half = typical / 2 + pad
    lo, hi = centre - half, centre + half
    edge = np.full(len(half), across)
    segments: list[NDArray[np.int32]] = []
    for a, b in ((-edge, lo), (hi, edge)):
        use = b > a
        near = place[use] + a[use, None] * normal[use]
        far = place[use] + b[use, None] * normal[use]
        segments.extend(np.round(np.stack([near, far], axis=1)).astype(np.int32))
    if segments:
        cv2.polylines(canvas, segments, False, 255, thickness)


def _borrowed(keep: NDArray[np.bool_], which: NDArray[np.int64], points: F64, normals: F64, reach: float,
              *, turn: float = 15.0) -> NDArray[np.int64]:
    """For every place, the kept place whose run it is painted with: itself when kept; else the nearest
    kept place before or after it on the same polyline, at most `reach` px away and turned at most
    `turn` degrees from it (the same side of a rectangle, not the next one round a corner); else -1.

    Where a spoke meets the frame, the run across either line takes in the other and is too wide to be
    taken for line, so the place is left out; the drawn line still goes on there as it lay just before
    and after. Left unmasked, the meeting of a spoke and the frame was read as a "7".
    """
    n = len(keep)
    index = np.arange(n)
    before = np.maximum.accumulate(np.where(keep, index, -1))
    after = np.minimum.accumulate(np.where(keep, index, n)[::-1])[::-1]
    best = np.where(keep, index, -1)
    best_distance = np.where(keep, 0.0, np.inf)
    cos_turn = float(np.cos(np.radians(turn)))
    for other in (before, after):
        j = np.clip(other, 0, n - 1)
        distance = np.hypot(*(points[j] - points).T)
        usable = ((other >= 0) & (other < n) & (which[j] == which) & (distance <= reach)
                  & (np.sum(normals[j] * normals, axis=1) >= cos_turn) & (distance < best_distance))
        best = np.where(usable, j, best)
        best_distance = np.where(usable, distance, best_distance)
    return np.asarray(best, np.int64)
