"""The truth file of a rendered photo (`sheetscan.truth/1`, documented in samples/README.md)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.layouts import SheetGeometry, SheetLayout
from sheetscan.vision.render._hand import Writer
from sheetscan.vision.render._write import Placed, Quad

__all__ = ["TRUTH_FORMAT", "build_truth"]

TRUTH_FORMAT = "sheetscan.truth/1"
"""Format tag of the truth file written beside a rendered photo."""


def _apply(h: npt.NDArray[np.float64], points: Any) -> list[list[float]]:
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    out = cv2.perspectiveTransform(pts[None, :, :], h)[0]
    return [[round(float(x), 2), round(float(y), 2)] for x, y in out]


def build_truth(sheet: Mapping[str, Any], players: list[str], layout: SheetLayout, geometry: SheetGeometry,
                homography: npt.NDArray[np.float64], from_sheet: Callable[[Any], list[list[float]]],
                from_paper: Callable[[Any], list[list[float]]], numbers: list[tuple[int, int, Placed]],
                target: Placed | None, names: list[tuple[int, Quad]], image: npt.NDArray[np.uint8], *,
                seed: int, digits_from: str, tilt: float, bend_px: float, paper_kind: str,
                writers: list[Writer]) -> dict[str, Any]:
    """The `sheetscan.truth/1` document (samples/README.md) of one rendered photo."""
    centre = _apply(homography, [0.5, 0.5])[0]
    top = _apply(homography, [0.5, 0.0])[0]
    turn = math.degrees(math.atan2(top[0] - centre[0], -(top[1] - centre[1]))) % 360.0
    # Decision: `rotation` is the quarter turn nearest the sheet's real in-plane turn (clockwise), the
    # same convention as the scan result's layout.rotation; the exact turn goes in `angle`.
    rotation = round(turn / 90.0) % 4 * 90

    def number(zone_index: int, order: int, p: Placed) -> dict[str, Any]:
        zone = geometry.zones[zone_index]
        return {
            "value": p.value, "zone": zone_index, "player": zone.player, "kind": zone.kind, "on": zone.on,
            "order": order, "crossed_out": p.crossed_out, "angle": p.angle,
            "quad": from_paper(p.quad),
            "digits": [{"digit": int(ch), "quad": from_paper(q)}
                       for ch, q in zip(str(p.value), p.digits, strict=True)],
        }

    return {
        "format": TRUTH_FORMAT,
        "sheet": dict(sheet),
        "layout": {"name": layout.name, "players": layout.players, "printed": layout.printed,
                   "aspect": round(geometry.aspect, 4)},
        "players": players,
        "image": {"width": int(image.shape[1]), "height": int(image.shape[0])},
        "rotation": rotation,
        "angle": round(turn, 2),
        "tilt": round(tilt, 2),
        "bend_px": round(bend_px, 2),
        "corners": from_sheet([[0, 0], [1, 0], [1, 1], [0, 1]]),
        "homography": [[float(v) for v in row] for row in homography],
        "zones": [{"index": z.index, "player": z.player, "kind": z.kind, "on": z.on,
                   "polygon": from_sheet(z.polygon)} for z in geometry.zones],
        "circle": {"center": from_sheet(geometry.circle_center)[0],
                   "radius": [geometry.circle_radius[0], geometry.circle_radius[1]]},
        "numbers": [number(z, o, p) for z, o, p in numbers],
        "names": [{"player": seat, "quad": from_paper(quad)} for seat, quad in names],
        "target": None if target is None else {
            "value": target.value, "quad": from_paper(target.quad),
            "digits": [{"digit": int(ch), "quad": from_paper(q)}
                       for ch, q in zip(str(target.value), target.digits, strict=True)]},
        "render": {"seed": seed, "digits_from": digits_from, "paper": paper_kind,
                   "inks": [{"colour_bgr": list(w.colour), "pencil": w.pencil} for w in writers]},
    }
