"""Handwriting from real MNIST digits: one consistent "writer" per player, numbers as ink masks.

A writer keeps a few samples of each digit chosen to share one slant (so the hand looks like one
person's), a stroke width, a size, a pen colour and habits (spacing, dots, how numbers are crossed
out). `write_number` composes a number from those samples as a float alpha mask and returns where
each digit's ink lies, so the truth file can say exactly where every digit is.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision.mnist import MnistPart

__all__ = ["Glyphs", "Writer", "make_writer", "write_cross", "write_dot", "write_name", "write_number"]

Alpha = npt.NDArray[np.float32]
Box = tuple[float, float, float, float]

# Pen colours (BGR) as they look on white paper: blue, dark blue, black, violet ballpoints, and pencil.
_INKS: tuple[tuple[int, int, int], ...] = (
    (150, 60, 20), (120, 45, 25), (175, 95, 40), (45, 40, 40), (30, 30, 35), (140, 40, 95),
    (120, 35, 70),
)
_PENCIL = (95, 95, 100)
_SAMPLES_PER_DIGIT = 5
_CANDIDATES = 160  # digits looked at per class when choosing a writer's samples of one slant


@dataclass(frozen=True)
class Writer:
    """How one player writes: digit samples, size, slant, stroke, colour and habits."""

    samples: tuple[tuple[npt.NDArray[np.uint8], ...], ...]
    """For each digit 0–9, a few 28 × 28 MNIST images of one style (ink bright)."""
    height: float
    """Nominal digit height in paper pixels."""
    slant: float
    """Extra shear (x shift per unit of height upwards); positive leans right."""
    stroke: float
    """Alpha threshold on the upscaled digit: low = thick pen, high = thin pen (0.1–0.6)."""
    colour: tuple[int, int, int]
    """Ink colour, BGR."""
    opacity: float
    """How dark the ink lays down (pencil is light)."""
    spacing: float
    """Gap between digits, a fraction of the height (may be negative: touching digits)."""
    dot: float
    """Radius of the separating dot, a fraction of the height."""
    jitter: float
    """Per-digit size, angle and position variation."""
    cross: str
    """How this writer crosses a number out: `line`, `double`, `zigzag` or `scribble`."""
    pencil: bool
    """Grey, grainy strokes."""


@dataclass(frozen=True)
class Glyphs:
    """A written number as an ink mask, with the box of each digit inside it (x0, y0, x1, y1)."""

    alpha: Alpha
    """Ink coverage 0..1, writer's upright frame (text reads left to right)."""
    digits: tuple[Box, ...]
    """Tight ink box of each digit in `alpha`'s pixels."""
    baseline: float
    """y of the writing line in `alpha`'s pixels (where the dot goes)."""


def _slant(image: npt.NDArray[np.uint8]) -> float:
    m = cv2.moments(image.astype(np.float32))
    return float(m["mu11"] / m["mu02"]) if m["mu02"] > 1e-6 else 0.0


def _one_piece(image: npt.NDArray[np.uint8]) -> bool:
    """True for a digit written in one stroke: a few MNIST samples are broken or smudged."""
    count, _, stats, _ = cv2.connectedComponentsWithStats((image > 60).astype(np.uint8), connectivity=8)
    if count < 2:
        return False
    areas = stats[1:, cv2.CC_STAT_AREA]
    return bool(areas.max() >= 0.92 * areas.sum())


_STATS: dict[int, tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]] = {}


def _stats(part: MnistPart) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """Per digit image of `part`: written in one piece?, and its slant (computed once per part)."""
    key = id(part.images)
    if key not in _STATS:
        clean = np.array([_one_piece(image) for image in part.images], bool)
        slants = np.array([_slant(image) for image in part.images], np.float64)
        _STATS[key] = (clean, slants)
    return _STATS[key]


def make_writer(part: MnistPart, rng: np.random.Generator, *, height: float, pencil: bool = False,
                colour: tuple[int, int, int] | None = None) -> Writer:
    """A writer whose digits come from `part`, chosen at random but sharing one slant."""
    clean, slants = _stats(part)
    target = rng.normal(0.0, 0.25)
    samples: list[tuple[npt.NDArray[np.uint8], ...]] = []
    for digit in range(10):
        pool = np.flatnonzero(part.labels == digit)
        picked = rng.choice(pool, size=min(_CANDIDATES, len(pool)), replace=False)
        good = picked[clean[picked]] if clean[picked].any() else picked
        closest = good[np.argsort(np.abs(slants[good] - target))[:_SAMPLES_PER_DIGIT]]
        samples.append(tuple(part.images[i] for i in closest))
    ink = _PENCIL if pencil else (colour or _INKS[int(rng.integers(len(_INKS)))])
    return Writer(
        samples=tuple(samples),
        height=height * float(rng.uniform(0.85, 1.15)),
        slant=float(rng.normal(0.0, 0.12)),
        stroke=float(rng.uniform(0.45, 0.62) if pencil else rng.uniform(0.28, 0.6)),
        colour=ink,
        opacity=float(rng.uniform(0.7, 0.9) if pencil else rng.uniform(0.85, 1.0)),
        spacing=float(rng.uniform(-0.02, 0.22)),
        dot=float(rng.uniform(0.05, 0.1)),
        jitter=float(rng.uniform(0.02, 0.08)),
        cross=str(rng.choice(["line", "line", "double", "zigzag", "scribble"])),
        pencil=pencil,
    )


def _glyph(writer: Writer, digit: int, rng: np.random.Generator, height: float) -> Alpha:
    """One digit as an alpha mask about `height` pixels tall, slanted and turned a little."""
    options = writer.samples[digit]
    image = options[int(rng.integers(len(options)))]
    ys, xs = np.nonzero(image > 40)
    crop = image[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1].astype(np.float32) / 255.0
    h = max(6.0, height * (1.0 + rng.normal(0.0, writer.jitter)))
    scale = h / crop.shape[0]
    pad = int(np.ceil(0.35 * h)) + 2
    shear = writer.slant + rng.normal(0.0, writer.jitter)
    turn = np.deg2rad(rng.normal(0.0, 60 * writer.jitter))
    cos, sin = np.cos(turn) * scale, np.sin(turn) * scale
    # crop → output: scale and turn about the crop's centre, then shear about the baseline.
    ch, cw = crop.shape
    width = int(np.ceil(cw * scale + abs(shear) * h)) + 2 * pad
    tall = int(np.ceil(h)) + 2 * pad
    centre = np.array([width / 2.0, tall / 2.0])
    m = np.array([[cos, -sin, 0.0], [sin, cos, 0.0]])
    m[:, 2] = centre - m[:, :2] @ np.array([cw / 2.0, ch / 2.0])
    m = np.array([[1.0, -shear, shear * tall / 2.0], [0.0, 1.0, 0.0]]) @ np.vstack([m, [0, 0, 1]])
    out = np.asarray(cv2.warpAffine(crop, m, (width, tall), flags=cv2.INTER_CUBIC, borderValue=0.0),
                     np.float32)
    # A threshold ramp on the smooth upscaled digit gives clean pen edges and sets the stroke width;
    # normalised first, so that a faint MNIST sample does not vanish under a thin pen.
    out /= max(float(out.max()), 1e-3)
    # The pen does not get thinner when the writing gets smaller: a lower threshold keeps the stroke.
    t = max(0.12, writer.stroke - 0.3 * max(0.0, 1.0 - height / writer.height))
    alpha: Alpha = np.clip((out - t) / 0.22 + 0.5, 0.0, 1.0).astype(np.float32)
    if writer.pencil:
        alpha *= rng.uniform(0.7, 1.0, alpha.shape).astype(np.float32)
    return alpha


def _trim(alpha: Alpha) -> tuple[Alpha, Box]:
    ys, xs = np.nonzero(alpha > 0.25)
    if len(xs) == 0:
        return alpha, (0.0, 0.0, float(alpha.shape[1]), float(alpha.shape[0]))
    return alpha, (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))


def write_number(writer: Writer, text: str, rng: np.random.Generator, *, scale: float = 1.0) -> Glyphs:
    """The digits of `text` side by side as the writer writes them (tight ink boxes per digit)."""
    height = writer.height * scale
    glyphs = [_trim(_glyph(writer, int(ch), rng, height)) for ch in text]
    gap = writer.spacing * height
    rise = [rng.normal(0.0, writer.jitter * 0.6) * height for _ in glyphs]
    top_pad = int(np.ceil(height * 0.45))
    width = int(np.ceil(sum(b[2] - b[0] for _, b in glyphs) + gap * (len(glyphs) - 1) + height * 0.6)) + 4
    tall = int(np.ceil(height * 1.9)) + 4
    canvas = np.zeros((tall, width), np.float32)
    x = height * 0.3
    baseline = top_pad + height
    boxes: list[Box] = []
    for (alpha, (x0, y0, x1, y1)), r in zip(glyphs, rise, strict=True):
        # Each digit stands on the baseline (its ink bottom there), raised or lowered a little.
        dy = round(baseline + r - y1)
        dx = round(x - x0)
        h, w = alpha.shape
        top, left = max(0, dy), max(0, dx)
        bottom, right = min(tall, dy + h), min(width, dx + w)
        if bottom > top and right > left:
            region = canvas[top:bottom, left:right]
            np.maximum(region, alpha[top - dy: bottom - dy, left - dx: right - dx], out=region)
        boxes.append((x0 + dx, y0 + dy, x1 + dx, y1 + dy))
        x += (x1 - x0) + gap
    return Glyphs(canvas, tuple(boxes), float(baseline))


def write_dot(writer: Writer, rng: np.random.Generator, *, scale: float = 1.0) -> Glyphs:
    """The dot that separates running totals: a small blob standing on the baseline."""
    height = writer.height * scale
    r = max(1.5, writer.dot * height * rng.uniform(0.8, 1.2))
    size = int(np.ceil(4 * r)) + 4
    canvas = np.zeros((size, size), np.float32)
    c = size / 2.0
    cv2.ellipse(canvas, (int(c * 16), int(c * 16)), (int(r * 16), int(r * rng.uniform(0.7, 1.1) * 16)),
                float(rng.uniform(0, 180)), 0, 360, 1.0, -1, cv2.LINE_AA, 4)
    return Glyphs(canvas, ((c - r, c - r, c + r, c + r),), c + r)


def write_cross(writer: Writer, alpha: Alpha, box: Box, rng: np.random.Generator) -> None:
    """Cross out the ink inside `box` of `alpha` in the writer's way (drawn into `alpha` in place)."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    thick = max(1, round(h * rng.uniform(0.05, 0.09)))
    pts: list[list[tuple[float, float]]]
    if writer.cross == "line":
        pts = [[(x0 - 0.1 * h, y0 + h * rng.uniform(0.35, 0.65)),
                (x1 + 0.1 * h, y0 + h * rng.uniform(0.35, 0.65))]]
    elif writer.cross == "double":
        pts = [[(x0 - 0.1 * h, y0 + 0.38 * h), (x1 + 0.1 * h, y0 + 0.42 * h)],
               [(x0 - 0.1 * h, y0 + 0.6 * h), (x1 + 0.1 * h, y0 + 0.63 * h)]]
    elif writer.cross == "zigzag":
        n = max(3, int((x1 - x0) / (0.35 * h)))
        pts = [[(x0 + (x1 - x0) * i / n, y0 + (0.15 if i % 2 else 0.85) * h) for i in range(n + 1)]]
    else:
        n = max(4, int((x1 - x0) / (0.2 * h)))
        pts = [[(x0 + (x1 - x0) * i / n + rng.normal(0, 0.05 * h), y0 + h * rng.uniform(0.1, 0.9))
                for i in range(n + 1)]]
    for line in pts:
        poly = np.round(np.array(line) * 16).astype(np.int32)
        cv2.polylines(alpha, [poly], False, 1.0, thick, cv2.LINE_AA, 4)


def write_name(writer: Writer, rng: np.random.Generator, *, letters: int, scale: float = 1.0) -> Glyphs:
    """A player's name in running hand: loops and humps of cursive, never digits (ink to be ignored).

    Returns its ink with one box, the whole word.
    """
    height = writer.height * scale * 0.55  # x-height of cursive letters next to digits
    step = height * rng.uniform(0.55, 0.8)
    points: list[tuple[float, float]] = []
    x = 0.0
    for i in range(letters):
        kind = rng.choice(["loop", "hump", "tall", "low"], p=[0.35, 0.35, 0.15, 0.15])
        rise = {"loop": 1.0, "hump": 1.0, "tall": 1.9, "low": 0.7}[str(kind)] * rng.uniform(0.85, 1.15)
        start = 0 if i == 0 else 1
        for t in np.linspace(0, 2 * np.pi, 14)[start:]:
            if kind == "loop":  # e, l: the pen goes up, loops back and comes down
                px = x + step * (t / (2 * np.pi)) - 0.35 * step * np.sin(t)
            else:  # n, m, h: up and over
                px = x + step * (t / (2 * np.pi))
            py = -height * rise * (0.5 - 0.5 * np.cos(t))
            points.append((float(px), float(py)))
        x += step
    pts = np.array(points)
    pts[:, 0] -= writer.slant * pts[:, 1]  # the writer's slant (y is negative upwards)
    pad = height * 0.6 + 4
    pts -= pts.min(axis=0) - pad
    width = int(np.ceil(pts[:, 0].max() + pad))
    tall = int(np.ceil(pts[:, 1].max() + pad))
    canvas = np.zeros((tall, width), np.float32)
    thick = max(1, round(height * 0.13))
    cv2.polylines(canvas, [np.round(pts * 16).astype(np.int32)], False, 1.0, thick, cv2.LINE_AA, 4)
    ys, xs = np.nonzero(canvas > 0.25)
    box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
    return Glyphs(canvas, (box,), float(pts[:, 1].max()))
