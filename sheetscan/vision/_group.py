"""Grouping ink blobs into written numbers, in a frame where the writing runs left to right.

Everything here works on the connected blobs of one zone's ink after the zone has been turned so that
its numbers read normally (x to the right, y down). Pure geometry on boxes and small masks:

- a zone's digit height is the typical height of its blobs (dots and specks aside);
- rows: blobs whose vertical middles lie within about half a digit height of each other;
- dots: blobs much smaller than a digit, sitting in the lower part of a row; they separate numbers;
- glyphs: blobs of one row that overlap horizontally (a digit broken by a faint stroke, a 4 or a 5
  written in two strokes) are one glyph;
- numbers: glyphs between dots, or separated by a gap wider than a digit's width;
- digits: each glyph is a digit, except glyphs much wider than a digit, which are touching digits;
  cutting them, and offering a glyph that may be either both ways, is `_digit_cuts`'.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np
import numpy.typing as npt

Mask = npt.NDArray[np.uint8]
Box = tuple[int, int, int, int]

_DOTTED_SHARE = 0.75
"""A space between glyphs without a dot splits two numbers only when at least this share of the
zone's typical space around a dot."""

_STRUCK_APART = 0.35
"""A space between a struck glyph and one not struck splits two numbers when at least this many digit
heights wide, dot or no dot.

Decision: 0.35, because the spaces between the digits of one number stay narrower: on the rendered
benches (seeds 1000-4000, truth zones, 60 photos) 6 of 3,695 tokens of one written number have a space
of 0.35 digit heights or more (`_totals.split_cost`), while a struck "5" and the "1" written after it
stood 0.65 apart and were read as one struck "801" (seed 2011, a pulka's first number)."""


@dataclass(frozen=True)
class Blob:
    """One connected piece of ink: its label in the zone's label image and its box."""

    label: int
    x: int
    y: int
    w: int
    h: int
    area: int
    crossed: bool = False

    @property
    def cx(self) -> float:
        """Middle of the box, horizontally."""
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        """Middle of the box, vertically."""
        return self.y + self.h / 2

    @property
    def right(self) -> int:
        """One past the box's last column."""
        return self.x + self.w

    @property
    def bottom(self) -> int:
        """One past the box's last row."""
        return self.y + self.h


@dataclass(frozen=True)
class Glyph:
    """Blobs read as one or more digits (more when digits touch)."""

    blobs: tuple[Blob, ...]

    @cached_property
    def box(self) -> Box:
        """The union box (x, y, w, h); kept once computed (grouping asks for it thousands of times)."""
        return union_box(self.blobs)

    @property
    def crossed(self) -> bool:
        """Whether a strike runs through most of this glyph's ink."""
        crossed = sum(b.area for b in self.blobs if b.crossed)
        return crossed * 2 > sum(b.area for b in self.blobs)


@dataclass(frozen=True)
class Group:
    """One written number: its glyphs left to right and the row it sits in."""

    glyphs: tuple[Glyph, ...]
    row: int

    @cached_property
    def box(self) -> Box:
        """The union box of all its ink (kept once computed)."""
        return union_box(tuple(b for g in self.glyphs for b in g.blobs))

    @property
    def labels(self) -> tuple[int, ...]:
        """Labels of every blob of the number."""
        return tuple(b.label for g in self.glyphs for b in g.blobs)

    @property
    def crossed(self) -> bool:
        """A number is crossed out when a strike runs through most of its glyphs."""
        return sum(g.crossed for g in self.glyphs) * 2 > len(self.glyphs)


def union_box(blobs: tuple[Blob, ...]) -> Box:
    """The smallest box (x, y, w, h) holding every blob."""
    x0 = min(b.x for b in blobs)
    y0 = min(b.y for b in blobs)
    x1 = max(b.right for b in blobs)
    y1 = max(b.bottom for b in blobs)
    return x0, y0, x1 - x0, y1 - y0


def blobs_of(labels_stats: npt.NDArray[np.int32], *, crossed: frozenset[int] = frozenset()) -> list[Blob]:
    """Blobs from OpenCV's component statistics (row 0, the background, is skipped)."""
    return [
        Blob(label=i, x=int(s[0]), y=int(s[1]), w=int(s[2]), h=int(s[3]), area=int(s[4]),
             crossed=i in crossed)
        for i, s in enumerate(labels_stats)
        if i > 0
    ]


def digit_height(blobs: list[Blob], *, least: float = 0.0) -> float:
    """The typical height of a digit among `blobs`: dots, specks and strikes barely move it.

    Blobs smaller than `least` every way cannot be digits; 0.0 when there are no others (a zone with
    nothing written, only specks of dirt).
    """
    heights = np.array([b.h for b in blobs if max(b.w, b.h) >= least], dtype=np.float64)
    if heights.size == 0:
        return 0.0
    tall = heights[heights >= 0.5 * np.percentile(heights, 90)]
    return float(np.median(tall))


def is_dot(blob: Blob, *, height: float, stroke: float) -> bool:
    """A blob small enough to be the dot between two numbers (not a digit, not a speck)."""
    if blob.crossed:  # what is left of a crossed-out digit once its strike is erased
        return False
    small = max(blob.w, blob.h) < 0.42 * height
    # A dot written with a flick comes out as a short dash: flat, and no digit is that flat.
    dash = blob.h <= 0.3 * height and blob.w <= 0.7 * height
    return (small or dash) and blob.area >= max(2.0, 0.25 * stroke * stroke)


def is_speck(blob: Blob, *, height: float, stroke: float) -> bool:
    """A blob too small to be a dot: paper grain, a sensor's noise."""
    if blob.crossed:
        return blob.area < 0.25 * stroke * stroke
    return max(blob.w, blob.h) < 0.42 * height and not is_dot(blob, height=height, stroke=stroke)


def group_numbers(blobs: list[Blob], *, height: float, stroke: float, gap: float = 0.8,
                  longest: int = 3, widest: float | None = None, struck_apart: bool = True) -> list[Group]:
    """Group a zone's blobs into numbers in the order they were written (rows top down, left to right).

    `height` is the zone's digit height, `stroke` the pen's width; numbers are split at dots, and at
    gaps wider than the writer's own spaces between digits (`split_gap`, at most `gap` × `height`):
    a dot written close enough to touch the digit before it is lost in that digit, and then only the
    space after it tells the numbers apart. A run of more than `longest` glyphs is cut at its widest
    spaces. `widest`, when given, is that space in pixels (`digit_space` of the zone's blobs), not
    measured again. With `struck_apart`, a struck glyph and one not struck written after it split at
    a space wider than one between digits (`_STRUCK_APART`): the number stage leaves it out for short
    strikes, which may be a digit's own bar (a 4's run long, then "40" fell apart into a struck "4" and
    a "0": seed 4001).
    """
    # Decision: no written number has more than three digits (longest=3) because running totals on a
    # pulka sheet stay below 1000 whists in the games the rules documents describe; a longer run is
    # numbers whose dots were lost.
    if height <= 0:
        return []
    lines, measured = _lines_of(blobs, height=height, stroke=stroke, gap=gap)
    widest = measured if widest is None else widest
    groups: list[Group] = []
    for index, (glyphs, row_dots) in enumerate(lines):
        for glyph_run in _split_at_dots(glyphs, row_dots, height=height, widest=widest,
                                        struck_apart=struck_apart):
            for part in _split_long(glyph_run, longest=longest):
                groups.append(Group(glyphs=tuple(part), row=index))
    return groups


def digit_space(blobs: list[Blob], *, height: float, stroke: float, gap: float = 0.8) -> float:
    """The widest space between two digits of one number in this zone's writing, in pixels (what
    `group_numbers` splits numbers at when no dot is between them); 0.0 when `height` is 0."""
    return _lines_of(blobs, height=height, stroke=stroke, gap=gap)[1] if height > 0 else 0.0


def _lines_of(blobs: list[Blob], *, height: float, stroke: float,
              gap: float) -> tuple[list[tuple[list[Glyph], list[Blob]]], float]:
    """The rows of glyphs with their dots, and the widest space between digits of one number."""
    marks = [b for b in blobs if not is_speck(b, height=height, stroke=stroke)]
    small = [b for b in marks if is_dot(b, height=height, stroke=stroke)]
    broken = _stacked(small, height=height, stroke=stroke)
    dots = [b for b in small if b not in broken]
    digits = [b for b in marks if not is_dot(b, height=height, stroke=stroke) or b in broken]
    rows = _rows(digits, height=height)
    lines: list[tuple[list[Glyph], list[Blob]]] = []
    for row in rows:
        top = min(b.y for b in row)
        bottom = max(b.bottom for b in row)
        row_dots = [d for d in dots if top + 0.3 * (bottom - top) <= d.cy <= bottom + 0.35 * height]
        # Small marks higher up in the row are pieces of digits (the bar of a 5, a broken stroke).
        pieces = [d for d in dots if top - 0.1 * height <= d.cy < top + 0.3 * (bottom - top)]
        lines.append((_glyphs(sorted(row + pieces, key=lambda b: b.x), height=height), row_dots))
    widest = split_gap([g for glyphs, row_dots in lines for g in _row_gaps(glyphs, row_dots, height)],
                       height=height, most=gap)
    dotted = [g for glyphs, row_dots in lines for g in _row_gaps(glyphs, row_dots, height, dotted=True)]
    if len(dotted) >= 3:
        # A dot lost in the digit before it leaves the space the writer puts around a dot: a space
        # well short of the zone's dotted spaces is one between digits (narrow "1"s leave wide ones).
        widest = max(widest, min(_DOTTED_SHARE * float(np.median(dotted)), gap * height))
    return lines, widest


def _stacked(small: list[Blob], *, height: float, stroke: float) -> set[Blob]:
    """The dot-sized marks no wider than 1.5 pen strokes that lie one above another, close, together as
    tall as half a digit: the pieces of one broken upright stroke (a "1" whose faint ink broke apart),
    not dots: a writer puts one dot after a number, never several in a column. (The letters of a word
    seen turned stack alike but are wider than a stroke: at 2 strokes a form's printed "пуля", turned,
    read as a "3" on small 20007.)"""
    small = sorted(small, key=lambda b: b.x)  # the marks a mark overlaps sideways all start before its end
    column: dict[int, int] = {i: i for i in range(len(small))}

    def root(i: int) -> int:
        while column[i] != i:
            i = column[i]
        return i

    for i, a in enumerate(small):
        if a.w > 1.5 * stroke:
            continue
        for j in range(i + 1, len(small)):
            b = small[j]
            if b.x >= a.right:
                break
            if b.w > 1.5 * stroke:
                continue
            side = min(a.right, b.right) - max(a.x, b.x)
            apart = max(a.y, b.y) - min(a.bottom, b.bottom)
            if side >= 0.4 * min(a.w, b.w) and apart <= 0.2 * height:
                column[root(j)] = root(i)
    tops: dict[int, list[Blob]] = {}
    for i, blob in enumerate(small):
        tops.setdefault(root(i), []).append(blob)
    return {b for members in tops.values() if len(members) > 1
            and max(m.bottom for m in members) - min(m.y for m in members) >= 0.5 * height for b in members}


def _split_long(run: list[Glyph], *, longest: int) -> list[list[Glyph]]:
    """A run of more than `longest` glyphs cut at its widest spaces: numbers whose dots were lost."""
    if len(run) <= longest or all(g.crossed for g in run):
        return [run]
    gaps = [b.box[0] - (a.box[0] + a.box[2]) for a, b in itertools.pairwise(run)]
    cut = int(np.argmax(gaps)) + 1
    return _split_long(run[:cut], longest=longest) + _split_long(run[cut:], longest=longest)


def _two_groups(values: npt.NDArray[np.float64]) -> tuple[
        float, float, npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The split of sorted `values` into a lower and an upper group with the most variance between
    them (Otsu): (threshold, score, lower, upper)."""
    best, best_score = float(values[-1]), 0.0
    lower, upper = values, values[:0]
    for i in range(1, values.size):
        low, high = values[:i], values[i:]
        score = float(low.size * high.size * (high.mean() - low.mean()) ** 2)
        if score > best_score:
            best, best_score, lower, upper = float(low[-1] + high[0]) / 2, score, low, high
    return best, best_score, lower, upper


def _row_gaps(glyphs: list[Glyph], dots: list[Blob], height: float, *,
                   dotted: bool = False) -> list[float]:
    """The spaces between neighbouring glyphs of a row: those with no dot between them, or with
    `dotted` those that have one."""
    gaps = []
    for a, b in itertools.pairwise(glyphs):
        if a.crossed and b.crossed:
            continue
        left, right = a.box[0] + a.box[2], b.box[0]
        if any(left - 0.15 * height <= d.cx <= right + 0.15 * height for d in dots) == dotted:
            gaps.append(float(right - left))
    return gaps


def split_gap(gaps: list[float], *, height: float, most: float = 0.8, least: float = 0.05) -> float:
    """The widest space still taken as a space between two digits of one number.

    The spaces of one writer fall in two groups: between digits (small, often none) and between
    numbers whose dot was lost in a digit (the gap after a dot). When the spaces split clearly into
    two groups, the threshold lies between them (within `least`…`most` digit heights); else it is
    `most` × `height`.
    """
    values = np.sort(np.asarray(gaps, dtype=np.float64)) / max(height, 1e-9)
    if values.size < 4:
        return most * height
    best, best_score, lower, upper = _two_groups(values)
    while upper.size == 1 and values.size > 4:
        # One far space alone (before a number written further along) is not a group: look again
        # without it.
        values = values[:-1]
        best, best_score, lower, upper = _two_groups(values)
    if best_score == 0.0 or upper.mean() < lower.mean() + 0.15 or upper[0] < 1.3 * max(lower[-1], 0.05):
        return most * height
    return float(np.clip(best, least, most)) * height


def _rows(blobs: list[Blob], *, height: float) -> list[list[Blob]]:
    """Blobs in rows, top row first: a blob joins the row whose middle is within half a digit."""
    rows: list[list[Blob]] = []
    middles: list[float] = []
    # Tallest first, so rows are seeded by whole digits rather than by fragments.
    for blob in sorted(blobs, key=lambda b: -b.h):
        best = -1
        best_distance = 0.55 * height
        for i, middle in enumerate(middles):
            distance = abs(blob.cy - middle)
            if distance < best_distance:
                best, best_distance = i, distance
        if best < 0:
            rows.append([blob])
            middles.append(blob.cy)
        else:
            rows[best].append(blob)
            member_heights = [b.h for b in rows[best]]
            # The row's middle follows its full-height members only.
            tall = [b.cy for b in rows[best] if b.h >= 0.6 * max(member_heights)]
            middles[best] = _median(tall)
    order = np.argsort(middles)
    return [rows[i] for i in order]


def _median(values: list[float]) -> float:
    """The median of a few values (the mean of the middle two when even), as `np.median` gives it,
    without numpy's overhead on a short list (`_rows` takes one each time a blob joins a row)."""
    ordered = sorted(values)
    half = len(ordered) // 2
    return float(ordered[half]) if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2


def _glyphs(row: list[Blob], *, height: float) -> list[Glyph]:
    """Blobs of one row (left to right) joined into glyphs where they overlap horizontally."""
    glyphs: list[list[Blob]] = []
    for blob in row:
        if glyphs:
            current = glyphs[-1]
            x0 = min(b.x for b in current)
            x1 = max(b.right for b in current)
            overlap = min(x1, blob.right) - max(x0, blob.x)
            narrow = min(x1 - x0, blob.w)
            small = blob.area < 0.15 * max(b.area for b in current) and blob.x - x1 < 0.12 * height
            if overlap >= 0.4 * narrow or small:
                current.append(blob)
                continue
        glyphs.append([blob])
    return [Glyph(blobs=tuple(g)) for g in _join_fragments(glyphs, height=height)]


def _join_fragments(glyphs: list[list[Blob]], *, height: float) -> list[list[Blob]]:
    """Glyphs too small to be a digit (a piece of a faint or broken stroke, a stray mark) join the
    nearer neighbour within a third of a digit, or are dropped when tiny; a "1" is tall, so it is
    never taken for a fragment."""
    changed = True
    while changed:
        changed = False
        for i, glyph in enumerate(glyphs):
            x, _, w, h = union_box(tuple(glyph))
            if h >= 0.55 * height or w >= 0.5 * height:
                continue
            gaps = []
            if i > 0:
                left = union_box(tuple(glyphs[i - 1]))
                gaps.append((x - (left[0] + left[2]), i - 1))
            if i + 1 < len(glyphs):
                gaps.append((glyphs[i + 1][0].x - (x + w) if glyphs[i + 1] else 0, i + 1))
            near = [(d, j) for d, j in gaps if d <= height / 3]
            if near:
                _, j = min(near)
                glyphs[j] = sorted(glyphs[j] + glyph, key=lambda b: b.x)
            elif max(w, h) >= 0.42 * height:
                continue
            del glyphs[i]
            changed = True
            break
    return glyphs


def _split_at_dots(glyphs: list[Glyph], dots: list[Blob], *, height: float, widest: float,
                   gap_struck: float = 0.8, struck_apart: bool = True) -> list[list[Glyph]]:
    """Runs of glyphs between dots and gaps wider than `widest` pixels; with `struck_apart`, also
    between a struck glyph and one not struck after it, at least `_STRUCK_APART` digit heights apart."""
    runs: list[list[Glyph]] = []
    for glyph in glyphs:
        if runs:
            previous = runs[-1][-1].box
            box = glyph.box
            left, right = previous[0] + previous[2], box[0]
            dotted = any(left - 0.15 * height <= d.cx <= right + 0.15 * height for d in dots)
            # What one strike ran through is one number, whatever the spaces its erasing left.
            struck = glyph.crossed and runs[-1][-1].crossed and right - left <= gap_struck * height
            # And what is written after it across more than a space between digits, not struck, is
            # another number: a strike runs through every digit of the number it crosses out, and the
            # writer puts no dot after it before writing the correction next to it.
            apart = (struck_apart and runs[-1][-1].crossed and not glyph.crossed
                     and right - left > _STRUCK_APART * height)
            if struck or (not dotted and not apart and right - left <= widest):
                runs[-1].append(glyph)
                continue
        runs.append([glyph])
    return runs


_CORE = 0.5
"""A pen's mark is taken where it is at least this share of its darkest ink (its width at half its
darkness, as a stroke's width is measured): two marks that touch only where their blurred edges meet
are two marks (`ink_end`)."""
_DOT_TALL = 0.42
"""A dot is smaller than this many digit heights every way (as `is_dot` takes a dot standing apart)."""
_FOOT = 0.25
"""A dot stands on the writing line: its foot is within this many digit heights of its digit's foot."""
_DIGIT_TALL = 0.55
"""What is left beside a dot stands at least this many digit heights tall: a digit, not a fragment
(as `_join_fragments` takes one)."""


def _high_in_last_column(piece: npt.NDArray[np.uint8], row: float) -> bool:
    """Whether the last column of `piece` holds ink above `row`: then no dot ends it (`ink_end` asks its
    dot's columns to hold nothing above the middle of a digit at least `_DIGIT_TALL` tall, which lies
    below the ink's top by half that), and the dearer look for one is spared (most numbers end so)."""
    last = piece[:, -1] > 0
    return bool(last.any()) and int(np.argmax(last)) < row


def ink_end(gray: npt.NDArray[np.uint8], boxes: tuple[Box, ...], *, height: float) -> int:
    """The column one past the last digit ink in `boxes` (of the image `gray`, ink bright on 0), a dot
    drawn touching the last digit's foot left out: where the space after the number begins.

    Decision: a dot touching the digit before it is no part of the number, because the writer puts the
    dot in the space after a number: a space measured from the dot is the space after it alone, and two
    numbers whose dot touched the first ("55." and "75", bench 1003) stood 0.27 digit heights apart
    from the dot, as close as two digits of one number, where their space from the 5 is 0.6. The
    dot is the mark, at half the ink's darkness (`_CORE`), that stands apart from the rest there, after
    all of it, dot-sized (`_DOT_TALL`) and on the writing line (`_FOOT`), beside a digit (`_DIGIT_TALL`),
    with nothing in its columns above the digit's middle: a dot (or a comma's tail) stands low in the
    row, while the core of a heavy round stroke, apart from the rest at half its darkness, has the
    digit's other strokes above it (motion 42004: a "64" whose 6's loop, blurred, stood apart).
    """
    x0 = min(b[0] for b in boxes)
    x1 = max(b[0] + b[2] for b in boxes)
    y0 = min(b[1] for b in boxes)
    y1 = max(b[1] + b[3] for b in boxes)
    inside = np.zeros((y1 - y0, x1 - x0), dtype=bool)
    for x, y, w, h in boxes:
        inside[y - y0:y + h - y0, x - x0:x + w - x0] = True
    piece = np.where(inside, gray[y0:y1, x0:x1], 0)
    rows = np.flatnonzero(piece.any(axis=1))
    if rows.size == 0 or _high_in_last_column(piece, int(rows[0]) + 0.5 * _DIGIT_TALL * height):
        return x1
    ink = piece[piece > 0]
    core = (piece >= _CORE * float(ink.max())).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
    if count < 3:
        return x1
    marks = stats[1:]
    last = int(np.argmax(marks[:, 0] + marks[:, 2]))
    dx, dy, dw, dh = (int(v) for v in marks[last, :4])
    rest = np.delete(marks, last, axis=0)
    rest_right = int((rest[:, 0] + rest[:, 2]).max())
    rest_top, rest_bottom = int(rest[:, 1].min()), int((rest[:, 1] + rest[:, 3]).max())
    top = int(np.flatnonzero(piece[:, dx:].any(axis=1))[0])  # of all the ink in the dot's columns
    small = max(dw, dh) < _DOT_TALL * height
    after = dx >= rest_right
    low = 2 * top >= rest_top + rest_bottom
    on_line = abs((dy + dh) - rest_bottom) <= _FOOT * height
    beside_digit = rest_bottom - rest_top >= _DIGIT_TALL * height
    return x0 + rest_right if small and after and low and on_line and beside_digit else x1


def ends_in_dot(gray: npt.NDArray[np.uint8], boxes: tuple[Box, ...], *, height: float) -> bool:
    """Whether a dot touches the foot of the last digit in `boxes` of the image `gray`: `ink_end` finds the
    number's digits ending before its ink does."""
    return ink_end(gray, boxes, height=height) < max(b[0] + b[2] for b in boxes)


def typical_width(groups: list[Group], *, height: float) -> float:
    """The typical width of one digit in these numbers: the median of the glyphs that are clearly one
    digit (narrower than a digit is tall, wider than a "1"); 0.7 × height when there are none."""
    widths = [g.box[2] for group in groups for g in group.glyphs if 0.4 * height < g.box[2] <= height]
    return float(np.median(widths)) if len(widths) >= 3 else 0.7 * height


def column_runs(piece: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """How many separate runs of ink each column of `piece` crosses."""
    starts = np.count_nonzero(piece[1:] & ~piece[:-1], axis=0)
    runs: npt.NDArray[np.int64] = starts + piece[0].astype(np.int64)
    return runs


_TWO_LINES = 1.8
"""A blob at least this many of its zone's digit heights tall (across the writing) is two lines of
writing joined where a digit of one touches a digit of the other: one number is one line of digits."""
# Decision: 1.8, not the 1.6 first tried, because two digits that touch end to end stand about two
# heights tall (1.8 leaves each 0.9 of the zone's typical digit), while a single digit written tall
# in a zone whose digit height is measured short (small writing with many dots: 21 px digits in a
# zone measured 13, photo 6007 small) stands 1.6.
_THREE_LINES = 2.6
"""Taller than this, the blob is not two touching lines of digits (a rule, a long stroke)."""


def line_cut(piece: npt.NDArray[np.bool_], *, height: float) -> int | None:
    """The row at which one blob's ink (`piece`, its own box) splits into two lines of writing, or None.

    A number is one line of digits: a blob more than `_TWO_LINES` digit heights tall (and less than
    `_THREE_LINES`, and at least 0.4 heights wide: not a rule) is two numbers written one above the
    other whose digits touch. It is cut at its narrowest row (least ink, smoothed over three rows)
    that leaves at least a digit's lowest share (0.6 of `height`) on both sides, and only where that
    row is a waist: at most half as wide as the blob's ink is on each side of it.
    """
    tall, wide = piece.shape
    if height <= 0 or not _TWO_LINES * height <= tall <= _THREE_LINES * height or wide < 0.4 * height:
        return None
    profile = piece.sum(axis=1).astype(np.float64)
    smooth = np.convolve(profile, np.ones(3) / 3.0, mode="same")
    low, high = int(np.ceil(0.6 * height)), int(np.floor(tall - 0.6 * height))
    if high <= low:
        return None
    band = smooth[low:high]
    rows = np.flatnonzero(band <= band.min() + 1e-9) + low
    # Ties: the one nearest the middle, where two lines of one height meet.
    cut = int(rows[np.argmin(np.abs(rows - tall / 2))])
    above, below = profile[:cut].max(), profile[cut + 1:].max()
    if smooth[cut] > 0.5 * min(above, below):
        return None
    return cut
