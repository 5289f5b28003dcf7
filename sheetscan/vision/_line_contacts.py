"""Stage 4 of reading a photo: how a stroke meets the lines around it, for `_line_pieces` and `_line_gaps`:
the way it runs out at an end (`end_way`), whether its ends lie near a mask (`ends_near`, `an_end_near`), run
on into it in line (`bridges_drawn`), or lie along it as a line's second stroke (`drawn_twice`).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["TOUCH", "WITHIN_MASK", "an_end_near", "bridges_drawn", "drawn_twice", "end_way", "ends_near"]

Mask = npt.NDArray[np.uint8]


def end_way(points: npt.NDArray[np.float64], index: int, stroke: float) -> npt.NDArray[np.float64] | None:
    """The direction (a unit vector) in which the stroke of `points` (x, y) runs out at its end
    `points[index]`: from the middle of its points within 2 strokes of the end; None when that is the
    end itself."""
    end = points[index]
    near = points[np.hypot(points[:, 0] - end[0], points[:, 1] - end[1]) <= 2.0 * stroke]
    way = end - near.mean(axis=0)
    norm = float(np.hypot(way[0], way[1]))
    return way / norm if norm > 0 else None


TOUCH = 0.6
"""How near the drawn lines' mask a stroke's end must lie to run on into it, in strokes (and a pixel)."""


WITHIN_MASK = 0.95
"""The share of a blob's ink within the drawn lines' mask (and a pixel) for it to lie in the mask (handwriting
the zone stage's mask took in: `_line_removal`, `_line_pieces`): a stroke's soft edge may stick out by a pixel
here and there."""


def ends_near(points: npt.NDArray[np.float64], ends: tuple[int, int], drawn: Mask, radius: float) -> bool:
    """Whether both ends of the stroke of `points` (`ends`: the indices of its extremes along its course)
    have a pixel of `drawn` (non-zero) within `radius` px either way (a square: it takes in every pixel that
    near)."""
    height, width = drawn.shape
    reach = int(np.ceil(radius))
    for index in ends:
        x, y = int(points[index, 0]), int(points[index, 1])
        if not drawn[max(0, y - reach):min(height, y + reach + 1),
                     max(0, x - reach):min(width, x + reach + 1)].any():
            return False
    return True


def an_end_near(points: npt.NDArray[np.float64], ends: tuple[int, int], drawn: Mask, radius: float) -> bool:
    """Whether either end of the stroke of `points` (`ends`: the indices of its extremes) has a pixel of
    `drawn` (non-zero) within `radius` px either way (a square)."""
    return any(ends_near(points, (index, index), drawn, radius) for index in ends)


def bridges_drawn(points: npt.NDArray[np.float64], ends: tuple[int, int], drawn: Mask, *, stroke: float,
                   reach: float = 4.0, touch: float = TOUCH, cone: float = 0.5, ahead: float = 0.25) -> bool:
    """Whether the stroke of `points` (x, y) runs on, past each of its two ends (`ends`: their indices),
    into the drawn lines' mask (`drawn`, non-zero) going its way: within `reach` strokes of the end there is
    at least half a stroke's width of mask along that reach, its nearest pixel at most `touch` strokes (and a
    pixel) from the end, at least `cone` of it within 60 degrees of the end's own direction (from the stroke's
    last 2 strokes to its end), and on average `ahead` of the reach ahead of the end. A line crossing the
    end lies across it, and the mask beside a stroke along a line lies level with its end, not ahead."""
    height, width = drawn.shape
    radius = reach * stroke
    for index in ends:
        end = points[index]
        way = end_way(points, index, stroke)
        if way is None:
            return False
        x0, y0 = max(0, int(end[0] - radius)), max(0, int(end[1] - radius))
        x1, y1 = min(width, int(end[0] + radius) + 1), min(height, int(end[1] + radius) + 1)
        ys, xs = np.nonzero(drawn[y0:y1, x0:x1])
        dx, dy = xs + x0 - end[0], ys + y0 - end[1]
        distance = np.hypot(dx, dy)
        within = distance <= radius
        if within.sum() < 0.5 * stroke * radius or float(distance[within].min()) > touch * stroke + 1.0:
            return False
        dx, dy, distance = dx[within], dy[within], distance[within]
        forward = dx * way[0] + dy * way[1]
        if float((forward >= 0.5 * distance).mean()) < cone or float(forward.mean()) < ahead * radius:
            return False
    return True


def drawn_twice(points: npt.NDArray[np.float64], ends: tuple[int, int], drawn: Mask, *, stroke: float,
                 touch: float = 0.25, beside: float = 2.0, share: float = 0.95) -> bool:
    """Whether the stroke of `points` (x, y) is the second stroke of a line drawn twice: both its ends
    (`ends`: their indices) at most `touch` strokes and a pixel from the drawn lines' mask (`drawn`,
    non-zero): touching it, where the two strokes meet; and at least `share` of it within `beside` strokes of
    the mask, along the first stroke all its length. A digit's stroke lying along a line stands off it at
    one end at least (`bridges_drawn`)."""
    height, width = drawn.shape
    pad = int(np.ceil(beside * stroke)) + 2
    x0, y0 = max(0, int(points[:, 0].min()) - pad), max(0, int(points[:, 1].min()) - pad)
    x1, y1 = min(width, int(points[:, 0].max()) + pad + 1), min(height, int(points[:, 1].max()) + pad + 1)
    window = drawn[y0:y1, x0:x1]
    if not window.any():
        return False
    distance = cv2.distanceTransform(np.asarray(window == 0, np.uint8), cv2.DIST_L2, 3)
    xs, ys = points[:, 0].astype(np.int64) - x0, points[:, 1].astype(np.int64) - y0
    for index in ends:
        if float(distance[ys[index], xs[index]]) > touch * stroke + 1.0:
            return False
    return float(np.mean(distance[ys, xs] <= beside * stroke)) >= share
