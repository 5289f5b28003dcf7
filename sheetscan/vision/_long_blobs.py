"""Stage 4 of reading a photo: blobs of ink too long to be handwriting (unfound lines, the paper's edge, a
shadow's border) dropped (`drop_long_blobs`), or cut off the handwriting joined to them (`cut_long_blobs`).
"""

from __future__ import annotations

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
        return out
    segments = 2 * unbroken(half, found)
    lines = np.zeros_like(blob)
    for sx0, sy0, sx1, sy1 in segments:
        cv2.line(lines, (int(sx0), int(sy0)), (int(sx1), int(sy1)), 255, width)
    rest = np.where(lines > 0, 0, blob).astype(np.uint8)
    kept = _beside_lines(rest, segments, width=width, longest=size)
    if kept is not None:
        ys, xs = np.nonzero(kept)
        out[ys + y0, xs + x0] = 255
    return out


def _beside_lines(rest: Mask, segments: npt.NDArray[np.int64], *, width: int, longest: int) -> Mask | None:
    """The pieces of `rest` (non-zero: what is left of long blobs once their straight stretches `segments`,
    K × 4 px, painted `width` wide, are taken out) that are writing beside the lines, or None for none.

    A piece is writing when it is no longer than `longest` either way (a longer one is more line), reaches
    at least two line widths away from the lines, and has at most half of its ink within 1.5 line widths
    of them (the second stroke of a line drawn twice, the wobble of a freehand line between its straight
    stretches, and the line's fringe lie along it). Distances are measured from the segments drawn on
    past both ends by half of `longest`: where a line bends beyond its last straight stretch (a spoke's
    curved end), its bent end lies along that stretch's continuation, while a digit hanging from the
    line stands off it.
    """
    count, found_labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    if count <= 1:
        return None
    labels = np.asarray(found_labels, np.int64)
    along = np.zeros_like(rest)
    for sx0, sy0, sx1, sy1 in segments:
        direction = np.array([sx1 - sx0, sy1 - sy0], np.float64)
        direction *= 0.5 * longest / max(1.0, float(np.hypot(*direction)))
        a = np.rint(np.array([sx0, sy0]) - direction).astype(int)
        b = np.rint(np.array([sx1, sy1]) + direction).astype(int)
        cv2.line(along, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 255, width)
    far = cv2.distanceTransform(cv2.bitwise_not(along), cv2.DIST_L2, 3)
    ys, xs = np.nonzero(labels)
    label = labels[ys, xs]
    distance = far[ys, xs]
    reach = np.zeros(count, np.float32)
    np.maximum.at(reach, label, distance)
    close = np.bincount(label[distance <= 1.5 * width], minlength=count)
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    writing = (extent <= longest) & (reach >= 2 * width) & (close <= 0.5 * stats[:, cv2.CC_STAT_AREA])
    writing[0] = False
    if not writing.any():
        return None
    return np.where(writing[labels], 255, 0).astype(np.uint8)
