"""Sheet layouts as data: zones tile their sectors, never overlap, and sit where LAYOUT.md puts them."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sheetscan.layouts import (
    LAYOUTS,
    Proportions,
    SheetGeometry,
    SheetLayout,
    find_layout,
    layout_for,
    point_in_polygon,
    polygon_area,
    zone_index,
)

# Proportions far from the defaults, as a careless hand might draw them: all must still give a sheet.
VARIED = [
    Proportions(aspect=0.8, whists=(0.22, 0.12, 0.1, 0.25), pulka=(0.08, 0.15, 0.12, 0.1),
                circle_radius=0.06, circle_center=(0.47, 0.52), top_split=0.42,
                whist_splits=((0.4, 0.7), (0.3, 0.6), (0.35, 0.65), (0.3, 0.55))),
    Proportions(aspect=1.7, whists=(0.12, 0.25, 0.14, 0.2), pulka=(0.09, 0.1, 0.08, 0.12),
                circle_radius=0.1, circle_center=(0.53, 0.48), top_split=0.58,
                whist_splits=((0.62,),)),
]


def _geometries() -> list[SheetGeometry]:
    out = [layout.geometry() for layout in LAYOUTS]
    for layout in LAYOUTS:
        for p in VARIED:
            splits = p.whist_splits if layout.players == 4 else p.whist_splits[:1]
            out.append(layout.geometry(replace(p, whist_splits=(splits[0][: layout.players - 2],))))
    return out


def _in_circle(g: SheetGeometry, x: float, y: float, grow: float) -> bool:
    (cx, cy), (rx, ry) = g.circle_center, g.circle_radius
    return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= grow**2


@pytest.mark.parametrize("g", _geometries(), ids=lambda g: f"{g.layout}-{g.aspect:.2f}")
def test_zones_tile_the_sheet_without_overlapping(g: SheetGeometry) -> None:
    # A grid offset by irrational steps never lands exactly on a drawn line.
    steps = 61
    for i in range(steps):
        for j in range(steps):
            x, y = (i + 0.5 + math.sqrt(2) / 10) / steps, (j + 0.5 + math.sqrt(3) / 10) / steps
            if _in_circle(g, x, y, 1.03) and not _in_circle(g, x, y, 0.97):
                continue  # the gora outlines follow the circle with straight chords; skip its rim
            owners = [z.index for z in g.zones if point_in_polygon((x, y), z.polygon)]
            expected = 0 if _in_circle(g, x, y, 1.0) else 1
            assert len(owners) == expected, f"{g.layout}: point {(x, y)} lies in zones {owners}"


@pytest.mark.parametrize("g", _geometries(), ids=lambda g: f"{g.layout}-{g.aspect:.2f}")
def test_areas_add_up_to_the_sheet(g: SheetGeometry) -> None:
    circle = math.pi * g.circle_radius[0] * g.circle_radius[1]
    zones = sum(polygon_area(z.polygon) for z in g.zones)
    # The arcs are chords of the circle, so the zones cover a sliver of it: well under 1% of the sheet.
    assert zones + circle == pytest.approx(1.0, abs=0.003)
    for z in g.zones:
        if len(z.parts) > 1:
            assert sum(polygon_area(p.polygon) for p in z.parts) == pytest.approx(polygon_area(z.polygon))


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.name)
def test_every_player_has_pulka_gora_and_whists_on_each_opponent(layout: SheetLayout) -> None:
    g = layout.geometry()
    n = g.players
    assert len(g.zones) == n * (n + 1)
    for seat in range(n):
        kinds = [(z.kind, z.on) for z in g.seat_zones(seat)]
        expected = [("pulka", None), ("gora", None)] + [("whists", (seat + j) % n) for j in range(1, n)]
        assert kinds == expected
    for i, z in enumerate(g.zones):
        assert z.index == i == zone_index(n, z.player, z.kind, z.on)
        assert g.zone(z.player, z.kind, z.on) is z


def _shares_an_edge(a: tuple[tuple[float, float], ...], b: tuple[tuple[float, float], ...]) -> bool:
    def key(p: tuple[float, float]) -> tuple[float, float]:
        return (round(p[0], 9), round(p[1], 9))

    return len({key(p) for p in a} & {key(p) for p in b}) >= 2


@pytest.mark.parametrize("g", _geometries(), ids=lambda g: f"{g.layout}-{g.aspect:.2f}")
def test_whists_on_a_neighbour_lie_next_to_that_neighbours_sector(g: SheetGeometry) -> None:
    n = g.players
    for z in g.zones:
        if z.kind != "whists" or z.on is None:
            continue
        neighbour = z.on in ((z.player + 1) % n, (z.player - 1) % n)
        if n == 4 and not neighbour:
            # The opposite player's part is the middle of the edge, touching neither neighbour.
            assert not any(_shares_an_edge(z.polygon, o.polygon) for o in g.seat_zones(z.on))
            continue
        assert any(_shares_an_edge(z.polygon, o.polygon) for o in g.seat_zones(z.on) if o.kind == "whists"), z


def _owner(g: SheetGeometry, x: float, y: float) -> tuple[int, str, int | None] | None:
    for z in g.zones:
        if point_in_polygon((x, y), z.polygon):
            return (z.player, z.kind, z.on)
    return None


def test_standard_3_zones_where_layout_md_draws_them() -> None:
    # Default standard-3: whists bands 0.13 (sides) 0.15 (top) 0.16 (bottom); pulka 0.07 / 0.08;
    # so the pulka rectangle is x 0.13..0.87, y 0.15..0.84 and the gora rectangle x 0.20..0.80,
    # y 0.23..0.76; the circle has radius 0.06 of the height around the centre; the top spoke at x 0.5.
    g = find_layout("standard-3").geometry()
    assert _owner(g, 0.3, 0.9) == (0, "whists", 1)  # bottom band, left of the middle split
    assert _owner(g, 0.7, 0.9) == (0, "whists", 2)
    assert _owner(g, 0.05, 0.5) == (1, "whists", 0)  # left side band
    assert _owner(g, 0.3, 0.05) == (1, "whists", 2)  # top band, left half (beyond the corner diagonal)
    assert _owner(g, 0.95, 0.5) == (2, "whists", 0)
    assert _owner(g, 0.7, 0.05) == (2, "whists", 1)
    assert _owner(g, 0.165, 0.5) == (1, "pulka", None)
    assert _owner(g, 0.3, 0.19) == (1, "pulka", None)  # the top half of the L
    assert _owner(g, 0.7, 0.19) == (2, "pulka", None)
    assert _owner(g, 0.5, 0.8) == (0, "pulka", None)
    assert _owner(g, 0.5, 0.61) == (0, "gora", None)  # below the circle (its bottom at y 0.56)
    assert _owner(g, 0.3, 0.4) == (1, "gora", None)
    assert _owner(g, 0.7, 0.4) == (2, "gora", None)
    assert _owner(g, 0.5, 0.5) is None  # the circle holds the target
    # Near the top-left corner the diagonal splits the left seat's whists: below it the side part.
    assert _owner(g, 0.03, 0.15) == (1, "whists", 0)
    assert _owner(g, 0.1, 0.03) == (1, "whists", 2)


def test_standard_4_zones_where_layout_md_draws_them() -> None:
    # Default standard-4: whists 0.15, pulka 0.07 on every side (pulka rectangle 0.15..0.85, gora
    # rectangle 0.22..0.78 in x and y); the bottom edge is
    # split at thirds: on the left neighbour (seat 1), the opposite (2), the right neighbour (3).
    g = find_layout("standard-4").geometry()
    assert _owner(g, 0.25, 0.95) == (0, "whists", 1)
    assert _owner(g, 0.5, 0.95) == (0, "whists", 2)
    assert _owner(g, 0.75, 0.95) == (0, "whists", 3)
    # The left seat reads from the left edge: its left hand points to the top, so top to bottom: 2, 3, 0.
    assert _owner(g, 0.05, 0.25) == (1, "whists", 2)
    assert _owner(g, 0.05, 0.5) == (1, "whists", 3)
    assert _owner(g, 0.05, 0.75) == (1, "whists", 0)
    assert _owner(g, 0.75, 0.05) == (2, "whists", 3)  # the top seat's left hand points right
    assert _owner(g, 0.95, 0.75) == (3, "whists", 0)
    assert _owner(g, 0.5, 0.185) == (2, "pulka", None)
    assert _owner(g, 0.5, 0.35) == (2, "gora", None)
    assert _owner(g, 0.815, 0.5) == (3, "pulka", None)
    assert [z.angles[0] for z in g.zones if z.kind == "pulka"] == [0, 90, 180, -90]


def test_three_player_top_band_may_be_written_either_way() -> None:
    g = find_layout("standard-3").geometry()
    assert g.zone(0, "pulka").angles == (0,)
    assert g.zone(1, "whists", 0).angles == (90,)
    assert set(g.zone(1, "whists", 2).angles) == {90, 0}
    assert set(g.zone(2, "whists", 1).angles) == {-90, 180}
    assert [p.angles for p in g.zone(1, "pulka").parts] == [(90,), (90, 0)]


def test_find_layout_knows_names_and_aliases_and_says_what_exists() -> None:
    assert find_layout("Standard-3").name == "standard-3"
    assert find_layout("form4").name == "form-4"
    assert layout_for(4, printed=True).name == "form-4"
    with pytest.raises(ValueError, match=r"standard-3, standard-4, form-3, form-4"):
        find_layout("standard-5")
    with pytest.raises(ValueError, match="3 or 4"):
        layout_for(5)


def test_bad_proportions_are_refused() -> None:
    base = find_layout("standard-3").default
    with pytest.raises(ValueError, match="room"):
        find_layout("standard-3").geometry(replace(base, whists=(0.5, 0.2, 0.5, 0.2)))
    with pytest.raises(ValueError, match="circle"):
        find_layout("standard-3").geometry(replace(base, circle_radius=0.3))
    with pytest.raises(ValueError, match="top spoke"):
        find_layout("standard-3").geometry(replace(base, top_split=0.1))


@pytest.mark.parametrize("name", ["form-3", "form-4"])
def test_form_markers_sit_outside_the_sheet_corners_on_the_page(name: str) -> None:
    layout = find_layout(name)
    page = layout.page
    assert page is not None and layout.printed
    left, top, right, bottom = page.sheet_mm
    assert layout.aspect == pytest.approx((right - left) / (bottom - top))
    width, height = page.size_mm
    assert sorted((width, height)) == [210.0, 297.0]  # A4
    # ids 0..3 at TL, TR, BR, BL: each marker lies beyond its corner in both directions
    for ident, (sx, sy) in enumerate([(-1, -1), (1, -1), (1, 1), (-1, 1)]):
        tl, _, br, _ = page.marker_corners(ident)
        centre = ((tl[0] + br[0]) / 2, (tl[1] + br[1]) / 2)
        assert (centre[0] < 0 if sx < 0 else centre[0] > 1) and (centre[1] < 0 if sy < 0 else centre[1] > 1)
    for _, mx, my in page.markers:  # at least 8 mm from the paper's edge so printers keep them
        assert mx >= 8 and my >= 8 and mx + page.marker_mm <= width - 8 and my + page.marker_mm <= height - 8
    qx, qy, qs = page.qr_mm
    assert qx >= 5 and qy >= 5 and qx + qs <= width - 5 and qy + qs <= height - 5
    assert qy + qs <= top or qy >= bottom  # the QR code never covers the sheet


_BAND = st.floats(min_value=0.05, max_value=0.25)


@settings(max_examples=25, deadline=None)
@given(
    layout=st.sampled_from(LAYOUTS),
    aspect=st.floats(min_value=0.7, max_value=1.8),
    whists=st.tuples(_BAND, _BAND, _BAND, _BAND),
    pulka=st.tuples(_BAND, _BAND, _BAND, _BAND),
    radius=st.floats(min_value=0.03, max_value=0.1),
    centre=st.tuples(st.floats(min_value=0.45, max_value=0.55), st.floats(min_value=0.45, max_value=0.55)),
    top_split=st.floats(min_value=0.35, max_value=0.65),
    split=st.floats(min_value=0.2, max_value=0.45),
)
def test_any_sensible_proportions_give_zones_that_tile_the_sheet(
    layout: SheetLayout, aspect: float, whists: tuple[float, float, float, float],
    pulka: tuple[float, float, float, float], radius: float, centre: tuple[float, float], top_split: float,
    split: float,
) -> None:
    splits = ((split, 1 - split),) * 4 if layout.players == 4 else ((0.5 + split - 0.3,),)
    proportions = Proportions(aspect=aspect, whists=whists, pulka=pulka, circle_radius=radius,
                              circle_center=centre, top_split=top_split, whist_splits=splits)
    try:
        g = layout.geometry(proportions)
    except ValueError:
        assume(False)
        return
    circle = math.pi * g.circle_radius[0] * g.circle_radius[1]
    assert sum(polygon_area(z.polygon) for z in g.zones) + circle == pytest.approx(1.0, abs=0.003)
    steps = 13
    for i in range(steps):
        for j in range(steps):
            x, y = (i + 0.5 + math.sqrt(2) / 10) / steps, (j + 0.5 + math.sqrt(3) / 10) / steps
            if _in_circle(g, x, y, 1.03):
                continue
            owners = [z.index for z in g.zones if point_in_polygon((x, y), z.polygon)]
            assert len(owners) == 1, (x, y, owners)
