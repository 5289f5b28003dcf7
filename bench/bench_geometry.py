"""Benchmark of the geometry stages (load → find the sheet → layout) on rendered 12 MP photos.

    .venv/bin/python bench/bench_geometry.py [--seeds N] [--size 4000x3000] [--layouts a,b]

Renders sheets with `sheetscan.vision.render` (handwriting from MNIST's test part) across the four
layouts and the renderer's own spread of rotations, tilts (up to ~35°), light, blur and tables, then
prints: the share of sheets found, corner error (px), layout and rotation accuracy, zone IoU against the
truth polygons, leftover line pieces (what the ink stage still sees of the drawn lines once `line_mask` is
taken out: pieces of ink outside every written number's box, each of which can read as a "1" or a "7"),
and seconds per stage, with decoding alone as the baseline (ratio = stages / decode).

A standard-4 sheet looks the same turned by any quarter, so its rotation (which seat is 0) cannot be
read from the lines: its rotation is reported apart, and its zones are compared under the best cyclic
relabelling of the seats (that is what the sheet itself determines).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sheetscan.errors import NoSheetError
from sheetscan.vision.ink import find_ink
from sheetscan.vision.photo import load_photo
from sheetscan.vision.render import render_sheet
from sheetscan.vision.sheet import find_sheet
from sheetscan.vision.zones import locate_zones, to_photo_points


def _sheet(players: int, seed: int) -> dict[str, Any]:
    """A finished-looking sheet with running totals in every zone (values only need to be plausible)."""
    rng = np.random.default_rng(seed)
    names = ["Anna", "Boris", "Vera", "Gleb"][:players]

    def totals(count: int, step: int) -> list[int]:
        return [int(v) for v in np.cumsum(rng.integers(1, 4, count) * step)]

    zones = {
        p: {"pulka": totals(int(rng.integers(1, 5)), 2), "gora": totals(int(rng.integers(0, 3)), 2),
            "whists": {q: totals(int(rng.integers(0, 4)), 4) for q in names if q != p}}
        for p in names
    }
    return {"format": "sheetscan.sheet/1", "variant": "sochi", "options": {}, "players": names, "pulka": 20,
            "zones": zones}


def _iou(a: np.ndarray, b: np.ndarray, scale: float = 0.25) -> float:
    """Intersection over union of two polygons (photo px), rasterised at `scale`."""
    pts = np.vstack([a, b]) * scale
    x0, y0 = np.floor(pts.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 2
    canvas_a = np.zeros((y1 - y0, x1 - x0), np.uint8)
    canvas_b = np.zeros_like(canvas_a)
    cv2.fillPoly(canvas_a, [np.round(a * scale - [x0, y0]).astype(np.int32)], 1)
    cv2.fillPoly(canvas_b, [np.round(b * scale - [x0, y0]).astype(np.int32)], 1)
    union = int((canvas_a | canvas_b).sum())
    return float((canvas_a & canvas_b).sum()) / union if union else 0.0


def _zone_ious(found: list[np.ndarray], truth: list[np.ndarray], players: int, shift: int) -> list[float]:
    """IoU of each true zone with the found zone of the seat `shift` places round (0 = as found)."""
    per_seat = players + 1
    out = []
    for index, polygon in enumerate(truth):
        seat, k = divmod(index, per_seat)
        found_seat = (seat - shift) % players
        out.append(_iou(found[found_seat * per_seat + k], polygon))
    return out


def _leftover_pieces(zones: Any, truth: dict[str, Any]) -> int:
    """Pieces of ink the ink stage keeps outside every true number's box (and the names): line leftovers.

    Pieces smaller than a dot (4 stroke widths squared) are not counted: the dots between numbers.
    """
    boxes = np.zeros(zones.image.shape[:2], np.uint8)
    back = np.linalg.inv(zones.to_photo)
    written = [*truth["numbers"], *truth.get("names", [])]
    if truth.get("target"):
        written.append(truth["target"])
    for item in written:
        quad = cv2.perspectiveTransform(np.array([item["quad"]], np.float64), back)[0]
        cv2.fillPoly(boxes, [np.rint(quad).astype(np.int32)], 255)
    boxes = cv2.dilate(boxes, np.ones((15, 15), np.uint8))
    ink = find_ink(zones.image, line_mask=zones.line_mask)
    left = np.where(boxes > 0, 0, ink.mask).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(left, connectivity=8)
    return int(sum(stats[i, cv2.CC_STAT_AREA] >= 4 * ink.stroke_width**2 for i in range(1, count)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4, help="photos per layout (default 4)")
    parser.add_argument("--size", default="4000x3000", help="photo size, WxH (default 12 MP)")
    parser.add_argument("--layouts", default="standard-3,standard-4,form-3,form-4")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    layouts = args.layouts.split(",")

    rows: list[dict[str, Any]] = []
    for layout in layouts:
        players = int(layout[-1])
        for seed in range(args.seeds):
            rendered = render_sheet(_sheet(players, seed), layout=layout, seed=1000 + seed,
                                    digits_from="test", size=(width, height))
            data = rendered.jpeg()
            truth = rendered.truth
            t0 = time.perf_counter()
            photo = load_photo(data)
            t1 = time.perf_counter()
            row: dict[str, Any] = {"layout": layout, "seed": seed, "decode": t1 - t0, "found": False}
            try:
                sheet = find_sheet(photo)
                t2 = time.perf_counter()
                zones = locate_zones(sheet)
                t3 = time.perf_counter()
            except NoSheetError as exc:
                row["error"] = str(exc)
                rows.append(row)
                print(f"{layout} seed {seed}: NOT FOUND ({exc})", flush=True)
                continue
            true_corners = np.array(truth["corners"], np.float64)
            left, top, right, bottom = zones.frame
            frame = [(left, top), (right, top), (right, bottom), (left, bottom)]
            upright = to_photo_points(frame, zones.to_photo)
            cyclic = min(float(np.hypot(*(np.roll(upright, k, 0) - true_corners).T).max()) for k in range(4))
            found = [to_photo_points(np.array(z.polygon), zones.to_photo) for z in zones.zones]
            true_polys = [np.array(z["polygon"], np.float64) for z in truth["zones"]]
            layout_ok = zones.layout == truth["layout"]["name"]
            if layout_ok and players == 4 and not layout.startswith("form"):
                shifts = [_zone_ious(found, true_polys, 4, s) for s in range(4)]
                ious = max(shifts, key=lambda v: float(np.mean(v)))
            elif layout_ok:
                ious = _zone_ious(found, true_polys, players, 0)
            else:
                ious = [0.0] * len(true_polys)
            row.update(found=True, find=t2 - t1, zones=t3 - t2, corner_err=cyclic, layout_ok=layout_ok,
                       rotation_ok=zones.rotation == truth["rotation"], certain=zones.rotation_certain,
                       iou_mean=float(np.mean(ious)), iou_min=float(np.min(ious)), partial=sheet.partial,
                       tilt=truth.get("tilt"), leftover=_leftover_pieces(zones, truth))
            rows.append(row)
            print(f"{layout} seed {seed}: rot {truth['rotation']}→{zones.rotation} tilt {truth.get('tilt')} "
                  f"corner {cyclic:.1f}px IoU mean {row['iou_mean']:.3f} min {row['iou_min']:.3f} "
                  f"leftover {row['leftover']} "
                  f"decode {row['decode']:.3f}s find {row['find']:.3f}s zones {row['zones']:.3f}s",
                  flush=True)

    print()
    print(f"{'layout':<12}{'found':>8}{'layout':>8}{'rotation':>10}{'corner px':>12}{'IoU mean':>10}"
          f"{'IoU min':>9}{'leftover':>9}{'decode s':>10}{'find s':>8}{'zones s':>9}{'ratio':>7}")
    for layout in [*layouts, "all"]:
        group = [r for r in rows if layout in ("all", r["layout"])]
        ok = [r for r in group if r["found"]]
        if not group:
            continue
        certain = [r for r in ok if r["certain"]]
        rot = (f"{sum(r['rotation_ok'] for r in certain)}/{len(certain)}" if certain else "n/a")
        decode = statistics.median(r["decode"] for r in group)
        find = statistics.median(r["find"] for r in ok) if ok else float("nan")
        zones_s = statistics.median(r["zones"] for r in ok) if ok else float("nan")
        print(f"{layout:<12}{len(ok)}/{len(group):<6}"
              f"{sum(r['layout_ok'] for r in ok):>5}/{len(ok):<2}{rot:>10}"
              f"{statistics.median(r['corner_err'] for r in ok) if ok else float('nan'):>12.1f}"
              f"{statistics.mean(r['iou_mean'] for r in ok) if ok else float('nan'):>10.3f}"
              f"{min(r['iou_min'] for r in ok) if ok else float('nan'):>9.3f}"
              f"{sum(r['leftover'] for r in ok):>9}"
              f"{decode:>10.3f}{find:>8.3f}{zones_s:>9.3f}{(decode + find + zones_s) / decode:>7.1f}")
    print("\nleftover: line pieces the ink stage still sees (summed over the sheets found); "
          "corner px: median worst-corner distance of the upright outer rectangle from the truth; "
          "rotation counts only sheets whose rotation is determined (not standard-4); ratio = (decode + "
          "find + zones) / decode, medians, photo size "
          f"{width}×{height}.")


if __name__ == "__main__":
    main()
