"""The truth-geometry shortcut: stages 4–7 run on zones built from a render's truth file.

Used by the stage tests and by `bench/bench_scan.py` (its "stages 4–7" row).

The renderer's truth (`sheetscan.truth/1`) says where the sheet lies (a homography from normalised
upright sheet coordinates to photo pixels), where each zone is and where the circle is. From it this
builds what the zone stage would give (an upright sheet image, zone polygons, the circle, and a line
mask: the ink in a band along the zone outlines), so the ink, numbers and digit stages can be
measured apart from finding the sheet and its lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.layouts import find_layout
from sheetscan.vision._scan_json import to_photo
from sheetscan.vision.ink import find_ink

UPRIGHT_LONG_SIDE = 2000


@dataclass(frozen=True)
class TruthZone:
    """A zone where the truth says it is, on the upright image."""

    index: int
    player: int
    kind: str
    on: int | None
    polygon: tuple[tuple[float, float], ...]
    writing_angles: tuple[int, ...]


@dataclass(frozen=True)
class TruthZones:
    """What the zone stage would give, from the truth."""

    layout: str
    players: int
    rotation: int
    image: npt.NDArray[np.uint8]
    to_photo: npt.NDArray[np.float64]
    zones: tuple[TruthZone, ...]
    circle: tuple[float, float, float]
    line_mask: npt.NDArray[np.uint8]


def truth_zones(photo: npt.NDArray[np.uint8], truth: dict[str, Any], *, band: float = 0.012) -> TruthZones:
    """The upright sheet and its zones as the truth file places them on `photo`; the drawn lines are
    the ink within `band` (a share of the sheet's height) of the zone outlines."""
    aspect = float(truth["layout"]["aspect"])
    width = UPRIGHT_LONG_SIDE if aspect >= 1 else round(UPRIGHT_LONG_SIDE * aspect)
    height = round(width / aspect)
    margin = 0.02 * max(width, height)
    # Normalised (0..1) → upright pixels, with a margin around the outer rectangle.
    scale = np.array([[width - 2 * margin, 0, margin], [0, height - 2 * margin, margin], [0, 0, 1]])
    sheet_to_photo = np.asarray(truth["homography"], dtype=np.float64)
    upright_to_photo = sheet_to_photo @ np.linalg.inv(scale)
    image = cv2.warpPerspective(photo, upright_to_photo, (width, height),
                                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderValue=(255, 255, 255))
    back = np.linalg.inv(upright_to_photo)
    geometry = find_layout(truth["layout"]["name"]).geometry()
    zones = []
    lines = np.zeros((height, width), np.uint8)
    # A band along every outline; the drawn lines are the ink inside it (freehand lines wander off
    # the ideal outline, so the band is wider than a line).
    thickness = max(5, round(band * height))
    for zone in truth["zones"]:
        polygon = to_photo(zone["polygon"], back)
        angles = geometry.zones[zone["index"]].angles
        zones.append(TruthZone(zone["index"], zone["player"], zone["kind"], zone["on"],
                               tuple((float(x), float(y)) for x, y in polygon), tuple(angles)))
        cv2.polylines(lines, [np.rint(polygon).astype(np.int32)], True, 255, thickness)
    centre = to_photo([truth["circle"]["center"]], back)[0]
    rx, ry = truth["circle"]["radius"]
    radius = (rx * (width - 2 * margin), ry * (height - 2 * margin))
    cv2.ellipse(lines, (round(centre[0]), round(centre[1])), (round(radius[0]), round(radius[1])), 0, 0, 360,
                255, thickness)
    band_mask = lines > 0
    found = band_mask & (find_ink(image).mask > 0)
    # Given a line mask, the ink stage sets its thresholds without the lines and finds fainter ink
    # beside them: a line's faint continuation past where the first pass lost it is line too.
    again = find_ink(image, line_mask=np.where(found, 255, 0).astype(np.uint8)).mask > 0
    lines = np.where(found | (band_mask & again), 255, 0).astype(np.uint8)
    return TruthZones(layout=truth["layout"]["name"], players=int(truth["layout"]["players"]), rotation=0,
                      image=np.asarray(image, np.uint8), to_photo=upright_to_photo, zones=tuple(zones),
                      circle=(float(centre[0]), float(centre[1]), float(min(radius))), line_mask=lines)
