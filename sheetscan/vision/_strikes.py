"""Strikes through written numbers (crossing out), in a zone turned so that its writing runs left to
right: long, nearly level strokes through a number's digits (`find_strikes`), and level strokes through
a single digit (`find_short_strikes`), which the number stage keeps only where the recogniser agrees;
taking their pixels out (`erase_strikes`) and which blobs they cross (`crossed_by`).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision._group import Blob, Box, Mask

_STRIKE_SLOPE = 0.27
"""A strike climbs or falls at most this much along its length (tan 15°).

Decision: 15°, not 30°, because a hand's strike through a number is drawn nearly level along the
line of writing, while the curves of touching digits ("55", a 2's base running into the next digit)
line up over more than a digit height at steeper angles and marked real numbers as crossed out: on the
rendered benches (seeds 1000-4000, 60 photos) 42 real numbers were marked, 32 at 15°, with the same
crossed-out numbers found."""
_STRIKE_FREE = 0.06
"""A long strike runs on its own, touching no other stroke, for at least this many digit heights at both
of its ends.

Decision: both ends, because a person draws a strike from before the first digit to after the last,
while a digit's own level stroke run long (a 2's base, a 4's bar, a 5's flag) starts at a corner of
its digit (the 2's diagonal, the 4's arm, the 5's stem) and so meets other ink at once at one end;
0.06 (a third of a pen stroke), not more, because a strike drawn to the very edge of the number
sticks out by little: on the rendered benches (seeds 1000-4000, 48 photos, full pipeline) it takes
22 real numbers taken as crossed out to 11 and loses 4 of 68 crossed-out numbers found."""
_STRIKE_UNDER = 0.35
"""A long strike has ink of the number it crosses at least this many digit heights below its middle.

Decision: a person strikes a number through its middle (the renderer between 0.35 and 0.65 of the
digits' height from their top), so the digits reach on below the line by more than a third of a
digit, while a digit's own foot run on into the next digit (a 2's base under the digit after it, a
7's or 1's foot) has only the pen's width and the next digit's foot under it. Measured from the
line's middle to the lowest ink of the rest of the blob (the strike taken out), in the block's digit
heights, on the strikes found in bench 1000 and usual, small 43000-45000 (truth numbers): of the 34
lines through written numbers, 12 had 0.25-0.34 under them (2's, 7's and 1's feet) and are dropped;
of the 96 through crossed-out numbers one had 0.33 (a "32" struck low, found by its other line) and
the rest 0.36 or more. The margin is narrow on both sides. Whole scans: written numbers read as
crossed out 3 -> 1 on bench 1000 x24, 22 -> 18 on small 43000-45000, none more crossed-out ones
read as written."""
_SHORT_LEAST = 0.3
"""A blob narrower than this many digit heights is not looked at for a strike through one digit (a struck
"1" is about this wide with its strike)."""
_SHORT_OVERSHOOT = 0.10
"""A strike through one digit reaches at least this many digit heights past the rest of the digit's ink
on both sides.

Decision: measured past the whole rest of the digit (every row), because the level bars a digit has of
its own (a 4's, a crossed 7's, a 2's base) end at the digit's outline on at least one side."""
_SHORT_BAND = (0.3, 0.6)
"""A strike through one digit runs between these shares of the struck blob's height from its top.

Decision: not lower than 0.6, because the bar of a 4 sits at about two thirds of its height and
a person strikes a digit through its middle."""
_SHORT_EVEN = 0.5
"""A strike through one digit reaches past it on its shorter side at least this share of its longer."""


def find_strikes(mask: Mask, blobs: list[Blob], *, height: float, stroke: float) -> list[Box]:
    """Long, nearly level strokes through written numbers (crossing out), as segments (x0, y0, x1, y1).

    Only blobs wider than a digit are looked at: a strike joins the digits it crosses, or is itself
    longer than any digit. A segment counts when it is at least 1.2 digit heights long and within 15°
    of the writing direction (`_STRIKE_SLOPE`), runs through the middle of the blob and across all its
    other ink, leaves the number's ink reaching on below it (`_STRIKE_UNDER`), and its stroke sticks
    out on its own at both ends (`_STRIKE_FREE`).
    """
    segments: list[Box] = []
    length = 1.2 * height
    for blob in blobs:
        if blob.w < length:
            continue
        piece = _piece(mask, blob)
        lines = cv2.HoughLinesP(piece, 1, np.pi / 180, threshold=max(8, int(0.5 * length)),
                                minLineLength=int(length), maxLineGap=max(2, round(stroke)))
        if lines is None:
            continue
        best: tuple[int, int, int, int] | None = None
        best_length = 0.0
        for x0, y0, x1, y1 in np.asarray(lines).reshape(-1, 4):
            dx, dy = float(x1 - x0), float(y1 - y0)
            if abs(dy) > _STRIKE_SLOPE * abs(dx):
                continue
            middle = (y0 + y1) / 2
            if (abs(dx) < 0.8 * blob.w or not 0.33 * blob.h <= middle <= 0.72 * blob.h
                    or _continuity(piece, (x0, y0, x1, y1)) < 0.95):
                # A strike runs through the middle of the whole number (and a little beyond it) in
                # one unbroken stroke; Hough also finds lines along the tops or bottoms of touching
                # digits, which stop short of the ends or have gaps.
                continue
            if not _spans_the_rest(piece, (int(x0), int(y0), int(x1), int(y1)), height=height, stroke=stroke):
                continue
            if _under(piece, (int(x0), int(y0), int(x1), int(y1)), stroke=stroke) < _STRIKE_UNDER * height:
                continue  # the number stands on it: the foot of a digit run into the next one
            if min(_free_ends(piece, (int(x0), int(y0), int(x1), int(y1)))) < _STRIKE_FREE * height:
                continue  # one end is a corner of a digit: the digit's own level stroke run long
            resting, crossed = _standing_on(piece, (int(x0), int(y0), int(x1), int(y1)), stroke=stroke)
            if resting and resting >= crossed:
                continue  # the line is the foot of its digits (a 2's base run into a 4's bar)
            if dx * dx + dy * dy > best_length:
                best_length = dx * dx + dy * dy
                best = (int(x0) + blob.x, int(y0) + blob.y, int(x1) + blob.x, int(y1) + blob.y)
        if best is not None:
            segments.append(best)
    return segments


def find_short_strikes(mask: Mask, blobs: list[Blob], *, height: float, stroke: float) -> list[list[Box]]:
    """Level strokes through single digits (or two narrow ones) that may cross them out: for each blob
    narrower than `find_strikes` looks at, its strike segments (x0, y0, x1, y1), one or two (a double
    strike); blobs without one are left out.

    Weaker evidence than a long strike: a digit's own bar may pass these tests, so the caller keeps
    one only when the number it falls in is crossed out by it.
    """
    found: list[list[Box]] = []
    for blob in blobs:
        if _SHORT_LEAST * height <= blob.w < 1.2 * height and blob.h >= 0.6 * height:
            segments = _short_strikes(mask, blob, height=height, stroke=stroke)
            if segments:
                found.append(segments)
    return found


def _short_strikes(mask: Mask, blob: Blob, *, height: float, stroke: float) -> list[Box]:
    """The level strokes through one digit (or two narrow ones) that cross it out, or none.

    A digit's own level bars (the 4's, the 7's crossbar, a 2's or 5's) end at or inside the rest of the
    digit on at least one side; a strike reaches past all the rest of its ink on both sides
    (`_SHORT_OVERSHOOT`), runs through its middle, and is the widest stroke of the blob.
    """
    piece = _piece(mask, blob)
    if not _crossed_in_band(piece):
        return []
    least = max(_SHORT_LEAST * height, blob.w - 3 * stroke)
    # The gap allowed is wider than a pen stroke: the line found along the digit's own stroke first
    # takes the pixels where the strike crosses it.
    lines = cv2.HoughLinesP(piece, 1, np.pi / 180, threshold=max(6, int(0.5 * least)),
                            minLineLength=int(least), maxLineGap=max(3, round(2 * stroke + 1)))
    if lines is None:
        return []
    # Decision: the segments' slope and middle are tested on all of them at once, and only those that
    # pass are followed along the ink, because Hough finds some 24 segments on a digit and nearly every
    # digit has none (bench seed 1000: 1 of 514 blobs struck); the same tests in the same float64
    # arithmetic, in the segments' order.
    segments = np.asarray(lines, np.int64).reshape(-1, 4)
    dx = (segments[:, 2] - segments[:, 0]).astype(np.float64)
    dy = (segments[:, 3] - segments[:, 1]).astype(np.float64)
    middle = (segments[:, 1] + segments[:, 3]) / 2
    low, high = _SHORT_BAND[0] * blob.h, _SHORT_BAND[1] * blob.h
    level = (np.abs(dy) <= _STRIKE_SLOPE * np.abs(dx)) & (low <= middle) & (middle <= high)
    found = [(x0, y0, x1, y1) for x0, y0, x1, y1 in segments[level].tolist()
             if _continuity(piece, (x0, y0, x1, y1)) >= 0.95]
    if not found:
        return []
    # A double strike is two such strokes: all of them are taken out before the rest is looked at.
    rest = erase_strikes(piece, list(found), stroke=stroke)
    rows = np.flatnonzero(rest.sum(axis=1) > 0)
    columns = np.flatnonzero(rest.sum(axis=0) > 2 * 255)
    if columns.size == 0 or rows.size == 0 or rows[-1] - rows[0] < 0.5 * height:
        return []  # nothing as tall as a digit is left: a dash (a dot written with a flick), not a strike
    left = min(min(s[0], s[2]) for s in found)
    right = max(max(s[0], s[2]) for s in found)
    reach = _SHORT_OVERSHOOT * height
    if columns[0] < left + reach or columns[-1] > right - reach:
        return []
    # Drawn across the digit, a strike reaches past it by much the same on both sides; a level stroke
    # far longer on one side is a digit's own (a 4's bar run on from its arm, a 1's flag).
    short, long = sorted((columns[0] - left, right - columns[-1]))
    if short < _SHORT_EVEN * long:
        return []
    return [(s[0] + blob.x, s[1] + blob.y, s[2] + blob.x, s[3] + blob.y) for s in found]


_BAND_COVER = 0.9
"""A blob struck through by one level stroke has ink in the rows about its middle (`_crossed_in_band`) in at
least this share of its columns.

Decision: the share is tested before `cv2.HoughLinesP` looks for the stroke, because Hough is most of
the cost of short strikes (about 100 calls a photo, 0.5 ms each, 0.03 ms for the test) and most digits
leave columns empty there (a 0's hollow, a 7's or 1's side). A strike `_short_strikes` keeps lies in
those rows, 95 % of its points on ink, and reaches past the rest of the blob on both sides, so the blob's
columns beyond it hold only the strike's own ends or slivers of two pixels: its share is about 0.95 or
more. On 22 cached photos (bench 1000 0-11; usual 45000-45003; small, thin, motion 45000-45001) all 15
blobs struck had every column inked there, and 0.9 skips 22 % of the 2611 blobs looked at (0.95 would
skip 34 %): short strikes 61 -> 44 ms of CPU a photo (bench 1000 0-11, read alone in one thread). No
reading changed: every scan's md5 the same on bench 1000 x24, usual, small, thin, motion 45000 x8 and
usual, small 49000 x8."""


def _crossed_in_band(piece: Mask) -> bool:
    """Whether at least `_BAND_COVER` of the piece's columns have ink in the rows a short strike's segment
    may pass through: its middle in `_SHORT_BAND`, climbing at most `_STRIKE_SLOPE` over the piece's
    width (a row more for rounding)."""
    rows, columns = piece.shape
    spread = _STRIKE_SLOPE * columns / 2 + 1
    first = max(0, int(np.floor(_SHORT_BAND[0] * rows - spread)))
    last = min(rows - 1, int(np.ceil(_SHORT_BAND[1] * rows + spread)))
    if last < first or columns == 0:
        return False
    return bool(int(np.count_nonzero(piece[first:last + 1].any(axis=0))) >= _BAND_COVER * columns)


def _piece(mask: Mask, blob: Blob) -> Mask:
    """The blob's box of `mask`, ink 255 and paper 0."""
    return np.where(mask[blob.y:blob.bottom, blob.x:blob.right] > 0, 255, 0).astype(np.uint8)


def _spans_the_rest(piece: Mask, segment: tuple[int, int, int, int], *, height: float, stroke: float) -> bool:
    """Whether the segment reaches across all the other ink of the blob: a strike runs from before the
    first digit to after the last; the bar of a 2, 5 or 7 stops inside the number. And whether that ink
    stands as tall as half a digit: a strike crosses something out; a level line with nothing under it
    (a "1" written long on a zone read at a quarter turn, a bit of ruling) crosses nothing."""
    rest = erase_strikes(piece, [segment], stroke=stroke)
    columns = np.flatnonzero(rest.sum(axis=0) > 2 * 255)
    rows = np.flatnonzero(rest.sum(axis=1) > 0)
    # Decision: half a digit height left, as `_short_strikes` asks of a short strike, because a strike
    # always touches the digits it crosses (a line beside a number marked it through `crossed_by`).
    if columns.size == 0 or rows[-1] - rows[0] < 0.5 * height:
        return False
    x0, x1 = sorted((segment[0], segment[2]))
    slack = 0.12 * height
    return bool(columns[0] >= x0 - slack and columns[-1] <= x1 + slack)


def _under(piece: Mask, segment: tuple[int, int, int, int], *, stroke: float) -> float:
    """How far (pixels) the blob's ink other than the segment's stroke reaches below the segment's middle
    (0 when none does)."""
    rest = erase_strikes(piece, [segment], stroke=stroke)
    rows = np.flatnonzero(rest.sum(axis=1) > 0)
    if rows.size == 0:
        return 0.0
    return max(0.0, float(rows[-1]) - (segment[1] + segment[3]) / 2)


def _standing_on(piece: Mask, segment: tuple[int, int, int, int], *, stroke: float) -> tuple[int, int]:
    """How many of the digits along the segment stand on it (all their ink, the segment's stroke taken
    out, above it) and how many it runs through (ink above it and below it). A digit is the ink left
    in columns that overlap; one with no ink off the stroke (a bit of the strike itself) or only
    below it counts as neither.

    Decision: a strike is drawn over digits already written, through their middles, so every digit
    it crosses keeps ink above it and below it, while a level line that is a digit's own foot (a 2's
    base run into the bar of the 4 after it, in small writing) has that digit standing on it; a line
    on which at least as many digits stand as it runs through is no strike. On the rendered styles
    (seeds 20000-22000, truth zones, each block at its first angle) it dropped 25 of 48 long strikes
    found on numbers not crossed out and 4 of 105 through crossed-out ones (a strike run low, under
    the foot of a short "1")."""
    x0, y0, x1, y1 = segment
    if x1 < x0:
        x0, y0, x1, y1 = x1, y1, x0, y0
    rest = np.asarray(erase_strikes(piece, [segment], stroke=stroke) > 0, dtype=np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    band = _erased_width(stroke) / 2  # half the band `erase_strikes` took out
    line = y0 + (y1 - y0) * (np.arange(rest.shape[1]) - x0) / max(1, x1 - x0)
    rows = np.arange(rest.shape[0])[:, None]
    above = np.bincount(labels[rows < line[None, :] - band], minlength=count)
    below = np.bincount(labels[rows > line[None, :] + band], minlength=count)
    digits: list[list[int]] = []  # [left, right, ink above, ink below], left to right
    for label in sorted(range(1, count), key=lambda k: int(stats[k, cv2.CC_STAT_LEFT])):
        left = int(stats[label, cv2.CC_STAT_LEFT])
        right = left + int(stats[label, cv2.CC_STAT_WIDTH])
        if digits and left < digits[-1][1]:
            digits[-1][1] = max(digits[-1][1], right)
            digits[-1][2] += int(above[label])
            digits[-1][3] += int(below[label])
        else:
            digits.append([left, right, int(above[label]), int(below[label])])
    least = max(3.0, 0.5 * stroke * stroke)  # a few pixels off the band are an edge of the stroke
    resting = sum(1 for _, _, up, down in digits if up >= least > down)
    crossed = sum(1 for _, _, up, down in digits if up >= least and down >= least)
    return resting, crossed


def _free_ends(piece: Mask, segment: tuple[int, int, int, int]) -> tuple[int, int]:
    """How far (pixels) the stroke along the segment runs on its own from each end before it meets
    other ink: the columns from the stroke's end (followed past the segment's while its line stays on
    ink) in which the ink run through the line is no thicker than the stroke itself."""
    x0, y0, x1, y1 = segment
    if x1 < x0:
        x0, y0, x1, y1 = x1, y1, x0, y0
    runs = _runs_along(piece, (x0, y0, x1, y1)).tolist()
    width = len(runs)
    left, right = max(0, x0), min(width - 1, x1)
    while left > 0 and runs[left - 1] > 0:
        left -= 1
    while right < width - 1 and runs[right + 1] > 0:
        right += 1
    along = [r for r in runs[left:right + 1] if r > 0]
    if not along:
        return 0, 0
    # The stroke's own thickness: where it crosses a digit the run is taller, so a low share of the
    # runs along it (the stroke alone between and past the digits) rather than the middle one.
    own = float(np.percentile(along, 25))
    thick = own + max(2.0, 0.5 * own)
    free_left = 0
    while left + free_left <= right and runs[left + free_left] <= thick:
        free_left += 1
    free_right = 0
    while right - free_right >= left and runs[right - free_right] <= thick:
        free_right += 1
    return free_left, free_right


def _runs_along(piece: Mask, segment: tuple[int, int, int, int]) -> npt.NDArray[np.int32]:
    """For every column of `piece`, the height of its ink run through the segment's line (looked for up
    to 2 pixels off the line); 0 where there is none."""
    ink = piece > 0
    rows, width = ink.shape
    index = np.arange(rows)[:, None]
    # For each pixel, the nearest paper row at or above it and at or below it: its run lies between.
    paper_above = np.maximum.accumulate(np.where(ink, -1, index), axis=0)
    paper_below = np.minimum.accumulate(np.where(ink, rows, index)[::-1], axis=0)[::-1]
    x0, y0, x1, y1 = segment
    columns = np.arange(width)
    line = np.rint(y0 + (y1 - y0) / max(1, x1 - x0) * (columns - x0)).astype(np.int64)
    runs = np.zeros(width, np.int32)
    for off in (2, -2, 1, -1, 0):  # the nearest ink to the line wins: written last
        y = line + off
        inside = (y >= 0) & (y < rows)
        at = np.where(inside, y, 0)
        run = np.where(inside & ink[at, columns], paper_below[at, columns] - paper_above[at, columns] - 1, 0)
        runs = np.where(run > 0, run, runs)
    return runs


def _continuity(piece: Mask, segment: tuple[int, int, int, int]) -> float:
    """Share of points along the segment that lie on ink."""
    x0, y0, x1, y1 = (int(v) for v in segment)
    count = max(2, int(np.hypot(x1 - x0, y1 - y0)))
    xs = np.clip(np.rint(np.linspace(x0, x1, count)).astype(int), 0, piece.shape[1] - 1)
    ys = np.clip(np.rint(np.linspace(y0, y1, count)).astype(int), 0, piece.shape[0] - 1)
    return float((piece[ys, xs] > 0).mean())


def erase_strikes(mask: Mask, segments: list[Box], *, stroke: float) -> Mask:
    """`mask` with the strikes' pixels taken out (a band a little wider than the pen)."""
    cleaned = mask.copy()
    thickness = _erased_width(stroke)
    for x0, y0, x1, y1 in segments:
        # Extend each segment a little: Hough ends short of the stroke's rounded ends.
        dx, dy = x1 - x0, y1 - y0
        norm = max(1.0, float(np.hypot(dx, dy)))
        ex, ey = round(dx / norm * thickness), round(dy / norm * thickness)
        cv2.line(cleaned, (x0 - ex, y0 - ey), (x1 + ex, y1 + ey), 0, thickness)
    return cleaned


def _erased_width(stroke: float) -> int:
    """The width (px) of the band `erase_strikes` takes out along a strike: a little wider than the pen."""
    return max(2, round(1.5 * stroke + 1))


def crossed_by(blob: Blob, segments: list[Box], *, stroke: float) -> bool:
    """Whether one of the strike segments runs through the blob's box."""
    for x0, y0, x1, y1 in segments:
        lo, hi = min(x0, x1), max(x0, x1)
        if blob.right < lo or blob.x > hi:
            continue
        t = 0.0 if x1 == x0 else (min(max(blob.cx, lo), hi) - x0) / (x1 - x0)
        y_at = y0 + t * (y1 - y0)
        if blob.y - 2 * stroke <= y_at <= blob.bottom + 2 * stroke:
            return True
    return False
