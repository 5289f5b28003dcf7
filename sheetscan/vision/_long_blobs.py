"""Stage 4 of reading a photo: blobs of ink too long to be handwriting (unfound lines, the paper's edge, a
shadow's border) dropped (`drop_long_blobs`), or cut off the handwriting joined to them (`cut_long_blobs`).
"""

from __future__ import annotations

import warnings

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision._line_removal import line_width
from sheetscan.vision._lines import long_blobs
from sheetscan.vision._straight import half_size_lines, unbroken

__all__ = ["cut_long_blobs", "drop_long_blobs"]

Mask = npt.NDArray[np.uint8]


def drop_long_blobs(mask: Mask, *, max_length: float) -> Mask:
    """Remove connected blobs longer than `max_length` (lines, edges), keeping everything else."""
    drop = long_blobs(mask, max_length)
    if drop is None:
        return mask
    return np.where(drop, 0, mask).astype(np.uint8)


def cut_long_blobs(mask: Mask, *, max_length: float, straight: float) -> Mask:
    """`mask` less the blobs longer than `max_length` either way, but with the handwriting joined to them.

    Such a blob is a line the zone stage did not give (a freehand spoke wandering off the model, a line
    no layout has) or the paper's edge; digits written against the line touch it and were dropped with
    it: a whole row of numbers hanging from a line was lost. A line is straight over a stretch longer than
    any stroke of a digit (`straight` px, as `straight_lines` takes it); a digit is not. So the blob's
    straight stretches (any slant, found on the blob alone) are taken out, one line width wide, and what is
    left of the blob is kept where it is shaped like writing beside the line, not like more of the line
    (`_beside_lines`).
    """
    drop = long_blobs(mask, max_length)
    if drop is None:
        return mask
    out = np.where(drop, 0, mask).astype(np.uint8)
    points = cv2.findNonZero(np.asarray(drop, np.uint8))
    x0, y0, w, h = cv2.boundingRect(points)
    blob = np.where(drop[y0:y0 + h, x0:x0 + w], 255, 0).astype(np.uint8)
    width = line_width((blob > 0).astype(np.uint8))
    size = max(60, int(straight))
    # At half size, as `straight_lines` looks for slanting lines.
    half, found = half_size_lines(blob, size)
    if found is None:
        found = np.zeros((0, 4), np.int32)
    segments = 2 * unbroken(half, found)
    lines = np.zeros_like(blob)
    for sx0, sy0, sx1, sy1 in segments:
        cv2.line(lines, (int(sx0), int(sy0)), (int(sx1), int(sy1)), 255, width)
    # Decision: a long blob that no straight stretch lies on is a wavy freehand line (a divider drawn in one
    # go, bowing both ways), followed row by row (`_wavy_lines`), and the digits written against it are kept
    # as beside a straight one, because dropped whole it took them too (bench_styles seed 20000 photo 6: its
    # "8" lost in the dark, glare and small styles). They are judged against the line's own stroke width:
    # `width` is measured on all the long blobs, the digits joined to them too, and a small digit against
    # the line lay mostly within 1.5 of it.
    rest = np.where(lines > 0, 0, blob)
    along = _along_segments(blob.shape, segments, width=width, longest=size)
    pieces = [(rest, along, width)]
    wavy = _wavy_lines(blob, lines)
    if wavy is not None:  # the wavy blobs are judged against their own course only
        followed, band, stroke = wavy
        pieces = [(np.where(followed > 0, 0, rest), along, width),
                  (np.where(band > 0, 0, followed), band, max(3, stroke))]
    for rest, along, across in pieces:
        kept = _beside_lines(np.asarray(rest, np.uint8), along, width=across, longest=size)
        if kept is not None:
            ys, xs = np.nonzero(kept)
            out[ys + y0, xs + x0] = 255
    return out


def _along_segments(shape: tuple[int, ...], segments: npt.NDArray[np.int64], *, width: int, longest: int
                    ) -> Mask:
    """The straight stretches `segments` (K × 4 px) painted `width` wide and drawn on past both ends by half
    of `longest`: where a line bends beyond its last straight stretch (a spoke's curved end), its bent end
    lies along that stretch's continuation, while a digit hanging from the line stands off it."""
    along = np.zeros(shape[:2], np.uint8)
    for sx0, sy0, sx1, sy1 in segments:
        direction = np.array([sx1 - sx0, sy1 - sy0], np.float64)
        direction *= 0.5 * longest / max(1.0, float(np.hypot(*direction)))
        a = np.rint(np.array([sx0, sy0]) - direction).astype(int)
        b = np.rint(np.array([sx1, sy1]) + direction).astype(int)
        cv2.line(along, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 255, width)
    return along


def _wavy_lines(blob: Mask, lines: Mask, *, window: int = 61) -> tuple[Mask, Mask, int] | None:
    """The blobs of `blob` (non-zero) that no straight stretch of `lines` (non-zero) lies on, each one's
    course followed row by row (an upright blob) or column by column (a level one), and the stroke's width
    (px, the largest blob's usual row); None when there is none.

    Along its length a freehand line is one stroke of about the same width at every row; a digit written
    against it widens a few rows. The line's middle at each row is the median, over `window` rows around,
    of the rows' own middles (the digit's rows are few among them), and its half width the usual row's
    half width plus 1 px; what lies within that of the middle is line.
    """
    count, found_labels, stats, _ = cv2.connectedComponentsWithStats(blob, connectivity=8)
    labels = np.asarray(found_labels, np.int32)
    touched = np.zeros(count, dtype=bool)
    touched[labels[lines > 0]] = True
    out = np.zeros_like(blob)
    followed = np.zeros_like(blob)
    stroke = 0
    for label in range(1, count):
        if touched[label]:
            continue
        x, y, w, h = (int(v) for v in stats[label, :4])
        part = labels[y:y + h, x:x + w] == label
        upright = h >= w
        if not upright:
            part = part.T
        rows, places = np.nonzero(part)  # row-major: by row, then by place along it
        per_row = np.bincount(rows, minlength=part.shape[0])
        starts = np.cumsum(per_row) - per_row
        has = per_row > 0
        usual = float(np.median(per_row[has]))
        # Only the rows where the blob is one stroke wide show the line's middle: a digit's rows are wider.
        single = has & (per_row <= 1.5 * usual + 1)
        if not single.any():
            continue
        middle = np.full(part.shape[0], np.nan)
        middle[single] = places[starts[single] + per_row[single] // 2]
        half = window // 2
        padded = np.concatenate([np.full(half, np.nan), middle, np.full(half, np.nan)])
        with warnings.catch_warnings():
            # A window of wide rows only has no middle (NaN): nothing there is taken for line.
            warnings.simplefilter("ignore", RuntimeWarning)
            course = np.nanmedian(np.lib.stride_tricks.sliding_window_view(padded, window), axis=1)
        stroke = max(stroke, round(usual))
        reach = usual / 2 + 1
        line = np.abs(places - course[rows]) <= reach
        band = np.zeros(part.shape, np.uint8)
        band[rows[line], places[line]] = 255
        if not upright:
            band = np.ascontiguousarray(band.T)
        out[y:y + h, x:x + w] = np.maximum(out[y:y + h, x:x + w], band)
        followed[y:y + h, x:x + w][labels[y:y + h, x:x + w] == label] = 255
    return (followed, out, stroke) if out.any() else None


def _beside_lines(rest: Mask, along: Mask, *, width: int, longest: int) -> Mask | None:
    """The pieces of `rest` (non-zero: what is left of long blobs once their lines are taken out) that are
    writing beside the lines (`along`, non-zero: the lines' course, `_along_segments` and `_wavy_lines`),
    or None for none.

    A piece is writing when it is no longer than `longest` either way (a longer one is more line), reaches
    at least two line widths (`width`) away from the lines, and has at most half of its ink near them: within
    1.5 line widths, or a third of the piece's own extent when that is less (the second stroke of a line
    drawn twice, the wobble of a freehand line between its straight stretches, and the line's fringe lie
    along it).
    """
    count, found_labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    if count <= 1:
        return None
    labels = np.asarray(found_labels, np.int64)
    far = cv2.distanceTransform(cv2.bitwise_not(along), cv2.DIST_L2, 3)
    ys, xs = np.nonzero(labels)
    label = labels[ys, xs]
    distance = far[ys, xs]
    reach = np.zeros(count, np.float32)
    np.maximum.at(reach, label, distance)
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    # Decision: "near the line" is within 1.5 line widths, but never beyond a third of the piece's own size,
    # because a small digit written against a line (3 line widths tall) lay mostly within 1.5 widths of it and
    # went with the line (bench_styles small, seed 24000 photo 6, stages 4-7 on the truth's zones: a "2" and a
    # "7" with 51 % and 67 % of their ink that near). What lies along the line (its second stroke, its wobble,
    # its fringe) is long along it or reaches no two widths off it, so its third is no nearer.
    near = np.minimum(1.5 * width, extent / 3.0)
    close = np.bincount(label[distance <= near[label]], minlength=count)
    writing = (extent <= longest) & (reach >= 2 * width) & (close <= 0.5 * stats[:, cv2.CC_STAT_AREA])
    writing[0] = False
    if not writing.any():
        return None
    return np.where(writing[labels], 255, 0).astype(np.uint8)
