"""Finding drawn lines: a dark-ink mask that ignores uneven light, and robust straight-line fits."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.vision._arrays import F64, U8, f64, u8
from sheetscan.vision._group import Box

__all__ = [
    "INK_REACH", "INK_STRONG", "INK_WEAK", "at_least", "below", "cleared", "dark_mask", "dark_ratio",
    "fit_line", "flat_places", "hanging_pieces", "hysteresis", "ink_at", "ink_within", "intersect",
    "line_through", "local_ink", "long_blobs", "nearest_run_spans", "nearest_runs", "opening",
    "point_line_distance", "ridges_only", "runs_of", "seeded", "shrunk", "without_crossed",
]


INK_STRONG = 0.32
"""The ink stage's hysteresis thresholds and reach (`ink.find_ink`): a stroke pixel is at least
`INK_WEAK` darker than the paper (as a share of its brightness) and within `INK_REACH` px of one at least
`INK_STRONG` darker. Here because the zone stage needs to know what the ink stage will keep."""
INK_WEAK = 0.16
INK_REACH = 3
_STEP_PAPER = 0.9
"""The share of its step-free paper brightness at which `ridges_only` calls a pixel paper."""
_STEP = 0.85
"""`ridges_only` tells a pixel back to paper only where the two paper estimates differ by a step: its
ratio under this share of its step-free ratio. (With no such condition the soft edges of motion-blurred
lines were thinned in the zone stage: bench_styles seed 16000, motion, photo 0 zones IoU 0.971 -> 0.658.)"""


def dark_mask(image: U8, *, line_width: float = 3.0, contrast: float = 0.78) -> U8:
    """255 where the ink is darker than `contrast` × the local paper brightness, else 0 (see `dark_ratio`)."""
    ratio = dark_ratio(image, line_width=line_width)
    return below(ratio, contrast)


def below(ratio: NDArray[np.float32], level: float) -> U8:
    """255 where `ratio` is below `level` (compared in single precision), else 0."""
    # A comparison gives the 0/255 mask directly (a threshold of the float image would give floats to
    # convert); the level is rounded to single precision as the threshold rounded it.
    return u8(cv2.compare(ratio, f64([level]), cv2.CMP_LT))


def hysteresis(ratio: NDArray[np.float32], strong: float, weak: float) -> U8:
    """255 on pixels darker than `weak` that are connected to a pixel darker than `strong`.

    A faint pencil line fades in and out along its length; its faint stretches still touch darker
    ones, while paper grain at the same faint level does not.
    """
    return seeded(below(ratio, weak), below(ratio, strong))


def seeded(mask: U8, seeds: U8) -> U8:
    """255 on the blobs of `mask` (8-connected) that hold at least one pixel of `seeds` (non-zero)."""
    count, found = _blobs(mask)
    labels = np.asarray(found, np.int32)
    keep = np.zeros(count, np.uint8)
    keep[labels[seeds > 0]] = 255
    keep[0] = 0
    # Decision: where the mask covers more than 4 % of the image (the lines' level on a rectified sheet:
    # 5-30 %), one lookup through the table for every pixel, its bounds left unchecked (every label is
    # below the table's length), because that is 1.4-4 times as fast as looking up only the mask's pixels
    # by their places (bench seed 1000: 2.8-9.7 -> 0.7-4.9 ms a sheet); the same pixels, as `keep[0]`
    # (off the blobs) is 0. A sparser mask's pixels are looked up by their places.
    if cv2.countNonZero(mask) > _DENSE * mask.size:
        return u8(np.take(keep, labels, mode="clip"))
    return _relabelled(mask, labels, keep)


_DENSE = 0.04
"""The share of a mask's pixels above which `seeded` looks every pixel's label up in one pass."""


def _blobs(mask: U8) -> tuple[int, cv2.typing.MatLike]:
    """The 8-connected blobs of `mask` (non-zero) labelled 1, 2, ... (int32), and their count with the
    background's label 0, in an order of OpenCV's own: for the rules that only ask which pixels lie in one
    blob together, never which blob comes first.

    Decision: labelled by Wu's scan (`cv2.CCL_WU`) for those rules, because it finds the same blobs as
    OpenCV's default (Spaghetti), numbered in another order, in 0.8 of the time (the zone stage's faint lines
    on a 12 MP photo's sheet: 4.2-5.6 -> 3.5-4.3 ms); where the numbering counts (ties broken by label), the
    default stays.
    """
    count, found = cv2.connectedComponentsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_WU)
    return int(count), found


def _relabelled(mask: U8, labels: NDArray[np.int32], values: U8) -> U8:
    """`values[label]` on the non-zero pixels of `mask` (labelled `labels`, 0 off it), 0 elsewhere.

    Ink covers a small part of a sheet: its pixels are looked up by their places rather than every
    pixel of the sheet through the table.
    """
    out = np.zeros_like(mask)
    points = cv2.findNonZero(mask)
    if points is not None:
        xs, ys = np.asarray(points, np.int64).reshape(-1, 2).T
        out[ys, xs] = values[labels[ys, xs]]
    return u8(out)


def local_ink(ratio: NDArray[np.float32], *, strong: float = 1.0 - INK_STRONG, weak: float = 1.0 - INK_WEAK,
              reach: int = INK_REACH) -> U8:
    """255 on pixels darker than `weak` within `reach` px of one darker than `strong`: about what the ink
    stage takes for ink (its default thresholds, as shares of the paper's brightness `ratio` is in), so
    the faint pixels it keeps beside a dark line (a ruling's stub where it crosses the line) are known
    here too."""
    dark = cv2.compare(ratio, f64([strong]), cv2.CMP_LE)
    faint = cv2.compare(ratio, f64([weak]), cv2.CMP_LE)
    near = cv2.dilate(dark, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * reach + 1,) * 2))
    return u8(cv2.bitwise_and(faint, near))


def hanging_pieces(lines: U8, ink: U8, *, reach: float) -> U8:
    """The pieces of `ink` off `lines` that lie wholly within `reach` px of them (255), else 0; but not a
    stroke of its own lying along the lines (see below).

    Where a ruling of squared paper crosses a drawn line, its stubs on both sides darken into ink
    beside the line; left out of the line mask, the ink stage takes the crossing for handwriting
    written across the line and keeps a "+" that reads as a digit. A digit touching the line reaches
    further from it than a line's fringe, so it is not taken. (The reach is square, not round.)
    """
    r = max(1, round(reach))
    near = cv2.dilate(lines, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * r + 1, 2 * r + 1)))
    rest = cv2.bitwise_and(ink, cv2.bitwise_not(lines))
    count, found = _blobs(u8(rest))
    if count <= 1:
        return u8(np.zeros_like(lines))
    labels = np.asarray(found, np.int32)
    far = cv2.bitwise_and(rest, cv2.bitwise_not(near))
    keep = np.full(count, 255, np.uint8)
    keep[labels[far > 0]] = 0
    keep[0] = 0
    # Decision: a piece longer than twice the reach, on average thicker than half of it, lying level or
    # upright with the lines beside it (across its length, outside its own box) over at least half its
    # length but bordering them (8-adjacent) along less than two thirds of it, is a stroke of its own lying
    # along a line, not the line's: a level "1" written just under a line, touching it in part or not at
    # all, lies wholly within a line width of it, and was masked as line (27002 "16", in every style). A
    # ruling's stubs are no longer than the reach; a line's fringe along it, and squared paper's ruling
    # running beside it, are thinner than half a line's width (a third let the ruling through: seed 32004
    # dark); the half of a line its mask missed borders the mask all along (0.8 of its length or more,
    # where that "1" bordered it along 0.56); a stretch of the line itself that its mask missed has the
    # line at its ends, not beside it.
    # Decision: the pieces' labels are looked up on their pixels within the reach only, because a piece
    # with a pixel beyond it is dropped whole (its pixels there are `far`, and their label's value is 0):
    # the same pieces, from the few pixels beside the lines rather than all the sheet's ink (bench 1000
    # photos 0-7: a twentieth to a half of them; 5.1 -> 1.3 ms a 12 MP photo's sheet).
    hanging = _relabelled(u8(cv2.bitwise_and(rest, near)), labels, keep)
    border = None
    for (x, y, w, h), piece in _strokes(hanging, r):
        if not _alongside(lines, (x, y, w, h), r):
            continue
        if border is None:
            border = cv2.dilate(lines, np.ones((3, 3), np.uint8))
        touching = piece & (border[y:y + h, x:x + w] > 0)
        if 3 * float(np.mean(np.any(touching, axis=0 if w >= h else 1))) < 2:
            hanging[y:y + h, x:x + w][piece] = 0
    return hanging


def ink_within(mask: U8, contour: cv2.typing.MatLike, box: Box) -> NDArray[np.bool_]:
    """The ink of `mask` (non-zero) within the filled outline `contour`, over its bounding `box` (x, y,
    width, height): one piece found by its outer outline, with any speck inside a hole of it."""
    x, y, w, h = box
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [contour], -1, 255, cv2.FILLED, offset=(-x, -y))
    return (inside > 0) & (mask[y:y + h, x:x + w] > 0)


def _strokes(mask: U8, reach: int) -> list[tuple[Box, NDArray[np.bool_]]]:
    """The 8-connected pieces of `mask` longer than twice `reach` px and thicker on average than half of it
    (pixels over the longer side of the box): each piece's box and its pixels within the box.

    The pieces are found by their outer outlines, far faster than labelling the sheet with statistics; a
    piece's pixels are the ink within its filled outline (with any speck inside a hole of it: a stroke
    that long and thick has none).
    """
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    found: list[tuple[Box, NDArray[np.bool_]]] = []
    if hierarchy is None:
        return found
    for contour, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True):
        if parent >= 0:
            continue  # a hole's outline
        x, y, w, h = cv2.boundingRect(contour)
        side = max(w, h)
        if side <= 2 * reach:
            continue
        piece = ink_within(mask, contour, (x, y, w, h))
        if 2 * int(np.count_nonzero(piece)) > reach * side:
            found.append(((x, y, w, h), piece))
    return found


def _alongside(lines: U8, box: Box, reach: int) -> bool:
    """Whether the box (x, y, width, height) lies level or upright (at least twice as long as wide) with
    `lines` beside it across its longer side, within `reach` px of it but outside it, over at least half its
    length, and not going on past both its ends (within `reach` px, level with the box): a stretch of a line
    split off from the rest has it at both ends. (A slanting piece's box tells neither.)"""
    x, y, w, h = box
    if max(w, h) < 2 * min(w, h):
        return False
    if w >= h:
        before, after = lines[max(0, y - reach):y, x:x + w], lines[y + h:y + h + reach, x:x + w]
        seen = np.any(before > 0, axis=0) | np.any(after > 0, axis=0)
        ends = lines[y:y + h, max(0, x - reach):x], lines[y:y + h, x + w:x + w + reach]
    else:
        before, after = lines[y:y + h, max(0, x - reach):x], lines[y:y + h, x + w:x + w + reach]
        seen = np.any(before > 0, axis=1) | np.any(after > 0, axis=1)
        ends = lines[max(0, y - reach):y, x:x + w], lines[y + h:y + h + reach, x:x + w]
    return 2 * int(np.count_nonzero(seen)) >= len(seen) and not all(np.any(end > 0) for end in ends)


def ink_at(mask: U8, x: NDArray[np.integer], y: NDArray[np.integer]) -> NDArray[np.bool_]:
    """Whether `mask` has ink at each pixel (x, y) (arrays of one shape); places off the image are paper."""
    h, w = mask.shape
    # Decision: each place is looked up in the mask itself and told off where it lay outside, because that
    # is the same answer as looking it up in a copy of the mask with a paper border, without copying the
    # whole mask at every call (captured calls, bench seed 1000: 1.0-1.7 -> 0.5 ms a call). Off the image
    # is one comparison a side (a negative place wraps round to a huge one as unsigned), and a place off
    # it is read anywhere on it (`take` clips the index) before it is told off.
    index, inside = flat_places(h, w, x, y)
    ink: NDArray[np.bool_] = np.take(mask, index, mode="clip") > 0
    ink &= inside
    return ink


def flat_places(h: int, w: int, x: NDArray[np.integer], y: NDArray[np.integer]
                ) -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
    """The places (x, y) of an image `h` high and `w` wide as indices into it flattened (off the image: any
    index, to be clipped), and which of them lie on it (`ink_at`)."""
    xs, ys = np.asarray(x, np.intp), np.asarray(y, np.intp)
    inside = xs.view(np.uintp) < w
    inside &= ys.view(np.uintp) < h
    index = ys * w
    index += xs
    return index, inside


def at_least(image: U8, level: int) -> U8:
    """255 where `image` (uint8) is at least `level`, else 0."""
    if level <= 0:
        return np.full_like(image, 255)
    return np.asarray(cv2.threshold(image, level - 1, 255, cv2.THRESH_BINARY)[1], np.uint8)


def cleared(image: U8, where: cv2.typing.MatLike) -> U8:
    """`image` (uint8) with 0 wherever `where` (uint8, the same size) is not 0.

    Decision: as a mask of the places to keep (255 where `where` is 0) and'ed with the image, because that
    is the same image as setting the places through a boolean index, which goes over the sheet place by
    place (a 12 MP photo's sheet: 3.8 -> 0.3 ms a mask; `ink._local_strong`, `_line_removal.remove_lines`).
    """
    keep = cv2.threshold(np.asarray(where, np.uint8), 0, 255, cv2.THRESH_BINARY_INV)[1]
    return u8(np.asarray(cv2.bitwise_and(image, keep), np.uint8))


def opening(mask: cv2.typing.MatLike, kernel: cv2.typing.MatLike) -> U8:
    """The morphological opening of a uint8 `mask` (an erosion, then a dilation) as two calls: the same
    pixels as `cv2.morphologyEx(..., MORPH_OPEN)`, and faster with a long kernel."""
    # Decision: with a kernel that is one straight run (a level or upright line of ones, every opening the
    # stages make), each of the two is made by halving (`_along_run`), because OpenCV's filter costs the
    # run's length at every pixel: the same pixels (tests/vision/test_pix25_speed.py) in a few passes, 2-8
    # times as fast (a 12 MP photo's sheet: 104 px runs 7.8-9.8 -> 3.1-3.9 ms, 300 px 20-22 -> 3.7-4.4 ms).
    image, ones = np.asarray(mask), np.asarray(kernel)
    if image.ndim == 2 and image.dtype == np.uint8 and ones.ndim == 2 and 1 in ones.shape and ones.all():
        axis = 1 if ones.shape[0] == 1 else 0
        length = int(ones.shape[axis])
        return _along_run(_along_run(u8(image), length, axis, erode=True), length, axis, erode=False)
    return u8(np.asarray(cv2.dilate(cv2.erode(mask, kernel), kernel), np.uint8))


def _along_run(image: U8, length: int, axis: int, *, erode: bool) -> U8:
    """`cv2.erode` (`erode`) or `cv2.dilate` of a 2-D uint8 `image` by a run of `length` ones along `axis`
    (1: level, 0: upright) with OpenCV's defaults: the run's anchor at `length` // 2, and beyond the image
    what changes nothing (the brightest for an erosion, the darkest for a dilation).

    Each pixel is the least (greatest) over the `length` pixels from `length` // 2 before it: the image
    padded so on both sides, the extremes over runs of 1, 2, 4, ... pixels are each two of the last ones
    side by side, and the last run is two overlapping ones of the largest power of two within `length`.
    """
    before = length // 2
    after = length - 1 - before
    pick = cv2.min if erode else cv2.max
    fill = 255 if erode else 0
    sides = (0, 0, before, after) if axis == 1 else (before, after, 0, 0)
    out = np.asarray(cv2.copyMakeBorder(image, *sides, cv2.BORDER_CONSTANT, value=fill), np.uint8)
    span = 1
    while 2 * span <= length:
        out = np.asarray(pick(out[:, :-span], out[:, span:]) if axis == 1 else pick(out[:-span], out[span:]),
                         np.uint8)
        span *= 2
    rest = length - span
    if rest:
        out = np.asarray(pick(out[:, :-rest], out[:, rest:]) if axis == 1 else pick(out[:-rest], out[rest:]),
                         np.uint8)
    return u8(out)


def long_blobs(mask: U8, length: float) -> NDArray[np.bool_] | None:
    """True on the 8-connected blobs of `mask` whose bounding box is longer than `length` px either way,
    or None when there is none.

    The blobs' outlines give their boxes far faster than labelling with statistics does, and the
    long ones are then filled from a pixel of their outline, which visits only their own pixels rather
    than labelling the whole sheet. (Every blob's outline holds its extreme pixels, so the outline's box
    is the blob's; an outline, a hole's too, runs on the blob's own pixels.)
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    starts = [c[0, 0] for c in contours if max(cv2.boundingRect(c)[2:]) > length]
    if not starts:
        return None
    filled = u8(cv2.threshold(mask, 0, 255, cv2.THRESH_BINARY)[1])
    for x, y in starts:
        if filled[y, x] == 255:  # not filled yet from another outline of the same blob
            cv2.floodFill(filled, None, (int(x), int(y)), 128, 0, 0, 8)
    return np.asarray(filled == 128, np.bool_)


def shrunk(image: U8, factor: int) -> U8:
    """`image` `factor` times smaller each way, (width // `factor`, height // `factor`), each pixel the mean
    of a whole `factor` × `factor` block of it (INTER_AREA); the last rows and columns, fewer than `factor`,
    are left out.

    Decision: cut to whole blocks first, because OpenCV averages whole blocks in a fast path only when the
    factor divides the size, and a size a hair off (1739 rows to 434, 4.007 each) took its general path,
    which weighs fractions of pixels, at 3-10 times the cost (a ruling's darkness 10.7 -> 6.8 ms and the
    half-size lines 39.7 -> 36.8 ms a 12 MP photo's sheet, bench 1000 photos 0-7). A ruling's darkness
    changes slowly over far more than the few rows left out, and a line long enough to be looked for runs
    far past them.
    """
    height, width = image.shape[:2]
    if height < factor or width < factor:
        return u8(cv2.resize(image, (max(1, width // factor), max(1, height // factor)),
                             interpolation=cv2.INTER_AREA))
    rows, cols = height // factor, width // factor
    whole = image[:rows * factor, :cols * factor]
    return u8(cv2.resize(whole, (cols, rows), interpolation=cv2.INTER_AREA))


def dark_ratio(image: U8, *, line_width: float = 3.0, channel: str = "min") -> NDArray[np.float32]:
    """Each pixel's brightness as a share of the local paper brightness (1 = paper, 0.3 = dark ink).

    The paper's brightness is estimated by a grey closing (the brightest nearby value, which erases
    strokes up to a few `line_width`s) and smoothed; dividing by it cancels gradients and soft
    shadows. For a colour image `channel` says which brightness: "min" (the darkest channel: blue and
    red pens count as ink), or "max" (the brightest: only ink dark in every channel counts, so the
    light blue or red grid printed on squared notebook paper fades out while pencil and pens stay).
    """
    dark = _brightness(image, channel)
    h, w = dark.shape[:2]
    # Estimate the paper on a smaller copy: it is smooth, and the closing is the costly step.
    factor = max(1, int(min(h, w) // 300))
    small = cv2.resize(dark, (w // factor, h // factor), interpolation=cv2.INTER_AREA) if factor > 1 else dark
    k = max(3, round(line_width * 3 / factor) | 1)
    paper = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    paper = cv2.blur(paper, (k * 2 + 1, k * 2 + 1))
    if factor > 1:
        paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_LINEAR)
    # The paper at least 24 while still uint8, and both divided as float32 in the one pass: the same
    # numbers as converting each to float32 first (each uint8 is exact in float32), in half the time.
    # Decision: divided by OpenCV (float32 out), because its quotient of two whole numbers up to 255 is
    # numpy's float32 one, every one of the 256 x 256 (tests/vision/test_pix25_speed.py), at a third of
    # the time (7.5 -> 2.2 ms a 12 MP photo's sheet, and the floor at 24 1.5 -> 0.2 ms).
    # (OpenCV takes the 24 as a scalar for every pixel; the stubs of OpenCV 5.0 know only arrays there,
    # 5.1's a scalar too.)
    floor = np.asarray(cv2.max(np.ascontiguousarray(paper), 24), np.uint8)  # type: ignore[call-overload, unused-ignore]
    ratio = np.asarray(cv2.divide(np.ascontiguousarray(dark), floor, dtype=cv2.CV_32F), np.float32)
    return ratio


def _brightness(image: U8, channel: str) -> U8:
    """A colour image's darkest ("min") or brightest ("max") channel at each pixel (`dark_ratio`); a grey
    image as it is."""
    if image.ndim != 3:
        return image
    # On the channels' strided views: no copy of each channel first (cv2.split), twice as fast.
    pick = np.maximum if channel == "max" else np.minimum
    return u8(pick(pick(image[..., 0], image[..., 1]), image[..., 2]))


def fit_line(points: F64) -> tuple[F64, F64] | None:
    """A robust (Huber) line through `points` (N × 2): (a point on it, unit direction), or None."""
    if len(points) < 5:
        return None
    vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return f64([x0, y0]), f64([vx, vy])


def line_through(a: F64, b: F64) -> tuple[F64, F64]:
    """The line through two points as (point, unit direction)."""
    d = f64(b) - f64(a)
    return f64(a), d / max(float(np.hypot(*d)), 1e-12)


def intersect(l1: tuple[F64, F64], l2: tuple[F64, F64]) -> F64 | None:
    """Where two (point, direction) lines cross, or None when they are (nearly) parallel."""
    (p, d), (q, e) = l1, l2
    det = d[0] * (-e[1]) - d[1] * (-e[0])
    if abs(det) < 1e-9:
        return None
    t = ((q[0] - p[0]) * (-e[1]) - (q[1] - p[1]) * (-e[0])) / det
    return f64(p + t * d)


def point_line_distance(points: F64, line: tuple[F64, F64]) -> F64:
    """Unsigned distance of each point (N × 2) from the line."""
    p, d = line
    rel = points - p
    return f64(np.abs(rel[:, 0] * d[1] - rel[:, 1] * d[0]))


def nearest_runs(ink: NDArray[np.bool_], offsets: F64, max_len: int) -> tuple[F64, NDArray[np.bool_]]:
    """For each row of `ink` (a line's profile across it at `offsets`), the centre offset of the run of
    ink holding the ink pixel nearest offset 0, and whether that row has such a run at most `max_len`
    long (a wider one is a blot, a digit on the line or a crossing line: not a clean piece of line)."""
    start, end, valid = nearest_run_spans(ink, offsets, max_len)
    return f64((start + end) / 2), valid


def nearest_run_spans(ink: NDArray[np.bool_], offsets: F64, max_len: int
                      ) -> tuple[F64, F64, NDArray[np.bool_]]:
    """Like `nearest_runs`, but the run's first and last offsets (its extent across the line)."""
    rows, n = ink.shape
    if rows == 0:
        return f64(np.zeros(0)), f64(np.zeros(0)), np.zeros(0, bool)
    # The nearest ink: the first inked column in the order of distance from offset 0 (the lower column
    # first among equals, as the least distance's first place); column 0 in a row without ink.
    # Decision: found so, because that is the same answer as the least of a float distance table, in half
    # the time (captured calls, bench seed 1000: 1.4-1.5 -> 0.6-0.7 ms a call, with the runs below).
    order = np.argsort(np.abs(offsets), kind="stable")
    has_ink = ink.any(axis=1)
    nearest = np.where(has_ink, order[np.argmax(ink[:, order], axis=1)], 0)
    # The run holding the nearest ink: from just after the last gap before it to the first gap after.
    # Decision: the runs are found from where the rows, each with a gap put either side, change between
    # ink and gap, and the nearest ink's run looked up among their starts, because that is the same
    # first and last place as the gaps' running greatest and least along every row, at a quarter of the
    # time (a row of 81 places: 2.1 -> 0.6 ms for 2,500 rows). A row without ink gets first place 1 and end
    # 0, as the running gaps gave it: it is not valid.
    stride = n + 2
    padded = np.zeros((rows, stride), np.bool_)
    padded[:, 1:-1] = ink
    flat = padded.ravel()
    edges = np.flatnonzero(flat[1:] != flat[:-1])
    first, past = edges[0::2] + 1, edges[1::2] + 1  # every run's first place and the one after its last
    start, end = np.ones(rows, np.intp), np.zeros(rows, np.intp)
    if len(first):
        base = np.arange(rows) * stride + 1  # each row's place 0 in `flat`
        run = np.maximum(np.searchsorted(first, base + nearest, side="right") - 1, 0)
        start = np.where(has_ink, first[run] - base, start)
        end = np.where(has_ink, past[run] - base, end)
    valid = has_ink & (end - start <= max_len)
    return f64(offsets[np.clip(start, 0, n - 1)]), f64(offsets[np.clip(end - 1, 0, n - 1)]), valid


def runs_of(on: NDArray[np.bool_]) -> list[tuple[int, int]]:
    """The (first, last) index of each run of True in `on`."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], on.astype(np.int8), [0]))))
    return [(int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def without_crossed(erase: U8, mask: U8, *, off: int, reach: int) -> U8:
    """`erase` (row-wise lines of `mask` to be taken out) except where a drawn line crosses them: there
    `mask` has ink `off` rows above and `off` rows below, within `reach` columns either side."""
    near = cv2.dilate(mask, np.ones((1, 2 * reach + 1), np.uint8))
    above, under = np.zeros_like(mask), np.zeros_like(mask)
    above[off:], under[:-off] = near[:-off], near[off:]
    return u8(cv2.bitwise_and(erase, cv2.bitwise_not(cv2.bitwise_and(above, under))))


def ridges_only(image: U8, ratio: NDArray[np.float32], *, line_width: float, channel: str = "min",
                paper: float = _STEP_PAPER, step: float = _STEP) -> NDArray[np.float32]:
    """`ratio` (`dark_ratio` of `image` in `channel`) with the dark side of a step in brightness told
    back to paper: a drawn line is a thin dark ridge, paper on both sides of it; the edge of a hard
    shadow (a phone held over the sheet) is a step, darker paper on one side only, and `dark_ratio`'s
    paper estimate (the brightest nearby value) sees the dark side's first few line widths as ink.

    The step-free view is the image over its grey closing (a dilation, then an erosion, as wide as
    `dark_ratio`'s): a closing fills every dark mark narrower than its window and keeps a step where it
    is. A pixel takes the step-free ratio where that view calls it paper (at least `paper` of its closed
    brightness) and `ratio` is under `step` of it (the two paper estimates differ by a step: beside a
    drawn line they agree within a few percent, and the line's soft edges keep their ratio); elsewhere
    (lines, writing, plain paper) `ratio` is kept as it is. The ratio is only ever raised.
    """
    dark = _brightness(image, channel)
    k = max(3, round(line_width * 3) | 1)
    closed = cv2.morphologyEx(dark, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    step_free = np.divide(dark, np.maximum(closed, np.uint8(24)), dtype=np.float32)
    lifted = (step_free >= paper) & (ratio < step * step_free)
    return np.asarray(np.where(lifted, step_free, ratio), np.float32)
