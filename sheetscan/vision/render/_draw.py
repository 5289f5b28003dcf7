"""Paper and the lines of a hand-drawn sheet: wobbly strokes, overshoots, pen or pencil.

Also chooses the proportions a person might draw (uneven bands, a circle off centre), since readers
must not rely on any fixed template for hand-drawn sheets.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.layouts import Point, Proportions, SheetGeometry, SheetLayout

__all__ = ["LineStyle", "crease", "draw_lines", "hand_paper", "make_paper", "vary_proportions"]

_A4 = (210.0, 297.0)

Image = npt.NDArray[np.uint8]
_SHIFT = 4  # cv2 sub-pixel drawing: coordinates × 16


def vary_proportions(layout: SheetLayout, rng: np.random.Generator) -> Proportions:
    """Proportions as a person might draw this layout: every band and the circle a little different."""
    base = layout.default
    n = layout.players
    for _ in range(50):
        aspect = float(rng.uniform(0.9, 1.65) if n == 3 else rng.uniform(0.75, 1.35))
        scale_w = float(rng.uniform(0.75, 1.25))
        scale_p = float(rng.uniform(0.7, 1.3))
        whists = tuple(float(w * scale_w * rng.uniform(0.8, 1.2)) for w in base.whists)
        pulka = tuple(float(w * scale_p * rng.uniform(0.8, 1.2)) for w in base.pulka)
        # Bands along the short side look narrower on paper; keep them roughly even in millimetres.
        whists = (whists[0] / aspect * 1.2, whists[1], whists[2] / aspect * 1.2, whists[3])
        pulka = (pulka[0] / aspect * 1.2, pulka[1], pulka[2] / aspect * 1.2, pulka[3])
        splits: tuple[tuple[float, ...], ...]
        if n == 3:
            splits = ((float(rng.uniform(0.4, 0.6)),),)
        else:
            splits = tuple(
                (float(rng.uniform(0.28, 0.38)), float(rng.uniform(0.62, 0.72))) for _ in range(4))
        candidate = replace(
            base, aspect=aspect, whists=whists, pulka=pulka,
            circle_radius=float(base.circle_radius * rng.uniform(0.75, 1.3)),
            circle_center=(float(0.5 + rng.normal(0, 0.015)), float(0.5 + rng.normal(0, 0.015))),
            top_split=float(0.5 + rng.normal(0, 0.03)), whist_splits=splits,
        )
        try:
            layout.geometry(candidate)
        except ValueError:
            continue
        return candidate
    return base


def make_paper(width: int, height: int, rng: np.random.Generator, *, kind: str, px_per_mm: float) -> Image:
    """A blank paper: a slightly tinted white with grain; `kind` `squared` adds a 5 mm notebook grid,
    `lined` the rules of a lined notebook (8 mm) with its red margin, `plain` nothing."""
    tint = np.array([rng.uniform(228, 250), rng.uniform(232, 252), rng.uniform(235, 253)], np.float32)
    small = rng.normal(0.0, 1.0, (max(2, height // 16), max(2, width // 16))).astype(np.float32)
    fibres = cv2.GaussianBlur(small, (0, 0), 1.2)
    # The grain is smooth, so the tinted paper is made small and enlarged (fast at 12 MP).
    shaded = np.clip(tint[None, None, :] * (1.0 + 0.012 * fibres)[:, :, None], 0, 255).astype(np.uint8)
    paper = np.asarray(cv2.resize(shaded, (width, height), interpolation=cv2.INTER_LINEAR), np.uint8)
    colour = (int(rng.uniform(190, 225)), int(rng.uniform(175, 210)), int(rng.uniform(140, 185)))
    thick = max(1, round(0.15 * px_per_mm))
    if kind == "squared":
        step = 5.0 * px_per_mm
        offset = rng.uniform(0, step, 2)
        x = offset[0]
        while x < width:
            cv2.line(paper, (int(x * 16), 0), (int(x * 16), height * 16), colour, thick, cv2.LINE_AA, _SHIFT)
            x += step
    if kind in ("squared", "lined"):
        step = (5.0 if kind == "squared" else 8.0) * px_per_mm
        y = rng.uniform(0, step) + (0.0 if kind == "squared" else 12.0 * px_per_mm)
        while y < height:
            cv2.line(paper, (0, int(y * 16)), (width * 16, int(y * 16)), colour, thick, cv2.LINE_AA, _SHIFT)
            y += step
    if kind == "lined":
        x = rng.uniform(15, 25) * px_per_mm
        margin_red = (120, 120, 225)
        cv2.line(paper, (int(x * 16), 0), (int(x * 16), height * 16), margin_red, thick, cv2.LINE_AA, _SHIFT)
    return paper


@dataclass(frozen=True)
class LineStyle:
    """How the sheet's lines are drawn."""

    colour: tuple[int, int, int]
    """BGR."""
    thickness: float
    """Stroke width in paper pixels."""
    wobble: float
    """Amplitude of the hand's waver in paper pixels (0 with a ruler)."""
    overshoot: float
    """How far strokes run past their ends, in paper pixels."""
    pencil: bool
    """Grey and grainy."""
    retrace: float = 0.0
    """Share of strokes drawn twice."""

    @staticmethod
    def random(rng: np.random.Generator, sheet_px: float) -> LineStyle:
        """A pen or pencil, freehand or with a ruler, scaled to a sheet `sheet_px` pixels tall."""
        pencil = bool(rng.random() < 0.25)
        ruler = bool(rng.random() < 0.35)
        colours = [(150, 60, 20), (40, 40, 40), (130, 40, 90), (25, 25, 30), (40, 40, 170)]
        return LineStyle(
            colour=(110, 110, 115) if pencil else colours[int(rng.integers(len(colours)))],
            thickness=float(sheet_px * rng.uniform(0.0015, 0.0035)),
            wobble=float(sheet_px * (rng.uniform(0.0003, 0.001) if ruler else rng.uniform(0.0015, 0.005))),
            overshoot=float(sheet_px * rng.uniform(0.0, 0.02)),
            pencil=pencil,
            retrace=float(rng.choice([0.0, 0.0, 0.3, 0.8])),
        )


def _wobbly(points: list[tuple[float, float]], rng: np.random.Generator, style: LineStyle
            ) -> npt.NDArray[np.int32]:
    """A stroke through `points` with a smooth waver and overshoots at both ends (×16 fixed point)."""
    pts = [np.array(p, np.float64) for p in points]
    head, tail = pts[1] - pts[0], pts[-1] - pts[-2]
    pts[0] = pts[0] - head / (np.linalg.norm(head) + 1e-9) * style.overshoot * rng.uniform(0, 1)
    pts[-1] = pts[-1] + tail / (np.linalg.norm(tail) + 1e-9) * style.overshoot * rng.uniform(0, 1)
    out: list[npt.NDArray[np.float64]] = []
    for a, b in itertools.pairwise(pts):
        length = float(np.linalg.norm(b - a))
        steps = max(2, int(length / 12))
        normal = np.array([-(b - a)[1], (b - a)[0]]) / (length + 1e-9)
        phases = rng.uniform(0, 2 * math.pi, 2)
        freqs = rng.uniform(0.5, 2.5), rng.uniform(3, 8)
        t = np.linspace(0.0, 1.0, steps + 1)
        wave = style.wobble * (np.sin(phases[0] + 2 * math.pi * freqs[0] * t)
                               + 0.35 * np.sin(phases[1] + 2 * math.pi * freqs[1] * t))
        seg = a[None, :] + (b - a)[None, :] * t[:, None] + normal[None, :] * wave[:, None]
        out.extend(seg if not out else seg[1:])
    return np.round(np.array(out) * 16).astype(np.int32)


def draw_lines(paper: Image, geometry: SheetGeometry, to_px: npt.NDArray[np.float64], style: LineStyle,
               rng: np.random.Generator) -> None:
    """Draw the sheet's rectangles, circle, spokes and splits by hand onto `paper`."""
    mask = np.zeros(paper.shape[:2], np.float32)

    def px(p: Point) -> tuple[float, float]:
        v = to_px @ np.array([p[0], p[1], 1.0])
        return (float(v[0] / v[2]), float(v[1] / v[2]))

    thick = max(1, round(style.thickness))
    strokes: list[list[tuple[float, float]]] = []
    for left, top, right, bottom in geometry.rectangles:
        corners = [px((left, top)), px((right, top)), px((right, bottom)), px((left, bottom))]
        if style.wobble < 0.002 * paper.shape[0] and rng.random() < 0.5:
            strokes.append([*corners, corners[0]])  # one careful closed stroke
        else:
            strokes.extend([corners[i], corners[(i + 1) % 4]] for i in range(4))
    for spoke in geometry.spokes:
        strokes.append([px(p) for p in spoke])
    strokes.extend([px(a), px(b)] for a, b in geometry.splits)
    retrace = style.retrace
    for stroke in strokes:
        width = max(1, round(thick * rng.uniform(0.8, 1.2)))
        cv2.polylines(mask, [_wobbly(stroke, rng, style)], False, 1.0, width, cv2.LINE_AA, _SHIFT)
        if rng.random() < retrace:  # gone over twice: a second stroke a hair beside the first
            cv2.polylines(mask, [_wobbly(stroke, rng, style)], False, 1.0, width, cv2.LINE_AA, _SHIFT)
    # The circle: one stroke that may not quite close, or overlaps where it started.
    (cx, cy), (rx, ry) = geometry.circle_center, geometry.circle_radius
    start = rng.uniform(0, 2 * math.pi)
    sweep = 2 * math.pi * rng.uniform(0.97, 1.06)
    t = start + np.linspace(0, sweep, 90)
    r = 1.0 + style.wobble / max(1.0, px((cx + rx, cy))[0] - px((cx, cy))[0]) * np.sin(3 * t + start)
    ring = [px((cx + rx * r[i] * math.cos(t[i]), cy + ry * r[i] * math.sin(t[i]))) for i in range(len(t))]
    cv2.polylines(mask, [np.round(np.array(ring) * 16).astype(np.int32)], False, 1.0, thick, cv2.LINE_AA,
                  _SHIFT)
    if style.pencil:
        mask *= rng.uniform(0.65, 1.0, mask.shape).astype(np.float32)
    opacity = 0.8 if style.pencil else 0.95
    _lay(paper, mask * opacity, style.colour)


def _lay(paper: Image, alpha: npt.NDArray[np.float32], colour: tuple[int, int, int]) -> None:
    """Multiply ink of `colour` into the paper where `alpha` > 0 (only those pixels, for speed)."""
    ys, xs = np.nonzero(alpha > 0)
    a = alpha[ys, xs][:, None]
    region = paper[ys, xs].astype(np.float32)
    # Ink darkens the paper multiplicatively: a = 1 gives paper × ink colour.
    paper[ys, xs] = np.clip(region * (1.0 - a + a * (np.array(colour, np.float32) / 255.0)), 0, 255
                            ).astype(np.uint8)


def crease(paper: Image, rng: np.random.Generator) -> None:
    """Fold lines: the sheet was folded in half or in quarters; each fold shades one side a little."""
    height, width = paper.shape[:2]
    folds = [("x", width / 2), ("y", height / 2)][: int(rng.integers(1, 3))]
    if rng.random() < 0.5:
        folds.reverse()
    for axis, where in folds:
        where += rng.normal(0, 0.01) * (width if axis == "x" else height)
        spread = max(2.0, 0.006 * max(width, height) * rng.uniform(0.5, 1.5))
        half = int(4 * spread)
        lo = int(where) - half
        span = np.arange(lo, lo + 2 * half, dtype=np.float32) - where
        # A dark valley on one side, a slight highlight on the other, a thin sharp line in the middle.
        depth = rng.uniform(0.04, 0.12)
        profile = (1.0 - depth * np.exp(-((span + spread) / spread) ** 2)
                   + 0.5 * depth * np.exp(-((span - spread) / spread) ** 2)
                   - 0.5 * depth * np.exp(-(span / 1.2) ** 2))
        size = width if axis == "x" else height
        keep = (lo + np.arange(len(span)) >= 0) & (lo + np.arange(len(span)) < size)
        index = (lo + np.arange(len(span)))[keep]
        gain = profile[keep].astype(np.float32)
        if axis == "x":
            region = paper[:, index].astype(np.float32) * gain[None, :, None]
            paper[:, index] = np.clip(region, 0, 255).astype(np.uint8)
        else:
            region = paper[index, :].astype(np.float32) * gain[:, None, None]
            paper[index, :] = np.clip(region, 0, 255).astype(np.uint8)


def hand_paper(aspect: float, rng: np.random.Generator, grain: np.random.Generator, long_px: int
               ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64], float, str]:
    """A blank paper for a hand-drawn sheet and where the sheet goes on it.

    Returns (paper, sheet → paper pixels 3 × 3, px per mm, kind of paper: plain, squared or lined).
    """
    # A4, turned to suit the sheet the player means to draw.
    paper_mm = (_A4[1], _A4[0]) if aspect >= 1.0 else _A4
    px_per_mm = long_px / max(paper_mm)
    pw, ph = round(paper_mm[0] * px_per_mm), round(paper_mm[1] * px_per_mm)
    pick = rng.random()
    kind = "squared" if pick < 0.4 else "lined" if pick < 0.55 else "plain"
    paper = make_paper(pw, ph, grain, kind=kind, px_per_mm=px_per_mm)
    margins = rng.uniform(0.03, 0.09, 4)  # left, top, right, bottom, fractions of the paper
    room_w = pw * (1 - margins[0] - margins[2])
    room_h = ph * (1 - margins[1] - margins[3])
    sheet_h = min(room_h, room_w / aspect)
    sheet_w = sheet_h * aspect
    left = pw * margins[0] + (room_w - sheet_w) * rng.uniform(0, 1)
    top = ph * margins[1] + (room_h - sheet_h) * rng.uniform(0, 1)
    corners = np.array([[left, top], [left + sheet_w, top], [left + sheet_w, top + sheet_h],
                        [left, top + sheet_h]], np.float64)
    if rng.random() < 0.45:
        # A freehand frame is rarely square: its corners stray by up to 2.5 % of the sheet, and every
        # line inside follows (the zones stay where the drawn lines put them).
        corners += rng.uniform(-0.025, 0.025, (4, 2)) * [sheet_w, sheet_h]
        corners[:, 0] = np.clip(corners[:, 0], 2, pw - 3)
        corners[:, 1] = np.clip(corners[:, 1], 2, ph - 3)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    to_px = cv2.getPerspectiveTransform(unit, corners.astype(np.float32)).astype(np.float64)
    return paper, to_px, px_per_mm, kind
