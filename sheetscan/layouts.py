"""Sheet layouts as data: where each zone of a pulka sheet lies (LAYOUT.md, STYLE.md §4).

A layout is a frozen `SheetLayout`; its `geometry(proportions)` gives the concrete outlines for one set
of proportions, because hand-drawn sheets vary (the band widths, the circle, where the splits fall).
The printed forms (`form-3`, `form-4`) use the same geometry with fixed proportions plus a `FormPage`
that says where the sheet, the ArUco markers and the QR code sit on the A4 page.

Coordinates are normalised on the *upright* sheet: x runs right, y runs down, (0, 0) is the top-left
corner of the drawn outer rectangle and (1, 1) its bottom-right corner. The sheet is `aspect` times
wider than tall, so a round circle is an ellipse with radii `(r / aspect, r)` in these coordinates.

Seats (FORMATS.md "Scan result"): 0 is the sector along the bottom edge, then clockwise seen from
above: three players 0 bottom, 1 left, 2 right; four players 0 bottom, 1 left, 2 top, 3 right. A seat's
left neighbour is seat + 1, its right neighbour seat − 1 (mod n).

Zone order (the index of a zone in `SheetGeometry.zones` and in the scan result's `zones` list): seat
by seat from 0, and within a seat `pulka`, `gora`, then the whist parts on seat + 1, seat + 2, …
(mod n). That is also the order of the whist parts along the seat's edge from the writer's left to
right. So `index = seat * (n + 1) + k` with k = 0 pulka, 1 gora, 1 + j whists on seat + j.

Writing angles: degrees by which the writer's text is turned clockwise on the upright sheet from
normal reading (x right, y down): 0 reads from the bottom edge, 90 from the left edge (the baseline
runs down the page), -90 from the right edge (the baseline runs up), 180 from the top edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Literal

__all__ = [
    "LABEL_MM",
    "LAYOUTS",
    "FormPage",
    "Point",
    "Proportions",
    "Rect",
    "SheetGeometry",
    "SheetLayout",
    "Zone",
    "ZoneKind",
    "ZonePart",
    "find_layout",
    "label_places",
    "layout_for",
    "point_in_polygon",
    "polygon_area",
    "zone_index",
]

Point = tuple[float, float]
"""A point (x, y) in normalised upright sheet coordinates."""

Rect = tuple[float, float, float, float]
"""An axis-parallel rectangle (left, top, right, bottom) in normalised sheet coordinates."""

ZoneKind = Literal["pulka", "gora", "whists"]
"""What a zone holds (GLOSSARY.md)."""

# Each edge: the writing angle of a seat sitting at it, and the direction (image angle, y down) that
# points from the centre towards it; used to pick the outer side of the centre circle's arcs.
_EDGE_ANGLE: dict[str, int] = {"bottom": 0, "left": 90, "top": 180, "right": -90}
_EDGE_DIRECTION: dict[str, float] = {"bottom": 90.0, "left": 180.0, "top": 270.0, "right": 0.0}
_ARC_POINTS = 10  # vertices per circle arc in a gora polygon: smooth enough to tell ink from outline


@dataclass(frozen=True)
class Proportions:
    """The free measurements of a drawn sheet; a layout's `default` is what our forms print."""

    aspect: float
    """Width / height of the outer rectangle."""
    whists: tuple[float, float, float, float]
    """Width of the whist band along the (left, top, right, bottom) edge: a fraction of the sheet's
    width for left/right and of its height for top/bottom."""
    pulka: tuple[float, float, float, float]
    """Width of the pulka band inside the whist band, per edge as in `whists`."""
    circle_radius: float
    """Radius of the centre circle as a fraction of the sheet's height."""
    circle_center: Point = (0.5, 0.5)
    """Centre of the circle (normalised); it must lie well inside the gora rectangle."""
    top_split: float = 0.5
    """Three players: x of the spoke that runs from the circle up to the top edge."""
    whist_splits: tuple[tuple[float, ...], ...] = ()
    """Per seat, where the whist parts meet along the seat's outer edge, as fractions of that edge from
    the writer's left end. Three players: only seat 0 has one (the left and right seats' parts meet at
    the top corner); four players: two per seat. Empty = the layout's even default."""


@dataclass(frozen=True)
class ZonePart:
    """A piece of a zone that is written as one block of lines (an L-shaped zone has two)."""

    polygon: tuple[Point, ...]
    """Outline of the piece (normalised, simple polygon)."""
    angles: tuple[int, ...]
    """Writing angles the writer may use here, the usual one first."""


@dataclass(frozen=True)
class Zone:
    """One zone of the sheet: a seat's pulka, gora, or the part of its whists written on one opponent."""

    index: int
    """Position in `SheetGeometry.zones` (see the module docstring for the order)."""
    player: int
    """The seat that writes here."""
    kind: ZoneKind
    """`pulka`, `gora` or `whists`."""
    on: int | None
    """For whists: the seat the whists are written on; else None."""
    polygon: tuple[Point, ...]
    """Outline of the whole zone (normalised, simple polygon, possibly L-shaped)."""
    angles: tuple[int, ...]
    """Every writing angle used in the zone, the usual one first."""
    parts: tuple[ZonePart, ...]
    """The blocks the zone is written in, in writing order (oldest numbers in the first)."""


@dataclass(frozen=True)
class SheetGeometry:
    """The concrete outlines of one sheet: what is drawn and where each zone lies."""

    layout: str
    """Name of the layout this came from."""
    players: int
    """3 or 4."""
    aspect: float
    """Width / height of the outer rectangle."""
    rectangles: tuple[Rect, Rect, Rect]
    """The nested rectangles: outer sheet, pulka (inner edge of the whists), gora (inner edge of the
    pulka)."""
    circle_center: Point
    """Centre of the circle holding the pulka target."""
    circle_radius: tuple[float, float]
    """Radii (x, y) of the circle in normalised coordinates (a round circle on paper)."""
    spokes: tuple[tuple[Point, ...], ...]
    """The spokes as polylines from the circle outwards to the sheet's edge."""
    splits: tuple[tuple[Point, Point], ...]
    """The lines splitting whist zones into parts (from the pulka rectangle to the outer edge)."""
    zones: tuple[Zone, ...]
    """Every zone, in the documented order."""
    target_box: Rect
    """Where the pulka target is written, inside the circle."""

    def zone(self, player: int, kind: ZoneKind, on: int | None = None) -> Zone:
        """The zone of `player` of that kind (for whists, `on` names the opponent)."""
        return self.zones[zone_index(self.players, player, kind, on)]

    def seat_zones(self, player: int) -> tuple[Zone, ...]:
        """All zones of one seat: pulka, gora, whists on seat + 1, seat + 2, …"""
        return tuple(z for z in self.zones if z.player == player)


def zone_index(players: int, player: int, kind: ZoneKind, on: int | None = None) -> int:
    """Index of a zone in the documented order: seat × (n + 1) + (0 pulka, 1 gora, 1 + j whists on seat+j)."""
    if not 0 <= player < players:
        raise ValueError(f"no seat {player} with {players} players")
    base = player * (players + 1)
    if kind == "pulka":
        return base
    if kind == "gora":
        return base + 1
    if on is None or on == player or not 0 <= on < players:
        raise ValueError(f"whists of seat {player} need another seat in 0..{players - 1}, got {on!r}")
    return base + 1 + (on - player) % players


@dataclass(frozen=True)
class FormPage:
    """Where a printed form puts the sheet, its ArUco markers and its QR code on the page (mm)."""

    size_mm: tuple[float, float]
    """Page width and height (A4: 210 × 297 portrait or 297 × 210 landscape)."""
    sheet_mm: Rect
    """The sheet's outer rectangle on the page (left, top, right, bottom)."""
    marker_mm: float
    """Side of each ArUco marker, its black border included."""
    markers: tuple[tuple[int, float, float], ...]
    """(id, left, top) of each marker: ids 0–3 outside the top-left, top-right, bottom-right and
    bottom-left corners of the sheet."""
    qr_mm: tuple[float, float, float]
    """(left, top, side) of the QR code."""
    aruco_dictionary: str = "DICT_4X4_50"
    """The OpenCV ArUco dictionary the markers come from."""

    def to_sheet(self, x_mm: float, y_mm: float) -> Point:
        """A page point (mm) in normalised sheet coordinates (may lie outside 0..1)."""
        left, top, right, bottom = self.sheet_mm
        return ((x_mm - left) / (right - left), (y_mm - top) / (bottom - top))

    def marker_corners(self, marker_id: int) -> tuple[Point, Point, Point, Point]:
        """The marker's corners in normalised sheet coordinates, in OpenCV's order (TL, TR, BR, BL)."""
        for ident, left, top in self.markers:
            if ident == marker_id:
                s = self.marker_mm
                return (self.to_sheet(left, top), self.to_sheet(left + s, top),
                        self.to_sheet(left + s, top + s), self.to_sheet(left, top + s))
        raise ValueError(f"the form has no marker {marker_id}")


@dataclass(frozen=True)
class SheetLayout:
    """One sheet design: how many play on it, its default proportions and, for forms, the page."""

    name: str
    """The layout's name (`standard-3`, …), as in the scan result and `--layout`."""
    players: int
    """3 or 4."""
    default: Proportions
    """Proportions of the printed form, and the typical ones of a hand-drawn sheet."""
    printed: bool
    """True for our printable forms (sharp lines, markers, QR code)."""
    page: FormPage | None = None
    """For forms: where everything sits on the A4 page."""
    aliases: tuple[str, ...] = field(default=())
    """Other names accepted by `find_layout`."""
    description: str = ""
    """One line for help texts."""

    @property
    def aspect(self) -> float:
        """Width / height of the sheet's outer rectangle with the default proportions."""
        return self.default.aspect

    def geometry(self, proportions: Proportions | None = None) -> SheetGeometry:
        """The outlines for `proportions` (default: the layout's own); ValueError if they do not fit."""
        return _build(self, proportions or self.default)


def _check(p: Proportions, players: int) -> None:
    if not 0.3 <= p.aspect <= 3.0:
        raise ValueError(f"sheet aspect {p.aspect} is out of range 0.3..3")
    left = p.whists[0] + p.pulka[0]
    right = p.whists[2] + p.pulka[2]
    top = p.whists[1] + p.pulka[1]
    bottom = p.whists[3] + p.pulka[3]
    if min(*p.whists, *p.pulka) <= 0 or left + right >= 0.9 or top + bottom >= 0.9:
        raise ValueError("whist and pulka bands must be positive and leave room for the gora")
    cx, cy = p.circle_center
    rx, ry = p.circle_radius / p.aspect, p.circle_radius
    if not (left + rx < cx < 1 - right - rx and top + ry < cy < 1 - bottom - ry):
        raise ValueError("the circle must lie inside the gora rectangle")
    if players == 3 and not left + 0.02 < p.top_split < 1 - right - 0.02:
        raise ValueError("the top spoke must meet the top edge between the pulka rectangle's corners")


def _arc(center: Point, radius: tuple[float, float], aspect: float, start: Point, end: Point,
         via_degrees: float) -> list[Point]:
    """Points on the circle from the direction of `start` to that of `end`, passing `via_degrees`."""
    cx, cy = center

    def direction(p: Point) -> float:
        # In paper units (x scaled by the aspect) so that directions match the round circle on paper.
        return math.degrees(math.atan2(p[1] - cy, (p[0] - cx) * aspect)) % 360.0

    a, b, via = direction(start), direction(end), via_degrees % 360.0
    ccw_span = (b - a) % 360.0  # increasing image angle
    goes_up = (via - a) % 360.0 <= ccw_span
    span = ccw_span if goes_up else -((a - b) % 360.0)
    out: list[Point] = []
    for i in range(_ARC_POINTS + 1):
        t = math.radians(a + span * i / _ARC_POINTS)
        out.append((cx + radius[0] * math.cos(t), cy + radius[1] * math.sin(t)))
    return out


def _circle_point(center: Point, radius: tuple[float, float], aspect: float, toward: Point) -> Point:
    return _arc(center, radius, aspect, toward, toward, 0.0)[0]


def _corners(r: Rect) -> dict[str, Point]:
    left, top, right, bottom = r
    return {"TL": (left, top), "TR": (right, top), "BR": (right, bottom), "BL": (left, bottom)}


def _along(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _between(point: Point, start: Point, end: Point) -> bool:
    """`point` (on the segment's line) lies strictly between `start` and `end`."""
    t = ((point[0] - start[0]) * (end[0] - start[0]) + (point[1] - start[1]) * (end[1] - start[1]))
    return 0.0 < t < (end[0] - start[0]) ** 2 + (end[1] - start[1]) ** 2


def _project(point: Point, edge: str, rect: Rect) -> Point:
    """The point on `rect`'s `edge` line straight in from `point` (perpendicular to the edge)."""
    left, top, right, bottom = rect
    x, y = point
    return {"bottom": (x, bottom), "top": (x, top), "left": (left, y), "right": (right, y)}[edge]


# Each edge's corners from the left to the right of the player sitting at it (LAYOUT.md standard-4).
_EDGE_CORNERS: dict[str, tuple[str, str]] = {
    "bottom": ("BL", "BR"), "left": ("TL", "BL"), "top": ("TR", "TL"), "right": ("BR", "TR"),
}


def _build(layout: SheetLayout, p: Proportions) -> SheetGeometry:
    n = layout.players
    _check(p, n)
    r0: Rect = (0.0, 0.0, 1.0, 1.0)
    r1: Rect = (p.whists[0], p.whists[1], 1.0 - p.whists[2], 1.0 - p.whists[3])
    r2: Rect = (r1[0] + p.pulka[0], r1[1] + p.pulka[1], r1[2] - p.pulka[2], r1[3] - p.pulka[3])
    c0, c1, c2 = _corners(r0), _corners(r1), _corners(r2)
    center = p.circle_center
    radius = (p.circle_radius / p.aspect, p.circle_radius)

    def cpt(toward: Point) -> Point:
        return _circle_point(center, radius, p.aspect, toward)

    def arc(start: Point, end: Point, edge: str) -> list[Point]:
        return _arc(center, radius, p.aspect, start, end, _EDGE_DIRECTION[edge])

    zones: list[Zone] = []
    spokes: list[tuple[Point, ...]] = []
    splits: list[tuple[Point, Point]] = []

    def add(player: int, kind: ZoneKind, on: int | None, parts: list[ZonePart],
            outline: list[Point] | None = None) -> None:
        angles: list[int] = []
        for part in parts:
            angles.extend(a for a in part.angles if a not in angles)
        polygon = tuple(outline) if outline is not None else parts[0].polygon
        zones.append(Zone(len(zones), player, kind, on, polygon, tuple(angles), tuple(parts)))

    def whist_fractions(seat: int, count: int) -> tuple[float, ...]:
        given = p.whist_splits[seat] if seat < len(p.whist_splits) else ()
        return given if len(given) == count else tuple((i + 1) / (count + 1) for i in range(count))

    def edge_seat(seat: int, edge: str) -> None:
        """A trapezoid sector along one edge (standard-4, and the bottom seat of standard-3)."""
        a, b = _EDGE_CORNERS[edge]
        angle = (_EDGE_ANGLE[edge],)
        add(seat, "pulka", None, [ZonePart((c1[a], c1[b], c2[b], c2[a]), angle)])
        gora = [c2[a], c2[b], *arc(c2[b], c2[a], edge)]
        add(seat, "gora", None, [ZonePart(tuple(gora), angle)])
        fractions = whist_fractions(seat, n - 2)
        outer = [c0[a], *(_along(c0[a], c0[b], f) for f in fractions), c0[b]]
        inner = [c1[a], *(_project(q, edge, r1) for q in outer[1:-1]), c1[b]]
        if not all(_between(q, c1[a], c1[b]) for q in inner[1:-1]):
            # Straight in from the outer edge, a split this near a corner would miss the inner edge and
            # cut into the next seat's whists.
            raise ValueError("a whist split must meet the pulka rectangle's edge between its corners")
        for j in range(n - 1):
            polygon = (outer[j], outer[j + 1], inner[j + 1], inner[j])
            add(seat, "whists", (seat + 1 + j) % n, [ZonePart(polygon, angle)])
        splits.extend((inner[k], outer[k]) for k in range(1, n - 1))

    if n == 4:
        for seat, edge in enumerate(("bottom", "left", "top", "right")):
            edge_seat(seat, edge)
        for corner in ("BL", "TL", "TR", "BR"):
            spokes.append((cpt(c2[corner]), c2[corner], c1[corner], c0[corner]))
    else:
        sx = p.top_split
        t0, t1, t2 = (sx, 0.0), (sx, r1[1]), (sx, r2[1])
        edge_seat(0, "bottom")
        # Seat 1 (left) is L-shaped: the side band, then the left half of the top band.
        # Decision: along the top edge we accept the seat's own angle first, then the text run along the
        # band (0 for the left seat, 180 for the right) because LAYOUT.md says "either way"; writers of
        # side bands usually keep their own angle, so it is listed first.
        side_l, top_l = (90,), (90, 0)
        side_r, top_r = (-90,), (-90, 180)
        add(1, "pulka", None,
            [ZonePart((c1["TL"], c1["BL"], c2["BL"], c2["TL"]), side_l),
             ZonePart((t1, c1["TL"], c2["TL"], t2), top_l)],
            [t1, c1["TL"], c1["BL"], c2["BL"], c2["TL"], t2])
        gora_l = [t2, c2["TL"], c2["BL"], *arc(c2["BL"], t2, "left")]
        add(1, "gora", None, [ZonePart(tuple(gora_l), side_l)])
        add(1, "whists", 2, [ZonePart((t0, c0["TL"], c1["TL"], t1), top_l)])
        add(1, "whists", 0, [ZonePart((c0["TL"], c0["BL"], c1["BL"], c1["TL"]), side_l)])
        add(2, "pulka", None,
            [ZonePart((c1["BR"], c1["TR"], c2["TR"], c2["BR"]), side_r),
             ZonePart((c1["TR"], t1, t2, c2["TR"]), top_r)],
            [c1["BR"], c1["TR"], t1, t2, c2["TR"], c2["BR"]])
        gora_r = [c2["BR"], c2["TR"], t2, *arc(t2, c2["BR"], "right")]
        add(2, "gora", None, [ZonePart(tuple(gora_r), side_r)])
        add(2, "whists", 0, [ZonePart((c0["BR"], c0["TR"], c1["TR"], c1["BR"]), side_r)])
        add(2, "whists", 1, [ZonePart((c0["TR"], t0, t1, c1["TR"]), top_r)])
        for corner in ("BL", "BR"):
            spokes.append((cpt(c2[corner]), c2[corner], c1[corner], c0[corner]))
        spokes.append((cpt(t2), t2, t1, t0))
        splits.append((c1["TL"], c0["TL"]))
        splits.append((c1["TR"], c0["TR"]))
    zones.sort(key=lambda z: zone_index(n, z.player, z.kind, z.on))
    zones = [replace(z, index=i) for i, z in enumerate(zones)]
    box_x, box_y = radius[0] * 0.62, radius[1] * 0.62
    return SheetGeometry(
        layout=layout.name, players=n, aspect=p.aspect, rectangles=(r0, r1, r2),
        circle_center=center, circle_radius=radius, spokes=tuple(spokes), splits=tuple(splits),
        zones=tuple(zones),
        target_box=(center[0] - box_x, center[1] - box_y, center[0] + box_x, center[1] + box_y),
    )


def polygon_area(polygon: tuple[Point, ...] | list[Point]) -> float:
    """Area of a simple polygon (shoelace formula), in normalised units."""
    total = 0.0
    for (x0, y0), (x1, y1) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        total += x0 * y1 - x1 * y0
    return abs(total) / 2.0


def point_in_polygon(point: Point, polygon: tuple[Point, ...] | list[Point]) -> bool:
    """True when `point` lies inside the simple polygon (even-odd rule)."""
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


# --- the designs ---------------------------------------------------------------------------------------

# Decision: A4 landscape for three players, portrait for four, because the three-player sheet is wide
# and the four-player one near square; each then fills the page.
# A4 landscape for three players: the sheet is wide like the hand-drawn ones; the title and QR code sit
# above it, the names go in the margins along each player's edge, the markers outside the corners.
_FORM3_PAGE = FormPage(
    size_mm=(297.0, 210.0), sheet_mm=(28.0, 38.0, 269.0, 180.0), marker_mm=14.0,
    markers=((0, 10.0, 20.0), (1, 273.0, 20.0), (2, 273.0, 184.0), (3, 10.0, 184.0)),
    qr_mm=(234.0, 6.0, 30.0),
)
# A4 portrait for four players: a near-square sheet with a name margin on every side.
_FORM4_PAGE = FormPage(
    size_mm=(210.0, 297.0), sheet_mm=(28.0, 46.0, 182.0, 232.0), marker_mm=14.0,
    markers=((0, 10.0, 28.0), (1, 186.0, 28.0), (2, 186.0, 236.0), (3, 10.0, 236.0)),
    qr_mm=(156.0, 250.0, 30.0),
)

# Zone areas follow how many numbers a long game writes in each (about 30 whists, 20 gora and 12 pulka
# entries per player): narrow pulka bands, a large gora rectangle and a small circle, so that the
# bottom seat's gora, the strip under the circle, is not a sliver.
_STD3 = Proportions(
    aspect=1.4, whists=(0.13, 0.15, 0.13, 0.16), pulka=(0.07, 0.08, 0.07, 0.08), circle_radius=0.06,
    circle_center=(0.5, 0.5),
)
_STD4 = Proportions(
    aspect=1.1, whists=(0.15, 0.15, 0.15, 0.15), pulka=(0.07, 0.07, 0.07, 0.07), circle_radius=0.06,
)
_FORM3 = replace(_STD3, aspect=(269.0 - 28.0) / (180.0 - 38.0))
_FORM4 = replace(_STD4, aspect=(182.0 - 28.0) / (232.0 - 46.0))

LAYOUTS: tuple[SheetLayout, ...] = (
    SheetLayout("standard-3", 3, _STD3, printed=False, aliases=("3", "std-3", "hand-3"),
                description="three players, drawn by hand: spokes to the bottom corners and the top middle"),
    SheetLayout("standard-4", 4, _STD4, printed=False, aliases=("4", "std-4", "hand-4"),
                description="four players, drawn by hand: spokes to all four corners"),
    SheetLayout("form-3", 3, _FORM3, printed=True, page=_FORM3_PAGE, aliases=("form3",),
                description="printable form for three players (A4 landscape, ArUco markers, QR code)"),
    SheetLayout("form-4", 4, _FORM4, printed=True, page=_FORM4_PAGE, aliases=("form4",),
                description="printable form for four players (A4 portrait, ArUco markers, QR code)"),
)
"""Every known sheet design."""


LABEL_MM = 2.6
"""Font size (mm) of a printed form's zone labels (пуля, гора, висты)."""
_LABEL_INSET_MM = 2.2
"""A label's middle lies this far (mm) above its zone's bottom edge, as the zone's writer sees it."""


def label_places(layout: SheetLayout) -> tuple[tuple[Point, int] | None, ...]:
    """Where a printed form prints each zone's label (in `layout.geometry().zones` order): the label's
    middle on the page (mm) and the clockwise angle it is turned by; None for a zone with no room.

    The label sits at the bottom middle of the zone's first part as its writer sees it, where writing
    ends; a part that may be written either way (the top band of three) gets an upright label. The form
    (`sheetscan/vision/render/_form.py`) prints them here, and the number stage knows them by it.
    """
    page = layout.page
    if page is None:
        raise ValueError(f"layout {layout.name} is not a printable form")
    sl, st, sr, sb = page.sheet_mm
    places: list[tuple[Point, int] | None] = []
    for zone in layout.geometry().zones:
        part = zone.parts[0]
        angle = 0 if len(part.angles) > 1 else part.angles[0]
        pts = [(sl + x * (sr - sl), st + y * (sb - st)) for x, y in part.polygon]
        t = math.radians(-angle)
        frame = [(x * math.cos(t) - y * math.sin(t), x * math.sin(t) + y * math.cos(t)) for x, y in pts]
        bottom_y = max(p[1] for p in frame) - _LABEL_INSET_MM
        xs = _span(frame, bottom_y)
        if xs is None:
            places.append(None)
            continue
        fx, fy = (xs[0] + xs[1]) / 2, bottom_y
        back = math.radians(angle)
        places.append(((fx * math.cos(back) - fy * math.sin(back), fx * math.sin(back) + fy * math.cos(back)),
                       angle))
    return tuple(places)


def _span(polygon: list[Point], y: float) -> tuple[float, float] | None:
    """The first two crossings (left to right) of the level line at `y` with the polygon's edges."""
    xs: list[float] = []
    for (x0, y0), (x1, y1) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y0 > y) != (y1 > y):
            xs.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
    if len(xs) < 2:
        return None
    xs.sort()
    return (xs[0], xs[1])


def find_layout(name: str) -> SheetLayout:
    """The layout called `name` (or one of its aliases); ValueError naming the known ones otherwise."""
    key = name.strip().lower()
    for layout in LAYOUTS:
        if key == layout.name or key in layout.aliases:
            return layout
    known = ", ".join(layout.name for layout in LAYOUTS)
    raise ValueError(f"unknown sheet layout {name!r}: known layouts are {known}")


def layout_for(players: int, *, printed: bool = False) -> SheetLayout:
    """The standard (hand-drawn) or form layout for 3 or 4 players."""
    for layout in LAYOUTS:
        if layout.players == players and layout.printed == printed:
            return layout
    raise ValueError(f"no sheet layout for {players} players: sheets are for 3 or 4")
