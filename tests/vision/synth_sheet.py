"""Small synthetic photos of pulka sheets for the geometry stage tests (not the product's renderer).

The lines come from `sheetscan.layouts` geometry, drawn with a little wobble on a paper rectangle,
which is turned, put in perspective on a textured table, unevenly lit, blurred and noised. Every
returned truth value is computed here from the drawing parameters, never from the code under test.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from sheetscan.layouts import Proportions, SheetGeometry, find_layout


@dataclass(frozen=True)
class Synth:
    """A synthetic photo and its truth."""

    image: np.ndarray
    corners: np.ndarray  # 4 × 2 photo points of the drawn outer rectangle, upright TL, TR, BR, BL
    sheet_to_photo: np.ndarray  # 3 × 3: normalised upright sheet (0..1) → photo px
    geometry: SheetGeometry
    rotation: int
    geometry_proportions: Proportions | None = None


def _wobbly_polyline(points: list[tuple[float, float]], rng: np.random.Generator, amp: float) -> np.ndarray:
    out: list[tuple[float, float]] = []
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        steps = max(2, int(length / 15))
        nx, ny = (-(y1 - y0) / (length + 1e-9), (x1 - x0) / (length + 1e-9))
        phase, freq = rng.uniform(0, 6.28), rng.uniform(2, 7)
        for i in range(steps + (1 if (x1, y1) == points[-1] else 0)):
            t = i / steps
            w = amp * math.sin(phase + t * freq) * math.sin(math.pi * t)
            out.append((x0 + (x1 - x0) * t + nx * w, y0 + (y1 - y0) * t + ny * w))
    return np.array(out, np.float64)


def draw_sheet(layout: str = "standard-3", *, proportions: Proportions | None = None, height: int = 700,
               wobble: float = 0.0, seed: int = 0, ink: tuple[int, int, int] = (40, 30, 30),
               thickness: int = 3, margin: int = 40,
               qr_text: str = "") -> tuple[np.ndarray, SheetGeometry, np.ndarray]:
    """The upright sheet drawn on white paper; returns (BGR paper, geometry, sheet→paper 3 × 3)."""
    rng = np.random.default_rng(seed)
    sheet_layout = find_layout(layout)
    geometry = sheet_layout.geometry(proportions)
    page = sheet_layout.page
    if page is None:
        width = round(height * geometry.aspect)
        paper = np.full((height + 2 * margin, width + 2 * margin, 3), 245, np.uint8)
        left_px, top_px = float(margin), float(margin)
    else:
        mm = height / (page.sheet_mm[3] - page.sheet_mm[1])
        paper = np.full((round(page.size_mm[1] * mm), round(page.size_mm[0] * mm), 3), 250, np.uint8)
        width = round((page.sheet_mm[2] - page.sheet_mm[0]) * mm)
        left_px, top_px = page.sheet_mm[0] * mm, page.sheet_mm[1] * mm
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        side = round(page.marker_mm * mm)
        for ident, mx, my in page.markers:
            marker = cv2.aruco.generateImageMarker(dictionary, ident, side)
            x0, y0 = round(mx * mm), round(my * mm)
            paper[y0:y0 + side, x0:x0 + side] = marker[..., None]
        if qr_text:
            import segno

            qr = segno.make(qr_text, error="m")
            matrix = np.array(qr.matrix, np.uint8)
            matrix = np.pad(matrix, 2)
            qside = round(page.qr_mm[2] * mm)
            tile = cv2.resize((1 - matrix) * 255, (qside, qside), interpolation=cv2.INTER_NEAREST)
            qx, qy = round(page.qr_mm[0] * mm), round(page.qr_mm[1] * mm)
            paper[qy:qy + qside, qx:qx + qside] = tile[..., None]
    scale = np.array([[width, 0, left_px], [0, height, top_px], [0, 0, 1]], np.float64)

    def px(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] * width + left_px, p[1] * height + top_px)

    lines: list[list[tuple[float, float]]] = []
    for left, top, right, bottom in geometry.rectangles:
        a, b, c, d = px((left, top)), px((right, top)), px((right, bottom)), px((left, bottom))
        lines += [[a, b], [b, c], [c, d], [d, a]]
    lines += [[px(p) for p in spoke[1:]] + [] for spoke in geometry.spokes]
    lines += [[px(spoke[0]), px(spoke[1])] for spoke in geometry.spokes]
    lines += [[px(a), px(b)] for a, b in geometry.splits]
    for line in lines:
        pts = _wobbly_polyline(line, rng, wobble * height / 100) if wobble else np.array(line)
        cv2.polylines(paper, [np.round(pts * 4).astype(np.int32)], False, ink, thickness, cv2.LINE_AA,
                      shift=2)
    (cx, cy), (rx, ry) = geometry.circle_center, geometry.circle_radius
    cv2.ellipse(paper, (round(cx * width + left_px), round(cy * height + top_px)),
                (round(rx * width), round(ry * height)), 0, 0, 360, ink, thickness, cv2.LINE_AA)
    return paper, geometry, scale


def photograph(paper: np.ndarray, sheet_to_paper: np.ndarray, *, size: tuple[int, int] = (1000, 750),
               rotation: int = 0, tilt: float = 0.15, turn: float = 0.0, fill: float = 0.75,
               seed: int = 0, noise: float = 4.0, blur: float = 0.8, shade: float = 0.35,
               offset: tuple[float, float] = (0.0, 0.0), table: str = "wood",
               ) -> tuple[np.ndarray, np.ndarray]:
    """Put the paper on a table in a photo; returns (BGR photo, sheet→photo 3 × 3).

    `rotation` turns the sheet clockwise by that many degrees (0/90/180/270) before `turn` (small extra
    angle, degrees) and the perspective `tilt` (0 = straight above, 0.3 ≈ strong).
    """
    rng = np.random.default_rng(seed)
    w, h = size
    ph, pw = paper.shape[:2]
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float64)
    # Paper corners in the photo: a centred rectangle of the right aspect, turned, then jittered.
    k = (rotation // 90) % 4
    aspect = pw / ph if k % 2 == 0 else ph / pw
    box_w = min(w * fill, h * fill * aspect)
    box_h = box_w / aspect
    cx, cy = w / 2 + offset[0] * w, h / 2 + offset[1] * h
    base = np.array([[-box_w / 2, -box_h / 2], [box_w / 2, -box_h / 2], [box_w / 2, box_h / 2],
                     [-box_w / 2, box_h / 2]])
    # corner i of the upright paper lands on the photo box corner (i + k) % 4 (clockwise turn)
    base = np.roll(base, -k, axis=0)
    angle = math.radians(turn)
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    dst = base @ rot.T
    # Perspective: the far edge (photo top) shrinks.
    far = dst[:, 1] < 0
    dst[far, 0] *= 1 - tilt
    dst[:, 1] *= 1 - tilt * 0.3
    dst += rng.uniform(-0.02, 0.02, dst.shape) * box_w
    dst += [cx, cy]
    paper_to_photo = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    background = _table(rng, (h, w), table)
    warped = cv2.warpPerspective(paper, paper_to_photo, (w, h), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    mask = cv2.warpPerspective(np.full((ph, pw), 255, np.uint8), paper_to_photo, (w, h))
    photo = np.where(mask[..., None] > 127, warped, background).astype(np.float32)
    # Uneven light: a linear gradient plus a soft shadow blob.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    light = 1 - shade * 0.5 * (1 + (gx * (xx / w - 0.5) + gy * (yy / h - 0.5)))
    sx, sy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
    light *= 1 - shade * np.exp(-((xx - sx) ** 2 + (yy - sy) ** 2) / (2 * (0.2 * w) ** 2))
    photo *= light[..., None]
    if blur:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    photo += rng.normal(0, noise, photo.shape).astype(np.float32)
    image = np.clip(photo, 0, 255).astype(np.uint8)
    return image, paper_to_photo @ sheet_to_paper


def _table(rng: np.random.Generator, shape: tuple[int, int], kind: str) -> np.ndarray:
    h, w = shape
    if kind == "wood":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        grain = np.sin(yy / 7 + 3 * np.sin(xx / 90)) * 18 + rng.normal(0, 6, (h, w))
        base = np.stack([60 + grain, 95 + grain, 140 + grain], axis=-1)
        return np.clip(base, 0, 255).astype(np.uint8)
    if kind == "cloth":
        noise = cv2.GaussianBlur(rng.normal(0, 25, (h, w)).astype(np.float32), (0, 0), 2)
        base = np.stack([90 + noise, 60 + noise, 50 + noise], axis=-1)
        return np.clip(base, 0, 255).astype(np.uint8)
    return np.full((h, w, 3), 70, np.uint8)


def synth(layout: str = "standard-3", *, rotation: int = 0, seed: int = 0, wobble: float = 0.4,
          proportions: Proportions | None = None, qr_text: str = "", height: int = 700,
          **photo: object) -> Synth:
    """A sheet drawn and photographed; `photo` keywords go to `photograph`."""
    if layout.startswith("form"):
        wobble = 0.0
        qr_text = qr_text or f"sheetscan:{layout};players={layout[-1]};variant=sochi;pulka=20"
    paper, geometry, to_paper = draw_sheet(layout, proportions=proportions, wobble=wobble, seed=seed,
                                           qr_text=qr_text, height=height)
    image, to_photo = photograph(paper, to_paper, rotation=rotation, seed=seed, **photo)  # type: ignore[arg-type]
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
    corners = cv2.perspectiveTransform(unit[None], to_photo)[0]
    return Synth(image=image, corners=corners, sheet_to_photo=to_photo, geometry=geometry, rotation=rotation,
                 geometry_proportions=proportions)
