"""Stage 2 for a hand-drawn sheet: which of the closed outlines seen at several ink levels
(`_drawn_frame.frame_candidates`, `dashed_candidates`) is the drawn outer rectangle (`choose_frame`), and
the tests `_frame_search` asks of two outlines: one drawn inside another (`frame_inside`), one cut off
another along the grid (`grid_cut`), apart (`apart`), how many levels show one (`votes`), and a side
drawn in colour (a lined page's red margin) left out (`without_coloured_side`).
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.vision._arrays import F64, U8, f64
from sheetscan.vision._drawn_frame import votes, whole, within
from sheetscan.vision._quad import (
    FrameCandidate,
    alike,
    bare_share,
    segment_coverage,
    side_coverage,
)
from sheetscan.vision._rulings import ruled_ways

__all__ = ["apart", "choose_frame", "frame_inside", "grid_cut", "inked_share", "without_coloured_side"]


def choose_frame(candidates: list[tuple[FrameCandidate, U8]], dark: U8 | None = None
                 ) -> tuple[FrameCandidate, U8]:
    """Decision: a frame clear of the photo's edges beats one running off it, a fully drawn outline one
    with gaps (a quadrilateral made up of grid lines and paper edges); among those, the outline seen at
    the most ink levels, then the bigger (but one drawn whole before one about as big closed over a
    gap), and of the outlines near that one the straightest (see
    `_straightest`); one nested well inside it is the drawn frame when no drawn line crosses the gap
    between them (the outer one is then the paper seen through a texture, or a ruling joined to the
    frame at a faint level), while lines running on from the inner outline's corners to the outer
    one's (a frame's sides past a ruling inside it, spokes) make the outer one the frame."""
    clear = [c for c in candidates if not c[0].touches] or candidates
    size = max(clear[0][1].shape)
    # Decision: a crowded outline (over a fifth ink) is dropped where a clean one (not crowded) shows it
    # to be that frame merged with writing (`_merged_into`), because a frame crowded by its writing is
    # still the outline its own lines draw.
    clean = [c[0] for c in clear if not c[0].crowded]
    merged = [c[0] for c in clear if c[0].crowded and any(_merged_into(c[0], other, size) for other in clean)]
    clear = [c for c in clear if not any(c[0] is m for m in merged)]
    # Decision: a crowded whole outline with the paper's printed grid inside it (its ink repeating at one
    # pitch both ways: `ruled_ways`) is dropped where a whole outline without the grid inside crosses it
    # (`_crosses_mesh`), because the grid seen as a mesh closes an outline wherever the paper's shade,
    # a glare or its edge cuts the grid off, while the drawn frame's four sides are lines of their own,
    # seen whole at a level where the grid drops out, and no drawn line of a sheet runs out of its frame
    # (bench_styles seed 33000, photo 1, glare, squared paper: the frame drawn whole at one level, the
    # mesh's outline, bigger, taken: 511 px off). As `_frame_search` gives up a grid's border for a
    # frame within it on busy paper.
    wholes = [c for c in clear if whole(c[0])]
    clear = [c for c in clear if not any(_crosses_mesh(o, c, size) for o in wholes if o is not c)] or clear
    # Decision: a clean outline drawn along most of its sides (`_SEEN_PART`) and seen alike at two ink
    # levels or more (`votes`) passes with the fully drawn ones, because a glare or a washed-out light
    # fades a stretch of the frame's side at every level alike, while an outline closed over a gap by
    # a chance line (a spoke, a column of writing) is that line's at one level only: the frame of a
    # glared photo, seen at 0.82 and 0.87 of its sides at two levels, was dropped, a sliver closed along
    # the long diagonal line taken, and the photo read as "no sheet" (bench_styles seed 35000, glare,
    # photo 5, squared paper).
    seen_all = [c[0] for c in clear]
    clear = [c for c in clear if c[0].coverage >= 0.9 or _seen_part(c[0], seen_all, size)] or clear
    frames = [c[0] for c in clear]
    # Decision: the levels where an outline was seen merged with writing count for it too (the crowded
    # outlines dropped above lie on its lines), because they are levels that saw the frame: the thick
    # frame on lined paper, seen clean at one level and crowded by its writing at two, lost to an
    # outline of the red margin and a ruling seen at one level, bigger (bench_styles seed 37000, thick,
    # photo 2: 247 px off). Not one lying within a bigger clean outline: that is part of a frame closed
    # off by writing or a line across it, and its votes made such a part (seen clean at one more level)
    # the frame nested in the bigger one (`frame_inside`; seed 37000, shadow, photo 5, the shadow's edge
    # across the frame).
    on_lines = [m for m in merged if not any(o.area > m.area and within(m.quad, o.quad, 0.01 * size)
                                             for o in clean)]
    seen = [votes(c[0], frames + on_lines, size) for c in clear]
    # The outline seen at the most ink levels is the drawn frame (a ruling or a stroke that merges
    # with it at one level moves a corner at that level only); then the bigger.
    order = sorted(range(len(clear)), key=lambda i: (-seen[i], -clear[i][0].area))
    # Decision: of two outlines seen at as many levels and about as big (the smaller over `_ALIKE` of
    # the bigger's area), one drawn whole along every side (`_FULL`) goes before one closed over a gap,
    # because a frame's four sides are drawn lines while the other outline's gap is its hull's chord
    # across the sheet, along a spoke or a ruling that meets the frame's side (bench_styles seed 27000,
    # dark, photo 4, lined paper: the frame seen whole at one level, an outline closed along a spoke
    # 2 % bigger at another, taken for the sheet and read as a 3-player one).
    if len(order) > 1:
        first, second = order[0], order[1]
        if seen[first] == seen[second] and clear[second][0].area > _ALIKE * clear[first][0].area \
                and clear[second][0].coverage >= _FULL > clear[first][0].coverage:
            order[0], order[1] = second, first
    best = _straightest(clear, order, size)
    for i in order:
        if i != best and seen[i] >= seen[best] - 1 and frame_inside(clear[i], clear[best], size):
            best = i
    # Decision: an outline lying within a bigger one whose sides run on from its corners to the bigger
    # one's is part of that frame closed off by a line drawn across it (a whist band's side, a spoke),
    # however many more levels it is seen at, because a frame's own sides do not run on past its corners:
    # the lower part of a frame cut off by the pulka rectangle's side was seen clean at two levels, the
    # whole frame (crowded by big writing) at one, and the sheet was read as a 3-player one (bench_styles
    # seed 6000, big, photo 2).
    # Only an outline under half the bigger one's area: over half, it is the frame seen inside an outline
    # of rulings or paper (`frame_inside`), and on lined paper the frame's sides run on along the rulings
    # to such an outline (bench_styles seed 8000, photo 0, in five styles).
    # Decision: or, where `dark` is given, one cut off the bigger one by a chord across it with paper
    # beyond the bigger one's side there (`_cut_by_chord`), whatever its area, because a whist band is a
    # narrow strip of the frame: its inner side (the pulka rectangle's) joins the frame's sides into an
    # outline seen at more levels than the frame where the frame's own side is paler (bench_styles seed
    # 26000, usual and steep, photo 6, lined paper: 159 and 150 px off). Paper beyond, because where the
    # frame's sides run on along rulings to the paper's edge, the outline closed there differs from the
    # frame by one whole side too, with the table beyond it (seed 21000, photo 5, three styles).
    # Decision: not a chord where the part it cuts off is the paper's grid seen as a mesh at the bigger
    # outline's level (`_mesh_cut_off`), because there the grid lines running on from the frame's sides
    # "bridge" its corners to wherever the mesh ends, and the mesh's edge (a grid line parallel to the
    # frame's side, where the paper's shade lets the grid fade) closes the bigger outline: taken, it was
    # 308 px off (bench_styles seed 32000, steep, photo 1, squared paper: the part cut off 1 % bare
    # paper at that level; the whist bands cut off on lined paper, seed 26000, photo 6: 33-36 %).
    for i in order:
        small = clear[best][0].area < 0.5 * clear[i][0].area
        chord = dark is not None and _cut_by_chord(clear[best][0].quad, clear[i][0].quad, dark, size,
                                                   corner=not clear[i][0].crowded) \
            and not _mesh_cut_off(clear[best][0].quad, clear[i])
        if (small or chord) and _closed_off(clear[best], clear[i], size):
            best = i
    return clear[best]


_SEEN_PART = 0.8
"""A clean outline seen at two levels or more passes `choose_frame`'s first filter when drawn along this
share of its sides at least (the glared frame of seed 35005: 0.82 and 0.87)."""


def _seen_part(frame: FrameCandidate, frames: list[FrameCandidate], size: int) -> bool:
    """Whether `frame` is a clean outline (not crowded) drawn along `_SEEN_PART` of its sides and seen
    alike (`votes`) at two levels or more among `frames`."""
    return not frame.crowded and frame.coverage >= _SEEN_PART and votes(frame, frames, size) >= 2


_ALIKE = 0.9
"""Two outlines whose areas differ by under a tenth are alike in size (`choose_frame`)."""
_FULL = 0.98
"""An outline drawn along this share of each side at least is drawn whole (`choose_frame`)."""


def _cut_by_chord(inner: F64, outer: F64, dark: U8, size: int, *, corner: bool = True) -> bool:
    """Whether `inner` is `outer` with a part cut off along a chord, and paper beyond `outer`'s side cut
    off: one side moved inwards (two neighbouring corners shared, within 1.5 % of the size, `inner`'s
    other two on `outer`'s outline, within 1 %; the side cut off is `outer`'s between its other two
    corners), or one corner cut off (three shared, the fourth on a side of `outer` next to the corner not
    shared; the side cut off is that corner's other side; only with `corner`). Beyond it, the grey of
    `dark` is at least `_PAPER_BEYOND` of the grey just inside (a margin of paper, not the table past the
    paper's edge).

    Decision: a corner cut off counts as a side moved in does, because its chord is a line of writing or
    a spoke meeting a corner of the frame, and the part closed off was taken for the frame: the right
    whist band's numbers closed it from its bottom-right corner to a point on its top side (bench_styles
    seed 30000, thin, photo 4, lined paper, its pale right side seen at one level: 563 px off).
    Decision: not where `outer` is crowded (the caller's `corner`), because that is the frame merged with
    writing at one corner, pulled out along a side so that the frame's corner lies on it (seed 30000,
    thin, photo 6: taken, 257 px off).
    """
    distance = np.hypot(*(inner[:, None, :] - outer[None, :, :]).transpose(2, 0, 1))
    shared = [k for k in range(4) if distance[:, k].min() < 0.015 * size]
    polygon = outer.astype(np.float32)
    free = [i for i in range(4) if distance[i].min() >= 0.015 * size]
    off = [abs(cv2.pointPolygonTest(polygon, (float(x), float(y)), True)) for x, y in inner[free]]
    if len(free) != 4 - len(shared) or any(d >= 0.01 * size for d in off):
        return False
    if len(shared) == 2 and (shared[1] - shared[0]) % 4 in (1, 3):
        a, b = (outer[k] for k in range(4) if k not in shared)
    elif len(shared) == 3 and corner:
        cut = next(k for k in range(4) if k not in shared)
        before, after = outer[(cut - 1) % 4], outer[(cut + 1) % 4]
        point = inner[free[0]]
        # The free corner lies on one of the cut corner's two sides; the other is cut off whole.
        on_before = _to_segment(point, before, outer[cut]) <= _to_segment(point, outer[cut], after)
        a, b = (outer[cut], after) if on_before else (before, outer[cut])
    else:
        return False
    centre = outer.mean(axis=0)
    normal = np.array([a[1] - b[1], b[0] - a[0]]) / max(float(np.hypot(*(b - a))), 1e-9)
    if float(np.dot(normal, (a + b) / 2 - centre)) < 0:
        normal = -normal  # outwards
    t = np.linspace(0.1, 0.9, 32)[:, None]
    along = a + t * (b - a)
    h, w = dark.shape

    def grey(offset: float) -> float:
        pts = np.round(along + offset * normal).astype(int)
        inside = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
        return float(np.median(dark[pts[inside, 1], pts[inside, 0]])) if inside.any() else 0.0

    reach = 0.02 * size
    return grey(reach) >= _PAPER_BEYOND * grey(-reach)


def _mesh_cut_off(inner: F64, outer: tuple[FrameCandidate, U8]) -> bool:
    """Whether the part of the `outer` outline outside `inner` is a mesh in `outer`'s ink: under
    `_MESH_BARE` of it lies farther from ink than `bare_share`'s reach (1.5 % of the square root of
    `outer`'s area)."""
    frame, mask = outer
    whole_part = np.zeros_like(mask)
    cv2.fillPoly(whole_part, [np.round(frame.quad).astype(np.int32)], 255)
    kept = np.zeros_like(mask)
    cv2.fillPoly(kept, [np.round(inner).astype(np.int32)], 255)
    cut_off = (whole_part > 0) & (kept == 0)
    area = int(np.count_nonzero(cut_off))
    if not area:
        return False
    far = cv2.distanceTransform(cv2.bitwise_not(mask), cv2.DIST_L2, 3) > 0.015 * math.sqrt(frame.area)
    return float(np.count_nonzero(far & cut_off)) / area < _MESH_BARE


def _crosses_mesh(frame: tuple[FrameCandidate, U8], mesh: tuple[FrameCandidate, U8], size: int) -> bool:
    """Whether the whole outline `frame` crosses `mesh`, a crowded whole outline with the paper's grid
    inside it (ruled both ways), while `frame` has none inside it (ruled at most one way): over half its
    area, reaching out of it (a corner over 1.5 % of the size outside)."""
    return whole(mesh[0]) and mesh[0].crowded and frame[0].area > 0.5 * mesh[0].area \
        and not within(frame[0].quad, mesh[0].quad, 0.015 * size) \
        and ruled_ways(mesh[1], mesh[0].quad) == 2 and ruled_ways(frame[1], frame[0].quad) < 2


def _to_segment(point: F64, a: F64, b: F64) -> float:
    """The distance from `point` to the segment a → b."""
    d = b - a
    return float(np.hypot(*(point - (a + float(np.clip(np.dot(point - a, d) / max(float(np.dot(d, d)), 1e-9),
                                                        0.0, 1.0)) * d))))


_PAPER_BEYOND = 0.8
"""Beyond a drawn side lies the paper's margin, as bright as the paper inside it but for shade; past the
paper's edge, the table (`_cut_by_chord`)."""


def _closed_off(inner: tuple[FrameCandidate, U8], outer: tuple[FrameCandidate, U8], size: int) -> bool:
    """Whether `inner` is part of the `outer` outline closed off by a line inside it: within it (up to 1 %
    of the size), not the same outline, and drawn lines running on from its corners to the outer one's
    (`_bridged`)."""
    # Decision: here the lines are looked for in the outer outline's ink only, because they are its own
    # sides and spokes (the inner outline was seen at a level without them: the frame crowded by big
    # writing at its level, bench_styles seed 6000, big, photo 2).
    same = alike(inner[0].quad, outer[0].quad, 0.015 * size)
    return not same and within(inner[0].quad, outer[0].quad, 0.01 * size) \
        and _bridged(inner, outer, size, own_ink=False)


def _merged_into(crowded: FrameCandidate, clean: FrameCandidate, size: int) -> bool:
    """Whether the crowded outline is the clean outline's frame merged with writing at its level:

    - lying within the clean outline and smaller: part of the frame closed off by writing or an inner
      line, however much better drawn it looks (its sides include the frame's own). On an out-of-focus
      photo (bench_styles blur seed 6002) the lower part of the frame, closed by a row of whists, was
      drawn whole at one level while the frame showed only 0.57 of its sides at another, and the sheet
      was read as a 3-player one;
    - near a clean outline drawn whole: a row of numbers along a side pulls that side out, while the
      frame seen clean at other levels lies on its own lines; as the bigger of the two it was chosen,
      44 px off (bench seed 1000 photo 18).
    """
    if clean.area > crowded.area and within(crowded.quad, clean.quad, 0.01 * size):
        return True
    return whole(clean) and alike(clean.quad, crowded.quad, 0.025 * size)


def frame_inside(inner: tuple[FrameCandidate, U8], outer: tuple[FrameCandidate, U8], size: int) -> bool:
    """True when `inner` is a drawn frame seen inside the `outer` outline: nested in it (up to 1 % of the
    size), over half its area, not the same outline, and no drawn line crossing the gap between them
    (`_bridged`).

    Decision: nested up to 1 % of the size, because corners the two outlines share are fitted a few px
    apart at their two ink levels: the paper closed over a frame on squared paper (its top and bottom
    sides running on along the grid to the paper's edge) shared the frame's left corners 5 px inside
    them, the frame was not nested, and the paper's outline taken (bench_styles seed 31000, thin, photo 0:
    709 px off)."""
    nested = within(inner[0].quad, outer[0].quad, 0.01 * size)
    same = alike(inner[0].quad, outer[0].quad, 0.015 * size)
    return nested and not same and 0.5 * outer[0].area < inner[0].area < outer[0].area \
        and not _bridged(inner, outer, size)


_MESH_BARE = 0.05
"""An outline whose inside has under this share far from ink (`bare_share`) is seen at a level showing
the paper's grid as a mesh (as `_quad._ink_share` takes it: meshes left up to 2.4 %, frames 7.5 % or more)."""


def grid_cut(part: tuple[FrameCandidate, U8], outline: tuple[FrameCandidate, U8], size: int) -> bool:
    """True when the whole `outline` is an edge of the paper's grid cutting across the part-drawn frame
    `part`: `outline` seen at a level where the grid is a mesh inside it (`_MESH_BARE`), `part` at one
    where it is not, clear of the photo's edges, over half the outline's area, and reaching out of it
    (a corner over 1.5 % of the size outside it).

    Decision: such a part-drawn frame beats the whole outline, because at a level showing the paper's
    grid as a mesh the grid joins the frame, the paper's rim and the grid's own ends into one
    component, and its hull's sides run along the grid wherever they go (every segment across a mesh
    lies along ink): its "whole" outline is the grid's edge where the paper's shade cuts the grid off,
    not drawn lines, while the drawn frame, seen at a cleaner level with bare paper inside, has its
    corner beyond it (bench_styles seed 15000, photo 2: a grey pencil frame on blue squared paper, the
    outline from the paper's left edge to the frame's right side taken for the sheet). A part-drawn
    outline lying within the whole one is `frame_inside`'s case.
    """
    frame, ink = part
    return not frame.touches and frame.area > 0.5 * outline[0].area \
        and not within(frame.quad, outline[0].quad, 0.015 * size) \
        and bare_share(outline[1], outline[0].quad) < _MESH_BARE and bare_share(ink, frame.quad) >= _MESH_BARE


def apart(inner: F64, outer: F64, size: int) -> bool:
    """True when no corner of `inner` is within 1.5 % of the size of one of `outer`'s."""
    return all(float(np.hypot(*(outer - corner).T).min()) >= 0.015 * size for corner in inner)


def _straightest(clear: list[tuple[FrameCandidate, U8]], order: list[int], size: int) -> int:
    """The first outline in `order`, or one near it (corners within 2.5 % of the size: the reach of the
    final fit to the lines) whose sides lie clearly closer along ink: a ruling joined to the frame at
    one faint level pulls that level's outline off the frame's line at one end, so that a side has
    far less of its length within 0.4 % of the size of ink than the frame's sides have."""
    first = clear[order[0]][0].quad
    near = [i for i in order if alike(clear[i][0].quad, first, 0.025 * size)]
    tight = max(2.0, 0.004 * size)

    if len(near) == 1:
        return order[0]
    straight = {i: min(side_coverage(clear[i][1], clear[i][0].quad, tolerance=tight)) for i in near}
    best = max(near, key=lambda i: (straight[i], -near.index(i)))
    # Decision: only a clear difference (0.3 of a side) moves the choice off the first, because among
    # outlines that all follow the frame the first is the one its final fit does best from.
    return best if straight[best] >= straight[order[0]] + 0.3 else order[0]


def _bridged(inner_seen: tuple[FrameCandidate, U8], outer: tuple[FrameCandidate, U8], size: int, *,
             own_ink: bool = True) -> bool:
    """True when drawn lines run from the `inner` outline's corners on to the `outer` outline's corners.

    Where the two differ by one side, those are the frame's other two sides going on past a line
    inside it (a ruling, a grid line, a drawn line) taken as a side; where they differ all round, the
    spokes from an inner rectangle's corners. A paper's edge around the frame, or a ruling the frame's
    sides stop short of, has bare paper there.
    Decision: a line counts only where it is seen both in the ink the outer outline was found in and
    in the ink the inner one was found in, because the lines that join them are drawn with the pen of
    the inner outline's own lines, while the ink level of the outer one may also show the paper's
    grid, which lies near any segment drawn across squared paper: a faint pencil frame on squared
    paper (grid seen in dots at the paper rim's level, none at the frame's) was "bridged" to the
    paper's rim by the grid and lost to it (bench_styles seed 11000, photo 2). `own_ink=False`: in the
    outer outline's ink only.
    """
    inner, own = inner_seen[0].quad, inner_seen[1]
    frame, mask = outer
    tolerance = max(2.0, 0.006 * size)
    distance = np.hypot(*(inner[:, None, :] - frame.quad[None, :, :]).transpose(2, 0, 1))
    # The corners the two share; each other corner of `inner` runs on to the nearest corner of `outer`
    # that is not shared (a part closed off near one end of the frame lies nearer that end's corners,
    # which are its own).
    shared = {int(i): int(np.argmin(distance[i])) for i in range(4) if distance[i].min() < 0.015 * size}
    free = [k for k in range(4) if k not in shared.values()]
    shares = [_joined(inner[i], frame.quad[min(free, key=lambda k: distance[i, k])], mask,
                      own if own_ink else None, tolerance)
              for i in range(4) if i not in shared and free]
    return bool(shares) and float(np.mean(shares)) >= 0.7


def _joined(a: F64, b: F64, mask: U8, own: U8 | None, tolerance: float) -> float:
    """The share of the segment a → b along ink (`segment_coverage`) in `mask`, where it is a line there
    (bare paper beside it: its share beside it, 3 tolerances off either side, under it by 0.5) or is
    also along ink in `own` (when given); else the smaller of the two shares.

    Decision: a line standing clear of the paper beside it counts in the outer outline's ink alone,
    because the frame's own sides running on past a part of it are seen there and may be missed at the
    part's level (a thin pencil frame, bench_styles seed 13000, thin, photo 6), while a grid lies
    beside the segment as much as on it.
    """
    share = segment_coverage(mask, a, b, tolerance=tolerance)
    if own is None:
        return share
    d = f64(b) - f64(a)
    normal = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-9) * 3 * tolerance
    beside = max(segment_coverage(mask, a + k * normal, b + k * normal, tolerance=tolerance) for k in (-1, 1))
    if share - beside >= 0.5:
        return share
    return min(share, segment_coverage(own, a, b, tolerance=tolerance))


_NEUTRAL_PEN = 0.8  # the frame's other three sides: at least this share of their darkness in every channel
_COLOURED = 0.5  # the odd side: under this share (a red margin: 0.28-0.36; pencil and black pen: 0.87-1.0)


def without_coloured_side(chosen: tuple[FrameCandidate, U8], darkest: NDArray[np.float32],
                          brightest: NDArray[np.float32]) -> tuple[FrameCandidate, U8]:
    """`chosen` with its mask cleared of coloured ink when one side of its outline is a coloured line
    and the other three are drawn in a neutral pen (`darkest` / `brightest`: the darkest and the
    brightest channel's ratio to the paper, as `dark_ratio` gives them).

    Decision: a side drawn in colour where the other three are pencil or black pen is not the frame's
    (one pen draws the frame): it is a printed line beside it, the red margin of lined paper, which the
    outline's hull took instead of the frame's side next to it (bench_styles seed 11000, photo 5, dark
    and blur: the left side on the margin, 11-16 px off at the preview). Coloured ink fades in the
    brightest channel: the pixels darker in the darkest channel than their share of darkness in the
    brightest one says of a neutral pen are cleared, so that the side is fitted to the frame's own line.
    """
    frame, mask = chosen
    shares = [_neutral_share(frame.quad[k], frame.quad[(k + 1) % 4], darkest, brightest) for k in range(4)]
    odd = [k for k, share in enumerate(shares) if share is not None and share < _COLOURED]
    others = [share for k, share in enumerate(shares) if k not in odd]
    if len(odd) != 1 or any(share is None or share < _NEUTRAL_PEN for share in others):
        return chosen
    coloured = (1.0 - brightest) < _COLOURED * (1.0 - darkest)
    cleared = mask.copy()
    cleared[coloured] = 0
    return frame, cleared


def inked_share(quad: F64, darkest: NDArray[np.float32], *, samples: int = 80, ink: float = 0.85
                ) -> list[float]:
    """For each side of `quad` (k: corner k to k + 1), the share of `samples` places along it that are
    ink in the darkest channel (`darkest`, its ratio to the paper; under `ink` at the darkest pixel
    across the side, as `_neutral_share` looks for it)."""
    shares = []
    for k in range(4):
        across = _across(f64(quad[k]), f64(quad[(k + 1) % 4]), darkest.shape, samples)
        if across is None:
            shares.append(0.0)
            continue
        x, y = across
        shares.append(float(np.mean(darkest[y, x].min(axis=1) < ink)))
    return shares


def _neutral_share(a: F64, b: F64, darkest: NDArray[np.float32], brightest: NDArray[np.float32],
                   *, samples: int = 80, ink: float = 0.85) -> float | None:
    """The median share of the darkness of the line from `a` to `b` that the brightest channel sees too
    (1 = neutral grey or black, near 0 = a coloured line), at its darkest pixel across it at each of
    `samples` places; None when under a quarter of the places show ink (darker than `ink`)."""
    across = _across(a, b, darkest.shape, samples)
    if across is None:
        return None
    x, y = across
    dark = darkest[y, x]
    pick = np.argmin(dark, axis=1)
    rows = np.arange(samples)
    lowest, seen = dark[rows, pick], brightest[y, x][rows, pick]
    on = lowest < ink
    if on.sum() < samples // 4:
        return None
    return float(np.median((1.0 - seen[on]) / np.maximum(1e-3, 1.0 - lowest[on])))


def _across(a: F64, b: F64, shape: tuple[int, ...], samples: int
            ) -> tuple[NDArray[np.int_], NDArray[np.int_]] | None:
    """The pixels (x, y: `samples` places along the middle of the line from `a` to `b`, by the offsets
    across it within 0.4 % of the longer side of an image of `shape`, at least 3 px) looked at for the
    line's darkest pixel at each place; None for a line under a pixel long."""
    h, w = shape[0], shape[1]
    length = float(np.hypot(*(b - a)))
    if length < 1.0:
        return None
    normal = np.array([a[1] - b[1], b[0] - a[0]]) / length
    reach = max(3, round(0.004 * max(h, w)))
    t = np.linspace(0.1, 0.9, samples)[:, None, None]
    offsets = np.arange(-reach, reach + 1)[None, :, None]
    pts = (f64(a) + t * (b - a) + offsets * normal).round().astype(int)  # samples × offsets × 2
    return pts[..., 0].clip(0, w - 1), pts[..., 1].clip(0, h - 1)
