"""Stage 3, the fitting half: which layout the measured lines show, which way up, and its proportions.

`zones.py` measures the drawn lines (`_layout_fit.measure`) and hands them here: `choose_layout` picks
standard-3 or standard-4 and the quarter turns by the spokes seen, `measured_proportions` turns the
measured rectangles, circle, spoke and whist splits into the layout's `Proportions`, and
`layout_geometry` builds the zone outlines from them, falling back to usual values piece by piece when
the measurements do not fit the layout.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sheetscan.errors import NoSheetError
from sheetscan.layouts import Proportions, SheetGeometry, SheetLayout, layout_for
from sheetscan.vision._layout_fit import PITCHES, Measured, at_one_pitch, pulka_bands

__all__ = ["choose_layout", "layout_geometry", "measured_proportions"]

# Rectified-frame side names, and which upright side each becomes for a rotation k of the image
# (the rectified image is turned by k quarter turns clockwise to become upright).
_SIDES = ("left", "top", "right", "bottom")
_CORNERS = ("TL", "TR", "BR", "BL")


def _upright_side(side: str, k: int) -> str:
    """Where a side of the rectified image ends up after turning it k quarter turns clockwise."""
    order = ["top", "right", "bottom", "left"]  # clockwise
    return order[(order.index(side) + k) % 4]


def _upright_corner(corner: str, k: int) -> str:
    return _CORNERS[(_CORNERS.index(corner) + k) % 4]


# --- choosing the layout -----------------------------------------------------------------------------------

def choose_layout(m: Measured, players: int | None) -> tuple[SheetLayout, int, bool, str]:
    """(layout, quarter turns clockwise that make the image upright, rotation certain?, note)."""
    found = sum(v is not None for v in (*m.pulka_rect.values(), *m.gora_rect.values()))
    if found < 5:
        raise NoSheetError(
            "found a rectangle, but not the nested rectangles of a pulka sheet inside it "
            f"({found} of 8 inner sides seen); is this a scoresheet?"
        )
    hypotheses: list[tuple[float, int, int]] = []  # (cost, players, k)
    for n in (3, 4) if players is None else (players,):
        for k in range(4) if n == 3 else (0,):
            hypotheses.append((_cost(m, n, k), n, k))
    hypotheses.sort()
    # Decision: spokes that fit two layouts about equally well (a side where they would differ not
    # seen) are told apart by the whist bands' splits, because those are drawn differently too (two
    # on every side of a standard-4 sheet) but are thinner evidence than the spokes (a digit or a
    # stroke crossing a band reads as one): only a near tie is settled by them.
    near = [h for h in hypotheses if h[0] <= hypotheses[0][0] + _TIE]
    # Decision: not where a whist band is crossed by the paper's printed lines (`_printed_across`: five
    # lines or more at one pitch), because those cross every band, so that each band shows "two or more"
    # splits as a standard-4 sheet does; the spoke cost alone decides there. A standard-3 sheet on
    # squared paper, its spokes 0.2 apart in cost, was read as a standard-4 one (bench_styles seed 33000,
    # thin, photo 1: the grid's lines across its left band 42-49 px apart or twice that). Lines of
    # writing across a band of plain paper fall at no one pitch (seed 35000, thick, photo 1: 850, 1013,
    # 1142, 1180 and 1717 px), and there the splits still settle the tie.
    if _printed_across(m):
        near = near[:1]
    cost, n, k = min(near, key=lambda h: (_split_misfit(m, h[1], h[2]), h))
    certain = True
    if n == 4:
        k, certain = 0, False
        # Decision: a standard-4 sheet looks the same turned by any quarter; seat 0 is taken as the
        # side nearest the photo's bottom, because the player photographing it usually sits there.
        # The rectified image of a hand-drawn sheet keeps the photo's orientation, so that is k = 0.
    note = ""
    if cost > 2.0:
        note = f"the drawn lines fit the {n}-player layout only loosely (misfit {cost:.1f})"
    return layout_for(n), k, certain, note


_TIE = 0.25
"""Spoke costs this close are a tie, settled by the whist splits (`_split_misfit`)."""


def _printed_across(m: Measured) -> bool:
    """Whether a whist band found is crossed by the paper's printed lines: five lines or more, nearly all
    of them at one pitch (`_layout_fit.at_one_pitch`)."""
    left, top, right, bottom = m.frame
    size = max(right - left, bottom - top)
    return any(at_one_pitch(m.whist_splits.get(side, ()), PITCHES[0] * size, PITCHES[1] * size)
               for side in _SIDES if m.pulka_rect.get(side) is not None)


def _split_misfit(m: Measured, n: int, k: int) -> int:
    """How many whist splits seen differ from layout n turned by k: two across each whist band of a
    standard-4 sheet; on a standard-3 one, one across the bottom band and one (the mid spoke's outer
    part) across the top band, none across the sides' (more than two count as two)."""
    misfit = 0
    for side in _SIDES:
        if m.pulka_rect.get(side) is None:
            continue  # the band was not found: its splits were not looked for
        up = _upright_side(side, k)
        want = 2 if n == 4 else 1 if up in ("top", "bottom") else 0
        misfit += abs(min(len(m.whist_splits.get(side, ())), 2) - want)
    return misfit


_CORNER_SIDES = {"TL": ("left", "top"), "TR": ("right", "top"), "BR": ("right", "bottom"),
                 "BL": ("left", "bottom")}


def _cost(m: Measured, n: int, k: int) -> float:
    """How badly the spokes seen contradict layout n turned by k (0 = a perfect match).

    Decision: where a spoke could not be looked for (the pulka band there was not found: a side of
    either rectangle missing), it counts half against every layout, because "not seen" there says
    nothing: taken as "no spoke", two gora sides lost on a freehand standard-4 sheet (the two corners
    on that side and its mid spoke) made it cost more than a standard-3 turned to have those corners
    bare (bench_styles seed 7000, thin, photo 2).
    """
    cost = 0.0
    for side in _SIDES:
        want = 1.0 if n == 3 and _upright_side(side, k) == "top" else 0.0
        seen = m.pulka_rect.get(side) is not None and m.gora_rect.get(side) is not None
        cost += abs(m.mid_spoke.get(side, 0.0) - want) if seen else 0.5
    for corner in _CORNERS:
        up = _upright_corner(corner, k)
        want = 1.0 if n == 4 or up in ("BL", "BR") else 0.0
        seen = all(rect.get(side) is not None for rect in (m.pulka_rect, m.gora_rect)
                   for side in _CORNER_SIDES[corner])
        cost += abs(m.corner_spoke.get(corner, 0.0) - want) if seen else 0.5
    return cost


# --- proportions ---------------------------------------------------------------------------------------

def measured_proportions(layout: SheetLayout, m: Measured, k: int) -> tuple[Proportions, list[str]]:
    """Layout proportions from the measured lines, in upright terms; defaults where nothing was seen."""
    base = layout.default
    left, top, right, bottom = m.frame
    fw, fh = right - left, bottom - top
    dl, dt, dr, db = m.drawn_frame
    frame_side = {"left": dl, "top": dt, "right": dr, "bottom": db}
    span = {"left": fw, "right": fw, "top": fh, "bottom": fh}
    notes: list[str] = []
    index = {"left": 0, "top": 1, "right": 2, "bottom": 3}
    turned = k % 2 == 1
    aspect = fh / fw if turned else fw / fh
    whists = list(base.whists)
    pulka = list(base.pulka)
    missing: list[str] = []
    bands = pulka_bands(m.pulka_rect, m.gora_rect)
    for side in _SIDES:
        up = index[_upright_side(side, k)]
        outer = m.pulka_rect[side]
        if outer is not None:
            whists[up] = abs(outer - frame_side[side]) / span[side]
        else:
            missing.append(_upright_side(side, k))
        if side in bands:
            pulka[up] = bands[side] / span[side]
        elif outer is not None and len(bands) >= _BANDS_TO_GO_BY:
            # Decision: a pulka band whose inner side was not seen is as wide as the middle one of the
            # bands seen, not the printed form's share, because one hand draws the band about as wide
            # all round (`_layout_fit._rectangles`), while drawn sheets' bands differ from the
            # form's by up to 1.5 times either way (bench_styles seed 33006, glare: the right band
            # 247 px, the others 173-238, the form's 7 % of the sheet 133 px).
            pulka[up] = float(np.median(list(bands.values()))) / span[side]
    if missing:
        sides = ", ".join(missing)
        notes.append(f"the pulka rectangle's {sides} side was not found; a usual width was assumed")
    p = replace(base, aspect=aspect, whists=tuple(whists), pulka=tuple(pulka))  # type: ignore[arg-type]
    if m.circle is not None:
        cx, cy, r = m.circle
        nx, ny = _to_upright_unit((cx - left) / fw, (cy - top) / fh, k)
        p = replace(p, circle_center=(nx, ny), circle_radius=r / (fw if turned else fh))
    if layout.players == 3:
        side = next(s for s in _SIDES if _upright_side(s, k) == "top")
        at = m.mid_spoke_at[side]
        if m.mid_spoke.get(side, 0.0) > 0:
            along = (at - left) / fw if side in ("top", "bottom") else (at - top) / fh
            # Upright x of the spoke: the top side's coordinate runs left → right on the upright sheet
            # for k = 0, and reversed for sides that arrive as the top after a turn the other way.
            nx, _ = _to_upright_unit(*((along, 0.0) if side == "top" else (along, 1.0) if side == "bottom"
                                       else (0.0, along) if side == "left" else (1.0, along)), k)
            p = replace(p, top_split=nx)
    p = replace(p, whist_splits=_splits(layout, m, k))
    return p, notes


_BANDS_TO_GO_BY = 2
"""Pulka bands seen on this many sides or more place a side's band not seen (`measured_proportions`)."""


def _to_upright_unit(x: float, y: float, k: int) -> tuple[float, float]:
    """A normalised point of the rectified frame in the upright frame after k clockwise quarter turns."""
    for _ in range(k % 4):
        x, y = 1.0 - y, x
    return x, y


def _splits(layout: SheetLayout, m: Measured, k: int) -> tuple[tuple[float, ...], ...]:
    """Per seat, where its whist parts meet, as fractions of its edge from the writer's left end."""
    left, top, right, bottom = m.frame
    fw, fh = right - left, bottom - top
    n = layout.players
    seat_edges = ("bottom", "left", "top", "right") if n == 4 else ("bottom",)
    want = n - 2
    out: list[tuple[float, ...]] = []

    def fractions_of(edge: str, side: str, positions: tuple[float, ...]) -> list[float]:
        # Unit points of the splits on the rectified side, then in upright coordinates.
        pts = [((p - left) / fw, 0.0 if side == "top" else 1.0) if side in ("top", "bottom")
               else (0.0 if side == "left" else 1.0, (p - top) / fh) for p in positions]
        up = [_to_upright_unit(x, y, k) for x, y in pts]
        return sorted(f for f in (_edge_fraction(edge, x, y) for x, y in up) if 0.1 < f < 0.9)

    for edge in seat_edges:
        side = next(s for s in _SIDES if _upright_side(s, k) == edge)
        fractions = fractions_of(edge, side, m.whist_splits.get(side, ()))
        # Decision: where fewer splits than the seat's parts need were seen straight across the band, the
        # freehand ones seen wavering across it (`_layout_fit._wavering_crossings`) count too, away from
        # those seen (a straight line is seen both ways).
        if len(fractions) < want and m.wavering_splits is not None:
            wavering = fractions_of(edge, side, m.wavering_splits(side))
            fractions = sorted([*fractions, *(f for f in wavering if all(abs(f - g) >= _SAME_SPLIT
                                                                          for g in fractions))])
        if len(fractions) != want:
            fractions = _pick(fractions, want)
        out.append(tuple(fractions) if len(fractions) == want else ())
    return tuple(out)


_SAME_SPLIT = 0.03
"""Splits this near (a share of the edge) are one line seen twice (`_splits`)."""


def _pick(fractions: list[float], want: int) -> list[float]:
    """The `want` fractions nearest the even split (extra lines may be a spoke's end or a stray stroke);
    where fewer were seen, each seen one in place of the even split it is nearest, the others even.

    Decision: a split seen is kept where the band's other split was not seen, because placing both
    evenly moved the one seen by 0.03-0.04 of the edge (bench_styles seed 31000, thin, photo 4: the top
    band's splits at 0.30 and 0.63 of it, the one at 0.63 seen).
    """
    targets = [(i + 1) / (want + 1) for i in range(want)]
    if len(fractions) < want:
        nearest = [min(range(want), key=lambda i: abs(f - targets[i])) for f in fractions]
        if len(set(nearest)) < len(nearest):
            return []
        for i, f in zip(nearest, fractions, strict=True):
            targets[i] = f
        return targets if targets == sorted(targets) else []
    chosen = [min(fractions, key=lambda f: abs(f - t)) for t in targets]
    return sorted(set(chosen)) if len(set(chosen)) == want else []


def _edge_fraction(edge: str, x: float, y: float) -> float:
    """Fraction along an upright edge from the left end of the player sitting at it (layouts.py)."""
    return {"bottom": x, "left": y, "top": 1.0 - x, "right": 1.0 - y}[edge]


def layout_geometry(layout: SheetLayout, p: Proportions, notes: list[str]) -> SheetGeometry:
    """The layout's outlines for the measured proportions, giving up as little of them as possible.

    A circle found in the wrong place (a digit's loop, a blot) must not throw away the measured
    rectangles: first the circle, then the splits, then everything falls back to the usual values.
    """
    base = layout.default
    try:
        return layout.geometry(p)
    except ValueError as exc:
        first = exc
    middle = ((base.circle_center[0] + 0.5) / 2, (base.circle_center[1] + 0.5) / 2)
    fallbacks = (
        ("values for the circle", replace(p, circle_center=middle, circle_radius=base.circle_radius)),
        ("values for the circle, the spoke and the splits",
         replace(p, circle_center=middle, circle_radius=base.circle_radius, top_split=0.5, whist_splits=())),
    )
    for what, candidate in fallbacks:
        try:
            geometry = layout.geometry(candidate)
        except ValueError:
            continue
        notes.append(f"the measured proportions do not fit the {layout.name} layout ({first}); usual "
                     f"{what} used")
        return geometry
    notes.append(f"the measured proportions do not fit the {layout.name} layout ({first}); usual ones used")
    try:
        return layout.geometry(replace(base, aspect=p.aspect))
    except ValueError as exc:
        # An outline no sheet could have (a sliver of the paper or the table closed by stage 2) is no sheet
        # found, not a crash (light13 met one of aspect 3.05 on bench_styles seed 19000, thin photo 6).
        raise NoSheetError(f"found an outline {p.aspect:.2f} times as wide as it is tall, which no pulka "
                           f"sheet is ({exc}); photograph the whole sheet from above") from exc
