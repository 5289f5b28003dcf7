"""The scan result as JSON: FORMATS.md "Scan result — sheetscan.scan/1".

Every coordinate is a pixel of the original photo (EXIF orientation applied): points found on the
upright rectified sheet are carried back through the zone stage's homography.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision.numbers import ReadNumber

if TYPE_CHECKING:
    from sheetscan.vision.scan import ScanResult

__all__ = ["scan_json", "to_photo"]


def to_photo(points: Any, homography: Any) -> npt.NDArray[np.float64]:
    """Points (N × 2, upright sheet pixels) carried to photo pixels by a 3 × 3 homography."""
    array = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    if array.size == 0:
        return np.zeros((0, 2))
    moved = cv2.perspectiveTransform(array, np.asarray(homography, dtype=np.float64))
    return np.asarray(moved, dtype=np.float64).reshape(-1, 2)


def _point_list(points: npt.NDArray[np.float64]) -> list[list[float]]:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in points]


def _number_json(number: ReadNumber, homography: Any) -> dict[str, Any]:
    quad = to_photo(number.token.quad, homography)
    x0, y0 = np.floor(quad.min(axis=0))
    x1, y1 = np.ceil(quad.max(axis=0))
    candidates = number.reading.candidates
    return {
        "value": number.value,
        "confidence": round(number.confidence, 4),
        "bbox": [int(x0), int(y0), int(x1 - x0), int(y1 - y0)],
        "alternatives": [[int(v), round(float(c), 4)] for v, c in candidates[1:]],
        "crossed_out": number.token.crossed_out,
    }


def _upright_corners(result: ScanResult) -> npt.NDArray[np.float64]:
    """The sheet's corners in the photo, ordered as the upright sheet's TL, TR, BR, BL."""
    corners = np.asarray(result.sheet.corners, dtype=np.float64).reshape(4, 2)
    back = to_photo(corners, np.linalg.inv(np.asarray(result.zones.to_photo, dtype=np.float64)))
    centre = back.mean(axis=0)
    # On the upright sheet (y down) the corners' directions from the centre are, turning clockwise
    # from the left (±180°): TL in (-180°, -90°), TR in (-90°, 0°), BR in (0°, 90°), BL in (90°, 180°).
    angles = np.degrees(np.arctan2(back[:, 1] - centre[1], back[:, 0] - centre[0]))
    order = np.argsort((angles + 180.0) % 360.0)
    return corners[order]


def scan_json(result: ScanResult, format_tag: str) -> dict[str, Any]:
    """`result` as a `sheetscan.scan/1` object."""
    zones = result.zones
    homography = zones.to_photo
    read = {z.zone: z for z in result.numbers.zones}
    zone_list = []
    for zone in zones.zones:
        numbers = read[zone.index].numbers if zone.index in read else ()
        zone_list.append({
            "player": zone.player,
            "kind": zone.kind,
            "on": zone.on,
            "polygon": _point_list(to_photo(zone.polygon, homography)),
            "numbers": [_number_json(n, homography) for n in numbers],
        })
    layout = zones.layout
    return {
        "format": format_tag,
        "image": {"width": result.photo.width, "height": result.photo.height, "sha256": result.photo.sha256},
        "layout": {
            "name": str(getattr(layout, "name", layout)),
            "players": zones.players,
            "rotation": zones.rotation,
            "corners": _point_list(_upright_corners(result)),
            "pulka_written": result.reading.pulka_written,
            # Added to FORMATS: a standard-4 sheet looks the same turned by a quarter, so which seat is
            # seat 0 may be a guess; the UI should ask. `notes` says what the geometry stages noticed.
            "rotation_certain": zones.rotation_certain,
            "notes": list(zones.notes),
        },
        # Decision: FORMATS.md lists no field for incomplete readings; "partial" (with the reasons in
        # "problems") is added so that a partial result is marked rather than passed off as complete.
        "partial": result.reading.partial,
        "problems": list(result.reading.problems),
        "zones": zone_list,
        "sheet": result.reading.sheet,
        # Reconciliation is a later stage (issue: reconcile); until then the scan makes no claim.
        "reconciliation": None,
        "settlement": result.settlement,
    }
