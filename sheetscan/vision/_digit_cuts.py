"""Cutting one glyph of touching ink into digits, in a frame where the writing runs left to right.

A glyph much wider than a digit is touching digits, cut at the columns with the least ink near the even
cut points (`digit_boxes`), at a thin joint rather than through a digit's loop (`_loop_columns`). A
glyph that may be one wide digit or touching ones is offered every likely way (`cut_options`): whole,
cut in two at the thinnest columns of its middle, cut in three, and with a "1" cut off either side
where it ran into its digit (`_edge_strokes`); the recogniser and the zone's running totals choose
among them. Grouping blobs into glyphs and numbers is `_group`'s.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision._group import Box, Glyph, Mask, column_runs
from sheetscan.vision._lines import runs_of
from sheetscan.vision._swallow import stroke_bend


def digit_boxes(glyph: Glyph, mask: Mask, *, height: float, width: float | None = None,
                wide: float = 1.2, loop: npt.NDArray[np.float64] | None = None) -> list[Box]:
    """The digit boxes of a glyph, left to right: one, or several where touching digits are cut.

    A glyph wider than `wide` × `height` holds about its width / `width` digits (`width`: the
    writer's typical digit width); it is cut at the columns with the least ink near the even cut
    points, which is where touching digits join; where those columns run through a digit's loop and a
    thin column outside the loops is near too, at that one (`_loop_columns` of the glyph's ink: `loop`
    when the caller has it).
    """
    x, y, w, h = glyph.box
    if w <= wide * height or h == 0:
        return [(x, y, w, h)]
    digit = width if width else 0.7 * height
    count = max(2, round(w / digit))
    piece = mask[y:y + h, x:x + w] > 0
    # The raw column profile: a joint between touching digits may be a single column wide.
    profile = piece.sum(axis=0).astype(np.float64)
    # Where a window holds a digit's loop and a thin column outside it, the cut is at such a column (a
    # joint, `_loop_columns`): only those count.
    loop = _loop_columns(piece) if loop is None else loop
    joints = np.where((loop == 0) & (profile < _JOINT * h), 0.0, np.inf)
    cuts: list[int] = []
    window = max(1, int(0.3 * w / count))
    for i in range(1, count):
        centre = round(i * w / count)
        lo, hi = max((cuts[-1] if cuts else 0) + 1, centre - window), min(w - 1, centre + window)
        if hi <= lo:
            cuts.append(centre)
            continue
        columns = np.arange(lo, hi + 1)
        # Among equally thin columns, the one nearest the even cut point.
        cost = profile[lo:hi + 1] + 0.01 * np.abs(columns - centre)
        if loop[lo:hi + 1].any() and np.isfinite(joints[lo:hi + 1]).any():
            cost = cost + joints[lo:hi + 1]
        cuts.append(lo + int(np.argmin(cost)))
    return _boxes_between(glyph, piece, cuts)


def _boxes_between(glyph: Glyph, piece: npt.NDArray[np.bool_], cuts: list[int]) -> list[Box]:
    """The glyph's digit boxes between the cut columns (relative to the glyph's box), each box
    trimmed to the rows its ink fills."""
    x, y, w, h = glyph.box
    boxes: list[Box] = []
    for a, b in itertools.pairwise([0, *cuts, w]):
        rows = np.flatnonzero(piece[:, a:b].any(axis=1))
        if rows.size == 0 or b <= a:
            continue
        boxes.append((x + a, y + int(rows[0]), b - a, int(rows[-1] - rows[0] + 1)))
    return boxes or [(x, y, w, h)]


def cut_options(glyph: Glyph, mask: Mask, *, height: float, width: float | None = None,
                narrowest: float = 0.55, edges: float = 1e9, most: int = 5,
                leading: bool = True) -> list[list[Box]]:
    """The ways a glyph may be cut into digits, the likeliest by its width first (`digit_boxes`).

    A "1" touching the digit beside it makes a glyph hardly wider than one digit, and a single wide
    digit can be wider than two narrow ones, so width alone cannot tell: every glyph at least
    `narrowest` × `height` wide is also offered whole (when no wider than 1.6 digits' height, or when
    its ink rings one hole across most of its width: a 0 written wide, `_one_ring`), cut in two at the
    thinnest columns of its middle part (its thin columns outside the digits' loops first,
    `_loop_columns`), and, when wide, cut in three. A narrower glyph at
    least `edges` × `height` wide is offered only the cuts that take a "1" off either side
    (`_edge_strokes`): "11" or "14" written touching can be narrower than a wide digit. A glyph
    whose "1" on the left leaves a rest wide enough for two digits is also offered the "1" cut off
    and the rest cut in two ("120" written touching), when it is its number's `leading` glyph, and the
    "1" cut off where it joins its digit when that is not the thinnest column (`_edge_strokes`) or past
    a slanted "1" where it stands apart from its digit (`_apart_stroke`), and,
    in a leading glyph the first way cuts into digits, the "1" cut off with the first way's cuts kept
    ("149" written touching). The recogniser and the zone's running totals choose among them. At most
    `most` options, and those last ones.
    """
    x, y, w, h = glyph.box
    piece = mask[y:y + h, x:x + w] > 0
    # (Its loops are wanted by the middle cuts and, when it is wide, by `digit_boxes`: found once.)
    loop = _loop_columns(piece) if h > 0 and w >= narrowest * height else None
    first = digit_boxes(glyph, mask, height=height, width=width, loop=loop)
    options = [first]

    def add(boxes: list[Box], limit: int = most) -> None:
        if boxes and boxes not in options and len(options) < limit:
            options.append(boxes)

    if h == 0:
        return options
    profile = piece.sum(axis=0).astype(np.float64)
    if w < narrowest * height or loop is None:
        if w >= edges * height:
            thinnest, nearer = _edge_strokes(piece, profile)
            for column in thinnest:
                add(_boxes_between(glyph, piece, [column]))
            for column in nearer:
                add(_boxes_between(glyph, piece, [column]), most + 1)
            for column in _two_strokes(piece, profile, height=height):
                add(_boxes_between(glyph, piece, [column]), most + 2)
        return options
    if w <= 1.6 * height or _one_ring(piece):
        add([(x, y, w, h)])
    lo, hi = max(1, int(0.2 * w)), min(w - 1, int(np.ceil(0.8 * w)))
    if hi > lo:
        # Local minima of the column profile in the middle part, thinnest first; the nearer the
        # middle, the likelier among equals.
        columns = np.arange(lo, hi)
        cost = profile[lo:hi] + 0.02 * np.abs(columns - w / 2)
        order = np.argsort(cost, kind="stable")
        if loop[lo:hi].any():
            # Where the middle part holds a digit's loop, its joints first: the thin columns outside the
            # loops (`_loop_columns`), thinnest first; then every column as before.
            joint = (loop[lo:hi] == 0) & (profile[lo:hi] < _JOINT * h)
            order = np.concatenate([order[joint[order]], order])
        picked: list[int] = []
        for i in order:
            column = int(columns[i])
            if all(abs(column - c) >= max(2, 0.15 * w) for c in picked):
                picked.append(column)
            if len(picked) == 2:
                break
        for column in picked:
            add(_boxes_between(glyph, piece, [column]))
    edges_cut, nearer = _edge_strokes(piece, profile)
    for column in edges_cut:
        add(_boxes_between(glyph, piece, [column]))
    if w >= 1.1 * height:
        # (The glyph's loops as found above: `digit_boxes` would find them again.)
        add(digit_boxes(glyph, mask, height=height, width=w / 3, wide=0.0, loop=loop))
    # A "1" run into two touching digits ("120", "135" as one glyph): the "1" cut off its left side,
    # the rest cut where the two join, as a glyph of two touching digits is. Offered beyond `most`:
    # each option above makes one cut or even ones, and none of them finds the three digits.
    # Decision: only a "1" on the left, because a number's hundreds are its only "1" that three
    # touching digits hold in front of two others (totals 100-199), while the straight right side of
    # a last 0, 4 or 9 cut off reads as a sure "1" (seed 4004: "200" read "210").
    # Decision: only in the number's first glyph, for the same reason: a "1" in front of two more digits
    # after another glyph makes a number of four, which no one writes (bench_styles seed 5004, big: the
    # "00" of a last "200" cut as "1" and two, read "2670").
    for column in edges_cut[:1] if leading else ():
        rest = _rest_cut(profile, column, narrowest * height) if column < w / 2 else None
        if rest is not None:
            add(_boxes_between(glyph, piece, [column, rest]), most + 1)
    # The "1" cut where it joins its digit (`_edge_strokes`' nearer column), beyond `most`: with the
    # rest whole when it is narrower than a digit is tall, and cut in two when it may be two digits, in
    # a leading glyph. (A rest of two digits read whole reads as "not a digit", and the number as a
    # sure "1": seeds 3008 "100", 6003 "128".)
    # And a slanted "1" run into its digit, cut past it where it stands apart (`_apart_stroke`), the same way.
    apart = _apart_stroke(piece, height=height)
    leaning = [] if apart is None or apart in nearer else [apart]
    for column in [*nearer, *leaning]:
        if w - column < height:
            add(_boxes_between(glyph, piece, [column]), most + 2)
        rest = _rest_cut(profile, column, narrowest * height) if leading else None
        if rest is not None:
            add(_boxes_between(glyph, piece, [column, rest]), most + 3)
    # A "1" run into the first of the digits the first way cuts apart ("149" written touching: the first
    # way cuts "14" | "9" where the 4 and 9 join, and the "1" stays in the 4's box): the "1" cut off
    # and the first way's cuts kept, beyond the ways above (the rest cut anew at its thinnest column
    # may cut inside a narrow digit: "149" cut "1" | a sliver | "49").
    joints = [box[0] - x for box in first[1:]] if leading and len(first) > 1 else []
    for column in [*edges_cut[:1], *nearer] if joints else ():
        kept = [c for c in joints if c - column >= _DIGIT_LEAST * height]
        if column < w / 2 and kept:
            add(_boxes_between(glyph, piece, [column, *kept]), most + 4)
    return options


_STRAIGHT = 0.45
"""Each part of a narrow glyph cut in two as two "1"s bends no more than this (`_two_strokes`; the
measure `_swallow._bows` takes of a "(": a straight "1", upright or slanted, about 0; a 0 cut at its
middle, about 0.7 each side)."""


def _two_strokes(piece: npt.NDArray[np.bool_], profile: npt.NDArray[np.float64], *,
                 height: float) -> list[int]:
    """Columns that cut a narrow glyph into two straight strokes standing side by side, each as tall as
    `_edge_strokes` asks of a "1" cut off: two "1"s written touching ("11", the "11" of a "116"), which
    `_edge_strokes` does not find because each "1" is half the glyph's width, not less than `side` of it.

    Decision: only where both parts are straight (bend at most `_STRAIGHT`, as `_swallow._bows`
    measures it), because a narrow 0 cut at its middle is "(" and ")" and each reads as a sure "1"
    too; a "1" is a straight stroke, however slanted (bench 1003 z8: "11" written as two strokes
    joined at their flags and feet, 17 px wide in 34 px writing, read as one "1" and never cut)."""
    out: list[int] = []
    for column in _edge_strokes(piece, profile, side=0.5)[0]:
        if column not in out and all(abs(stroke_bend(part, height, part.shape[0])) <= _STRAIGHT
                                     for part in (piece[:, :column], piece[:, column:])):
            out.append(column)
    return out


_DIGIT_LEAST = 0.4
"""A digit other than a "1" is at least this share of the writing's height wide: the part a "1" cut off
a glyph's left leaves before the first way's next cut must be (`cut_options`).

Decision: 0.4, because MNIST's narrowest digits other than 1 (a 7, a 4 written upright) are about half
as wide as tall, and a "1" cut off the left of a "1" leaves less than a digit: no cut at all."""

_JOINT = 0.5
"""A column of a glyph with less ink than this share of its height may be where two touching digits join
(`cut_options`' middle cuts); a column with more runs along a stroke."""

_LOOP_SIZE = 0.15
"""A hole in a glyph's ink at least this share of the glyph's height both across and down is a digit's
loop (a 0's, a 6's, a 9's, an 8's), which a cut between two digits never runs through (`_loop_columns`).

Decision: 0.15, because the loop of a small digit is a quarter to a third of its height (a 6's loop in
25 px writing is 6-8 px), while the sliver two touching digits may enclose between them (a "1" leaning
on a 0 at its top and its foot) is a pen's width or two across."""


def _loop_columns(piece: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """1.0 for each column of the glyph's ink (`piece`, its own box) that runs through a digit's loop (a
    hole at least `_LOOP_SIZE` of its height across and down), else 0.0.

    Decision: a cut between touching digits is kept out of their loops, because digits written side by
    side do not share a loop, while the thinnest column of a round digit run into the digit before it
    is often inside its loop, where it crosses two thin strokes, and not at the joint, where the two
    digits' strokes lie along each other: such a cut leaves the round digit's left side with the digit
    before it (bench 1016: "40" read "47"). A loop left open (small 21004: "76" read "73", "79" read
    "74", "60" read "51", thin broken strokes) rings no hole and is cut as before."""
    h, w = piece.shape
    out = np.zeros(w, np.float64)
    least = max(2, round(_LOOP_SIZE * h))
    if h < 3 * least or w < 2 * least:
        return out
    # The paper with a border of paper round it (`np.pad` costs ten times as much: this runs for every
    # glyph cut).
    paper = np.ones((h + 2, w + 2), np.uint8)
    paper[1:-1, 1:-1] = ~piece
    for left, _, across, down in _holes(paper).tolist():
        if across >= least and down >= least:
            out[max(left - 1, 0):left - 1 + across] = 1.0  # (less the border)
    return out


def _holes(paper: npt.NDArray[np.uint8]) -> npt.NDArray[np.int32]:
    """The boxes (left, top, width, height; px of `paper`) of the holes in a glyph's ink: the
    4-connected pieces of `paper` (1 on paper, 0 on ink; a border of paper round the glyph) other than
    the one round the glyph."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=4)
    holes = np.ones(len(stats), np.bool_)
    holes[[0, int(labels[0, 0])]] = False  # the ink, and the paper round the glyph
    return np.asarray(stats[holes, :4], np.int32)


_RING_ACROSS = 0.5
"""A hole in a glyph's ink at least this share of the glyph's width across makes it one digit, a 0.

Decision: 0.5, because touching digits each ring their own holes ("00", "80": each under half the
glyph's width) and no two digits side by side enclose one hole between them, while the hole of a 0
written wide is its width less two pen strokes (small 20004: a 0 1.65 digit heights wide, 33 px, pen 5.5
px, hole 0.67 of its width)."""
_RING_GAP = 0.15
"""A ring left open by a gap up to about twice this share of the glyph's height still rings its hole
(a 0 whose end does not quite meet its start: small 20004, a 6 px gap in a 21 px 0)."""


def _one_ring(piece: npt.NDArray[np.bool_]) -> bool:
    """Whether the glyph's ink (`piece`, its own box) rings one hole that spans at least `_RING_ACROSS`
    of its width and a quarter of its height: as it is, or with its ring closed where it is open by a
    little (`_RING_GAP`): a single 0, however wide it is written."""
    h, w = piece.shape
    return any(_rings_across(piece, grow, w, h) for grow in (0, max(1, round(_RING_GAP * h))))


def _rings_across(piece: npt.NDArray[np.bool_], grow: int, w: int, h: int) -> bool:
    """Whether `piece`'s ink, grown by `grow` pixels every way, rings a hole as `_one_ring` asks (the
    hole measured as it was before the ink grew into it: `grow` wider on each side)."""
    padded = np.pad(piece, grow + 1).astype(np.uint8)
    if grow:
        kernel = np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)
        padded = np.asarray(cv2.dilate(padded, kernel), dtype=np.uint8)
    return any(across + 2 * grow >= _RING_ACROSS * w and down + 2 * grow >= 0.25 * h
               for _, _, across, down in _holes(np.asarray(padded == 0, dtype=np.uint8)).tolist())


_APART = 0.5
"""A glyph's leftmost stroke stands apart from the rest of its ink in at least this share of its rows to
be a "1" run into the digit after it (`_apart_stroke`)."""


_STROKE_RUN = 0.3
"""A row crosses a stroke, upright or slanted, in a run of ink no wider than this many digit heights
(a pen's stroke is about a tenth of the digit's height; `_apart_stroke`)."""


_CROSSING = 0.07
"""Rows, in digit heights, where a "1" standing apart crosses the bar of the digit it runs into (and
stands apart no more) that still leave it one stretch (`_apart_stroke`): about a pen stroke's width
(bench 1003: a "1" that crosses the top of the 5 of "153" in 2 rows of 35; 0.1 heights, 4 rows, also
bridged the rows of that 5's foot and took the 3's foot under it for the 1's)."""


def _longest_stretch(flags: npt.NDArray[np.bool_], gap: int) -> npt.NDArray[np.int64]:
    """The indices of True `flags` in their longest stretch, gaps of up to `gap` False ones bridged (the
    first among equals)."""
    runs = runs_of(flags)
    if not runs:
        return np.zeros(0, dtype=np.int64)
    joined = [list(runs[0])]
    for first, last in runs[1:]:
        if first - joined[-1][1] - 1 <= gap:
            joined[-1][1] = last
        else:
            joined.append([first, last])
    first, last = max(joined, key=lambda pair: pair[1] - pair[0])
    return first + np.flatnonzero(flags[first:last + 1])


def _apart_stroke(piece: npt.NDArray[np.bool_], *, height: float, side: float = 0.4,
                  tall: float = 0.75) -> int | None:
    """The column just past a glyph's leftmost stroke, where that stroke is a "1" slanting into the digit
    after it, or None: the furthest right its ink reaches in the longest stretch of rows where it stands
    apart (a run no wider than a stroke, `_STROKE_RUN`, with more ink after it in the row), those rows
    at least `_APART` of the glyph's, the cut within `side` of the glyph's width, the stroke before it
    at least `tall` of the glyph's height and straight (as `_two_strokes` asks of a "1").

    Decision: a slanted "1" touches its digit at a joint only near one end, and a column through it
    crosses it over many rows, so the profile that `_edge_strokes` cuts at its thin columns has no thin
    column there (bench 1003: a "1" leaning into the foot of the 2 of "120", read 20; one leaning into
    the top of the 5 of "153", "128.153" read 125); cut past its right edge, the network reads each side
    right (120 at 0.99, 153 at 0.99: a bit of the neighbour in a box is what it is trained on). Only a
    straight stroke, as for `_two_strokes`: a round digit's side stands apart from its other side too,
    and bends."""
    h, w = piece.shape
    rows = np.flatnonzero(piece.any(axis=1))
    if h == 0 or rows.size < _APART * h:
        return None
    ink = piece[rows]
    columns = np.arange(w)[None, :]
    first = ink.argmax(axis=1)
    after = ~ink & (columns >= first[:, None])
    end = np.where(after.any(axis=1), after.argmax(axis=1), w)
    apart = (ink & (columns >= end[:, None])).any(axis=1) & (end - first <= _STROKE_RUN * height)
    stretch = _longest_stretch(apart, round(_CROSSING * height))
    if stretch.size < _APART * h:
        return None
    column = int(end[stretch].max())
    if not 2 <= column <= side * w:
        return None
    stroke = piece[:, :column]
    kept = np.flatnonzero(stroke.any(axis=1))
    if kept.size == 0 or kept[-1] - kept[0] + 1 < tall * h:
        return None
    return column if abs(stroke_bend(stroke, height, h)) <= _STRAIGHT else None


def _rest_cut(profile: npt.NDArray[np.float64], edge: int, narrowest: float) -> int | None:
    """Where to cut the rest of a glyph once a "1" is cut off its left side at column `edge`
    (`_edge_strokes`): the thinnest column of the rest's middle part (nearer its middle among equals),
    as `cut_options` cuts a glyph in two; None when the rest is narrower than `narrowest` pixels (one
    digit only)."""
    start, end = edge, profile.size
    if end - start < narrowest:
        return None
    lo, hi = start + max(1, int(0.2 * (end - start))), start + int(np.ceil(0.8 * (end - start)))
    if hi <= lo:
        return None
    columns = np.arange(lo, hi)
    cost = profile[lo:hi] + 0.02 * np.abs(columns - (start + end) / 2)
    return int(columns[int(np.argmin(cost))])


def _edge_strokes(piece: npt.NDArray[np.bool_], profile: npt.NDArray[np.float64], *, side: float = 0.4,
                  tall: float = 0.75) -> tuple[list[int], list[int]]:
    """Columns that cut a "1" off either side of a glyph: a "1" run into the digit beside it stands
    within `side` of the glyph's width from its edge, where the middle-part cuts of `cut_options` do
    not look. For each side, the thinnest column within `side` of that edge (not the outermost
    tenth) whose outer part stands at least `tall` of the glyph's height and is thicker somewhere than
    at the cut (a stroke, not the glyph's thin edge). Returned with the nearer columns: on the left,
    the first such column where the profile stops falling, when it is nearer the edge than the
    thinnest and crosses one stroke (the thinnest may lie inside the next digit's loop: a "16" whose
    "1" touches the 6's foot was cut through the loop and read "10", seed 2009).

    Decision: the nearer column on the left side only, because a "1" run into the digit after it is a
    number's leading "1" (10-19, 100-199), while a digit's straight right side cut off reads as a
    sure "1" too (a "4" read "41")."""
    h, w = piece.shape
    has = piece.any(axis=0)
    top = np.where(has, piece.argmax(axis=0), h)
    bottom = np.where(has, h - piece[::-1].argmax(axis=0), 0)
    out: list[int] = []
    nearer: list[int] = []
    for flip in (False, True):
        tops, bottoms, columns = (top[::-1], bottom[::-1], profile[::-1]) if flip else (top, bottom, profile)
        # The rows the part before each column spans, and its thickest column (outer part = [0, c)).
        span = np.maximum.accumulate(bottoms) - np.minimum.accumulate(tops)
        thickest = np.maximum.accumulate(columns)
        cuts = np.arange(max(2, int(0.1 * w)), int(side * w) + 1)
        fits = cuts[(span[cuts - 1] >= tall * h) & (columns[cuts] < 0.6 * thickest[cuts - 1])]
        if fits.size:
            best = int(fits[np.argmin(columns[fits])])
            out.append(w - best if flip else best)
            # On the left, also the first of those columns where the profile stops falling, when it lies
            # nearer the edge than the thinnest and crosses one stroke: where a "1" joins its digit (a
            # column through a 6's or a 0's own curve crosses its loop twice).
            dips = fits[columns[np.minimum(fits + 1, columns.size - 1)] >= columns[fits]]
            dip = int(dips[0]) if dips.size else w
            if not flip and dip < best and column_runs(piece[:, dip:dip + 1])[0] == 1:
                nearer.append(dip)
    return out, nearer
