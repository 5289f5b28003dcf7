"""Stage 2, a hand-drawn sheet: which outline in the preview's ink is the drawn outer rectangle.

The search runs on ink levels of a reduced copy of the photo (each channel's ratio to the paper, cut at
a few contrasts in turn; fainter levels and dashes joined along lines last), and again on the same
ratios with the dark side of every step in the light told back to paper where the outline first chosen
meets such a step (a hard shadow's edge). `sheet.find_sheet` rectifies the photo from the outline found.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.vision._arrays import F64, U8, u8
from sheetscan.vision._drawn_frame import closed, dashed_candidates, frame_candidates, votes, whole
from sheetscan.vision._frame_choice import (
    apart,
    choose_frame,
    frame_inside,
    grid_cut,
    inked_share,
    without_coloured_side,
)
from sheetscan.vision._grid_flat import grid_free
from sheetscan.vision._lines import below, hysteresis, ridges_only
from sheetscan.vision._quad import (
    FrameCandidate,
    alike,
    overrun_sides,
    quad_area,
    refine_quad,
    side_coverage,
    side_widths,
    table_sides,
)
from sheetscan.vision._rulings import ruled_ways
from sheetscan.vision._shadow_edge import shadow_lifted

__all__ = ["CONTRASTS", "find_drawn_frame", "fitted"]

CONTRASTS = (0.78, 0.62, 0.48)
"""Ink is darker than this share of the paper: the levels tried in turn (the first, the faintest, is also
the level `sheet` fits a form's corners at)."""
_ATTEMPTS = (("min", 0.78), ("min", 0.62), ("max", 0.78), ("max", 0.62), ("min", 0.48))
_BUSY_ATTEMPTS = (("max", 0.78), ("max", 0.62), ("min", 0.62), ("min", 0.48), ("min", 0.78))
# Tried only when the attempts above found no outline at all, each a plain threshold (no hysteresis):
# a faint frame on squared or lined paper is joined to the ruling at the faint levels (one mesh, too
# dense to be a sheet) and broken into dots at the darker ones; in between, the ruling drops out while
# the frame holds together.
# Then, when those find nothing either, fainter levels (each pair only when the one before found
# nothing): very faint pencil on plain paper shows a side whole only there, broken into dashes at the
# darker levels.
_LAST_ATTEMPTS = (
    (("min", 0.78), ("min", 0.7), ("max", 0.78), ("max", 0.7)),
    (("min", 0.9), ("max", 0.9)),
    (("min", 0.93), ("max", 0.93)),
)


def find_drawn_frame(pooled: U8, ratio: Callable[[str], NDArray[np.float32]], *, line_width: float
                     ) -> tuple[tuple[FrameCandidate, U8] | None, frozenset[str]]:
    """The drawn outer rectangle found in `pooled` (the photo reduced keeping each block's darkest value)
    and the ink level it was found at, or None; and the edges of `pooled` ("left", "top", "right",
    "bottom") that outlines seen at the usual ink levels run off where those levels show no outline
    drawn whole (`_drawn_frame_in`). `ratio(channel)` is a channel's ratio
    to the paper ("min" or "max", as `dark_ratio` gives it for `pooled`); `line_width` the lines' width
    in its px."""
    dark = u8(cv2.cvtColor(pooled, cv2.COLOR_BGR2GRAY))
    ran_off: set[str] = set()
    chosen = _drawn_frame_in(ratio, dark, busy=_busy(below(ratio("min"), CONTRASTS[0])), ran_off=ran_off)
    # Decision: where the outline chosen meets the dark side of a step in the light rather than lying
    # on drawn lines (`_on_step`), the search is made again on the ratios with every such step told
    # back to paper (`ridges_only`), because the edge of a hard shadow across the sheet (a phone held
    # over it) is seen as a band of ink as long as the sheet and closes outlines with the frame's sides
    # (bench_styles seed 16000, shadow, photos 0, 2 and 6: the shadow's edge taken for the frame's top
    # side). Only then, so that a photo without such a step keeps the outline it had: the same lines
    # seen with the table's rim lifted too move its corners a pixel.
    # Not where nothing was found: there the second search closed a sliver (aspect 3.05) from the
    # ridges of a faint frame and the table, which the layouts refuse with a ValueError (bench_styles
    # seed 19000, thin, photo 6, no sheet found before; seen on a confirmation seed, and fixed because it
    # is a crash, not a reading).
    ridged: dict[str, NDArray[np.float32]] = {}

    def ridge_ratio(channel: str) -> NDArray[np.float32]:
        if channel not in ridged:
            ridged[channel] = ridges_only(pooled, ratio(channel), line_width=line_width, channel=channel)
        return ridged[channel]

    seen_ratio, seen_dark = ratio, dark
    if chosen is not None and _on_step(chosen, ratio("min"), ridge_ratio("min"), size=max(dark.shape),
                                       line_width=line_width):
        # Decision: where the step is a cast shadow's straight edge (`shadow_lifted`: one side darker all
        # along it, across the table as well as the paper), the search on the ridges is made on the grey
        # with the shadow's light divided out, because the frame search cuts the ink to the bright paper
        # (`_drawn_frame._paper_only`, the grey split into paper and table), and the paper in shadow, at
        # half the light, fell with the table: the frame's part in shadow was cut off along the edge at
        # every level, and the outline closed along the cut taken (bench_styles seed 37000, shadow, photo
        # 6, and seed 38000, photo 3: the frame's lit part, 764 and 694 px off; 6 and 9 px). The grid-free
        # search below then looks at the ridges and that grey too, for the same reason (seed 43000,
        # shadow, photo 6, a pale frame on squared paper: the outline closed on the grid and the
        # shadow's edge, 282 px off; with the grid divided out on the ridges, the frame, 10 px).
        # A photo without such an edge (a frame drawn near the paper's edge meets the table's step
        # alone) is searched as before.
        lifted = shadow_lifted(dark, u8(cv2.compare(ridge_ratio("min"), ratio("min"), cv2.CMP_GT)))
        again = _drawn_frame_in(ridge_ratio, dark if lifted is None else lifted,
                                busy=_busy(below(ridge_ratio("min"), CONTRASTS[0])))
        if lifted is not None:
            seen_ratio, seen_dark = ridge_ratio, lifted
        # Decision: the outline found on the ridges replaces the first only where it is another outline
        # (a corner over 1.5 % of the size off, as `votes` tells outlines apart), because where the
        # step did not mislead the search the two are the same frame, and the first was fitted to the
        # lines as seen before (a pixel's shift there moved a zone's split: bench_styles seed 6000,
        # shadow, photo 5, zones IoU 0.967 -> 0.921).
        # Decision: and only where its weakest side is drawn on the ridges better than the first's, or
        # as well where it is the larger outline and a side of the first runs along the step
        # (`_drawn_better`: the side a shadow's edge made is no ridge at all; the step cut the frame
        # short), because a frame drawn close to the paper's edge meets the table's step too, and there
        # the search on the ridges took a ruling of lined paper inside the frame for a side
        # (bench_styles seed 17000, thin, photo 4, digits 96 -> 56 %), and where the shadow's edge crosses
        # a frame whole on the ridges the paper's own outline (its rim dark against the shadowed table)
        # is the larger one (seed 17000, shadow, photo 2, zones 0 %).
        if again is not None and votes(again[0], [chosen[0]], max(dark.shape)) == 0 \
                and _drawn_better(again, chosen, ratio("min"), ridge_ratio("min"), dark):
            chosen = again
    # Decision: where no level showed an outline drawn whole, the search is made once more on the ratios
    # with squared paper's printed grid (or lined paper's rulings) divided out (`grid_free`), and an
    # outline drawn whole found there is the frame, because a pencil frame paler than the grid is joined
    # to the grid at every level that shows it whole (unseen seed 29000, photo 4, thin: no sheet found).
    # Only then, and only on paper whose printed lines repeat at one pitch, because it is slow (1.4-1.7 s
    # of CPU on a 1200 px preview for a grid; 0.5-1.3 s for rulings alone).
    # Decision: also where the outline chosen has the table beyond a side (`_on_table`), and an outline
    # found there then replaces it only where it has paper beyond every side, lies over it and is another
    # outline (`_clear_within`), because a drawn line has paper on both sides: on squared paper whose
    # grid shows darker where the light falls off (a mesh at every usual level), a faint frame is joined
    # to the mesh, and the outline closed round both runs along the paper's edge (bench_styles seed
    # 43000, photo 6, in usual, thin, small, dark and steep: 210-466 px off; with the grid divided out
    # the frame is seen whole, 10-12 px). A frame drawn near the paper's edge is found again alike there
    # and kept. On paper without a grid `grid_free` gives nothing at once.
    # Decision: also where a side of the outline chosen, as fitted, is not drawn in the darkest channel
    # (`_drawn_all_round`), and an outline found there then replaces it only where it is drawn all round
    # on the photo's own ratios, lies over it (`_over_border`: not the pulka rectangle inside a frame
    # whose side a glare washed out) and is another outline, because such a side runs across the paper
    # between a grid's lines: on squared paper whose grid is about as dark as a thin frame, the grid
    # joined the frame into one mesh at the levels that show the frame whole, and the outline closed on
    # the mesh cut across the sheet (bench_styles seed 40000, thin, photo 3: 241 px off, its sides 0.84-
    # 1.0 in ink; with the grid divided out the frame is seen whole, 4 px); on shaken photos the grid
    # smeared into a side of the frame and the outline closed a cell or more off it (seeds 33000 and
    # 45000, motion, photos 4 and 3: 469 and 167 px off; 24 and 13 px; on the first the shake smeared
    # the grid's lines one way out, and the other family was divided out alone). Such an outline is what
    # `_drawn_in_darkest` finds no drawn outline alike to.
    on_table = chosen is not None and whole(chosen[0]) and _on_table(chosen, seen_dark)
    undrawn = chosen is not None and whole(chosen[0]) and not on_table \
        and not _drawn_all_round(chosen, seen_ratio("min"), seen_dark)
    if chosen is None or not whole(chosen[0]) or on_table or undrawn:
        # Decision: the rulings of lined paper alone are not divided out for an outline `_on_table` (the
        # case is squared paper's), because there a frame drawn near the paper's edge, whole and drawn all
        # round, gave way to an outline inside it found with the rulings divided out (bench_styles seed
        # 43000, dark, photo 5: 4 -> 204 px off).
        flat = grid_free({channel: seen_ratio(channel) for channel in ("min", "max")}, seen_dark,
                         rulings=not on_table)
        if flat is not None:
            def flat_ratio(channel: str) -> NDArray[np.float32]:
                return flat[channel]

            again = _drawn_frame_in(flat_ratio, seen_dark, busy=_busy(below(flat["min"], CONTRASTS[0])))
            if again is not None and whole(again[0]) and (
                    chosen is None or not whole(chosen[0])
                    or (_clear_within(again, chosen, seen_dark) if on_table else
                        _drawn_all_round(again, seen_ratio("min"), seen_dark)
                        and _over_border(again[0], chosen[0])
                        and votes(again[0], [chosen[0]], max(seen_dark.shape)) == 0)):
                chosen = again
    return chosen, frozenset(ran_off)


def _drawn_all_round(outline: tuple[FrameCandidate, U8], darkest: NDArray[np.float32], dark: U8) -> bool:
    """Whether every side of `outline` as fitted (`fitted`; `dark` the preview's grey) is ink in the darkest
    channel (`darkest`, its ratio to the paper) along `_INKED` of it at least (`inked_share`)."""
    return min(inked_share(fitted(outline, dark), darkest)) >= _INKED


def _on_table(outline: tuple[FrameCandidate, U8], dark: U8) -> bool:
    """Whether the table lies beyond a side of `outline` (`table_sides`; `dark` the preview's grey)."""
    size = max(dark.shape)
    quad = outline[0].quad
    return any(table_sides(dark, quad, size, side_widths(outline[1], quad, size)))


def _clear_within(again: tuple[FrameCandidate, U8], chosen: tuple[FrameCandidate, U8], dark: U8) -> bool:
    """Whether `again` has paper beyond every side (not `_on_table`), lies over `chosen` (`_over_border`) and
    is another outline (a corner over 1.5 % of the size off: `votes`)."""
    return not _on_table(again, dark) and _over_border(again[0], chosen[0]) \
        and votes(again[0], [chosen[0]], max(dark.shape)) == 0


def _on_step(chosen: tuple[FrameCandidate, U8], ratio: NDArray[np.float32], ridged: NDArray[np.float32], *,
             size: int, line_width: float) -> bool:
    """Whether the chosen outline meets the dark side of a step in the light (the pixels `ridges_only`
    told back to paper: `ridged` above `ratio`): a side over `_STEP_SIDE` of its length along it, or
    a stretch of it inside the outline over `_STEP_INSIDE` of the size long (the step's band crossing
    the frame breaks the frame's outline up, and the outline chosen is a part of it)."""
    stepped = u8(cv2.compare(ridged, ratio, cv2.CMP_GT))
    if not cv2.countNonZero(stepped):
        return False
    tolerance = _side_tolerance(size)
    if max(side_coverage(stepped, chosen[0].quad, tolerance=tolerance)) > _STEP_SIDE:
        return True
    inside = np.zeros_like(stepped)
    cv2.fillPoly(inside, [np.round(chosen[0].quad).astype(np.int32)], 255)
    reach = 2 * round(tolerance) + 1
    inside = u8(cv2.erode(inside, np.ones((reach, reach), np.uint8)))
    if cv2.countNonZero(cv2.bitwise_and(stepped, inside)) > _STEP_INSIDE * size * line_width:
        return True
    # Decision: also where as long a stretch of the step runs just outside the outline (within
    # `_STEP_NEAR` of the size), because the frame search cuts the ink to the bright paper (`_paper_only`),
    # and a shadow's edge crossing the frame near a corner then leaves an outline cut off along a chord
    # close to the band, neither along a side nor inside (bench_styles seed 17000, shadow, photo 5:
    # corners 33/6/504/40 px off).
    near = np.zeros_like(stepped)
    cv2.polylines(near, [np.round(chosen[0].quad).astype(np.int32)], True, 255,
                  2 * round(_STEP_NEAR * size) + 1)
    return cv2.countNonZero(cv2.bitwise_and(stepped, cv2.bitwise_and(near, cv2.bitwise_not(inside)))) \
        > _STEP_INSIDE * size * line_width


def _drawn_better(again: tuple[FrameCandidate, U8], chosen: tuple[FrameCandidate, U8],
                  ratio: NDArray[np.float32], ridged: NDArray[np.float32], dark: U8) -> bool:
    """Whether the outline `again`'s weakest side is drawn better than `chosen`'s, or as well where a side
    of `chosen` runs along a step in the light (over `_STEP_SIDE` of it on the pixels `ridges_only` told
    back to paper: `ridged` above `ratio`) and `again` is the larger, or lies within the final fit's reach
    of `chosen` with no side along the step (`_off_step_alike`) and is fitted to other lines. A side is
    drawn by the share of it in ink at `_RIDGE_INK` on `ridged`, measured on the outlines as fitted to
    their lines (`fitted`); `dark` is the preview's grey."""
    # Decision: the outlines as fitted, because an outline's corners as found lie on the outside of its
    # lines' blob (a frame whose sides run on past its corners: seen 10 px of the 1000 px preview off
    # its lines, its sides then "undrawn": bench_styles seed 17000, shadow, photo 2, 0.05 -> 1.0).
    ink = below(ridged, _RIDGE_INK)
    tolerance = _side_tolerance(max(dark.shape))
    fit_again, fit_chosen = fitted(again, dark), fitted(chosen, dark)
    weakest_again = min(side_coverage(ink, fit_again, tolerance=tolerance))
    weakest_chosen = min(side_coverage(ink, fit_chosen, tolerance=tolerance))
    if weakest_again != weakest_chosen:
        return weakest_again > weakest_chosen
    stepped = u8(cv2.compare(ridged, ratio, cv2.CMP_GT))
    if max(side_coverage(stepped, chosen[0].quad, tolerance=tolerance)) <= _STEP_SIDE:
        return False
    # Decision: one alike and clear of the step replaces the first only where the two are fitted to
    # other lines (a corner over the side's tolerance apart), because where both fit the same lines the
    # first's fit is the one every such photo had: the outline found again on a shaken photo fitted
    # within a pixel of the first moved its corners by 1 px of the photo, and 9 of its 65 digits read
    # changed for the worse (bench_styles seed 38000, motion, photo 3).
    return _area(again) > _area(chosen) or (_off_step_alike(again, chosen, stepped, tolerance)
                                            and not alike(fit_again, fit_chosen, tolerance))


def _off_step_alike(again: tuple[FrameCandidate, U8], chosen: tuple[FrameCandidate, U8], stepped: U8,
                    tolerance: float) -> bool:
    """Whether `again` is `chosen` up to the final fit's reach (every corner within `_fit_band` of
    `chosen`'s, as found) with no side along the step (`stepped`: over `_STEP_SIDE` of it)."""
    # Decision: of two outlines of one frame drawn as well, one closed along a step in the light and one
    # clear of it, the one clear of it is the frame, also where it is the smaller, because a drawn line
    # has paper on both sides, while a step (the paper's edge, a shadow's edge) has its dark side on one:
    # a frame drawn near the paper's left edge, a pen lying across the edge beside it, closed at the
    # faintest level along the paper's edge from the frame's top corner to its bottom one (that side
    # 0.57 on the step), and the corners fitted to that line there (bench_styles seed 36000, photo 2,
    # usual, glare and thin: 77 px off), while the search on the ridges saw the frame whole at three
    # levels. A frame drawn along the paper's edge has that side on the step in both outlines: kept.
    return alike(again[0].quad, chosen[0].quad, _fit_band(chosen[1])) \
        and max(side_coverage(stepped, again[0].quad, tolerance=tolerance)) <= _STEP_SIDE


def _area(outline: tuple[FrameCandidate, U8]) -> float:
    """The area (px² of the preview) inside an outline as found."""
    return quad_area(outline[0].quad)


def fitted(chosen: tuple[FrameCandidate, U8], dark: U8, *, off_rim: bool = False) -> F64:
    """The outline's corners fitted to the ink of its level (`refine_quad`, kept off the paper's edge seen
    in `dark`, the grey of the preview it was found in), as `sheet._from_drawn_frame` fits them (an
    outline running off the preview as it was found); `off_rim`: a side with the table beyond it fitted
    clear of the table's rim too (`refine_quad`), as `sheet` fits the outline chosen."""
    best, mask = chosen
    return best.quad if best.touches else refine_quad(mask, best.quad, band=_fit_band(mask), gray=dark,
                                                      off_rim=off_rim)


def _fit_band(mask: U8) -> float:
    """How far (px of the preview `mask`) across a side `refine_quad` looks for its line."""
    return max(3.0, 0.025 * float(max(mask.shape)))


def _side_tolerance(size: int) -> float:
    """How far (px of the preview, `size` its longer side) ink may lie off an outline's side and count for
    it (`side_coverage`), in `_on_step` and `_drawn_better`."""
    return max(2.0, 0.004 * size)


def _busy(ink: U8) -> bool:
    """Whether over `_BUSY` of the preview is ink at the faintest usual level (a grid or a texture)."""
    return float(np.count_nonzero(ink)) / ink.size > _BUSY


_BUSY = 0.15
"""The share of the preview in ink beyond which `_drawn_frame_in` looks at neutral dark ink first."""
_RIDGE_INK = 0.85
"""The share of the paper under which `_drawn_better` takes a pixel for ink: fainter than the frame search's
faintest level (`CONTRASTS`), as a pencil frame may be, still darker than paper."""
_STEP_SIDE = 0.5
"""A side of the chosen outline over this share along a step's dark side is the step, not a drawn line."""
_STEP_INSIDE = 0.05
"""A step's dark side inside the chosen outline over this share of the size long (its pixels over the
line width) crosses the frame."""
_STEP_NEAR = 0.02
"""How near (a share of the size) outside the chosen outline a step's dark side counts as cutting it."""


def _grid_border(outline: tuple[FrameCandidate, U8]) -> bool:
    """Whether the ink `outline` was found in repeats at one pitch both ways inside it (a printed grid seen
    as a mesh)."""
    # Decision: crowded or not (over a fifth ink, asked until the twenty-second session), because a grid
    # whose lines fade where the light is brightest, or with a pitch over seven of its lines' widths,
    # leaves under a fifth of its border's inside in ink (bench_styles seed 35000, photo 1: 0.17 in the
    # brightest channel, the grid's border taken for the sheet in usual, glare, thin and shadow,
    # 186-1397 px off), while the drawn frames' whole outlines on the squared-paper photos of seeds
    # 26000-28000 came to the repeat's bar one way at most (autocorrelation up to 0.56 one way and 0.43
    # both ways; the grids' borders 0.53-0.82 both ways).
    return ruled_ways(outline[1], outline[0].quad) == 2


def _over_border(frame: FrameCandidate, border: FrameCandidate) -> bool:
    """Whether `frame` lies over the grid's `border`: its centre inside, over half its area (its corners
    may lie a little outside: the border's outline is cut where the paper's shade or edge meets it)."""
    centre = frame.quad.mean(axis=0)
    inside = cv2.pointPolygonTest(border.quad.astype(np.float32), (float(centre[0]), float(centre[1])), False)
    return inside > 0 and 0.5 * border.area < frame.area


def _whole_at_last_levels(ratio: Callable[[str], NDArray[np.float32]], dark: U8, size: int
                          ) -> list[tuple[FrameCandidate, U8]]:
    """The whole outlines (clear of the photo's edges, no frame line running on past them) seen at the
    plain levels of `_LAST_ATTEMPTS`, each group of levels only when the ones before it saw none."""
    last: list[tuple[FrameCandidate, U8]] = []
    for levels in _LAST_ATTEMPTS:
        for channel, contrast in levels:
            level = below(ratio(channel), contrast)
            found = [c for c in frame_candidates(level, dark, sharp_cut=True) if whole(c[0])]
            if found:
                last.extend(c for c in found if not overrun_sides(closed(level), c[0].quad, size))
        if last:
            break
    return last


def _drawn_frame_in(ratio: Callable[[str], NDArray[np.float32]], dark: U8, *, busy: bool,
                    ran_off: set[str] | None = None) -> tuple[FrameCandidate, U8] | None:
    """The drawn outer rectangle found in the ink levels of `ratio` (a channel's ratio to the paper) on
    the pooled preview whose grey is `dark`, or None. `busy`: much of the preview is ink at the
    faintest usual level (`_busy`: a grid or a texture). `ran_off`, when given, receives the edges of
    the preview that outlines seen at the usual levels (`_ATTEMPTS`, `_BUSY_ATTEMPTS`) run off, where
    those levels show no outline drawn whole."""
    # Decision: start with faint ink in any colour (pencil lines count) and demand darker or neutral
    # ink only when nothing clean was found, because the printed grid of squared notebook paper is
    # faint coloured ink that hides the frame. When a third of the photo is "ink" at the start, a grid
    # or a texture is certain: look at neutral dark ink first then.
    attempts = _BUSY_ATTEMPTS if busy else _ATTEMPTS
    candidates: list[tuple[FrameCandidate, U8]] = []
    uncut: list[U8] = []  # the ink level each candidate was found at, before any cut to the paper

    for channel, contrast in attempts:
        if contrast >= CONTRASTS[0] and channel == "min":
            # Faint lines (pencil) fade in and out: keep their faintest parts where they join darker ones.
            # (Not in the brightest channel, used for ruled paper: its rulings sit just above the level.)
            mask = hysteresis(ratio(channel), contrast, contrast + 0.1)
        else:
            mask = below(ratio(channel), contrast)
        found = frame_candidates(mask, dark)
        candidates.extend(found)
        uncut.extend(mask for _ in found)
        complete = [c for c, _ in candidates if whole(c)]
        if any(votes(c, complete, max(mask.shape)) >= 3 for c in complete):
            break  # three ink levels agree on one fully drawn outline: enough
    size = max(dark.shape)
    wholes = [c for c in candidates if whole(c[0])]
    if wholes and all(_grid_border(c) for c in wholes):
        # Decision: where every whole outline seen at the usual levels has the paper's
        # printed grid inside it (its ink repeating at one pitch both ways: `ruled_ways`), a whole
        # outline found within it at the plain levels of `_LAST_ATTEMPTS`, without the grid inside, is
        # the frame, because a notebook's grid stops short of the paper's edge in a straight, closed
        # border of its own: that border is the outline the usual levels see whole, while a pencil
        # frame paler than the grid is joined to the grid there and broken up at the darker levels
        # (unseen seed 27000, photo 6, squared paper: the grid's border taken for the sheet, 242 px off,
        # 15 % of the zones read). On any paper, not only busy paper (`_busy`, asked until the
        # twenty-second session), because a grid fading where the light is brightest leaves the paper
        # under `_BUSY` in ink (bench_styles seed 35000, photo 1: 0.13).
        inner = [c for c in _whole_at_last_levels(ratio, dark, size) if not _grid_border(c)
                 and any(_over_border(c[0], w[0]) for w in wholes)]
        if inner:
            candidates = inner
    if not any(whole(c) for c, _ in candidates):
        if ran_off is not None:
            ran_off.update(side for c, _ in candidates for side in c.touches)
        # Decision: the in-between and faintest levels come last and only when no level above saw a
        # whole outline, because they are no better where the usual levels see a frame (and every photo
        # that has one keeps the outline chosen as before). Decision: here only a whole outline clear of
        # the photo's edges counts, because at these levels a ruling line or the table's edge closes
        # false outlines around part of a frame (seen drawn on 3 or 4 sides, or running off the photo),
        # and a wrong sheet read silently is worse than "no sheet". Decision: a whole outline found here
        # beats the part-drawn ones found above, because a part-drawn outline is a guess: its undrawn
        # side is the hull closing over a gap (a faint side broken into dashes, a side cut off with the
        # paper's shaded part) and lies inside the frame.
        # Decision: from here on an outline that the frame's own lines run on past is dropped (the
        # frame's side there is lost, and a line inside it closed the outline), for the same reason;
        # it is checked on the uncut ink, as the paper cut may have cut the frame's sides short.
        last = _whole_at_last_levels(ratio, dark, size)
        if not last:
            # Decision: a frame seen only in dashes is looked for last, its dashes joined along straight
            # lines (`dashed_candidates`), at the same levels and on the same terms.
            for levels in _LAST_ATTEMPTS:
                for channel, contrast in levels:
                    level = below(ratio(channel), contrast)
                    last.extend(c for c in dashed_candidates(level, dark)
                                if not overrun_sides(closed(level), c[0].quad, size))
                if last:
                    break
        part_drawn = [c for c, ink in zip(candidates, uncut, strict=True)
                      if not overrun_sides(closed(ink), c[0].quad, size)]
        above = candidates
        candidates = last or part_drawn
        if last:
            # Decision: a part-drawn frame seen inside the whole outline found here, apart from it all
            # round, is the frame (the outline is the paper's rim, closed at these levels), as
            # `choose_frame` decides for two whole ones. (One sharing corners with it is the frame
            # with a faint corner cut off.)
            chosen = choose_frame(last, dark)
            inside = [c for c in part_drawn if frame_inside(c, chosen, size)
                      and apart(c[0].quad, chosen[0].quad, size)]
            if not inside:
                # Decision: a part-drawn frame the whole outline cuts across, where that outline is
                # the paper's grid seen as a mesh, is the frame (`grid_cut`), also one that lines run
                # on past, because on squared paper the grid lines along a frame's sides run on past
                # its corners at any level that shows the grid (bench_styles seed 15000, photo 2).
                inside = [c for c in above if grid_cut(c, chosen, size)]
            candidates = [max(inside, key=lambda c: c[0].coverage)] if inside else [chosen]
    if candidates:
        chosen = _drawn_in_darkest(choose_frame(candidates, dark), candidates, ratio("min"), dark)
        return without_coloured_side(chosen, ratio("min"), ratio("max"))
    return None


def _drawn_in_darkest(chosen: tuple[FrameCandidate, U8], candidates: list[tuple[FrameCandidate, U8]],
                      darkest: NDArray[np.float32], dark: U8) -> tuple[FrameCandidate, U8]:
    """`chosen`, or, where a side of it as fitted (`fitted`; `dark` the preview's grey) is ink in the
    darkest channel (`darkest`, its ratio to the paper) along under `_INKED` of it (`inked_share`), the
    biggest other whole outline among `candidates` with every side as fitted in ink there along `_INKED`
    of it, alike to it (`votes`), or else lying over it (`_over_border`), if any."""
    # Decision: a pen or pencil darkens every channel, and the darkest most, so a side as fitted that
    # the darkest channel does not see drawn along it is a line printed in a neutral grey on tinted
    # paper (seen as ink in the brightest channel only, where the paper is brighter), the grid of
    # squared paper: on beige squared paper the outline closed on the grid one cell outside a blue
    # frame (and one seen a cell out at one corner), the bigger among outlines seen alike at three
    # levels, was taken, and its fit to the mesh at that level put one or two sides on grid lines
    # (0.35-0.76 of them in ink in the darkest channel, the frame's sides 1.0: bench_styles seed 45000,
    # photo 6, usual and jpeg: 60-63 px off).
    # As fitted, because that fit moves a side of an outline found a cell out at one corner only onto
    # the grid line beside the frame's side.
    shares = inked_share(fitted(chosen, dark), darkest)
    if min(shares) >= _INKED:
        return chosen
    size = max(dark.shape)
    drawn = [c for c in candidates if c is not chosen and whole(c[0])
             and min(inked_share(fitted(c, dark), darkest)) >= _INKED]
    alike_drawn = [c for c in drawn if votes(c[0], [chosen[0]], size)]
    # Decision: where none is alike and only one side of `chosen` is not drawn, the biggest whole outline
    # drawn all round that lies over `chosen` (its centre inside, over half its area: `_over_border`)
    # replaces it, because three sides drawn in the darkest channel say the pen is seen there, so the
    # fourth closed the outline along something else than a drawn line, and the frame, drawn whole, is
    # then another outline: on the ratios with a hard shadow's edge told back to paper (the second
    # search of `find_drawn_frame`), the outline closed past the frame's top side out to the paper's
    # edge (that side 0.36 in ink) was taken over the frame seen whole at one level, crowded by its
    # writing (bench_styles seed 31000, shadow, photo 5: 738 px off; taken, 15 px). An outline with no
    # side drawn there is drawn in a pen the darkest channel does not see, and is kept.
    one_undrawn = sum(share < _INKED for share in shares) == 1
    over = [c for c in drawn if one_undrawn and _over_border(c[0], chosen[0])]
    return max(alike_drawn or over, key=lambda c: c[0].area) if alike_drawn or over else chosen


_INKED = 0.9
"""A side as fitted is drawn when over this share of it is ink in the darkest channel (drawn frames as
fitted: 1.0; sides fitted onto a grey grid line of beige squared paper: 0.35-0.76, seed 45006)."""
