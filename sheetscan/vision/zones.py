"""Stage 3 — the layout: which sheet design, which way up, and where every zone lies.

For a hand-drawn sheet nothing is assumed about its proportions: the drawn lines are measured (the
nested rectangles, the spokes, the whist splits, the circle) and the layout's topology from
`sheetscan.layouts` is fitted to them. The layout and its rotation follow from the spokes: standard-3
has one spoke from the circle to the middle of an edge (that edge is the top) and diagonals only at
the two corners opposite it; standard-4 has diagonals at all four corners and no mid-edge spoke.
A printed form's layout and rotation are known from its markers already.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.errors import NoSheetError
from sheetscan.layouts import Proportions, SheetGeometry, SheetLayout, ZoneKind
from sheetscan.vision._arrays import F64, U8, f64, u8
from sheetscan.vision._bend import Displacement, TracePlaces, fit_displacement, trace_bands, trace_places
from sheetscan.vision._debug import DebugSink, emit, wants
from sheetscan.vision._frame_lines import cleared_beyond, drawn_at_rims, lines_mask, rim_sides
from sheetscan.vision._layout_choice import choose_layout, layout_geometry, measured_proportions
from sheetscan.vision._layout_fit import measure
from sheetscan.vision._lines import hanging_pieces, hysteresis, local_ink, long_blobs
from sheetscan.vision._ring_fit import Ring, fit_ring, ring_around
from sheetscan.vision._threads import in_background
from sheetscan.vision.sheet import RectifiedSheet, to_photo_points

__all__ = ["SheetZones", "ZoneRegion", "draw_zones", "locate_zones", "to_photo_points"]

Polygon = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class ZoneRegion:
    """One zone located on the upright rectified sheet."""

    index: int
    """Position in `SheetZones.zones` and in the scan result (layouts.py's documented order)."""
    player: int
    """The seat that writes here (0 = bottom, then clockwise)."""
    kind: ZoneKind
    """`pulka`, `gora` or `whists`."""
    on: int | None
    """For whists, the seat they are written on; else None."""
    polygon: Polygon
    """Outline in upright rectified pixels."""
    writing_angles: tuple[int, ...]
    """Clockwise turns of the writing on the upright sheet (0, 90, 180, -90), the usual one first."""
    parts: tuple[tuple[Polygon, tuple[int, ...]], ...] = ()
    """The blocks the zone is written in (an L-shaped zone has two), each with its writing angles."""


@dataclass(frozen=True, eq=False)  # holds arrays: compared by identity
class SheetZones:
    """The sheet turned upright with every zone located."""

    layout: str
    """Layout name (`standard-3`, `standard-4`, `form-3`, `form-4`)."""
    players: int
    """3 or 4."""
    rotation: int
    """Clockwise turn (0/90/180/270) of the upright sheet as it lies in the photo."""
    image: U8 = field(repr=False)
    """The rectified sheet turned upright (BGR)."""
    to_photo: F64
    """3 × 3 homography from upright pixels to photo pixels."""
    zones: tuple[ZoneRegion, ...]
    """Every zone in the documented order."""
    circle: tuple[float, float, float] | None
    """The centre circle (cx, cy, r) in upright pixels, where the pulka target is written."""
    line_mask: U8 = field(repr=False)
    """255 on the drawn lines of the sheet (not the handwriting) in the upright image."""
    frame: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    """The outer rectangle in upright pixels (left, top, right, bottom)."""
    proportions: Proportions | None = None
    """The proportions fitted to the drawn lines (the form's own for a printed form)."""
    rotation_certain: bool = True
    """False when nothing on the sheet tells which side is the bottom (standard-4 without markers):
    then the side nearest the photo's bottom is taken as seat 0's."""
    partial: bool = False
    """True when part of the sheet lies outside the photo."""
    notes: tuple[str, ...] = ()
    """Plain sentences about anything doubtful."""
    bend: float = 0.0
    """How far (px, upright) the zone outlines were moved off the straight model to follow the drawn
    lines of a bent sheet or a freehand drawing; 0 when the straight model fitted."""


def locate_zones(sheet: RectifiedSheet, *, players: int | None = None, debug: DebugSink = None,
                 on_upright: Callable[[U8], None] | None = None) -> SheetZones:
    """Find the layout, its rotation and every zone of a rectified sheet.

    `players` (3 or 4), when known, restricts the layouts considered for a hand-drawn sheet. Raises
    `NoSheetError` when the rectangle found holds no pulka sheet's lines. `debug` (a callable or a
    folder) receives `03_zones`, the upright sheet with every zone outlined and numbered. `on_upright`,
    when given, is called with the upright sheet (the result's `image`) as soon as its rotation is
    known, so that the caller may start work on it while the zones are traced.
    """
    if players is not None and players not in (3, 4):
        raise ValueError(f"players must be 3 or 4, not {players}")
    image = sheet.image
    left, top, right, bottom = sheet.frame
    size = max(right - left, bottom - top)
    line_width = max(2.0, 0.004 * size)
    form = sheet.source == "form" and sheet.layout is not None
    if form and on_upright is not None:
        # A printed form is upright as rectified (its markers told its rotation): the caller's work on
        # it may start before the lines are measured.
        on_upright(image)
    mask, ratio, contrast, darkest, faint_lines = lines_mask(image, sheet.frame, line_width,
                                                 band=max(4, round(0.006 * size)))
    # Decision: the lines' faint edges and what the ink stage will take for ink are found in a second
    # thread while this one measures the lines and chooses the layout, because they need nothing but the
    # ratios (turned with the sheet afterwards), and OpenCV and numpy let go of the GIL: the same masks.
    faint_job = in_background(lambda: hysteresis(ratio, contrast, max(contrast, 0.86)))
    ink_job = in_background(lambda: local_ink(darkest))
    notes = list(sheet.notes)

    if form and sheet.layout is not None:
        layout: SheetLayout = sheet.layout
        if players is not None and players != layout.players:
            notes.append(f"the form is for {layout.players} players; --players {players} was ignored")
        k, certain = 0, True
        measured = None
        proportions = layout.default
    else:
        # Decision: where stage 2 put a side of the outer rectangle on the paper's edge (a photo taken
        # from afar: the table's rim reads as a line, and the drawn side inside it was missed), the
        # drawn side found just inside is the frame, because measuring from the paper's edge took the
        # drawn side for the pulka rectangle's (the whist band's splits then read as a mid spoke, and a
        # 4-player sheet as a 3-player one).
        rims = rim_sides(image, sheet.frame, band=max(4, round(0.006 * size)))
        measure_mask = cleared_beyond(mask, sheet.frame, rims, band=max(4, round(0.006 * size)))
        measured = measure(measure_mask, sheet.frame, faint=faint_lines)
        drawn = drawn_at_rims(measured, rims)
        if drawn != sheet.frame:
            sheet = replace(sheet, frame=drawn)
            measured = measure(measure_mask, drawn, faint=faint_lines)
        try:
            layout, k, certain, fit_note = choose_layout(measured, players)
        except NoSheetError as exc:
            if sheet.partial:
                raise NoSheetError(
                    "the sheet runs off the photo, and too little of it is inside to tell its layout; "
                    "photograph the whole sheet"
                ) from exc
            raise
        if sheet.partial:
            notes.append("the sheet is cut by the photo's edge: its layout and the zones near the cut are "
                         "uncertain")
        if fit_note:
            notes.append(fit_note)
        proportions, prop_notes = measured_proportions(layout, measured, k)
        notes.extend(prop_notes)
    upright, to_rect, frame = _turn(image, sheet.frame, k)
    if on_upright is not None and not form:
        on_upright(upright)
    geometry = layout_geometry(layout, proportions, notes)
    to_photo = f64(sheet.to_photo @ to_rect)
    to_photo /= to_photo[2, 2]
    ul, ut, ur, ub = frame
    fw, fh = ur - ul, ub - ut
    upright_mask = _turn_mask(mask, k)
    model_lines = _model_lines(geometry, frame)
    bend = fit_displacement(upright_mask, model_lines, center=((ul + ur) / 2, (ut + ub) / 2), half=size / 2,
                            search=0.025 * size, step=0.01 * size, skip=0.03 * size,
                            max_run=max(6, round(4 * line_width)))
    # Decision: keep the straight model unless following the drawn lines brings the model clearly
    # closer to them (a bent sheet, a freehand drawing), so a clean flat sheet is never disturbed.
    if bend is not None and not bend.residual < 0.8 * bend.before:
        bend = None

    def px(points: tuple[tuple[float, float], ...]) -> Polygon:
        pts = f64([(ul + x * fw, ut + y * fh) for x, y in points])
        if bend is not None:
            pts = bend.apply(pts)
        return tuple((float(x), float(y)) for x, y in pts)

    def regions(geometry: SheetGeometry) -> tuple[ZoneRegion, ...]:
        return tuple(
            ZoneRegion(index=z.index, player=z.player, kind=z.kind, on=z.on, polygon=px(z.polygon),
                       writing_angles=z.angles, parts=tuple((px(p.polygon), p.angles) for p in z.parts))
            for z in geometry.zones
        )

    zones = regions(geometry)
    circle = _circle(geometry, frame)
    if bend is not None:
        (cx, cy), = bend.apply(f64([circle[:2]]))
        circle = (float(cx), float(cy), circle[2])
    # The lines' faint edges and pale stretches: as faint as the ink stage still sees (its hysteresis
    # keeps pixels down to 0.84 of the paper), wherever they join the lines' darker ink.
    faint = _turn_mask(faint_job.result(), k)
    # Decision: a printed form's lines and circle are exactly where the model puts them and print
    # sharp, so only a hand-drawn sheet's lines are followed and taken with their faint edges: on a
    # form that would only take the edges of digits written against the lines.
    line_mask, ring = _line_mask(upright_mask, faint, model_lines, bend, circle, line_width,
                                 search=0.02 * size, follow=sheet.source != "form")
    if ring is not None:
        circle = (ring.cx, ring.cy, ring.r)
        # The mountain zones end on the circle: when the ring fitted to its own ink lies off the circle
        # they were cut for (the line search missed it and the usual one was taken, or found it only
        # roughly), they are cut again for the ring, taken back into the straight model's terms.
        centre = f64([[ring.cx, ring.cy]])
        if bend is not None:
            centre = centre - bend.shift(centre)
        mx, my = float(centre[0, 0]), float(centre[0, 1])
        gx, gy, gr = _circle(geometry, frame)
        if abs(ring.r - gr) + float(np.hypot(mx - gx, my - gy)) > line_width:
            refit = replace(proportions, circle_center=((mx - ul) / fw, (my - ut) / fh),
                            circle_radius=ring.r / fh)
            try:
                geometry, proportions = layout.geometry(refit), refit
                zones = regions(geometry)
            except ValueError:
                pass  # the ring does not fit the measured rectangles: keep the zones as they were
    # What the ink stage will take for ink right beside the lines (a ruling's stubs where it crosses a
    # line, a line's blurred fringe) is line too, so no "+" is left to read as a digit.
    line_mask = np.maximum(line_mask, hanging_pieces(line_mask, _turn_mask(ink_job.result(), k),
                                                     reach=line_width))
    # Decision: a printed form's grey labels stay out of the line mask, because the numbers stage drops
    # them itself and, measured on the bench's form photos, masking them (even only those no writing
    # comes near) cost 1-4 digits a photo: the ink stage then drops digits beside them as line fringes.
    if not certain:
        notes.append("nothing on a 4-player sheet tells which side is the bottom; the side nearest the "
                     "photo's bottom is taken as seat 0's")
    rotation = _rotation(to_photo, frame)
    result = SheetZones(
        layout=layout.name, players=layout.players, rotation=rotation, image=upright, to_photo=to_photo,
        zones=zones, circle=circle, line_mask=line_mask, frame=frame, proportions=proportions,
        rotation_certain=certain, partial=sheet.partial, notes=tuple(notes),
        bend=_largest_shift(bend, frame))
    if wants(debug):
        emit(debug, "03_zones", draw_zones(result))
    return result


def _turn(image: U8, frame: tuple[float, float, float, float], k: int
          ) -> tuple[U8, F64, tuple[float, float, float, float]]:
    """The image turned k quarter turns clockwise, the map upright px → rectified px, the turned frame."""
    h, w = image.shape[:2]
    k %= 4
    turned = _rot(image, k)
    # Upright (u, v) → rectified (x, y) for each clockwise turn k of the rectified image.
    maps = {
        0: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        1: [[0, 1, 0], [-1, 0, h - 1], [0, 0, 1]],
        2: [[-1, 0, w - 1], [0, -1, h - 1], [0, 0, 1]],
        3: [[0, -1, w - 1], [1, 0, 0], [0, 0, 1]],
    }
    to_rect = f64(maps[k])
    left, top, right, bottom = frame
    corners = f64([[left, top], [right, bottom]])
    back = np.linalg.inv(to_rect)
    pts = cv2.perspectiveTransform(corners[None], back)[0]
    ul, ur = sorted((float(pts[0, 0]), float(pts[1, 0])))
    ut, ub = sorted((float(pts[0, 1]), float(pts[1, 1])))
    return turned, to_rect, (ul, ut, ur, ub)


def _rot(image: U8, k: int) -> U8:
    """The image turned k quarter turns clockwise."""
    codes = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}
    return image if k % 4 == 0 else u8(cv2.rotate(image, codes[k % 4]))


def _turn_mask(mask: U8, k: int) -> U8:
    return _rot(mask, k)


def _rotation(to_photo: F64, frame: tuple[float, float, float, float]) -> int:
    """Clockwise turn of the upright sheet in the photo: the direction its top edge's middle lies in."""
    left, top, right, bottom = frame
    middle = (left + right) / 2
    centre, up = to_photo_points([(middle, (top + bottom) / 2), (middle, top)], to_photo)
    angle = float(np.degrees(np.arctan2(up[0] - centre[0], -(up[1] - centre[1])))) % 360.0
    return round(angle / 90.0) % 4 * 90


def _circle(geometry: SheetGeometry, frame: tuple[float, float, float, float]) -> tuple[float, float, float]:
    """The fitted circle (measured one, or the layout's usual one) in upright pixels."""
    ul, ut, ur, ub = frame
    fw, fh = ur - ul, ub - ut
    (cx, cy), (_, ry) = geometry.circle_center, geometry.circle_radius
    return (ul + cx * fw, ut + cy * fh, ry * fh)


def _model_lines(geometry: SheetGeometry, frame: tuple[float, float, float, float]) -> list[F64]:
    """Every drawn straight line of the fitted layout as a polyline in upright pixels."""
    ul, ut, ur, ub = frame
    fw, fh = ur - ul, ub - ut

    def pts(points: list[tuple[float, float]] | tuple[tuple[float, float], ...]) -> F64:
        return f64([(ul + x * fw, ut + y * fh) for x, y in points])

    lines = [pts([(left, top), (right, top), (right, bottom), (left, bottom), (left, top)])
             for left, top, right, bottom in geometry.rectangles]
    lines += [pts(spoke) for spoke in geometry.spokes]
    lines += [pts([a, b]) for a, b in geometry.splits]
    return lines


def _largest_shift(bend: Displacement | None, frame: tuple[float, float, float, float]) -> float:
    if bend is None:
        return 0.0
    ul, ut, ur, ub = frame
    xs, ys = np.meshgrid(np.linspace(ul, ur, 9), np.linspace(ut, ub, 9))
    shift = bend.shift(f64(np.stack([xs.ravel(), ys.ravel()], axis=1)))
    return float(np.hypot(shift[:, 0], shift[:, 1]).max())


def _densify(line: F64, step: float = 20.0) -> F64:
    """The polyline with places put in along each segment, at most `step` px apart: a segment
    `count` steps long (at least 1) gets the places a + (b − a) · i / count for i = 1 … count."""
    a, delta = line[:-1], line[1:] - line[:-1]
    # All segments at once: the same products and sums, place for place, as one segment at a time.
    counts = np.maximum(1, (np.hypot(delta[:, 0], delta[:, 1]) // step).astype(np.intp))
    segment = np.repeat(np.arange(len(a)), counts)
    share = (np.arange(len(segment)) - (np.cumsum(counts) - counts)[segment] + 1) / counts[segment]
    return f64(np.concatenate([line[:1], a[segment] + delta[segment] * share[:, None]]))


def _line_mask(mask: U8, faint: U8, lines: list[F64], bend: Displacement | None,
               circle: tuple[float, float, float], line_width: float, *, search: float, follow: bool = True,
               isolated: float = 0.05) -> tuple[U8, Ring | None]:
    """The ink of the drawn lines without the writing, and the drawn circle fitted to its ring.

    Two bands are joined: one of fixed width around the fitted (and bent) model, and one that follows
    each drawn line place by place (a freehand line wanders, a retraced line is two strokes side by
    side). Within them the faint mask counts, so a line's pale edges are not left as slivers that
    read as a "1". The circle is fitted to its own ring and its stroke's measured width is masked.
    Without `follow`, only the model's band and the dark mask count (a printed form); with it, only ink
    joined to a stroke at least `isolated` of the sheet long counts (not digits the trace ran into).
    """
    band = np.zeros_like(mask)
    # Decision: the model's band reaches one line width either side: a printed line lies where the
    # model puts it, and a freehand one is followed by the traced bands below. Twice that (as before)
    # took the ends of digits written against the lines as line (bench_scan, 12 photos: digits
    # 87.9% -> 91.6%, zone final values 79.4% -> 82.6%).
    thick = max(3, round(2 * line_width))
    polylines = []
    for line in lines:
        dense = _densify(line)
        if bend is not None:
            dense = bend.apply(dense)
        polylines.append(dense)
        cv2.polylines(band, [np.round(dense).astype(np.int32)], False, 255, thick)
    pad = max(2.0, 0.25 * line_width)

    # Decision: a place every half line width, because every 0.8 read fewer digits on the bench's 12
    # photos (84.3% against 84.8%) for 0.06 s less; stages 1-3 stay under 0.4 s on 12 MP.
    # Where the model's lines end and meet (corners, a spoke's ends, a split's ends): there a line's run
    # takes in the other line and is left out of the trace, and the gap left unmasked (the wedge where
    # a spoke meets the frame) was read as a "7". Near those points a left-out place takes the run of
    # the nearest kept place of its own line.
    # Decision: within 2 line widths of a kept place and 5 of a meeting point: filling every gap along
    # the lines (4 line widths, anywhere) masked the parts of digits written against the lines
    # (bench_scan seed 1000: digits 94.74% -> 93.97%); 4 and 8 near the meeting points still cost 3
    # digits, 2 and 5 none on the photos concerned.
    ends = f64(np.concatenate(lines)) if lines else f64(np.zeros((0, 2)))
    if bend is not None and len(ends):
        ends = bend.apply(ends)

    step = max(2.0, 0.5 * line_width)

    def traced(lines: list[F64], reach: float, ink: U8 = faint, fill: float = 0.0, beside: U8 | None = None,
               places: TracePlaces | None = None) -> tuple[U8, U8]:
        return trace_bands(ink, lines, search=reach, step=step,
                           max_run=max(6, round(3 * line_width)), merge=max(3, round(line_width)) | 1,
                           pad=pad, fill=fill, ends=ends, end_reach=5 * line_width, beside=beside,
                           across=thick / 2 + 2, places=places)

    out = cv2.bitwise_and(mask, band)
    if not follow:
        cx, cy, r = circle
        cv2.circle(band, (round(cx), round(cy)), round(r), 255, thick)
        return u8(cv2.bitwise_and(mask, band)), None

    def ring_and_joined() -> tuple[Ring | None, U8, npt.NDArray[np.bool_] | None]:
        # Decision: the ring is first the closed curve of ink around the spokes' meeting point, of
        # whatever size and shape (a freehand circle drawn half as large again as the layout's, or
        # egg-shaped), taken when seen at least 0.8 of the way round: it is the drawn ring by
        # construction, where a random search through the ink near the layout's circle took arcs of
        # digits and lines for a larger ring (bench_styles small 6001: r159 against the drawn r133).
        # Only where no such closed curve is seen (a ring left open, or drawn through by the grid of
        # squared paper) is it searched for as before.
        ring = ring_around(faint, circle, line_width=line_width, exclude=band)
        if ring is None or ring.coverage < 0.8:
            ring = fit_ring(faint, circle, line_width=line_width, exclude=band)
        # Decision: a ring seen less than 0.8 of the way round is looked for again with its centre up to
        # 1.2 radii off the expected one (0.6 before), and taken when that one is seen at least 0.9 of the
        # way round: a freehand circle drawn well away from where the layout puts it was fitted to a digit
        # and an arc of it, and the rest of it was left unmasked and read as "1"s (bench seed 2000 photo
        # 0). Looked for that far off, a ring through digits and pieces of lines can be seen 0.7 of the
        # way round (seed 1000 photo 20, a triangular "circle"): only a nearly whole ring is believed.
        if ring is None or ring.coverage < 0.8:
            wide = fit_ring(faint, circle, line_width=line_width, exclude=band, shift=1.2)
            if wide is not None and wide.coverage >= 0.9:
                ring = wide
        ring_band = np.zeros_like(mask)
        if ring is not None:
            # The stroke as measured, plus a little for the blur of its edges; and the ring followed
            # place by place, for a freehand circle that is not quite round.
            width = ring.outer - ring.inner + 2 * pad
            cv2.circle(ring_band, (round(ring.cx), round(ring.cy)), round((ring.inner + ring.outer) / 2), 255,
                       max(3, round(width)))
            t = np.linspace(0.0, 2 * np.pi, max(24, round(ring.r / 4)) + 1)
            outline = f64(np.stack([ring.cx + ring.r * np.cos(t), ring.cy + ring.r * np.sin(t)], axis=1))
            # Decision: followed up to 0.3 of the radius off the fitted ring (0.15 before): a circle drawn
            # egg-shaped or flattened lies further off any round fit than that on one side. The digits
            # inside it that the wider search runs into are left out below (joined to no long stroke).
            # The measured stroke, too, counts only on the ring as traced nearby (as the lines' band above): a
            # freehand circle lies off its round fit by more than its stroke's width in places (bench_styles
            # small, full pipeline: digits seed 5000 87.10% = 87.10%, 6000 80.78% -> 80.87%; usual 5000 94.09%
            # -> 94.18%, 6000 the same; bench_scan 1000, 2000, 3000 x12 the same).
            ring_beside = np.zeros_like(mask)
            reach = max(2 * line_width, 0.3 * ring.r)
            ring_traced = np.maximum(*traced([outline], reach, beside=ring_beside))
            ring_band = np.maximum(cv2.bitwise_and(ring_band, cv2.bitwise_not(ring_beside)), ring_traced)
        else:
            cx, cy, r = circle
            cv2.circle(ring_band, (round(cx), round(cy)), round(r), 255, thick)
        # Decision: only ink joined to a long stroke is line. Where a freehand line wanders off the model by
        # more than the digits written beside it, the nearest run of ink to the model was the digits, and a
        # whole row of them was masked as line (bench seed 1000 photo 20: a row of five numbers lost). No
        # digit, nor a row of separate digits, is `isolated` of the sheet long; a drawn line is. Gaps of up
        # to 4 px (a pale pencil fading out) do not break a stroke.
        joined = _long_strokes(faint, isolated * max(mask.shape))
        return ring, ring_band, joined

    # Decision: the drawn circle's ring and the ink joined to long strokes are found in a second thread
    # while this one traces the lines, because they need nothing from the traces, and OpenCV and numpy
    # let go of the GIL in their loops; the result is the same either way.
    aside = in_background(ring_and_joined)
    # Decision: the model's band counts only on the drawn line as traced nearby: beside it (further from the
    # centre the trace's neighbouring places agree on than half the line's usual run and the pad) it is
    # cleared. The band is a line width either side of the model, about twice the pen's line, and the model
    # lies off a freehand line by a few px: small writing standing a few px off the line lay in it, and
    # what was left of a digit then hung within a line width of the mask (`hanging_pieces`) and went too
    # (bench_styles small seed 5000, full pipeline: digits 85.52% -> 87.10%, usual 93.93% -> 94.09%).
    # Not within 5 line widths of where the model's lines end and meet: a line overshooting the line it
    # meets has its stub in the other's band, and cleared there, the stubs were read as "1"s (unseen seed
    # 6000: 3 phantom numbers more on the usual style without this, none with it).
    beside = np.zeros_like(mask)
    # (The places along the model's lines, the same for both traces along them below.)
    places = trace_places(polylines, step=step, search=search)
    first_band, filled_band = traced(polylines, search, fill=2 * line_width, beside=beside, places=places)
    out = cv2.bitwise_and(out, cv2.bitwise_not(beside))
    first = cv2.bitwise_and(faint, first_band)
    out = np.maximum(out, np.maximum(first, cv2.bitwise_and(faint, filled_band)))
    # A line gone over twice: the second stroke may lie further off than the first's run reaches. It is
    # the next run out once the first stroke is taken away, and it runs along the line; the pieces
    # found that way are kept only when long (no digit is 0.1 of the sheet long).
    rest = cv2.bitwise_and(faint, cv2.bitwise_not(cv2.dilate(first, np.ones((3, 3), np.uint8))))
    # (From the traced places only: the filled-in ones would cut the second stroke into pieces too
    # short to keep.)
    second = cv2.bitwise_and(rest, np.maximum(*traced(polylines, search, u8(rest), places=places)))
    # A whole-pixel length is at least the bound when it exceeds the whole number just under it.
    long = long_blobs(u8(second), math.ceil(0.1 * max(mask.shape)) - 1)
    if long is not None:
        out = np.maximum(out, np.where(long, np.uint8(255), np.uint8(0)))  # uint8 at once, not int64 first
    ring, ring_band, joined = aside.result()
    out = np.maximum(out, cv2.bitwise_and(faint, ring_band))
    # Decision: the mask kept on the long strokes as a product with them (True 1, False 0), because that is
    # the same uint8 mask as choosing between the two place by place (`np.where`), which mispredicts at
    # every turn of a ragged mask: 2.7-14 -> 0.3 ms a 12 MP photo's sheet (and so in `_along_the_lines`).
    out = u8(out * joined) if joined is not None else np.zeros_like(out)
    return _along_the_lines(u8(out), isolated * max(mask.shape)), ring


def _along_the_lines(out: U8, length: float) -> U8:
    """The line mask's ink joined to a long stroke through the mask's own ink only.

    Joined through the whole sheet's faint ink, a column of small digits that the trace ran along beside
    a line counted as line: squared paper's ruling and the digits' own pale edges join them to the line
    they stand by. Within the mask, the drawn lines run on as long strokes, and the digits the trace ran
    into are pieces no longer than a digit. (Gaps of up to 4 px, a pale pencil fading out, do not break a
    stroke, as for the sheet's ink.)
    """
    # Decision: the same gap and length (`isolated` of the sheet) as for the sheet's ink (`_long_strokes`
    # both), so a stroke kept there is kept here when its own ink runs on within the mask.
    long = _long_strokes(out, length)
    return u8(out * long) if long is not None else np.zeros_like(out)


def _long_strokes(ink: U8, length: float) -> npt.NDArray[np.bool_] | None:
    """True on the strokes of `ink` longer than `length` px either way, gaps of up to 4 px bridged (a pale
    pencil fading out does not break a stroke); None when there is none (`long_blobs`)."""
    return long_blobs(u8(cv2.dilate(ink, np.ones((5, 5), np.uint8))), length)


def draw_zones(zones: SheetZones) -> U8:
    """The upright sheet with every zone outlined and labelled (for the debug folder)."""
    colours = {"pulka": (0, 140, 0), "gora": (0, 0, 200), "whists": (200, 90, 0)}
    canvas = zones.image.copy()
    for zone in zones.zones:
        poly = np.round(np.array(zone.polygon)).astype(np.int32)
        cv2.polylines(canvas, [poly], True, colours[zone.kind], 3)
        cx, cy = poly.mean(axis=0)
        label = f"{zone.index}:{zone.kind[0]}{zone.player}" + (f">{zone.on}" if zone.on is not None else "")
        cv2.putText(canvas, label, (int(cx) - 40, int(cy)), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                    colours[zone.kind], 2)
    if zones.circle is not None:
        cx, cy, r = zones.circle
        cv2.circle(canvas, (round(cx), round(cy)), round(r), (0, 200, 200), 3)
    cv2.putText(canvas, f"{zones.layout} rot {zones.rotation}", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2,
                (0, 0, 255), 3)
    return canvas
