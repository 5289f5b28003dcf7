"""Stage 4 of reading a photo: the stretches of a drawn line that the zone stage's mask left out between two
of its ends, found in the ink (`line_gaps`), so that they go with the line and the digits touching them
stay."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision._line_contacts import bridges_drawn

__all__ = ["line_gaps"]

Mask = npt.NDArray[np.uint8]


def line_gaps(mask: Mask, drawn: Mask, near: Mask, width: int, *, shortest: float = 4.0, longest: float = 0.2,
              reach: float = 1.5, inked: float = 0.9, thin: float = 0.6) -> Mask:
    """The stretches of drawn line (255, drawn `width` wide) that `mask`'s ink (non-zero) holds between two
    ends of the drawn lines' mask (`drawn`, non-zero; `near`, non-zero: it widened by `width`), in line with
    it.

    Where the zone stage's trace lost a freehand line for a stretch (digits written against it made the runs
    across it too long, or it wandered off the model), the stretch was left as ink, and the digits touching it
    were joined to it into one blob: a row of numbers hanging from the line was not found. Such a stretch
    leaves the mask at one place and comes back to it at another, `shortest` to `longest` (of the sheet's
    shorter side) away, and the mask runs on past both places in line with it (`bridges_drawn`); between them
    it is a course of ink with no gap (`inked` of its steps on ink, within `reach` line widths of the straight
    way across), as thin as the line over `thin` of it (the digits joined to it widen it here and there), and
    it is the line's own ink, joined with no paper between to the ink under the mask at both places
    (`_joins_line`). A digit touching two lines meets them across, not in line; a row of digits along a line
    has paper between them; a digit written in line with a line's end, between two ends of the mask, stands
    off one of them at least.
    """
    off = np.asarray(cv2.bitwise_and(mask, cv2.bitwise_not(near)), np.uint8)
    ring = cv2.dilate(near, np.ones((5, 5), np.uint8))
    out = np.zeros_like(mask)
    found = cv2.findNonZero(cv2.bitwise_and(off, ring))
    if found is None:
        return out
    centres = _places(np.asarray(found, np.int64).reshape(-1, 2), width, mask.shape)
    # The places where the mask ends (a way out of it), and the pairs of them facing each other across a gap
    # `shortest` to `longest` long (cheap, so first: the ink between them is looked at only for those).
    ways = [_way_out(drawn, centre, 4.0 * width) for centre in centres]
    ends = [i for i, way in enumerate(ways) if way is not None]
    if len(ends) < 2:
        return out
    points = centres[ends]
    way = np.array([ways[i] for i in ends])
    gap = points[None, :, :] - points[:, None, :]  # from end i to end j
    length = np.hypot(gap[..., 0], gap[..., 1])
    facing = np.cos(np.radians(_FACING)) * length
    ahead = np.einsum("ik,ijk->ij", way, gap)
    back = ahead.transpose()  # end j's way towards end i
    far = longest * min(mask.shape)
    pairs = np.argwhere((ahead >= facing) & (back >= facing) & (length >= shortest * width)
                        & (length <= far))
    for a, b in pairs[pairs[:, 0] < pairs[:, 1]]:
        start, stop = points[a], points[b]
        found_course = _course(off, start, stop, width, reach=reach, inked=inked, thin=thin)
        if found_course is None:
            continue
        course, thickness = found_course
        if (bridges_drawn(course, (0, len(course) - 1), drawn, stroke=0.5 * width, reach=8.0, touch=2.0)
                and _joins_line(mask, drawn, start, width) and _joins_line(mask, drawn, stop, width)):
            # Drawn as wide as the line's own ink there and a pixel either side (its blurred edge), not as
            # wide as the mask: the digits touching the stretch keep their ends.
            cv2.polylines(out, [np.rint(course).astype(np.int32)], False, 255,
                          min(width, thickness + 2 * _EDGE))
    return out


_EDGE = 1
"""The pixels either side of a lost stretch's own ink taken out with it (`line_gaps`): its anti-aliased or
blurred edge, fainter than the ink threshold in places."""


_JOIN_REACH = 2.0
"""How far round a place where ink leaves the drawn lines' mask its ink is followed back to the line, in line
widths: the place lies at most a line width and 2 px off the mask (the ring `line_gaps` looks in)."""


def _joins_line(mask: Mask, drawn: Mask, place: npt.NDArray[np.float64], width: int) -> bool:
    """Whether the ink of `mask` (non-zero) nearest `place` (x, y) runs on, with no paper between, into ink
    under the drawn lines' mask (`drawn`, non-zero) within `_JOIN_REACH` line widths of it.

    A line's lost stretch is the line's own ink and leaves the masked line with no break; a digit written in
    line with a line's end (the base of a "2" along a spoke, a "4" above a split) is parted from it by paper,
    a few pixels even where blur or a thick pen brings them close (bench_styles seed 39002 blur: the mask's
    end 5 px off the "2")."""
    height, width_px = mask.shape
    r = int(np.ceil(_JOIN_REACH * width))
    x, y = round(place[0]), round(place[1])
    x0, y0 = max(0, x - r), max(0, y - r)
    ink = np.asarray(mask[y0:min(height, y + r + 1), x0:min(width_px, x + r + 1)] > 0, np.uint8)
    ys, xs = np.nonzero(ink)
    if xs.size == 0:
        return False
    nearest = int(np.argmin(np.hypot(xs + x0 - place[0], ys + y0 - place[1])))
    _, labels = cv2.connectedComponents(ink, connectivity=8)
    own = np.asarray(labels, np.int32) == labels[ys[nearest], xs[nearest]]
    return bool((drawn[y0:y0 + ink.shape[0], x0:x0 + ink.shape[1]][own] > 0).any())


def _places(points: npt.NDArray[np.int64], size: int, shape: tuple[int, ...]) -> npt.NDArray[np.float64]:
    """The middles (x, y) of the places the `points` (x, y) lie in: the points joined when in the same or
    touching cells of a grid `size` px wide (a place where ink leaves the mask is about a line wide)."""
    cells = points // size
    rows, cols = shape[0] // size + 1, shape[1] // size + 1
    grid = np.zeros((rows, cols), np.uint8)
    grid[cells[:, 1], cells[:, 0]] = 1
    _, found = cv2.connectedComponents(grid, connectivity=8)
    which = np.asarray(found, np.int32)[cells[:, 1], cells[:, 0]]
    count = int(which.max()) + 1
    n = np.bincount(which, minlength=count)
    keep = n > 0
    x = np.bincount(which, weights=points[:, 0], minlength=count)[keep] / n[keep]
    y = np.bincount(which, weights=points[:, 1], minlength=count)[keep] / n[keep]
    return np.stack([x, y], axis=1)


_FACING = 35.0
"""How far off the way between them each of two ends of the drawn lines' mask may point, in degrees."""


def _way_out(drawn: Mask, place: npt.NDArray[np.float64], radius: float, *, behind: float = 0.35
             ) -> npt.NDArray[np.float64] | None:
    """The way (a unit vector) out of the end of the drawn lines' mask (`drawn`, non-zero) at `place` (x, y):
    away from the middle of the mask within `radius` px (a square), which lies at least `behind` of `radius`
    off `place` where the mask ends there; None where it does not (a line running past `place`, or none)."""
    height, width = drawn.shape
    r = int(np.ceil(radius))
    x, y = round(place[0]), round(place[1])
    x0, y0 = max(0, x - r), max(0, y - r)
    ys, xs = np.nonzero(drawn[y0:min(height, y + r + 1), x0:min(width, x + r + 1)])
    if xs.size == 0:
        return None
    middle = np.array([xs.mean() + x0 - place[0], ys.mean() + y0 - place[1]])
    size = float(np.hypot(*middle))
    if size < behind * radius:
        return None
    return -middle / size


def _course(off: Mask, start: npt.NDArray[np.float64], stop: npt.NDArray[np.float64], width: int, *,
            reach: float, inked: float, thin: float) -> tuple[npt.NDArray[np.float64], int] | None:
    """The course (x, y points, a pixel apart) of the ink of `off` (non-zero) from `start` to `stop`, followed
    across the straight way within `reach` line widths of it, and the ink's own thickness along it (px, the
    median run across it where it is as thin as a line); None when it is not on ink over `inked` of its
    steps or not as thin as a line (`width`) over `thin` of them."""
    height, w = off.shape
    way = stop - start
    length = float(np.hypot(*way))
    u = way / length
    normal = np.array([-u[1], u[0]])
    steps = int(length) + 1
    t = np.linspace(0.0, length, steps)
    half = int(np.ceil(reach * width))
    offsets = np.arange(-half, half + 1, dtype=np.float64)
    px = start[0] + u[0] * t[:, None] + normal[0] * offsets[None, :]
    py = start[1] + u[1] * t[:, None] + normal[1] * offsets[None, :]
    ix = np.clip(np.rint(px).astype(np.int64), 0, w - 1)
    iy = np.clip(np.rint(py).astype(np.int64), 0, height - 1)
    ink = off[iy, ix] > 0
    on = ink.any(axis=1)
    if float(on.mean()) < inked:
        return None
    # Followed from the start: on each step, the ink nearest where the course was (a digit joined to the line
    # is ink further off it).
    centre = half
    places = np.zeros(steps, np.float64)
    narrow: list[int] = []  # the runs across the course as thin as a line
    for step in range(steps):
        row = np.flatnonzero(ink[step])
        if row.size:
            nearest = int(row[np.argmin(np.abs(row - centre))])
            if abs(nearest - centre) <= max(2, width // 2):
                # The run of ink across the course through the nearest pixel.
                left, right = nearest, nearest
                while left > 0 and ink[step, left - 1]:
                    left -= 1
                while right < len(offsets) - 1 and ink[step, right + 1]:
                    right += 1
                if right - left + 1 <= width:
                    narrow.append(right - left + 1)
                    # The course moves by a pixel a step at most: a line bends gently.
                    centre += max(-1, min(1, (left + right) // 2 - centre))
        places[step] = offsets[centre]
    if len(narrow) < thin * steps:
        return None
    course = np.stack([start[0] + u[0] * t + normal[0] * places, start[1] + u[1] * t + normal[1] * places],
                      axis=1)
    return course, int(np.median(narrow))
