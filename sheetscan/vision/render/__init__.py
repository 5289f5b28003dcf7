"""Photographed-looking pulka sheets written in real human handwriting, and the printable forms.

`render_sheet(sheet)` draws a `sheetscan.sheet/1` as players write it through an evening (running totals
with dots, upright for each seat, wrapping lines, now and then a crossed-out mistake, the target in the
circle) on a hand-drawn sheet or one of our printed forms, then photographs it on a table. It returns
the photo and its truth (`sheetscan.truth/1`, samples/README.md): where the sheet lies and where every
written number and digit is, in photo pixels. `render_game(record)` does the same for a game record,
through the rules core's replay. `form_page` draws the printable form.

The digits come from MNIST (`sheetscan.vision.mnist`): `digits_from="train"` only for what a recogniser
learns from; everything that measures uses "validation" or "test" (the default).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.errors import InvalidInputError
from sheetscan.layouts import SheetGeometry, SheetLayout, find_layout, layout_for
from sheetscan.vision.mnist import Split, load_mnist
from sheetscan.vision.render._draw import LineStyle, crease, draw_lines, make_paper, vary_proportions
from sheetscan.vision.render._form import form_page, form_qr_text, save_form
from sheetscan.vision.render._hand import Writer, make_writer
from sheetscan.vision.render._photo import photograph
from sheetscan.vision.render._sheet import sheet_entries, sheet_from_game, sheet_or_game
from sheetscan.vision.render._write import Entry, Placed, Quad, write_name_at, write_target, write_zone

__all__ = [
    "TRUTH_FORMAT",
    "Rendered",
    "form_page",
    "form_qr_text",
    "render_game",
    "render_sheet",
    "save_form",
    "sheet_or_game",
]

TRUTH_FORMAT = "sheetscan.truth/1"
"""Format tag of the truth file written beside a rendered photo."""

_A4 = (210.0, 297.0)


@dataclass(frozen=True)
class Rendered:
    """A rendered photo and its truth."""

    image: npt.NDArray[np.uint8]
    """The photo (BGR), before JPEG compression."""
    truth: dict[str, Any]
    """The `sheetscan.truth/1` document (JSON-ready)."""
    jpeg_quality: int
    """The quality the photo is meant to be saved with (phones vary; so do we)."""

    def jpeg(self) -> bytes:
        """The photo as JPEG bytes at `jpeg_quality`."""
        ok, data = cv2.imencode(".jpg", self.image, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
        if not ok:  # pragma: no cover - OpenCV always encodes a uint8 BGR image
            raise RuntimeError("JPEG encoding failed")
        return bytes(data.tobytes())

    def png(self) -> bytes:
        """The photo as lossless PNG bytes."""
        ok, data = cv2.imencode(".png", self.image)
        if not ok:  # pragma: no cover
            raise RuntimeError("PNG encoding failed")
        return bytes(data.tobytes())


def render_game(record: Mapping[str, Any], **options: Any) -> Rendered:
    """Render the sheet that replaying the game record (`sheetscan.game/1`) produces; see `render_sheet`."""
    return render_sheet(sheet_from_game(record), **options)


def _paper_for(layout: SheetLayout, aspect: float, rng: np.random.Generator, grain: np.random.Generator,
               long_px: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64], float, bool]:
    """A blank paper for a hand-drawn sheet and where the sheet goes on it.

    Returns (paper, sheet → paper pixels 3 × 3, px per mm, squared notebook paper?).
    """
    landscape = aspect >= 1.0
    paper_mm = (_A4[1], _A4[0]) if landscape else _A4
    px_per_mm = long_px / max(paper_mm)
    pw, ph = round(paper_mm[0] * px_per_mm), round(paper_mm[1] * px_per_mm)
    squared = bool(rng.random() < 0.4)
    paper = make_paper(pw, ph, grain, squared=squared, px_per_mm=px_per_mm)
    margins = rng.uniform(0.03, 0.09, 4)  # left, top, right, bottom, fractions of the paper
    room_w = pw * (1 - margins[0] - margins[2])
    room_h = ph * (1 - margins[1] - margins[3])
    sheet_h = min(room_h, room_w / aspect)
    sheet_w = sheet_h * aspect
    left = pw * margins[0] + (room_w - sheet_w) * rng.uniform(0, 1)
    top = ph * margins[1] + (room_h - sheet_h) * rng.uniform(0, 1)
    to_px = np.array([[sheet_w, 0, left], [0, sheet_h, top], [0, 0, 1]], np.float64)
    return paper, to_px, px_per_mm, squared


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


def _with_mistakes(values: list[int], rate: float, rng: np.random.Generator) -> list[Entry]:
    """The numbers as written: now and then a wrong one first, crossed out, then the right one."""
    written: list[Entry] = []
    for value in values:
        if rng.random() < rate:
            written.append(Entry(_mistake(value, rng), crossed_out=True))
        written.append(Entry(value))
    return written


def _apply(h: npt.NDArray[np.float64], points: Any) -> list[list[float]]:
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    out = cv2.perspectiveTransform(pts[None, :, :], h)[0]
    return [[round(float(x), 2), round(float(y), 2)] for x, y in out]


def render_sheet(sheet: Mapping[str, Any], *, layout: str | SheetLayout | None = None, seed: int = 0,
                 digits_from: Split = "test", photo: bool = True, size: tuple[int, int] = (4000, 3000),
                 max_tilt: float = 35.0, crossed_out_rate: float = 0.04, bend_chance: float = 0.35,
                 orientation: Literal["any", "landscape", "portrait"] = "any") -> Rendered:
    """Draw `sheet` (`sheetscan.sheet/1`) by hand or on a form, photograph it, and say where everything is.

    `layout` defaults to the hand-drawn layout for the sheet's players; `size` is the photo's (width,
    height), held as `orientation` says (`any`: a third of the photos come out portrait); `photo=False`
    gives the flat paper instead.
    `crossed_out_rate` is the share of numbers first written wrong and crossed out; `bend_chance` how
    often the paper does not lie flat (then the truth's points include the bend, and `homography` is
    off by at most the truth's `bend_px`). The same arguments always give the same pixels.
    """
    if digits_from not in ("train", "validation", "test"):
        raise ValueError(f"digits_from must be train, validation or test, not {digits_from!r}")
    players, entries = sheet_entries(sheet)
    n = len(players)
    if layout is None:
        chosen = layout_for(n)
    else:
        chosen = layout if isinstance(layout, SheetLayout) else find_layout(layout)
    if chosen.players != n:
        raise InvalidInputError(f"the sheet has {n} players but layout {chosen.name} is for {chosen.players}")
    # One generator per stage: the sheet, its writing and its mistakes come out the same at any photo
    # size (only stages that draw per pixel use their own, size-dependent streams).
    streams = np.random.SeedSequence(seed).spawn(7)
    rng, grain, pen, hands, slips, writing, camera = (np.random.default_rng(s) for s in streams)
    width, height = size
    turn = rng.random() < 0.35 if orientation == "any" else (orientation == "portrait") != (height > width)
    if turn:
        width, height = height, width
    long_px = int(max(width, height) * 0.82)

    proportions = chosen.default if chosen.printed else vary_proportions(chosen, rng)
    geometry = chosen.geometry(proportions)
    if chosen.printed:
        assert chosen.page is not None
        px_per_mm = long_px / max(chosen.page.size_mm)
        qr = form_qr_text(chosen, variant=str(sheet.get("variant") or "") or None,
                          pulka=int(sheet["pulka"]) if rng.random() < 0.5 and "pulka" in sheet else None)
        paper = form_page(chosen, px_per_mm=px_per_mm, qr_text=qr, rng=grain)
        left, top, right, bottom = (v * px_per_mm for v in chosen.page.sheet_mm)
        to_px = np.array([[right - left, 0, left], [0, bottom - top, top], [0, 0, 1]], np.float64)
        paper_kind = "form"
    else:
        paper, to_px, px_per_mm, squared = _paper_for(chosen, proportions.aspect, rng, grain, long_px)
        draw_lines(paper, geometry, to_px, LineStyle.random(pen, to_px[1, 1]), pen)
        paper_kind = "squared" if squared else "plain"

    part = load_mnist(digits_from)
    sheet_h = float(to_px[1, 1])
    writers = [make_writer(part, hands, height=sheet_h * float(hands.uniform(0.022, 0.034)),
                           pencil=bool(hands.random() < 0.1)) for _ in range(n)]
    turns = [bool(hands.random() < 0.3) for _ in range(n)]  # writes along the top band, not across it
    written = {zone: _with_mistakes(values, crossed_out_rate, slips)
               for zone, values in sorted(entries.items())}
    numbers = _write_all(paper, geometry, to_px, written, writers, turns, writing)
    target = None
    if sheet.get("pulka") is not None:
        (cx0, cy0, cx1, cy1) = geometry.target_box
        box = (*_to(to_px, cx0, cy0), *_to(to_px, cx1, cy1))
        target = write_target(paper, box, int(sheet["pulka"]), writers[0], writing)
    names: list[tuple[int, Quad]] = []
    if rng.random() < 0.6:  # the scorekeeper wrote the names by the seats
        scribe = writers[int(rng.integers(n))]
        for seat, centre, angle, room in _name_places(chosen, paper, to_px, px_per_mm, rng):
            quad = write_name_at(paper, centre, angle, scribe, writing, room=room)
            if quad is not None:
                names.append((seat, quad))

    if rng.random() < 0.3:
        crease(paper, rng)
    if photo:
        shot = photograph(paper, camera, size=(width, height), max_tilt=max_tilt, bend_chance=bend_chance)
        image, paper_to_photo, quality, tilt = shot.image, shot.paper_to_photo, shot.jpeg_quality, shot.tilt
        to_photo: Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]] = shot.to_photo
        bend_px = shot.bend_px
    else:
        image, paper_to_photo, quality, tilt, bend_px = paper, np.eye(3), 92, 0.0, 0.0

        def to_photo(points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
            return np.asarray(points, np.float64).reshape(-1, 2)

    homography = paper_to_photo @ to_px
    homography /= homography[2, 2]

    def from_paper(points: Any) -> list[list[float]]:
        out = to_photo(np.asarray(points, np.float64).reshape(-1, 2))
        return [[round(float(x), 2), round(float(y), 2)] for x, y in out]

    def from_sheet(points: Any) -> list[list[float]]:
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        return from_paper(pts * [to_px[0, 0], to_px[1, 1]] + [to_px[0, 2], to_px[1, 2]])

    truth = _truth(sheet, players, chosen, geometry, homography, from_sheet, from_paper, numbers, target,
                   names, image, seed=seed, digits_from=digits_from, tilt=tilt, bend_px=bend_px,
                   paper_kind=paper_kind, writers=writers)
    return Rendered(image, truth, quality)


_SEAT_EDGES = {3: ("bottom", "left", "right"), 4: ("bottom", "left", "top", "right")}
_EDGE_ANGLE = {"bottom": 0, "left": 90, "top": 180, "right": -90}


def _name_places(layout: SheetLayout, paper: npt.NDArray[np.uint8], to_px: npt.NDArray[np.float64],
                 px_per_mm: float, rng: np.random.Generator
                 ) -> list[tuple[int, tuple[float, float], int, float]]:
    """(seat, centre, angle, room) where each seat's name goes: by its edge, outside the sheet (on a
    form, on the printed name line)."""
    ph, pw = paper.shape[:2]
    left, top, width, height = to_px[0, 2], to_px[1, 2], to_px[0, 0], to_px[1, 1]
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


def _to(to_px: npt.NDArray[np.float64], x: float, y: float) -> tuple[float, float]:
    return (float(to_px[0, 0] * x + to_px[0, 2]), float(to_px[1, 1] * y + to_px[1, 2]))


def _write_all(paper: npt.NDArray[np.uint8], geometry: SheetGeometry, to_px: npt.NDArray[np.float64],
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
            parts.append(([_to(to_px, x, y) for x, y in p.polygon], angle))
        placed = write_zone(paper, parts, written, writers[zone.player], rng)
        out.extend((zone.index, order, p) for order, p in enumerate(placed))
    return out


def _truth(sheet: Mapping[str, Any], players: list[str], layout: SheetLayout, geometry: SheetGeometry,
           homography: npt.NDArray[np.float64], from_sheet: Callable[[Any], list[list[float]]],
           from_paper: Callable[[Any], list[list[float]]], numbers: list[tuple[int, int, Placed]],
           target: Placed | None, names: list[tuple[int, Quad]], image: npt.NDArray[np.uint8], *,
           seed: int, digits_from: str, tilt: float, bend_px: float, paper_kind: str, writers: list[Writer]
           ) -> dict[str, Any]:
    centre = _apply(homography, [0.5, 0.5])[0]
    top = _apply(homography, [0.5, 0.0])[0]
    turn = math.degrees(math.atan2(top[0] - centre[0], -(top[1] - centre[1]))) % 360.0
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
