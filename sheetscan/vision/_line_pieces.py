"""Stage 4 of reading a photo: the pieces of a line no mask took out (`without_line_pieces`, `line_pieces`):
a stroke whose course runs on past its end as a ridge about as dark as itself (straight on, or bending
gently: `_followed_ridge`), or the edge of a wide
line, or, given the drawn lines' mask, a stretch of a drawn line between two of the mask's ends
(`bridges_drawn`), alone or joined to the pale stretches past its ends and the line's other pieces
(`_pale_course`), or a retraced line's second stroke beside it (`drawn_twice`); and the blobs'
statistics they are found from (`blob_stats`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision._line_contacts import (
    TOUCH,
    WITHIN_MASK,
    an_end_near,
    bridges_drawn,
    drawn_twice,
    end_way,
    ends_near,
)

__all__ = ["blob_stats", "line_pieces", "without_line_pieces"]

Mask = npt.NDArray[np.uint8]


def without_line_pieces(mask: Mask, strength: Mask, *, stroke: float, silent: Mask | None = None,
                        share: float = 0.5, along: float = 0.8, longest_stroke: float = 20.0,
                        longest: float = 0.2, drawn: Mask | None = None) -> Mask:
    """`mask` less the blobs that are pieces of a line no mask took out: a single straight-ish stroke whose
    course runs on past one of its ends as a ridge about as dark as itself in `strength`.

    A pale freehand line (a spoke, a frame line crossing a glare, a line drawn twice) passes the ink's
    thresholds only here and there, and where the zone stage's mask does not follow it (it wanders off the
    model, or the zone stage did not trace it), its pieces were left as "1"s, "11"s and "18"s where nothing is
    written. A digit's stroke ends on the paper: past its end lies paper, or a line it crosses, or (in a
    column of numbers) the gap between two rows. So a blob at most two `stroke` widths thick and at least
    three times as long is a line piece when, past either end and along its own axis, the strength stays at
    least `share` of the blob's own median darkness over `along` of a stretch 8 strokes long, from the blob's
    very end on (a straight-ish band that widens with the distance, so a bending line is followed), on pixels
    that are not ink (a line is told by the stretches that did not pass for ink), or where another single
    stroke's ink lies on the band (the line's next piece); or when, past an end where
    that band starts dark, the ridge's own course, bending gently, stays that dark for 6 strokes with not a
    step of paper (a wavy or curving line, `_followed_ridge`). `silent` (non-zero) counts
    for neither line nor paper: squared or lined paper's ruling (a stroke lying on it would continue along
    it) and the lines already taken out, with their fringe (a digit's bar pointing at a crossing of drawn
    lines ran into its darkness); when most of the stretch is silent, that end says nothing. Blobs
    longer than `longest` of the sheet's shorter side are left to `cut_long_blobs`. A single stroke longer
    than `longest_stroke` stroke widths goes whatever lies past it: no digit has one (a "1" is 5-12 strokes
    tall), a line crossing a glare fades at both ends. With `drawn` (the drawn lines' mask, non-zero), a
    single stroke whose two ends both run on into that mask, in line with it, goes too: a stretch of a drawn
    line the mask missed (`bridges_drawn`); so does a single stroke that does so once joined to what lies
    past its ends at least `share` of its darkness (the line's pale stretches and its other pieces,
    `_pale_course`).
    """
    count, found_labels, found_stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count <= 1:
        return mask
    labels = np.asarray(found_labels, np.int32)
    gone = line_pieces(labels, np.asarray(found_stats, np.int32), strength, stroke=stroke, silent=silent,
                       share=share, along=along, longest_stroke=longest_stroke, longest=longest, drawn=drawn)
    if not gone.any():
        return mask
    return np.where(gone[labels], 0, mask).astype(np.uint8)


def blob_stats(mask: Mask, labels: npt.NDArray[np.int32], count: int,
               inked: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] | None = None
               ) -> npt.NDArray[np.int32]:
    """cv2.connectedComponentsWithStats' statistics (count × 5: left, top, width, height, area) of the blobs
    `labels` (from cv2.connectedComponents of `mask`, `count` labels): from the inked pixels alone, about
    half the time (the centroids are not wanted).

    `inked` is the places (xs, ys) of `mask`'s non-zero pixels, when the caller has already listed them
    (as `cv2.findNonZero` gives them), so the sheet is gone over once."""
    stats = np.zeros((count, 5), np.int32)
    stats[0] = (0, 0, mask.shape[1], mask.shape[0], mask.size - int(np.count_nonzero(mask)))
    if inked is None:
        points = cv2.findNonZero(mask)
        if points is None:
            return stats
        xs, ys = np.asarray(points, np.int64).reshape(-1, 2).T
    else:
        xs, ys = inked
    if xs.size == 0 or count <= 1:
        return stats
    owners = labels[ys, xs]
    order = np.argsort(owners, kind="stable")
    owners, xs, ys = owners[order], xs[order], ys[order]
    starts = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
    which = owners[starts]
    left, top = np.minimum.reduceat(xs, starts), np.minimum.reduceat(ys, starts)
    stats[which, 0], stats[which, 1] = left, top
    stats[which, 2] = np.maximum.reduceat(xs, starts) - left + 1
    stats[which, 3] = np.maximum.reduceat(ys, starts) - top + 1
    stats[which, 4] = np.diff(np.r_[starts, len(owners)])
    return stats


def line_pieces(labels: npt.NDArray[np.int32], stats: npt.NDArray[np.int32], strength: Mask, *,
                stroke: float, silent: Mask | None = None, share: float = 0.5, along: float = 0.8,
                longest_stroke: float = 20.0, longest: float = 0.2, drawn: Mask | None = None
                ) -> npt.NDArray[np.bool_]:
    """Which of the blobs (`labels`, `stats` as cv2.connectedComponentsWithStats gives them) are pieces of a
    line (`without_line_pieces`), by label (the background's entry False). With `drawn` (the drawn lines'
    mask, non-zero), so is a single stroke that runs on into it past both ends, in line (`bridges_drawn`)."""
    height, width = labels.shape
    gone = np.zeros(len(stats), dtype=bool)
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    area = stats[:, cv2.CC_STAT_AREA]
    # Thin and long enough to be a stroke of a line: area at most ~2 strokes wide along its extent.
    candidates = np.flatnonzero((extent >= 3.0 * stroke) & (extent <= longest * min(height, width))
                                & (area <= 2.5 * stroke * extent * 1.5))
    # The single strokes among them (ink at most `_ONE_STROKE` strokes wide along their extent): past a
    # stroke's end, such a stroke's ink on its course is the line's next piece (`_runs_on_past_an_end`).
    strokes = np.zeros(len(stats), dtype=bool)
    strokes[candidates] = area[candidates] <= _ONE_STROKE * stroke * extent[candidates]
    strokes[0] = False
    # Decision: every candidate's pixels and spread are gathered first and their principal axes found in one
    # call (`_Blob`, `_axes`), because numpy's eigen-solver costs far more to call than to solve one 2 × 2
    # matrix: each stack entry is solved as it would be alone (the same bits), for the ~150 candidates a
    # sheet has.
    found = [_Blob.of(labels, stats, int(label)) for label in candidates[candidates > 0]]
    for label, blob, axis in zip(candidates[candidates > 0], found, _axes(found), strict=True):
        gone[label] = _runs_on_past_an_end(labels, blob, axis, int(label), strength, silent, stroke=stroke,
                                           share=share, along=along, longest_stroke=longest_stroke,
                                           drawn=drawn, strokes=strokes)
    return gone


class _Blob(NamedTuple):
    """A candidate blob as `_runs_on_past_an_end` judges it."""

    box: tuple[int, int, int, int]
    """Its box: left, top, width, height."""
    own: npt.NDArray[np.bool_]
    """Which pixels of its box are its own."""
    ys: npt.NDArray[np.intp]
    """Its pixels' rows within the box (raster order)."""
    xs: npt.NDArray[np.intp]
    """Their columns."""
    points: npt.NDArray[np.float64]
    """Its pixels (x, y) on the sheet."""
    middle: npt.NDArray[np.float64]
    """The mean of `points`."""
    centred: npt.NDArray[np.float64]
    """`points` less `middle`."""
    spread: npt.NDArray[np.float64]
    """The covariance of `points` (2 × 2), whose eigenvectors are its principal axes (`_axes`)."""

    @staticmethod
    def of(labels: npt.NDArray[np.int32], stats: npt.NDArray[np.int32], label: int) -> _Blob:
        """Blob `label` of `labels` (its box in `stats`)."""
        x, y, w, h = (int(v) for v in stats[label, :4])
        own = labels[y:y + h, x:x + w] == label
        ys, xs = np.nonzero(own)
        points = np.stack([xs + x, ys + y], axis=1).astype(np.float64)
        middle, centred, spread = _spread(points)
        return _Blob((x, y, w, h), own, ys, xs, points, middle, centred, spread)


def _axes(blobs: list[_Blob]) -> list[_Axis]:
    """The principal axes of `blobs` (`_stroke_axis` of each one's points), found in one call of the
    eigen-solver."""
    if not blobs:
        return []
    values, vectors = np.linalg.eigh(np.stack([blob.spread for blob in blobs]))
    return [_axis_of(blob.middle, blob.centred, v, e)
            for blob, v, e in zip(blobs, values, vectors, strict=True)]


def _runs_on_past_an_end(labels: npt.NDArray[np.int32], found: _Blob, stroke_axis: _Axis, label: int,
                         strength: Mask, silent: Mask | None, *, stroke: float, share: float,
                         along: float, longest_stroke: float, single: float = 1.5, followed: float = 6.0,
                         drawn: Mask | None = None, strokes: npt.NDArray[np.bool_] | None = None) -> bool:
    """Whether blob `label` is a straight-ish stroke whose course runs on, past one of its ends, as a ridge
    of the strength at least `share` of its own, or is longer than `longest_stroke` strokes: straight-ish,
    or of any course with no more ink than `single` strokes wide along its length (`without_line_pieces`).
    The ridge is looked for along the blob's axis, and then along its own course, bending, for `followed`
    strokes (`_followed_ridge`). `strokes` (by label) marks the blobs that are single strokes, whose ink on
    the axis's band is the line's next piece. `found` is the blob (`_Blob`) and `stroke_axis` its principal
    axis (`_axes`)."""
    (x, y, w, h), blob, ys, xs, points = found.box, found.own, found.ys, found.xs, found.points
    middle, axis, across, along_axis, length, thickness, ends = stroke_axis
    # (Its median darkness is worked out once for the rules below.)
    darkness: list[float] = []

    def median_darkness() -> float:
        if not darkness:
            darkness.append(float(np.median(strength[ys + y, xs + x])))
        return darkness[0]

    if drawn is not None:
        drawn = _beyond_own(drawn, blob, (x, y), reach=round(stroke))
    # Decision: a blob longer than `longest_stroke` strokes with no more ink than one stroke along its length
    # (`single` strokes wide) is a line whatever its course, because a freehand line wobbles: a wavy divider
    # the zone stage did not give lay thicker than two strokes across its main direction and was kept,
    # then read as a "1" (bench_styles seed 20000 photo 0, dark, small and thin: 358 px long, 23 px across
    # its course, 0.96 strokes of ink along it). A digit that long does not exist, and a number joined into
    # one blob holds 3 or more strokes of ink along its length (each digit's path is 2-3 times its height).
    if length >= longest_stroke * stroke and len(points) <= single * stroke * length:
        return True
    # Decision: a single stroke at least 3 strokes long whose two ends each run on into the drawn lines' mask
    # (`drawn`), in line with the stroke, is a stretch of a drawn line the mask missed, whatever its course,
    # because where the zone stage's trace lost a freehand line for a stretch (a wavy or zigzag stretch, a
    # spoke's arc into the circle, the second stroke of a line drawn twice) the stretch was left whole and
    # read as a "1" or a "7" where nothing is written (bench_styles seed 30000, usual photos 2 and 4, dark
    # photos 2 and 4). Past its ends the line's own mask goes on, and ridges past them are silent there.
    # A digit's stroke touching a line at both ends meets it across (a "1" between two rules), and a stroke
    # along a line ends on paper at one end at least. The stroke is measured by its own width when wider than
    # the sheet's: a dark photo's specks pulled the sheet's to 4.6 px against lines 6-7 px wide, whose
    # stretches then held "two strokes" of ink (seed 30000 dark photo 2: 3 phantoms more; the reach and the
    # share ahead of 0.25, not 0.3, as the wider reach takes in more of a line bending away).
    # (The blob's own width, at most its box's shorter side and a pixel, is measured only when both its ends
    # lie that near the mask: most blobs are nowhere near it.)
    if drawn is not None and ends_near(points, ends, drawn, TOUCH * max(stroke, min(w, h) + 2.0) + 1.0):
        own = max(stroke, _own_width(blob))
        # Decision: so is the second stroke of a line drawn twice that touches the mask at both ends and lies
        # along it all its length (`drawn_twice`): its ends run into the first stroke, not on ahead, and it
        # was read as "11" and "1" (seed 30000 usual photo 2; shadow 2 phantoms fewer, small 1).
        if length >= 3.0 * stroke and len(points) <= _ONE_STROKE * own * length \
                and (bridges_drawn(points, ends, drawn, stroke=own)
                     or drawn_twice(points, ends, drawn, stroke=own)):
            return True
        # Decision: so is a blob of two strokes side by side at most (the strands of a line drawn twice
        # where its mask missed them: an eye between two places where they cross, squared paper's ruling
        # between them) that touches the mask at both ends, lies within `_TWICE_BESIDE` strokes of it all its
        # length, on one side of it (`_one_side`), and is at least `_TWICE_LONG` strokes long, because such
        # strands were read as "1", "11", "71" where nothing is written (bench_styles 39006, a sheet with a
        # retraced frame and spokes: phantoms in dark, glare, motion and small 36 -> 20). A digit touching a
        # line at both ends of its length stands off it by its height, more than that; a digit crossed by a
        # line (a round "0" through its middle, its widest along the line) lies on both sides of it.
        if length >= _TWICE_LONG * stroke and len(points) <= 2 * _ONE_STROKE * own * length \
                and drawn_twice(points, ends, drawn, stroke=own, beside=_TWICE_BESIDE) \
                and _one_side(blob, drawn, (x, y)):
            return True
    elif drawn is not None and length >= 3.0 * stroke and len(points) <= _ONE_STROKE * stroke * length \
            and an_end_near(points, ends, drawn, _PALE_GAP * stroke):
        # Decision: a single stroke that, joined to the pale stretches of line past its ends (and the line's
        # other pieces beyond them), runs on into the drawn lines' mask at both ends, in line with it, goes as
        # a stretch of that line (`_pale_course`, then `bridges_drawn`), because where a freehand line paled
        # for a stretch (a glare, a pale pen, the ruling crossing it) the zone stage's mask missed the
        # stretch, and the thresholds broke it into pieces, each touching the mask at one end at most: they
        # were read as "1"s and "11"s where nothing is written (bench_styles seed 33004 usual zone 6: a
        # spoke's stretch left in two pieces across its pale part). A digit's stroke ends on paper, which no
        # pale course crosses; a digit touching a line meets it across, or joins the course as a branch, and
        # is no single stroke.
        # (Looked for only where every end off the mask has darkness right past it: a digit's ends on paper,
        # most strokes near a line, are told at once.)
        level = share * median_darkness()
        if all(ends_near(points, (index, index), drawn, TOUCH * stroke + 1.0)
               or _dark_past(points[index], end_way(points, index, stroke), strength, stroke=stroke,
                             level=level) for index in ends):
            own = max(stroke, _own_width(blob))
            joined = _pale_course(labels, label, strength, drawn, (x, y, w, h), level=level,
                                  pad=_PALE_REACH * stroke, fringe=round(0.5 * own))
            if joined is not None and len(joined) > len(points) and _joins_drawn(joined, drawn, stroke=own,
                                                                                 fringe=round(0.5 * own)):
                return True
    if thickness > 2.0 * stroke or length < 3.0 * max(thickness, 1.0):
        return False
    if length >= longest_stroke * stroke:
        return True
    own = median_darkness()
    if own <= 0:
        return False
    height, width = strength.shape
    if thickness < stroke and _edge_of_the_dark(labels, strength, middle, axis, across, along_axis, thickness,
                                                 stroke=stroke, level=own, along=along):
        return True
    # 8 strokes, longer than a digit (5-7 strokes tall): a pale "1" broken by the thresholds into two pieces
    # has a ridge past each piece too, its own unbroken stretch, but paper after that. (And a long piece of a
    # spoke may end near the corner it runs into.)
    reach = 8.0 * stroke
    t = np.arange(1.0, reach + 1.0)
    for sign, index in ((1.0, ends[0]), (-1.0, ends[1])):
        end = float(along_axis[index])
        start = middle + axis * end
        half = 0.5 * stroke + 1.0 + 0.1 * t  # the band widens: a freehand line bends
        offsets = _ACROSS
        px = start[0] + sign * axis[0] * t[:, None] + across[0] * half[:, None] * offsets[None, :]
        py = start[1] + sign * axis[1] * t[:, None] + across[1] * half[:, None] * offsets[None, :]
        ix, iy = np.rint(px).astype(np.int64), np.rint(py).astype(np.int64)
        inside = (ix >= 0) & (ix < width) & (iy >= 0) & (iy < height)
        cx, cy = np.clip(ix, 0, width - 1), np.clip(iy, 0, height - 1)
        # Silent pixels and the ink (the writing past a digit's stroke, e.g. a "2"'s foot pointing at the
        # "0" beside it) say nothing, neither line nor paper: a line is told by its stretches that did not
        # pass for ink. A sample all on them is not counted. (Another single stroke's ink is the exception,
        # below.)
        owners = labels[cy, cx]
        # Decision: another single stroke's ink on the band (`strokes`, by label) is the ridge running on,
        # because an untraced freehand line crossing squared paper's ruling was broken at each crossing into
        # pieces 8-10 strokes long with a gap of a pixel or two: past each piece's end lay the next piece,
        # whose ink said nothing, and the paper either side of it read as paper (bench_styles seed 35000
        # glare photo 0: an upright line's pieces read as three "1"s). A digit's stroke pointing at writing
        # ends on paper before it, or at a digit that is no single stroke.
        # Not past a drawn line: a stroke beyond it is other writing (a "1" pointing across a drawn line at
        # the "7" beyond it went: seed 35004 glare).
        chained = (inside & (owners != label) & strokes[owners]).any(axis=1) if strokes is not None \
            else np.zeros(len(t), dtype=bool)
        if drawn is not None and chained.any():
            chained &= np.cumsum((inside & (drawn[cy, cx] > 0)).any(axis=1)) == 0
        inside &= owners == 0
        if silent is not None:
            inside &= silent[cy, cx] == 0
        dark = (np.where(inside, strength[cy, cx], 0).max(axis=1) >= share * own) | chained
        counted = inside.any(axis=1) | chained
        # The ridge must run on from the blob's very end (its first stroke width past it) with no stretch of
        # paper longer than half a stroke: a digit's stroke pointing at a line a little way off (a "1" under
        # a crossing of lines, or the piece of a pale "1" the thresholds broke) has paper between.
        first = counted & (t <= stroke)
        if _ridge_runs_on(counted, dark, first, along=along, stroke=stroke):
            return True
        if not first.any() or not bool(dark[first].all()):
            continue  # no ridge right past the end, on the axis (nor on the course: it bends no more there)
        # Decision: a ridge that starts on past the end but leaves the blob's axis is followed along its own
        # course (`_followed_ridge`), because a freehand line the zone stage did not trace at all (a wavy or
        # curving spoke, an arc of the circle) bends away from a straight band within a few strokes, and its
        # pieces, each a single stroke broken off where the line paled, stayed as ink (bench_styles seed 33000
        # usual photo 4: a wavy spoke's piece joined to a number beside it, two numbers not found). A digit's
        # stroke ends on paper, which no course past it can follow; a line it meets at an angle is a corner,
        # which the course, bending gently, does not take.
        way = end_way(points, index, stroke)
        if way is not None:
            counted, dark = _followed_ridge(labels, label, strength, silent, points[index], way,
                                            stroke=stroke, level=share * own, steps=int(followed * stroke))
            # Not one step of paper over `followed` strokes, which is all it is held to (a wavy line bends
            # more tightly further on; a pale "1" broken in two has paper past its far piece): a course that
            # turns towards the darkest sample finds more darkness than a straight band does (the faint,
            # broken ruling under a pale digit's level stroke, bench photo 1015's "64", was dark over 0.85).
            if counted.sum() >= 0.5 * len(counted) and bool(dark[counted].all()):
                return True
    return False


_ACROSS = np.linspace(-1.0, 1.0, 9)
"""Where the band past a stroke's end is sampled across, as shares of its half-width
(`_runs_on_past_an_end`)."""


def _ridge_runs_on(counted: npt.NDArray[np.bool_], dark: npt.NDArray[np.bool_], first: npt.NDArray[np.bool_],
                   *, along: float, stroke: float) -> bool:
    """Whether the samples past a stroke's end (`counted`: the steps that said something, `dark`: those on
    the ridge, `first`: the counted steps within the first stroke's width) make a line running on: at
    least `along` of the counted steps dark, all of `first` dark, and no stretch of paper longer than half
    a `stroke` among them."""
    if counted.sum() < 0.5 * len(counted):
        return False
    return float(dark[counted].mean()) >= along and bool(dark[first].all()) \
        and _longest_run(counted & ~dark) <= 0.5 * stroke


_SHIFT = 0.1
"""How far a followed course moves across towards the ridge at each pixel it goes on, in px
(`_followed_ridge`)."""


_BEND = 8.0
"""The tightest bend a followed course takes, as a radius in strokes (`_followed_ridge`)."""


def _followed_ridge(labels: npt.NDArray[np.int32], label: int, strength: Mask, silent: Mask | None,
                    tip: npt.NDArray[np.float64], way: npt.NDArray[np.float64], *, stroke: float,
                    level: float, steps: int, through: int = 4
                    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """The course of the ridge past the end `tip` (x, y) of blob `label`'s stroke, followed a pixel at a time
    from the end's own direction `way` (a unit vector) for `steps` pixels off the ink (at most `through` times
    as many in all).

    At each step the samples across the course, half a stroke and a pixel either way, that are neither ink
    nor `silent` are looked at. When the darkest is at least `level` dark, and not both ends of the row are
    (a line lying across the course fills the row), the step is on the ridge, and the course moves `_SHIFT`
    px across towards that sample and turns with it, by at most 1 / (`_BEND` strokes) a pixel: a freehand
    line bends gently, while a stroke's end meeting a line at an angle turns a corner, which the course does
    not follow. Through another blob's ink (the line's next piece, or writing) the course goes straight on
    and no step is spent. The first step off the ridge ends the walk. Returned as the steps that said
    something (some of their samples neither ink nor silent), and those on the ridge."""
    height, width = strength.shape
    half = 0.5 * stroke + 1.0
    offsets = np.linspace(-half, half, 9)
    turn = 1.0 / (_BEND * stroke * _SHIFT)  # turning by at most 1 / (_BEND strokes) a pixel
    x, y = float(tip[0]), float(tip[1])
    dx, dy = float(way[0]), float(way[1])
    counted = np.zeros(steps, dtype=bool)
    dark = np.zeros(steps, dtype=bool)
    step = -1
    silent_steps = 0
    for _ in range(through * steps):
        if step + 1 >= steps:
            break
        x, y = x + dx, y + dy
        ix = np.rint(x - dy * offsets).astype(np.int64)
        iy = np.rint(y + dx * offsets).astype(np.int64)
        if ix.min() < 0 or iy.min() < 0 or ix.max() >= width or iy.max() >= height:
            break
        blobs = labels[iy, ix]
        paper = blobs == 0
        other = ~paper & (blobs != label)
        if other.any():
            # Another blob's ink (the next piece of the line, or writing) says nothing, and takes none of the
            # `steps`: the course goes on straight through it (following it, a "1" touching a line went off
            # along the line) and past it, where a broken digit's far piece ends on paper.
            continue
        step += 1
        inside = paper
        if silent is not None:
            inside &= silent[iy, ix] == 0
        if not inside.any():
            silent_steps += 1
            if silent_steps > 0.5 * steps:
                break  # too few steps left to say anything (`_runs_on_past_an_end` wants half of them)
            continue
        counted[step] = True
        values = np.where(inside, strength[iy, ix], 0)
        best = int(values.argmax())
        # A ridge along the course has paper on both sides; a line lying across the course fills the band.
        if values[best] < level or (values[0] >= level and values[-1] >= level):
            break  # off the ridge: the course is held to not one such step (`_runs_on_past_an_end`)
        dark[step] = True
        shift = max(-_SHIFT, min(_SHIFT, float(offsets[best])))
        x, y = x - dy * shift, y + dx * shift
        dx, dy = dx - turn * dy * shift, dy + turn * dx * shift
        norm = math.hypot(dx, dy)
        dx, dy = dx / norm, dy / norm
    return counted, dark


_ONE_STROKE = 1.6
"""The most ink a single stroke holds along its length, in strokes (a stroke's ink, its blur, its wobble)."""


_TWICE_LONG = 6.0
"""How long, in strokes, the two strands of a line drawn twice must be to go as line (`_runs_on_past_an_end`):
twice the 3 strokes a single stroke needs, as the eye they make is as wide as two."""


_TWICE_BESIDE = 3.0
"""How near the drawn lines' mask, in strokes, the two strands of a line drawn twice lie all their length:
the single second stroke's 2 strokes (`drawn_twice`) and a stroke more for the strand beyond it."""


_PALE_GAP = 4.0
"""How near the drawn lines' mask an end of a stroke must lie for its pale course to be followed, in strokes
(`_pale_course`)."""


_PALE_REACH = 12.0
"""How far around a stroke its pale course is followed, in strokes (`_pale_course`): past a pale stretch, the
line's next piece and the mask it runs into."""


def _beyond_own(drawn: Mask, own: npt.NDArray[np.bool_], corner: tuple[int, int], *, reach: int) -> Mask:
    """The drawn lines' mask (`drawn`, non-zero) as a blob lying within it is judged against: less the blob
    itself (`own`, its box's pixels, the box's top-left `corner` x, y) and `reach` px around it, when at least
    `WITHIN_MASK` of the blob lies within the mask and a pixel; else `drawn` itself.

    Handwriting the zone stage's mask took in is given back to the ink (`_line_removal`), and lies in the
    mask all along: against the mask as it is, every such stroke would run on into it and lie along it (a
    line's piece). Judged against the rest of the mask, a "1" hanging beside a line lies beside it, while a
    piece of a pale line its mask covers still runs on into the mask along the line past its ends.
    """
    x, y = corner
    h, w = own.shape
    height, width = drawn.shape
    x0, y0, x1, y1 = max(0, x - 1), max(0, y - 1), min(width, x + w + 1), min(height, y + h + 1)
    near = cv2.dilate(np.asarray(drawn[y0:y1, x0:x1] > 0, np.uint8), np.ones((3, 3), np.uint8))
    inside = near[y - y0:y - y0 + h, x - x0:x - x0 + w] > 0
    if np.count_nonzero(inside & own) < WITHIN_MASK * np.count_nonzero(own):
        return drawn
    x0, y0 = max(0, x - reach), max(0, y - reach)
    x1, y1 = min(width, x + w + reach), min(height, y + h + reach)
    padded = np.zeros((y1 - y0, x1 - x0), np.uint8)
    padded[y - y0:y - y0 + h, x - x0:x - x0 + w] = own
    around = cv2.dilate(padded, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)) > 0
    out = drawn.copy()
    out[y0:y1, x0:x1][around] = 0
    return out


_ONE_SIDE = 0.9
"""The share of a blob's ink off the drawn lines' mask that must lie on one side of it for the blob to lie
beside the mask, not across it (`_one_side`): a line's strand may stick out past a crossing by a few
pixels."""


def _one_side(own: npt.NDArray[np.bool_], drawn: Mask, corner: tuple[int, int]) -> bool:
    """Whether at least `_ONE_SIDE` of the blob `own` (its box's pixels, the box's top-left `corner` x, y)
    off the drawn lines' mask (`drawn`, non-zero) lies in one of the regions the mask cuts its box (and a
    pixel around it) into (4-connected paper)."""
    x, y = corner
    h, w = own.shape
    height, width = drawn.shape
    x0, y0, x1, y1 = max(0, x - 1), max(0, y - 1), min(width, x + w + 1), min(height, y + h + 1)
    _, found = cv2.connectedComponents(np.asarray(drawn[y0:y1, x0:x1] == 0, np.uint8), connectivity=4)
    regions = np.asarray(found, np.int32)[y - y0:y - y0 + h, x - x0:x - x0 + w][own]
    regions = regions[regions > 0]
    return regions.size == 0 or int(np.bincount(regions).max()) >= _ONE_SIDE * regions.size


def _dark_past(end: npt.NDArray[np.float64], way: npt.NDArray[np.float64] | None, strength: Mask, *,
               stroke: float, level: float) -> bool:
    """Whether right past a stroke's end `end` (x, y), going `way` (a unit vector, `end_way`; None: the
    stroke has no way out there), every step of the first `stroke` px has a sample at least `level` dark in
    `strength`, across half a stroke either way."""
    if way is None:
        return False
    height, width = strength.shape
    t = np.arange(1.0, max(1.0, stroke) + 1.0)[:, None]
    offsets = np.linspace(-0.5 * stroke, 0.5 * stroke, 5)[None, :]
    ix = np.clip(np.rint(end[0] + way[0] * t - way[1] * offsets).astype(np.int64), 0, width - 1)
    iy = np.clip(np.rint(end[1] + way[1] * t + way[0] * offsets).astype(np.int64), 0, height - 1)
    return bool((strength[iy, ix].max(axis=1) >= level).all())


def _pale_course(labels: npt.NDArray[np.int32], label: int, strength: Mask, drawn: Mask,
                 box: tuple[int, int, int, int], *, level: float, pad: float, fringe: int
                 ) -> npt.NDArray[np.float64] | None:
    """The points (x, y) of blob `label` (its box `box`: left, top, width, height) joined, within `pad` px of
    its box, to everything at least `level` dark in `strength` that is not within `fringe` px of the drawn
    lines' mask (`drawn`, non-zero: the line's own soft edges run along it), 8-connected: the stroke with the
    pale stretches of line past its ends and what they lead to. None when that reaches the edge of the window
    looked at (no stroke's course ends in it: a long line, or the ruling of a dark photo)."""
    height, width = strength.shape
    x, y, w, h = box
    reach = int(np.ceil(pad))
    x0, y0 = max(0, x - reach), max(0, y - reach)
    x1, y1 = min(width, x + w + reach), min(height, y + h + reach)
    own = labels[y0:y1, x0:x1] == label
    near = drawn[y0:y1, x0:x1]
    if fringe > 0:
        near = np.asarray(cv2.dilate(near, np.ones((2 * fringe + 1, 2 * fringe + 1), np.uint8)), np.uint8)
    dark = ((strength[y0:y1, x0:x1] >= level) & (near == 0)) | own
    _, found = cv2.connectedComponents(dark.astype(np.uint8), connectivity=8)
    parts = np.asarray(found, np.int32)
    oy, ox = np.nonzero(own)
    course = parts == parts[oy[0], ox[0]]
    if (course[0].any() and y0 > 0) or (course[-1].any() and y1 < height) \
            or (course[:, 0].any() and x0 > 0) or (course[:, -1].any() and x1 < width):
        return None
    cy, cx = np.nonzero(course)
    return np.stack([cx + x0, cy + y0], axis=1).astype(np.float64)


def _joins_drawn(points: npt.NDArray[np.float64], drawn: Mask, *, stroke: float, fringe: int) -> bool:
    """Whether the course of `points` (x, y) is a single stroke at least 3 `stroke`s long that runs on into
    the drawn lines' mask (`drawn`, non-zero) at both ends, in line with it (`bridges_drawn`), its ends
    `fringe` px further off the mask than a stroke's own (`_pale_course` stops that far off it)."""
    *_, length, _, ends = _stroke_axis(points)
    if length < 3.0 * stroke or len(points) > _ONE_STROKE * stroke * length:
        return False
    touch = TOUCH + fringe / stroke
    return ends_near(points, ends, drawn, touch * stroke + 1.0) \
        and bridges_drawn(points, ends, drawn, stroke=stroke, touch=touch)


class _Axis(NamedTuple):
    """A stroke's principal axis (`_stroke_axis`)."""

    middle: npt.NDArray[np.float64]
    """The mean of its points (x, y)."""
    axis: npt.NDArray[np.float64]
    """The unit vector along it."""
    across: npt.NDArray[np.float64]
    """The unit vector across it."""
    along_axis: npt.NDArray[np.float64]
    """Each point's place along the axis, from the middle."""
    length: float
    """Its length: that of a uniform bar with the same spread along the axis."""
    thickness: float
    """Its thickness, measured the same way across the axis."""
    ends: tuple[int, int]
    """The indices of its two extreme points along the axis (the far end, then the near one)."""


def _stroke_axis(points: npt.NDArray[np.float64]) -> _Axis:
    """The principal axis of a stroke's `points` (x, y): from the eigenvectors of their covariance."""
    middle, centred, spread = _spread(points)
    values, vectors = np.linalg.eigh(spread)
    return _axis_of(middle, centred, values, vectors)


def _spread(points: npt.NDArray[np.float64]
            ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The mean of `points` (x, y), the points less it, and their covariance (2 × 2)."""
    # (The mean as `points.mean(axis=0)` works it out, the same sum divided by the count, without its checks:
    # this is done for every candidate blob.)
    middle = np.add.reduce(points, axis=0) / len(points)
    centred = points - middle
    return middle, centred, centred.T @ centred / len(points)


def _axis_of(middle: npt.NDArray[np.float64], centred: npt.NDArray[np.float64],
             values: npt.NDArray[np.float64], vectors: npt.NDArray[np.float64]) -> _Axis:
    """The `_Axis` of points with mean `middle`, less it `centred`, from their covariance's eigenvalues
    (ascending) and eigenvectors (columns)."""
    along_axis = centred @ vectors[:, 1]
    return _Axis(middle, vectors[:, 1], vectors[:, 0], along_axis, math.sqrt(12.0 * max(values[1], 0.0)),
                 math.sqrt(12.0 * max(values[0], 0.0)), (int(along_axis.argmax()), int(along_axis.argmin())))


def _own_width(blob: npt.NDArray[np.bool_]) -> float:
    """Twice the median distance to the background along the middle of the blob (True)."""
    distance = cv2.distanceTransform(np.pad(blob, 1).astype(np.uint8), cv2.DIST_L2, 3)
    ridge = (distance > 0) & (distance >= cv2.dilate(distance, np.ones((3, 3), np.uint8)))
    return float(2.0 * np.median(distance[ridge])) if ridge.any() else 0.0


def _longest_run(on: npt.NDArray[np.bool_]) -> int:
    """The length of the longest run of True in `on`."""
    if not on.any():
        return 0
    padded = np.concatenate([[False], on, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return int((edges[1::2] - edges[::2]).max())


def _edge_of_the_dark(labels: npt.NDArray[np.int32], strength: Mask, middle: npt.NDArray[np.float64],
                      axis: npt.NDArray[np.float64], across: npt.NDArray[np.float64],
                      along_axis: npt.NDArray[np.float64], thickness: float, *, stroke: float, level: float,
                      along: float) -> bool:
    """Whether a sliver thinner than a stroke lies, over `along` of its length, against a band a stroke wide
    of not-ink at least `level` dark (its own darkness) on one side: the edge of a wide line that went (a
    thick wobbly line whose mask lags behind it), not a stroke of its own, which is paler on both sides
    (paper, or the soft edge of a pale stroke whose core alone passed the thresholds)."""
    height, width = strength.shape
    u = np.arange(float(along_axis.min()), float(along_axis.max()) + 1.0)
    offsets = 0.5 * thickness + 1.0 + np.arange(0.0, stroke)
    for sign in (1.0, -1.0):
        px = middle[0] + axis[0] * u[:, None] + sign * across[0] * offsets[None, :]
        py = middle[1] + axis[1] * u[:, None] + sign * across[1] * offsets[None, :]
        ix = np.clip(np.rint(px).astype(np.int64), 0, width - 1)
        iy = np.clip(np.rint(py).astype(np.int64), 0, height - 1)
        dark = ((strength[iy, ix] >= level) & (labels[iy, ix] == 0)).all(axis=1)
        if float(dark.mean()) >= along:
            return True
    return False
