"""Writing the running totals into the zones of a drawn sheet, upright for the seat that writes them.

Layout happens in the writer's own frame (text reads left to right, lines go down), which is the paper
frame turned by the zone's writing angle; glyph masks are turned by whole quarter turns (exact on the
pixel grid) and laid onto the paper. Every number's and digit's quadrilateral is returned in paper
pixels, corners in the writer's reading order (top-left, top-right, bottom-right, bottom-left).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from sheetscan.layouts import SheetGeometry, SheetLayout
from sheetscan.vision.render._hand import Glyphs, Writer, write_cross, write_dot, write_name, write_number

__all__ = [
    "Entry",
    "Placed",
    "Quad",
    "name_places",
    "paste",
    "sheet_height",
    "sheet_to_paper",
    "with_mistakes",
    "write_name_at",
    "write_numbers",
    "write_target",
    "write_zone",
]

PaperPoint = tuple[float, float]
Quad = tuple[PaperPoint, PaperPoint, PaperPoint, PaperPoint]

_SCALES = (1.0, 0.86, 0.74, 0.64, 0.55, 0.47, 0.4, 0.34, 0.29, 0.25)


@dataclass(frozen=True)
class Entry:
    """A number to write: its value and whether it is a mistake the writer crosses out."""

    value: int
    """The number (running totals are never negative on a sheet, but a minus is not needed)."""
    crossed_out: bool = False
    """Written, then crossed out; the next entry is the right value."""


@dataclass(frozen=True)
class Placed:
    """Where a number ended up on the paper."""

    value: int
    """The number written."""
    crossed_out: bool
    """Whether it is crossed out."""
    angle: int
    """Writing angle (degrees clockwise, see `sheetscan.layouts`)."""
    quad: Quad
    """The number's box in paper pixels, corners in the writer's reading order."""
    digits: tuple[Quad, ...]
    """Each digit's ink box in paper pixels, same corner order."""


def _rotate(point: tuple[float, float], degrees: float) -> tuple[float, float]:
    """Turn a point clockwise on screen (y down) by `degrees` about the origin."""
    t = math.radians(degrees)
    x, y = point
    return (x * math.cos(t) - y * math.sin(t), x * math.sin(t) + y * math.cos(t))


def _intervals(polygon: list[tuple[float, float]], y: float) -> list[tuple[float, float]]:
    """The x ranges where the horizontal line at `y` is inside the polygon."""
    xs: list[float] = []
    for (x0, y0), (x1, y1) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y0 > y) != (y1 > y):
            xs.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
    xs.sort()
    return [(xs[i], xs[i + 1]) for i in range(0, len(xs) - 1, 2)]


def _common(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out = []
    for a0, a1 in a:
        for b0, b1 in b:
            lo, hi = max(a0, b0), min(a1, b1)
            if hi > lo:
                out.append((lo, hi))
    return sorted(out)


def _slots(polygon: list[tuple[float, float]], height: float, pitch: float, margin: float
           ) -> list[tuple[float, float, float]]:
    """(y_top, x_start, x_end) of every writable piece of line inside the polygon, in reading order."""
    # Decision: lines start at the top of the writer's frame, the side towards the sheet's centre, as
    # people write down a page; the first numbers of a zone are nearest the inner line.
    ys = [p[1] for p in polygon]
    top, bottom = min(ys) + margin, max(ys) - margin
    out: list[tuple[float, float, float]] = []
    y = top
    while y + height <= bottom:
        spans = _intervals(polygon, y)
        for probe in (y + height * 0.5, y + height):
            spans = _common(spans, _intervals(polygon, probe))
        out.extend((y, x0 + margin, x1 - margin) for x0, x1 in spans if x1 - x0 > 2 * margin)
        y += pitch
    return out


@dataclass
class _Token:
    glyphs: Glyphs
    entry: Entry
    dot: Glyphs | None


def _tokens(writer: Writer, entries: list[Entry], rng: np.random.Generator, scale: float) -> list[_Token]:
    out: list[_Token] = []
    for i, entry in enumerate(entries):
        glyphs = write_number(writer, str(entry.value), rng, scale=scale)
        if entry.crossed_out:
            boxes = glyphs.digits
            box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                   max(b[3] for b in boxes))
            write_cross(writer, glyphs.alpha, box, rng)
        last = i == len(entries) - 1
        # Writers with the smallest dots (about one in ten) now and then leave a dot out: just a gap.
        forgot = writer.dot < 0.055 and rng.random() < 0.3
        # Decision: no dot after a crossed-out number: the right value follows it after a space.
        dot = None if last or entry.crossed_out or forgot else write_dot(writer, rng, scale=scale)
        out.append(_Token(glyphs, entry, dot))
    return out


def _extent(g: Glyphs) -> tuple[float, float]:
    return (min(b[0] for b in g.digits), max(b[2] for b in g.digits))


def paste(paper: npt.NDArray[np.uint8], alpha: npt.NDArray[np.float32], left: int, top: int,
          colour: tuple[int, int, int], opacity: float) -> None:
    """Lay ink of `colour` with coverage `alpha` onto the paper at (left, top), clipped to the paper."""
    h, w = alpha.shape
    ph, pw = paper.shape[:2]
    x0, y0, x1, y1 = max(0, left), max(0, top), min(pw, left + w), min(ph, top + h)
    if x1 <= x0 or y1 <= y0:
        return
    a = alpha[y0 - top: y1 - top, x0 - left: x1 - left, None] * opacity
    region = paper[y0:y1, x0:x1].astype(np.float32)
    # Ink darkens the paper multiplicatively, like a pen on slightly tinted paper.
    ink = region * (np.array(colour, np.float32) / 255.0)
    paper[y0:y1, x0:x1] = np.clip(region * (1.0 - a) + ink * a, 0, 255).astype(np.uint8)


def _put(paper: npt.NDArray[np.uint8], g: Glyphs, at: tuple[float, float], angle: int, writer: Writer
         ) -> tuple[Quad, tuple[Quad, ...]]:
    """Lay glyphs whose top-left is at writer-frame `at`; return the number's and digits' paper quads."""
    gx, gy = round(at[0]), round(at[1])
    h, w = g.alpha.shape
    turned = np.ascontiguousarray(np.rot90(g.alpha, k=-(angle // 90) % 4))
    corners = [_rotate(p, angle) for p in ((gx, gy), (gx + w, gy), (gx + w, gy + h), (gx, gy + h))]
    left = round(min(c[0] for c in corners))
    top = round(min(c[1] for c in corners))
    paste(paper, turned, left, top, writer.colour, writer.opacity)

    def quad(box: tuple[float, float, float, float]) -> Quad:
        x0, y0, x1, y1 = box
        pts = [_rotate((gx + x, gy + y), angle) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        return (pts[0], pts[1], pts[2], pts[3])

    digits = tuple(quad(b) for b in g.digits)
    whole = (min(b[0] for b in g.digits), min(b[1] for b in g.digits), max(b[2] for b in g.digits),
             max(b[3] for b in g.digits))
    return quad(whole), digits


def write_zone(paper: npt.NDArray[np.uint8], parts: list[tuple[list[PaperPoint], int]], entries: list[Entry],
               writer: Writer, rng: np.random.Generator) -> list[Placed]:
    """Write `entries` into the zone's parts (paper-pixel polygons, each with its writing angle).

    Lines fill the first part, then the next; when the numbers do not fit, the writer writes smaller.
    """
    if not entries:
        return []
    pitch_factor = float(rng.uniform(1.3, 1.75))
    gap_factor = float(rng.uniform(0.25, 0.6))
    indent_factor = float(rng.uniform(0.0, 1.5)) if rng.random() < 0.5 else 0.0
    for scale in _SCALES:
        height = writer.height * scale
        tokens = _tokens(writer, entries, rng, scale)
        slots: list[tuple[int, tuple[float, float, float]]] = []
        for index, (polygon, angle) in enumerate(parts):
            frame = [_rotate(p, -angle) for p in polygon]
            # A cramped writer first closes up the lines, then writes smaller.
            pitch = height * max(1.2, pitch_factor - (1.0 - scale) * 0.6)
            found = _slots(frame, height * 1.2, pitch, 0.25 * height)
            slots.extend((index, s) for s in found)
        plan = _plan(tokens, slots, height * gap_factor, indent=height * indent_factor)
        if plan is not None or scale == _SCALES[-1]:
            break
    if plan is None:
        plan = _plan(tokens, slots, height * gap_factor, force=True)
        assert plan is not None
    placed: list[Placed] = []
    for token, (part_index, x, y) in zip(tokens, plan, strict=True):
        angle = parts[part_index][1]
        g = token.glyphs
        x0, _ = _extent(g)
        # The glyph canvas has its baseline at g.baseline; put it on the line's writing baseline.
        at = (x - x0, y + height * 1.1 - g.baseline + rng.normal(0.0, 0.04) * height)
        quad, digits = _put(paper, g, at, angle, writer)
        placed.append(Placed(token.entry.value, token.entry.crossed_out, angle, quad, digits))
        if token.dot is not None:
            _, x1 = _extent(g)
            dot_at = (at[0] + x1 + 0.12 * height - token.dot.digits[0][0],
                      at[1] + g.baseline - token.dot.baseline + rng.normal(0.0, 0.05) * height)
            _put(paper, token.dot, dot_at, angle, writer)
    return placed


def _plan(tokens: list[_Token], slots: list[tuple[int, tuple[float, float, float]]], gap: float,
          *, force: bool = False, indent: float = 0.0) -> list[tuple[int, float, float]] | None:
    """(part, x, y_top) for each token in the writer's frame, or None when they do not all fit.

    `indent` moves the start of the first line in from the zone's edge (some start a little in).
    """
    out: list[tuple[int, float, float]] = []
    slot = 0
    cursor: float | None = slots[0][1][1] + indent if slots else None
    for token in tokens:
        x0, x1 = _extent(token.glyphs)
        width = x1 - x0
        dot_width = 0.0 if token.dot is None else token.dot.alpha.shape[1] * 0.5
        while slot < len(slots):
            part, (y, start, end) = slots[slot]
            here = start if cursor is None else cursor
            if here + width <= end:
                out.append((part, here, y))
                # No dot: the writer leaves a wider gap instead, as people do.
                cursor = here + width + (dot_width if token.dot is not None else 1.5 * gap) + gap
                break
            slot, cursor = slot + 1, None
        else:
            if not force:
                return None
            # Out of room even at the smallest size: keep writing past the last line, as people do.
            part, (y, start, _) = slots[-1] if slots else (0, (0.0, 0.0, 0.0))
            out.append((part, start + (cursor or 0.0), y))
            cursor = (cursor or 0.0) + width + gap
    return out


def write_target(paper: npt.NDArray[np.uint8], box: tuple[float, float, float, float], value: int,
                 writer: Writer, rng: np.random.Generator) -> Placed:
    """Write the pulka target centred in `box` (paper pixels), upright."""
    x0, y0, x1, y1 = box
    scale = min(1.3, 0.8 * (y1 - y0) / writer.height)
    g = write_number(writer, str(value), rng, scale=scale)
    for _ in range(4):
        gx0, gx1 = _extent(g)
        if gx1 - gx0 <= 0.95 * (x1 - x0):
            break
        scale *= 0.8
        g = write_number(writer, str(value), rng, scale=scale)
    gx0, gx1 = _extent(g)
    gy0 = min(b[1] for b in g.digits)
    gy1 = max(b[3] for b in g.digits)
    at = ((x0 + x1) / 2 - (gx0 + gx1) / 2, (y0 + y1) / 2 - (gy0 + gy1) / 2)
    quad, digits = _put(paper, g, at, 0, writer)
    return Placed(value, False, 0, quad, digits)


def write_name_at(paper: npt.NDArray[np.uint8], centre: tuple[float, float], angle: int, writer: Writer,
                  rng: np.random.Generator, *, room: float) -> Quad | None:
    """Write a name-like scribble centred at `centre` (paper pixels), upright for `angle`, no taller than
    `room` pixels; returns its quad in paper pixels, or None when there is no room."""
    glyphs = write_name(writer, rng, letters=int(rng.integers(3, 8)))
    x0, y0, x1, y1 = glyphs.digits[0]
    if y1 - y0 > room:
        glyphs = write_name(writer, rng, letters=int(rng.integers(3, 8)), scale=room / (y1 - y0) * 0.9)
        x0, y0, x1, y1 = glyphs.digits[0]
        if y1 - y0 < 4:
            return None
    # Position in the writer's frame so that the word's centre lands on `centre`.
    cx, cy = _rotate(centre, -angle)
    at = (cx - (x0 + x1) / 2, cy - (y0 + y1) / 2)
    quad, _ = _put(paper, glyphs, at, angle, writer)
    return quad


def _mistake(value: int, rng: np.random.Generator) -> int:
    """A plausible wrong running total: a slip of one digit or an off-by-a-step sum."""
    for _ in range(10):
        text = str(value)
        if rng.random() < 0.5:
            i = int(rng.integers(len(text)))
            wrong = int(text[:i] + str(int(rng.integers(10))) + text[i + 1:])
        else:
            wrong = value + int(rng.choice([-10, -4, -2, 2, 4, 10]))
        if wrong != value and wrong >= 0:
            return wrong
    return value + 1


def with_mistakes(values: list[int], rate: float, rng: np.random.Generator) -> list[Entry]:
    """The numbers as written: now and then a wrong one first, crossed out, then the right one."""
    written: list[Entry] = []
    for value in values:
        if rng.random() < rate:
            written.append(Entry(_mistake(value, rng), crossed_out=True))
        written.append(Entry(value))
    return written


_SEAT_EDGES = {3: ("bottom", "left", "right"), 4: ("bottom", "left", "top", "right")}
_EDGE_ANGLE = {"bottom": 0, "left": 90, "top": 180, "right": -90}


def name_places(layout: SheetLayout, paper: npt.NDArray[np.uint8], to_px: npt.NDArray[np.float64],
                px_per_mm: float, rng: np.random.Generator
                ) -> list[tuple[int, tuple[float, float], int, float]]:
    """(seat, centre, angle, room) where each seat's name goes: by its edge, outside the sheet (on a
    form, on the printed name line)."""
    # Decision: names go just outside the drawn outer rectangle, not inside the whist zone by its outer
    # edge (LAYOUT.md allows both), because there they never overlap a number and the truth stays clean.
    ph, pw = paper.shape[:2]
    # The sheet's bounding box on the paper (a hand-drawn frame may be a little skewed).
    frame = np.array([sheet_to_paper(to_px, x, y) for x, y in ((0, 0), (1, 0), (1, 1), (0, 1))])
    left, top = frame.min(axis=0)
    width, height = frame.max(axis=0) - frame.min(axis=0)
    out = []
    for seat, edge in enumerate(_SEAT_EDGES[layout.players]):
        angle = _EDGE_ANGLE[edge]
        u = float(rng.uniform(0.35, 0.65))
        if layout.printed:
            # The form's name line sits 5.5 mm outside the edge's middle; write on it, right of "имя".
            gap = 5.5 * px_per_mm
            anchor = {"bottom": (left + width / 2, top + height + gap),
                      "top": (left + width / 2, top - gap),
                      "left": (left - gap, top + height / 2),
                      "right": (left + width + gap, top + height / 2)}[edge]
            t = math.radians(angle)
            along, up = 12.0 * px_per_mm, -2.2 * px_per_mm  # in the writer's frame
            centre = (anchor[0] + along * math.cos(t) - up * math.sin(t),
                      anchor[1] + along * math.sin(t) + up * math.cos(t))
            out.append((seat, centre, angle, 6.0 * px_per_mm))
            continue
        margin = {"bottom": ph - (top + height), "top": top, "left": left, "right": pw - (left + width)}[edge]
        centre = {"bottom": (left + width * u, top + height + margin / 2),
                  "top": (left + width * u, top / 2),
                  "left": (left / 2, top + height * u),
                  "right": (left + width + margin / 2, top + height * u)}[edge]
        out.append((seat, centre, angle, margin * 0.7))
    return out


def sheet_height(to_px: npt.NDArray[np.float64]) -> float:
    """The sheet's height in paper pixels (the mean of its left and right edges)."""
    tl, tr, br, bl = (np.array(sheet_to_paper(to_px, x, y)) for x, y in ((0, 0), (1, 0), (1, 1), (0, 1)))
    return float((np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2)


def sheet_to_paper(to_px: npt.NDArray[np.float64], x: float, y: float) -> tuple[float, float]:
    """A normalised sheet point in paper pixels (`to_px`: the sheet → paper homography)."""
    u, v, w = to_px @ np.array([x, y, 1.0])
    return (float(u / w), float(v / w))


def write_numbers(paper: npt.NDArray[np.uint8], geometry: SheetGeometry, to_px: npt.NDArray[np.float64],
                  entries: dict[int, list[Entry]], writers: list[Writer], turns: list[bool],
                  rng: np.random.Generator) -> list[tuple[int, int, Placed]]:
    """Write every zone's numbers; returns (zone index, order in zone, placement)."""
    out: list[tuple[int, int, Placed]] = []
    for zone in geometry.zones:
        written = entries.get(zone.index, [])
        if not written:
            continue
        parts = []
        for p in zone.parts:
            angle = p.angles[1] if turns[zone.player] and len(p.angles) > 1 else p.angles[0]
            parts.append(([sheet_to_paper(to_px, x, y) for x, y in p.polygon], angle))
        placed = write_zone(paper, parts, written, writers[zone.player], rng)
        out.extend((zone.index, order, p) for order, p in enumerate(placed))
    return out
