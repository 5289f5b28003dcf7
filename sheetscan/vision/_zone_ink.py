"""Which blobs of ink belong to which zone, and to which block of it (stage 5's first step).

Each blob of the ink mask goes to the zone holding its middle; dots and small marks follow the digits
they sit beside; pieces of a zone's own hand-drawn outline that the line mask missed are set apart;
an L-shaped zone is cut into the blocks it is written in. Split out of `numbers`, which cuts and reads
the numbers themselves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan import layouts

__all__ = [
    "CIRCLE",
    "ZoneLike",
    "ZonesLike",
    "block_members",
    "components",
    "follow_neighbours",
    "label_places",
    "line_remnants",
    "owners",
    "zone_blocks",
]

CIRCLE = -1
"""The zone index given to the centre circle, where the pulka target is written."""

Mask = npt.NDArray[np.uint8]


class ZoneLike(Protocol):
    """What this stage needs of a located zone (`sheetscan.vision.zones.ZoneRegion`)."""

    @property
    def index(self) -> int:
        """Position of the zone in the scan result."""

    @property
    def polygon(self) -> Any:
        """Outline in upright sheet pixels, a sequence of (x, y)."""

    @property
    def writing_angles(self) -> Sequence[float]:
        """Clockwise turns of the writing on the upright sheet (0, 90, 180, -90), usual one first."""


class ZonesLike(Protocol):
    """What this stage needs of the zone stage's result (`sheetscan.vision.zones.SheetZones`)."""

    @property
    def zones(self) -> Sequence[ZoneLike]:
        """Every zone of the sheet."""

    @property
    def circle(self) -> Any:
        """The centre circle (cx, cy, r) in upright pixels, or None."""


def components(mask: Mask) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.float64]]:
    """Labels, statistics and centroids of the 8-connected blobs of `mask` (label 0 = background)."""
    _, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return (np.asarray(labels, dtype=np.int32), np.asarray(stats, dtype=np.int32),
            np.asarray(centroids, dtype=np.float64))


def owners(shape: tuple[int, ...], centroids: npt.NDArray[np.float64],
            zones: ZonesLike) -> npt.NDArray[np.int64]:
    """For each blob (label 1…), the index of the zone holding its middle; CIRCLE; or -2 for none."""
    height, width = shape[:2]
    # A 16-bit map (a quarter of the memory a 32-bit one fills: painting it is most of this step).
    circle_value = np.iinfo(np.uint16).max
    index_map = np.zeros((height, width), dtype=np.uint16)
    for zone in zones.zones:
        polygon = np.asarray(zone.polygon, dtype=np.float64)
        cv2.fillPoly(index_map, [np.rint(polygon).astype(np.int32)], zone.index + 1)
    if zones.circle is not None:
        cx, cy, r = (float(v) for v in zones.circle)
        # The target sits well inside the circle; the circle's own outline is a drawn line.
        cv2.circle(index_map, (round(cx), round(cy)), max(1, round(0.92 * r)), circle_value, -1)
    xs = np.clip(np.rint(centroids[:, 0]).astype(np.int64), 0, width - 1)
    ys = np.clip(np.rint(centroids[:, 1]).astype(np.int64), 0, height - 1)
    values = index_map[ys, xs].astype(np.int64)
    owner = values - 1
    owner[values == 0] = -2
    owner[values == circle_value] = CIRCLE
    return owner


def _blocks(polygon: npt.NDArray[np.float64]) -> list[npt.NDArray[np.float64]]:
    """The zone cut into the blocks it is written in: an L-shaped zone (six corners, one of them
    pointing inwards) becomes its two arms, the upright arm first; any other zone is one block."""
    if len(polygon) != 6:
        return [polygon]
    reflex = [i for i in range(6) if _is_reflex(polygon, i)]
    if len(reflex) != 1:
        return [polygon]
    i = reflex[0]
    first = polygon[[i, (i + 1) % 6, (i + 2) % 6, (i + 3) % 6]]
    second = polygon[[(i + 3) % 6, (i + 4) % 6, (i + 5) % 6, i]]

    def upright(part: npt.NDArray[np.float64]) -> bool:
        span = part.max(axis=0) - part.min(axis=0)
        return bool(span[1] > span[0])

    # Decision: the arm along the side edge is written first, then the arm along the top edge,
    # because the side arm is the writer's own edge (LAYOUT.md: the top part "may be written either
    # way", so it is the overflow).
    return [first, second] if upright(first) or not upright(second) else [second, first]


def _is_reflex(polygon: npt.NDArray[np.float64], i: int) -> bool:
    """Whether the corner at vertex i points into the polygon (turns against the polygon's winding)."""
    xs, ys = polygon[:, 0], polygon[:, 1]
    area2 = float(np.sum(xs * np.roll(ys, -1) - np.roll(xs, -1) * ys))
    a, b, c = polygon[i - 1], polygon[i], polygon[(i + 1) % len(polygon)]
    cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
    return bool(cross * area2 < 0)


def zone_blocks(zone: ZoneLike) -> list[tuple[npt.NDArray[np.float64], Sequence[float]]]:
    """The blocks a zone is written in, each with its writing angles: the zone stage's parts when it
    gives them, else the zone cut at its inner corner (`_blocks`), each part with the zone's angles."""
    parts = getattr(zone, "parts", ())
    if parts:
        return [(np.asarray(polygon, dtype=np.float64), tuple(angles)) for polygon, angles in parts]
    return [(polygon, zone.writing_angles) for polygon in _blocks(np.asarray(zone.polygon, dtype=np.float64))]


def follow_neighbours(owner: npt.NDArray[np.int64], stats: npt.NDArray[np.int32],
                       centres: npt.NDArray[np.float64], stroke: float) -> npt.NDArray[np.int64]:
    """Dots and other small marks belong to the zone of the digits they sit beside, not to the zone
    their middle happens to fall in (a row written along a zone's edge puts its dots across it)."""
    size = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    small = np.flatnonzero(size < 2.5 * stroke)
    big = np.flatnonzero((size >= 2.5 * stroke) & (owner >= -1))
    if small.size == 0 or big.size == 0:
        return owner
    owner = owner.copy()
    reach = 6.0 * stroke  # about a digit's height
    for start in range(0, small.size, 512):
        part = small[start:start + 512]
        d = np.hypot(centres[part, None, 0] - centres[None, big, 0],
                     centres[part, None, 1] - centres[None, big, 1])
        nearest = np.argmin(d, axis=1)
        close = d[np.arange(part.size), nearest] <= reach
        owner[part[close]] = owner[big[nearest[close]]]
    return owner


def line_remnants(labels: npt.NDArray[np.int32], stats: npt.NDArray[np.int32],
                   members: npt.NDArray[np.int64], outline: npt.NDArray[np.float64],
                   stroke: float) -> npt.NDArray[np.int64]:
    """Blobs that are pieces of the zone's own outline the line mask missed (a wobbly hand-drawn line):
    straight, thin, lying on the outline and along it. A "1" written near an edge runs across it."""
    out: list[int] = []
    contour = outline.astype(np.float32).reshape(-1, 1, 2)
    edges = np.roll(outline, -1, axis=0) - outline
    reach = max(12.0, 3.0 * stroke)
    for label in members:
        x, y, w, h, _ = (int(v) for v in stats[label])
        if max(w, h) < 2.5 * stroke:
            continue
        # The blob's middle lies in its box, so a box whose centre is further than `reach` from the
        # outline by more than half its diagonal cannot be on it (most blobs: no pixel scan needed).
        middle = (x + w / 2, y + h / 2)
        if abs(cv2.pointPolygonTest(contour, middle, True)) > reach + math.hypot(w, h) / 2 + 1:
            continue
        points = np.argwhere(labels[y:y + h, x:x + w] == label)[:, ::-1] + np.array([x, y])
        points = np.ascontiguousarray(points, dtype=np.float32)
        (cx, cy), (rw, rh), _ = cv2.minAreaRect(points)
        length, thickness = max(rw, rh), min(rw, rh)
        if thickness > 2.0 * stroke or length < 2.5 * max(thickness, 1.0):
            continue
        if abs(cv2.pointPolygonTest(contour, (float(cx), float(cy)), True)) > reach:
            continue
        # Direction of the blob (principal axis) against the nearest edge of the outline.
        centred = points - points.mean(axis=0)
        _, vectors = np.linalg.eigh(centred.T @ centred)
        axis = vectors[:, -1]
        nearest = int(np.argmin([_segment_distance((cx, cy), outline[i], outline[(i + 1) % len(outline)])
                                 for i in range(len(outline))]))
        edge = edges[nearest] / max(float(np.hypot(*edges[nearest])), 1e-9)
        if (abs(float(axis @ edge)) >= math.cos(math.radians(20))
                and not _beside_digit(stats, members, int(label), length)):
            out.append(int(label))
    return np.asarray(out, dtype=np.int64)


def _beside_digit(stats: npt.NDArray[np.int32], members: npt.NDArray[np.int64], label: int,
                  length: float) -> bool:
    """A stroke with a blob of about its own height close beside it: a "1" written next to the digit
    after it (at the start of a row, along the zone's edge, or lying level in a zone written turned),
    not a piece of the line."""
    others = members[members != label]
    if others.size == 0:
        return False
    x, y, w, h = (int(v) for v in stats[label, :4])
    ox, oy = stats[others, 0], stats[others, 1]
    ow, oh = stats[others, 2], stats[others, 3]
    gap_x = np.maximum(0, np.maximum(ox - (x + w), x - (ox + ow)))
    gap_y = np.maximum(0, np.maximum(oy - (y + h), y - (oy + oh)))
    # Side by side across the stroke's length: they overlap along it and are close across it. The
    # neighbour is measured along the stroke (a digit's height, as long as the "1"), not by its
    # longer side: the rest of the number, written across the stroke, is often several digits
    # touching, far longer than one digit that way.
    if h >= w:
        along, across, size = np.minimum(y + h, oy + oh) - np.maximum(y, oy), gap_x, oh
    else:
        along, across, size = np.minimum(x + w, ox + ow) - np.maximum(x, ox), gap_y, ow
    near = ((size >= 0.5 * length) & (size <= 1.5 * length) & (across <= 0.6 * length)
            & (along >= 0.5 * np.minimum(length, size)))
    return bool(near.any())


def _segment_distance(p: tuple[float, float], a: npt.NDArray[np.float64],
                      b: npt.NDArray[np.float64]) -> float:
    """Distance from point p to the segment a–b."""
    ab = b - a
    t = float(np.clip(((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / max(float(ab @ ab), 1e-9), 0.0, 1.0))
    return float(np.hypot(p[0] - a[0] - t * ab[0], p[1] - a[1] - t * ab[1]))


def block_members(owner: npt.NDArray[np.int64], zone: int, centroids: npt.NDArray[np.float64],
             polygons: list[npt.NDArray[np.float64]]) -> list[npt.NDArray[np.int64]]:
    """Labels of the zone's blobs, block by block: each blob goes to the block its middle is deepest in."""
    labels = np.flatnonzero(owner == zone) + 1
    if len(polygons) == 1:
        return [labels]
    contours = [polygon.astype(np.float32).reshape(-1, 1, 2) for polygon in polygons]
    depth = np.array([[cv2.pointPolygonTest(c, (float(centroids[lab, 0]), float(centroids[lab, 1])), True)
                       for c in contours] for lab in labels]).reshape(len(labels), len(contours))
    best = np.argmax(depth, axis=1) if len(labels) else np.zeros(0, dtype=np.int64)
    return [labels[best == i].astype(np.int64) for i in range(len(contours))]


LabelPlace = tuple[tuple[float, float], float, float]
"""A printed label's middle (upright px), the angle it is turned by, and the form's px per mm."""


def label_places(zones: Any) -> dict[int, LabelPlace]:
    """Where a printed form's zone labels lie on the upright sheet, by zone index: from the form's own
    design (`layouts.label_places`) and the outer rectangle found (`frame`). Empty for a hand-drawn
    sheet, or when the zone stage gives no frame."""
    name = str(getattr(zones, "layout", ""))
    frame = getattr(zones, "frame", None)
    if not name.startswith("form") or frame is None or frame[2] <= frame[0]:
        return {}
    layout = layouts.find_layout(name)
    if layout.page is None:
        return {}
    left, top, right, bottom = frame
    sheet_left, _, sheet_right, _ = layout.page.sheet_mm
    per_mm = (right - left) / (sheet_right - sheet_left)
    places: dict[int, LabelPlace] = {}
    for index, place in enumerate(layouts.label_places(layout)):
        if place is not None:
            (x, y), angle = place
            u, v = layout.page.to_sheet(x, y)
            places[index] = ((left + u * (right - left), top + v * (bottom - top)), angle, per_mm)
    return places


def at_label(quad: Sequence[tuple[float, float]], place: LabelPlace) -> bool:
    """Whether the middle of `quad` lies on the printed label at `place`: within the word's half
    length and a letter's height of its middle, along and across the label."""
    (cx, cy), angle, per_mm = place
    mx = sum(p[0] for p in quad) / len(quad) - cx
    my = sum(p[1] for p in quad) / len(quad) - cy
    t = math.radians(-angle)
    along, across = mx * math.cos(t) - my * math.sin(t), mx * math.sin(t) + my * math.cos(t)
    # Decision: "висты", the longest label, is about 8 mm long at the form's 2.6 mm letters; a number's
    # middle within 6 mm along and one letter size across is on it.
    return abs(along) <= 6.0 * per_mm and abs(across) <= layouts.LABEL_MM * per_mm

