"""Stage 4 of reading a photo: long straight runs of ink (`straight_lines`): squared or ruled paper's ruling,
a form's printed lines, the slanting spokes the zone stage missed; and the unbroken straight segments a
mask holds (`half_size_lines`, `unbroken`), which `_long_blobs` cuts out of a long blob.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision._lines import at_least, ink_within, opening, shrunk

__all__ = ["half_size_lines", "past_line_ends", "straight_lines", "unbroken", "unbroken_slanting"]

Mask = npt.NDArray[np.uint8]


def straight_lines(mask: Mask, *, length: float) -> tuple[Mask, Mask, Mask]:
    """Level and upright straight runs of ink at least `length` long: ruled or squared paper, a form's
    printed lines. No digit has a straight stroke that long, so nothing written is taken. Returned as the
    level runs, the upright runs and the long slanting lines (5 px wide), each within `mask`."""
    # Never shorter than a large digit on the smallest sheet we read (tests use small images).
    size = max(60, int(length))
    # Thicken across each direction first, so a ruling a degree off level still gives unbroken runs.
    across = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (1, 3)))
    level = opening(across, cv2.getStructuringElement(cv2.MORPH_RECT, (size, 1)))
    across = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 1)))
    upright = opening(across, cv2.getStructuringElement(cv2.MORPH_RECT, (1, size)))
    level = np.asarray(level & mask, np.uint8)
    upright = np.asarray(upright & mask, np.uint8)
    # Slanting drawn lines (spokes the zone stage missed): long, straight and unbroken.
    slanting = np.zeros_like(mask)
    # Decision: the slanting lines are looked for (Hough) in the mask less the level and upright runs just
    # found, but for the runs' pixels near other ink (`_CROSSING`), because the runs are most of a sheet's
    # long straight ink (squared paper's ruling, a form's grid) and Hough's cost goes with the pixels it is
    # given: straight_lines 55.6 -> 34.2 ms of CPU a photo (28 captured sheets of bench 1000 and 45000 usual,
    # small, thin, motion; squared paper's Hough alone 95-109 -> 7-8 ms). Only its slanting segments were
    # kept, and whether one is unbroken is judged in the whole half-size mask, as before. The runs' pixels
    # where a slanting line crosses them stay: without them each crossing left a gap that `maxLineGap` 1
    # breaks the line at (a synthetic line crossing 3 px runs 150 px apart: 0.28 of it found, against 0.81
    # before and 1.0 with them). Found whole, a slanting line crossing squared paper's ruling is now found
    # too (before, the ruling found first took its crossings: 0 of it found on a 40 px grid). The ink
    # differs in 16 of 56 captured sheets by 1-949 px.
    half, segments = half_size_lines(mask, size, without=np.asarray(np.maximum(level, upright), np.uint8))
    if segments is not None:
        for x0, y0, x1, y1 in unbroken_slanting(half, segments):
            cv2.line(slanting, (2 * int(x0), 2 * int(y0)), (2 * int(x1), 2 * int(y1)), 255, 5)
        slanting = np.asarray(slanting & mask, np.uint8)
    return level, upright, slanting


def past_line_ends(level: Mask, upright: Mask, near: Mask, *, length: float, shortest: int) -> Mask:
    """The ends of the level and upright runs (non-zero) that stick out past a drawn line they run along: 255
    on a run's stretch off `near` (the drawn lines, widened) from one of its ends to where it meets `near`,
    when that stretch is at least `shortest` px long (a drawn line's own tail, where its pen lifted, is
    shorter: twice its width) but shorter than the runs' `length` (at least 60 px, as `straight_lines`), as
    thick on average as a quarter of `shortest` (half the line's width: a pen's stroke, where squared paper's
    ruling running along a slanting drawn line is thinner), and the run then goes on within `near` for at
    least half that length.

    A stroke written level in line with a drawn line's stub (a "1" beside a crossing) makes, with the line,
    a straight run long enough to be taken for a ruling; what sticks out past the line is no longer than
    writing. A ruling crossing a drawn line lies within `near` for no more than the line's widened width;
    one that lies along a drawn line runs on past its end for longer than `length`."""
    size = max(60, int(length))
    out = np.zeros_like(near)
    for runs, level_way in ((level, True), (upright, False)):
        contours, _ = cv2.findContours(runs, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            x, y, w, h = cv2.boundingRect(contour)
            if (w if level_way else h) <= size:
                continue
            run = ink_within(runs, contour, (x, y, w, h))
            on_line = run & (near[y:y + h, x:x + w] > 0)
            if not level_way:
                run, on_line = run.T, on_line.T  # worked out level: along the run is along the rows
            covered = np.any(on_line, axis=0)
            if not covered.any():
                continue
            cut = np.zeros(len(covered), np.bool_)
            for way in (1, -1):
                line = covered[::way]
                start = int(np.argmax(line))  # the first column within `near` from this end
                past = int(np.argmax(~line[start:])) if not line[start:].all() else len(line) - start
                if shortest <= start < size and past >= size // 2:
                    end = np.zeros(len(covered), np.bool_)
                    end[::way][:start] = True
                    # A pen's stroke, not squared paper's thin ruling running along the drawn line.
                    if 4 * np.count_nonzero(run[:, end]) >= shortest * start:
                        cut |= end
            if cut.any():
                stretch = run & cut[None, :]
                piece = stretch if level_way else stretch.T
                out[y:y + h, x:x + w][piece] = 255
    return out


def half_size_lines(mask: Mask, size: int, *, without: Mask | None = None
                    ) -> tuple[Mask, npt.NDArray[np.int32] | None]:
    """`mask` at half size (four times faster to search, and a thin line is still unbroken there) and
    the straight segments (K × 4, half-size px) Hough finds in it at least `size` // 2 long, or None; with
    `without` (non-zero, `mask`'s size), Hough looks only at the half-size mask less it (at half size), but
    for its pixels within `_CROSSING` half-size px of the rest (where a line crosses it)."""
    half = at_least(shrunk(mask, 2), 64)
    searched = half
    if without is not None:
        rest = cv2.bitwise_and(half, cv2.bitwise_not(at_least(shrunk(without, 2), 64)))
        # (and the pixels of `without` within `_CROSSING` px of the rest: where a line crosses it)
        side = 2 * _CROSSING + 1
        crossed = cv2.bitwise_and(half, cv2.dilate(rest, np.ones((side, side), np.uint8)))
        searched = np.asarray(cv2.bitwise_or(rest, crossed), np.uint8)
    found = cv2.HoughLinesP(searched, 1, np.pi / 180, threshold=size // 2, minLineLength=size // 2,
                            maxLineGap=1)
    return half, None if found is None else np.asarray(found, np.int32).reshape(-1, 4)


_CROSSING = 4
"""How far (half-size px) from the ink off the level and upright runs their own pixels are still searched for
slanting lines (`half_size_lines`): a slanting line crossing a run 3-4 px thick at 20° or more runs through
it for at most about twice this (a synthetic sheet: 3 px runs 40-250 px apart, lines at 20-60°, found whole;
at 2 px only 0.64 of a 20° line)."""


def unbroken_slanting(half: Mask, segments: npt.NDArray[np.generic]) -> npt.NDArray[np.int64]:
    """The segments (K × 4: x0, y0, x1, y1) slanting 8-82° that are unbroken ink in `half` (`unbroken`)."""
    seg = np.asarray(segments, np.int64).reshape(-1, 4)
    dx, dy = seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]
    slope = np.abs(np.degrees(np.arctan2(dy, dx))) % 90.0
    # Level and upright lines are found by the openings; the slanting ones only here.
    return unbroken(half, seg[(slope >= 8.0) & (slope <= 82.0)])


def unbroken(half: Mask, segments: npt.NDArray[np.generic]) -> npt.NDArray[np.int64]:
    """The segments (K × 4: x0, y0, x1, y1) whose every pixel, sampled about one a pixel along them, is
    ink in `half` for at least 95 % of the samples.

    All segments are sampled at once (the places `np.linspace` gives each, its last one the end itself)
    rather than one by one: a sheet gives a few hundred segments.
    """
    seg = np.asarray(segments, np.int64).reshape(-1, 4)
    if len(seg) == 0:
        return np.asarray(seg, np.int64)
    dx, dy = seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]
    count = np.maximum(2, np.hypot(dx, dy).astype(np.int64))
    which = np.repeat(np.arange(len(seg)), count)
    first = np.cumsum(count) - count
    k = (np.arange(len(which)) - first[which]).astype(np.float64)
    last = k == (count - 1)[which]
    coords = []
    for start, delta in ((seg[:, 0], dx), (seg[:, 1], dy)):
        step = delta.astype(np.float64) / (count - 1)
        place = k * step[which] + start[which].astype(np.float64)
        place[last] = start[which][last] + delta[which][last]
        coords.append(np.rint(place).astype(np.int64))
    hits = np.add.reduceat((half[coords[1], coords[0]] > 0).astype(np.int64), first)
    return np.asarray(seg[hits / count >= 0.95], np.int64)
