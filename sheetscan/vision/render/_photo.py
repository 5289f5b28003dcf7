"""Photographing a flat paper: a table, a tilted phone camera, uneven light, shadow, blur and noise.

The paper lies flat, so one homography maps paper pixels to photo pixels exactly; everything the truth
file says is carried through it. Heavy per-pixel work runs at a quarter resolution and is upscaled
(light, shadow, table texture) so that a 12 MP photo stays well under the time budget.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["Shot", "photograph"]

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Shot:
    """The photo and how the paper got into it."""

    image: Image
    """The photo, BGR."""
    paper_to_photo: npt.NDArray[np.float64]
    """3 × 3 homography from paper pixels to photo pixels."""
    angle: float
    """In-plane turn of the paper, degrees clockwise."""
    tilt: float
    """How far the paper plane is tilted from facing the camera, degrees."""
    jpeg_quality: int
    """The JPEG quality the photo should be saved with."""
    bend: Floats | None = None
    """The paper's bend: a low-resolution field (h × w × 2) of photo-pixel shifts added after the
    homography, or None for flat paper."""

    @property
    def bend_px(self) -> float:
        """The largest shift the bend causes, in photo pixels (0 for flat paper)."""
        return 0.0 if self.bend is None else float(np.abs(self.bend).max())

    def to_photo(self, points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Paper pixels (N × 2) to photo pixels, through the homography and the bend."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        out = np.asarray(cv2.perspectiveTransform(pts[None, :, :], self.paper_to_photo)[0], np.float64)
        if self.bend is None:
            return out
        # remap drew pixel q from q − d(q); so a point p lands where q = p + d(q) (a few fixed-point steps).
        q = out.copy()
        for _ in range(4):
            q = out + self._shift(q)
        return q

    def _shift(self, points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The bend's shift at photo points, interpolated exactly as cv2.resize spread it to pixels."""
        assert self.bend is not None
        h, w = self.image.shape[:2]
        lh, lw = self.bend.shape[:2]
        gx = np.clip((points[:, 0] + 0.5) * lw / w - 0.5, 0, lw - 1)
        gy = np.clip((points[:, 1] + 0.5) * lh / h - 0.5, 0, lh - 1)
        x0, y0 = np.floor(gx).astype(int), np.floor(gy).astype(int)
        x1, y1 = np.minimum(x0 + 1, lw - 1), np.minimum(y0 + 1, lh - 1)
        fx, fy = (gx - x0)[:, None], (gy - y0)[:, None]
        b = self.bend.astype(np.float64)
        return np.asarray((b[y0, x0] * (1 - fx) + b[y0, x1] * fx) * (1 - fy)
                          + (b[y1, x0] * (1 - fx) + b[y1, x1] * fx) * fy, np.float64)


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], feature: float) -> Floats:
    """Smooth random field in -1..1 whose bumps are about `feature` pixels across (coarse grid, upscaled)."""
    h, w = shape
    coarse = rng.normal(0.0, 1.0, (max(2, int(h / feature) + 2), max(2, int(w / feature) + 2)))
    field = np.asarray(cv2.resize(coarse.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC),
                       np.float32)
    return np.asarray(field / (float(np.abs(field).max()) + 1e-6), np.float32)


def _table(rng: np.random.Generator, w: int, h: int) -> Floats:
    """A table top at low resolution: wood, cloth, or a plain laminate (BGR floats 0..255)."""
    kind = int(rng.integers(4))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == 0:  # wood: planks of fine grain that meanders slowly, each plank its own shade
        base = np.array([rng.uniform(40, 100), rng.uniform(70, 130), rng.uniform(110, 180)], np.float32)
        theta = rng.uniform(0, math.pi)
        u = xx * math.cos(theta) + yy * math.sin(theta)
        v = -xx * math.sin(theta) + yy * math.cos(theta)
        warp = _smooth_noise(rng, (h, w), max(w, h) / 5) * rng.uniform(2, 6)
        period = rng.uniform(0.8, 2.0)
        grain = np.sin((v + warp) / period + 0.6 * np.sin(u / rng.uniform(30, 90))) * 0.5 + 0.5
        plank_width = rng.uniform(0.15, 0.4) * max(w, h)
        plank = np.floor((v + 1e4) / plank_width)
        plank_shade = 0.9 + 0.1 * np.sin(plank * 12.9898 + rng.uniform(0, 6.28))
        seam = (np.abs(((v + 1e4) % plank_width) - plank_width / 2) > plank_width / 2 - 0.8)
        shade = (0.82 + 0.12 * grain ** 3 + 0.05 * _smooth_noise(rng, (h, w), 6.0)) * plank_shade
        shade = shade * np.where(seam, 0.6, 1.0)
        return np.asarray(base[None, None, :] * shade[:, :, None], np.float32)
    if kind == 1:  # cloth: a woven texture, sometimes checked
        base = np.array([rng.uniform(30, 200), rng.uniform(30, 200), rng.uniform(30, 200)], np.float32)
        period = rng.uniform(1.6, 3.0)
        weave = 0.5 + 0.25 * (np.sin(xx * math.pi / period) * np.sin(yy * math.pi / period))
        shade = 0.8 + 0.2 * weave
        if rng.random() < 0.5:
            square = rng.uniform(15, 45)
            checks = ((xx // square + yy // square) % 2).astype(np.float32)
            shade *= 0.75 + 0.25 * checks
        return np.asarray(base[None, None, :] * shade[:, :, None], np.float32)
    base = np.array([rng.uniform(60, 210)] * 3, np.float32) + rng.normal(0, 15, 3).astype(np.float32)
    mottle = _smooth_noise(rng, (h, w), rng.uniform(3, 12))
    return base[None, None, :] * (0.92 + 0.08 * mottle)[:, :, None]


def _placement(rng: np.random.Generator, paper_w: int, paper_h: int, width: int, height: int,
               max_tilt: float, distance: float = 1.0) -> tuple[npt.NDArray[np.float32], float, float]:
    """Photo positions of the paper's corners for a random turn, tilt and distance (`distance` times
    farther than usual: the paper that much smaller in the photo)."""
    # People mostly square the phone to the sheet from one of its sides; sometimes they do not.
    if rng.random() < 0.7:
        angle = float(90 * rng.integers(4) + rng.normal(0, 8)) % 360
    else:
        angle = float(rng.uniform(0, 360))
    tilt = float(max_tilt * rng.uniform(0, 1) ** 1.3)  # mostly moderate, now and then the full tilt
    axis = rng.uniform(0, 2 * math.pi)
    corners = np.array([[0, 0], [paper_w, 0], [paper_w, paper_h], [0, paper_h]], np.float64)
    centred = corners - [paper_w / 2, paper_h / 2]
    a = math.radians(angle)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    flat = centred @ turn.T
    pts3 = np.column_stack([flat, np.zeros(4)])
    k = np.array([math.cos(axis), math.sin(axis), 0.0])
    t = math.radians(tilt)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    rot = np.eye(3) + math.sin(t) * kx + (1 - math.cos(t)) * kx @ kx  # Rodrigues
    focal = max(paper_w, paper_h) * rng.uniform(0.9, 1.4)
    cam = pts3 @ rot.T + [0.0, 0.0, focal * rng.uniform(1.1, 1.5)]
    proj = cam[:, :2] / cam[:, 2:3] * focal
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    fill = rng.uniform(0.72, 0.96) / distance
    scale = fill * min(width / (hi[0] - lo[0]), height / (hi[1] - lo[1]))
    proj = (proj - lo) * scale
    size = hi - lo
    room = np.array([width, height]) - size * scale
    proj += room * rng.uniform(0.25, 0.75, 2)
    return proj.astype(np.float32), angle, tilt


def photograph(paper: Image, rng: np.random.Generator, *, size: tuple[int, int],
               max_tilt: float = 35.0, bend_chance: float = 0.35, distance: float = 1.0) -> Shot:
    """Photograph `paper` lying on a table: returns the photo and the paper → photo homography.
    `distance` > 1 takes it from that many times farther away than usual (see `_placement`)."""
    width, height = size
    ph, pw = paper.shape[:2]
    quad, angle, tilt = _placement(rng, pw, ph, width, height, max_tilt, distance)
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    homography = cv2.getPerspectiveTransform(src, quad).astype(np.float64)
    sw, sh = max(8, width // 4), max(8, height // 4)

    # The table with the paper's soft drop shadow, at a quarter resolution, then full size.
    table = _table(rng, sw, sh)
    small_quad = quad / [width / sw, height / sh]
    shadow = np.zeros((sh, sw), np.float32)
    offset = rng.normal(0, 2.0, 2)
    cv2.fillConvexPoly(shadow, np.round((small_quad + offset) * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    shadow = np.asarray(cv2.GaussianBlur(shadow, (0, 0), rng.uniform(1.5, 4.0)), np.float32)
    table *= (1.0 - 0.45 * shadow)[:, :, None]
    photo = np.asarray(cv2.resize(np.clip(table, 0, 255).astype(np.uint8), (width, height),
                                  interpolation=cv2.INTER_LINEAR), np.uint8)
    _clutter(photo, rng)
    cv2.warpPerspective(paper, homography, (width, height), dst=photo, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    bend = None
    if rng.random() < bend_chance:
        # Paper that does not lie quite flat: a smooth shift of a few pixels, the same field moves the
        # pixels (remap) and the truth points (Shot.to_photo).
        bw, bh = max(8, width // 16), max(8, height // 16)
        amount = rng.uniform(0.002, 0.007) * min(width, height)
        bend = np.stack([_smooth_noise(rng, (bh, bw), bw / 2.5), _smooth_noise(rng, (bh, bw), bw / 2.5)],
                        axis=2) * np.float32(amount)
        full = cv2.resize(bend, (width, height), interpolation=cv2.INTER_LINEAR)
        # Inverse of q = p + d(q) for a smooth small d: p ≈ q − d(q).
        map_x = np.arange(width, dtype=np.float32)[None, :] - full[:, :, 0]
        map_y = np.arange(height, dtype=np.float32)[:, None] - full[:, :, 1]
        photo = np.asarray(cv2.remap(photo, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT),
                           np.uint8)

    # Light: a broad gradient, a vignette, a warm or cool cast, now and then a soft shadow across the
    # sheet (a hand or the phone between the lamp and the table) or a glare on glossy paper. The light
    # map is made at 1/8 size as 8-bit gains (1/128 steps) so that applying it is one fast multiply.
    lw, lh = max(8, width // 8), max(8, height // 8)
    yy, xx = np.mgrid[0:lh, 0:lw].astype(np.float32)
    gx, gy = rng.normal(0, 1, 2)
    gradient = (xx / lw - 0.5) * gx + (yy / lh - 0.5) * gy
    gain = 1.0 + rng.uniform(0.1, 0.35) * gradient / (abs(gx) + abs(gy) + 1e-6)
    gain += 0.08 * _smooth_noise(rng, (lh, lw), lw / 4)
    radius = ((xx / lw - 0.5) ** 2 + (yy / lh - 0.5) ** 2) * 4
    gain *= 1.0 - rng.uniform(0.05, 0.25) * radius
    if rng.random() < 0.6:
        gain *= 1.0 - rng.uniform(0.2, 0.45) * _blob(rng, lw, lh, 0.2, 0.6, (0.03, 0.12))
    if rng.random() < 0.2:
        gain += rng.uniform(0.15, 0.35) * _blob(rng, lw, lh, 0.05, 0.15, (0.04, 0.1))
    gain *= rng.uniform(0.8, 1.08)
    cast = np.array([rng.uniform(0.86, 1.02), rng.uniform(0.95, 1.02), rng.uniform(0.98, 1.08)], np.float32)
    light = np.clip(gain[:, :, None] * cast[None, None, :] * 128.0, 0, 255).astype(np.uint8)
    light = cv2.resize(light, (width, height), interpolation=cv2.INTER_LINEAR)
    image = cv2.multiply(photo, light, scale=1.0 / 128.0)

    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.4, 1.5))
    if rng.random() < 0.3:
        # Shallow depth of field: a tilted sheet goes soft towards one side of the photo.
        soft = cv2.GaussianBlur(image, (0, 0), rng.uniform(1.2, 2.8))
        direction = rng.uniform(0, 2 * math.pi)
        ramp = (xx / lw - 0.5) * math.cos(direction) + (yy / lh - 0.5) * math.sin(direction)
        ramp = np.clip((ramp - rng.uniform(-0.2, 0.2)) * 2.0, 0.0, 1.0).astype(np.float32)
        weight = cv2.resize(ramp, (width, height), interpolation=cv2.INTER_LINEAR)
        image = cv2.blendLinear(soft, image, weight, 1.0 - weight)
    if rng.random() < 0.15:  # a little shake: a short motion blur
        length = int(rng.integers(3, 8))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kernel = np.asarray(cv2.warpAffine(kernel, turn, (length, length)), np.float32)
        image = cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6))
    # Sensor noise: one random tile, repeated with an offset (its period is invisible under the noise).
    tile = np.empty((512, 512, 3), np.int16)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    spread = float(rng.uniform(1.5, 6.0))
    cv2.randn(tile, np.zeros(3), np.full(3, spread))
    reps = (height // 512 + 2, width // 512 + 2, 1)
    oy, ox = (int(v) for v in rng.integers(0, 512, 2))
    noise = np.tile(tile, reps)[oy: oy + height, ox: ox + width]
    image = cv2.add(image, noise, dtype=cv2.CV_8U)
    return Shot(np.asarray(image, np.uint8), homography, angle, tilt, int(rng.integers(72, 93)), bend)


def _blob(rng: np.random.Generator, w: int, h: int, low: float, high: float,
          softness: tuple[float, float]) -> Floats:
    """A soft-edged ellipse (0..1) somewhere in a w × h field."""
    blob = np.zeros((h, w), np.float32)
    centre = rng.uniform(0, 1, 2) * [w, h]
    axes = rng.uniform(low, high, 2) * [w, h]
    cv2.ellipse(blob, (int(centre[0]), int(centre[1])), (max(1, int(axes[0])), max(1, int(axes[1]))),
                float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    return np.asarray(cv2.GaussianBlur(blob, (0, 0), max(0.5, rng.uniform(*softness) * w)), np.float32)


def _clutter(photo: Image, rng: np.random.Generator) -> None:
    """Things on the table beside the sheet: playing cards, a pen, a coin (the paper is laid over them)."""
    height, width = photo.shape[:2]
    unit = min(width, height)
    for _ in range(int(rng.integers(0, 4))):
        kind = int(rng.integers(3))
        centre = rng.uniform(0, 1, 2) * [width, height]
        turn = float(rng.uniform(0, 180))
        if kind == 0:  # a playing card: white, rounded, a red or black pip
            size = (unit * 0.16, unit * 0.24)
            box = cv2.boxPoints(((float(centre[0]), float(centre[1])), size, turn))
            cv2.fillConvexPoly(photo, np.round(box * 16).astype(np.int32),
                               (int(rng.uniform(215, 245)),) * 3, cv2.LINE_AA, 4)
            outline = np.round(box * 16).astype(np.int32)
            cv2.polylines(photo, [outline], True, (150, 150, 150), 2, cv2.LINE_AA, 4)
            pip = (40, 40, 200) if rng.random() < 0.5 else (30, 30, 30)
            cv2.circle(photo, (int(centre[0]), int(centre[1])), max(2, int(unit * 0.025)), pip, -1,
                       cv2.LINE_AA)
        elif kind == 1:  # a pen
            size = (unit * rng.uniform(0.3, 0.45), unit * 0.022)
            box = cv2.boxPoints(((float(centre[0]), float(centre[1])), size, turn))
            r, g, b = (int(v) for v in rng.uniform(20, 200, 3))
            cv2.fillConvexPoly(photo, np.round(box * 16).astype(np.int32), (r, g, b), cv2.LINE_AA, 4)
        else:  # a coin
            radius = max(3, int(unit * rng.uniform(0.02, 0.035)))
            grey = int(rng.uniform(120, 190))
            cv2.circle(photo, (int(centre[0]), int(centre[1])), radius, (grey - 20, grey, grey + 15), -1,
                       cv2.LINE_AA)
