"""Stage 4 of reading a photo: the drawn lines taken out of the ink (`remove_lines`), and the pieces of
line that handwriting crosses, or that a digit written against a line leaves, given back; a line's own
fringe (wider or more wobbly than its mask) dropped."""

from __future__ import annotations

import math
from collections.abc import Iterator

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["blob_stats", "line_pieces", "line_width", "remove_lines", "without_line_pieces"]

Mask = npt.NDArray[np.uint8]


def line_width(lines: Mask) -> int:
    """About twice the half-width of the drawn lines, odd, at least 3 pixels."""
    if not lines.any():
        return 3
    distance = cv2.distanceTransform(lines, cv2.DIST_L2, 3)
    ridge = distance[distance > 0]
    half = float(np.percentile(ridge, 90)) if ridge.size else 1.0
    return max(3, round(2 * half + 2) | 1)


def remove_lines(mask: Mask, line_mask: npt.NDArray[np.uint8], *, drawn: Mask | None = None,
                  drawn_width: int | None = None, line_length: float | None = None,
                  written: Mask | None = None) -> Mask:
    """Take the lines out of `mask`, keeping line pixels where handwriting crosses a line.

    With `drawn` (the sheet's drawn lines, `drawn_width` their `line_width`), blobs that lie mostly
    along those lines and cross none are dropped too: the fringe of a line wider or more wobbly than
    its mask. With `line_length` (how long a piece of ink must be to be a line), a blob is a fringe
    only when joined to such a piece or no longer than a speck (`_apart`).

    `written` (non-zero) is writing lying on the lines (`_ruling.written_on_ruling`): kept, and a side
    of the pieces of line it meets, but it gives back no line of its own (see below).
    """
    lines = np.asarray(cv2.dilate((line_mask > 0).astype(np.uint8), np.ones((3, 3), np.uint8)), np.uint8)
    # Decision: the line given back is only what handwriting OFF the lines reaches, not what the writing
    # lying on them reaches, because the ruling beside and past a dark pen's stroke lying along it (its
    # soft edge, the stretch past the stroke's end) then came back as "crossed" between the stroke and the
    # next piece of ink: a stub on a "1" read as a 7's bar ("12" as a crossed-out "17"), a dot joined to a
    # digit (bench_scan seed 4000 x12: 98.12 % digits without the writing on the ruling, 97.92 % with it
    # and its reach, 98.12 % with it and this rule).
    bare = cv2.compare(lines, np.zeros_like(lines), cv2.CMP_EQ)
    off_ink = np.asarray(cv2.bitwise_and(mask, bare), np.uint8)
    barrier = lines.copy()
    if written is not None:
        lines[written > 0] = 0
    off_lines = cv2.compare(lines, np.zeros_like(lines), cv2.CMP_EQ)
    without = np.asarray(cv2.bitwise_and(mask, off_lines), np.uint8)
    width = line_width(lines)
    reach = cv2.dilate(off_ink, cv2.getStructuringElement(cv2.MORPH_RECT, (width, width)))
    # A piece of line belongs to the handwriting when handwriting crosses it: ink reaches it from off
    # the line on two sides (two separate off-line pieces, or a piece of writing lying on the line). A
    # digit that only touches a line gets nothing back, so no stub of line is left beside it looking like
    # a "1".
    crossing = cv2.bitwise_and(cv2.bitwise_and(mask, lines), reach)
    count, found_pieces = cv2.connectedComponents(crossing, connectivity=8)
    pieces = np.asarray(found_pieces, np.int32)
    sides_count, found_sides = cv2.connectedComponents(without, connectivity=8)
    sides = np.asarray(found_sides, np.int32)
    keep = np.zeros(max(count, 1), dtype=bool)
    crossed_sides = np.zeros(max(sides_count, 1), dtype=bool)
    if count > 1:
        pairs, seeds = _touching(pieces, sides)
        every, every_seeds = pairs, seeds
        if drawn is not None and pairs.shape[1]:
            # Decision: at a piece of the drawn lines, a side lying wholly within half a line width of them
            # is the line's own fringe (the line drawn wider than its mask), not writing: it makes no
            # crossing. Otherwise a line with fringes on both sides got its masked ink back as "crossed" and
            # was read (a stub on a "1" as a 7's bar, a line's end as "9"). Not at the ruling of squared
            # or lined paper: the writing crossing it lies near the drawn lines too.
            xs, ys = np.asarray(cv2.findNonZero(crossing), np.int64).reshape(-1, 2).T
            on_drawn = np.zeros(count, dtype=bool)
            on_drawn[pieces[ys, xs][drawn[ys, xs] > 0]] = True
            looked_at = on_drawn[pairs[0]]
            off = _off_lines(without, pairs[1][looked_at], seeds[looked_at], sides_count, drawn,
                             drawn_width if drawn_width is not None else line_width(drawn))
            pairs = pairs[:, off[pairs[1]] | ~looked_at]
        keep = np.bincount(pairs[0], minlength=count) >= 2
        keep[0] = False
        crossed_sides[pairs[1][keep[pairs[0]]]] = True
        if keep.any():
            # Decision: a piece reached only from one side of the line (`_across_the_line`; every side that
            # touches it counted, the line's own fringes too) is not given back, though its sides still count
            # as crossing (the fringe rule below leaves them), because small digits written side by side
            # against a line (a "1" and the "0" after it, hanging from it) both reach the line within its
            # width, and the piece given back joined them by a bar ("10" read "70", "14" "77"). bench_styles,
            # full pipeline, digits / zone final values: small seed 5000 89.10 / 84.17 % -> 89.85 / 84.17 %,
            # 6000 85.44 / 75.83 % -> 87.27 / 78.33 %, 11000 75.29 / 80.83 % -> 75.46 / 81.67 %; usual 5000
            # 97.09 -> 97.17 %, 6000 95.76 -> 95.84 %, 11000 92.26 -> 92.18 %, bench_scan seed 1000 x12
            # 97.13 -> 97.34 %; phantom numbers 15 -> 13 over these sets. Only where every side is shorter
            # than 0.3 of `line_length` (digits): a line's own unmasked stretches, given back, are joined
            # into a long blob that goes as a line; left apart, they were read as "1"s (usual 5000: 4
            # phantom numbers).
            kept_pairs = keep[every[0]]
            extent = _extents(without, every[1][kept_pairs], every_seeds[kept_pairs], sides_count)
            longest = np.zeros(count, np.int64)
            np.maximum.at(longest, every[0][kept_pairs], extent[every[1][kept_pairs]])
            digits = keep & (longest < (0.3 * line_length if line_length else np.inf))
            if digits.any():
                across = _across_the_line(np.asarray(crossing, np.uint8), pieces, sides, every, digits,
                                          barrier, width)
                keep &= ~digits | across
    if drawn is not None:
        width = drawn_width if drawn_width is not None else line_width(drawn)
        without = _drop_line_fringes(without, sides, sides_count, drawn, width, crossed_sides,
                                     raw=mask if line_length is not None else None,
                                     line_length=line_length or 0.0)
    if not keep.any():
        return without
    # The crossing pieces are few pixels: given back by their places rather than a lookup over the sheet.
    xs, ys = np.asarray(cv2.findNonZero(crossing), np.int64).reshape(-1, 2).T
    given = keep[pieces[ys, xs]]
    out = without.copy()
    out[ys[given], xs[given]] = 255
    return out


def _off_lines(without: Mask, which: npt.NDArray[np.int64], seeds: npt.NDArray[np.int64], count: int,
               drawn: Mask, width: int) -> npt.NDArray[np.bool_]:
    """Per blob label of `without` (`count` labels): True for the blobs in `which` (each given by a pixel of
    it, `seeds`: flat indices) with some ink more than `width` // 2 px off the `drawn` lines (outside them
    dilated by a `width` square).

    Only the few blobs that touch a piece of line are looked at (`_filled`), and the dilation is made within
    each one's box and `width` // 2 px around it, so it is the sheet-wide dilation's own pixels there.
    """
    off = np.zeros(max(count, 1), dtype=bool)
    if len(which) == 0:
        return off
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (width, width))
    reach = width // 2
    h, w = without.shape
    for label, (bx, by, bw, bh), own in _filled(without, which, seeds):
        x0, y0 = max(0, bx - reach), max(0, by - reach)
        x1, y1 = min(w, bx + bw + reach), min(h, by + bh + reach)
        near = cv2.dilate(drawn[y0:y1, x0:x1], kernel)[by - y0:by - y0 + bh, bx - x0:bx - x0 + bw]
        off[label] = bool(np.any(own & (near == 0)))
    return off


def _filled(without: Mask, which: npt.NDArray[np.int64], seeds: npt.NDArray[np.int64]
            ) -> Iterator[tuple[int, tuple[int, int, int, int], npt.NDArray[np.bool_]]]:
    """Each distinct blob of `without` in `which` (by label, each given by a pixel of it, `seeds`: flat
    indices) once: its label, its box (x, y, width, height) and which pixels of that box are its own.

    Only the few blobs that touch a piece of line are looked at: each is filled from its pixel into a
    mask of marks, which gives its box and visits only its own pixels.
    """
    h, w = without.shape
    marks: Mask | None = None
    mark = 1
    done: set[int] = set()
    for label, seed in zip(which.tolist(), seeds.tolist(), strict=True):
        if label in done:
            continue
        done.add(label)
        if marks is None or mark > 255:  # (out of marks: start afresh)
            marks = np.zeros((h + 2, w + 2), np.uint8)
            mark = 1
        y, x = divmod(int(seed), w)
        flags = 8 | (mark << 8) | cv2.FLOODFILL_MASK_ONLY
        _, _, _, (bx, by, bw, bh) = cv2.floodFill(without, marks, (x, y), 0, 0, 0, flags)
        yield label, (bx, by, bw, bh), marks[by + 1:by + 1 + bh, bx + 1:bx + 1 + bw] == mark
        mark += 1


def _touching(pieces: npt.NDArray[np.int32], sides: npt.NDArray[np.int32]
              ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The distinct (piece, side) label pairs (2 × K) where a pixel of side lies within one pixel
    (8-neighbourhood) of piece, and for each pair such a pixel of the side (K flat indices); where a
    side's pixel is that near to several pieces, only the one with the highest label counts (as a grey
    dilation of the piece labels would give).

    The pieces are few and small (where handwriting meets a line), so only their neighbourhoods are
    looked at rather than the whole sheet.
    """
    h, w = pieces.shape
    points = cv2.findNonZero(np.asarray(pieces > 0, np.uint8))
    if points is None:
        return np.zeros((2, 0), np.int64), np.zeros(0, np.int64)
    xs, ys = (np.asarray(points, np.int64).reshape(-1, 2)).T
    labels = pieces[ys, xs].astype(np.int64)
    dy, dx = (d.ravel() for d in np.mgrid[-1:2, -1:2])
    ty, tx = (ys[:, None] + dy[None, :]).ravel(), (xs[:, None] + dx[None, :]).ravel()
    near = np.repeat(labels, 9)
    inside = (ty >= 0) & (ty < h) & (tx >= 0) & (tx < w)
    flat = ty[inside] * w + tx[inside]
    near = near[inside]
    side = sides.ravel()[flat].astype(np.int64)
    on_side = side > 0
    flat, near, side = flat[on_side], near[on_side], side[on_side]
    if flat.size == 0:
        return np.zeros((2, 0), np.int64), np.zeros(0, np.int64)
    # The highest piece label at each side pixel: sort by pixel, then label, and take each pixel's last.
    order = np.lexsort((near, flat))
    flat, near, side = flat[order], near[order], side[order]
    last = np.append(flat[1:] != flat[:-1], True)
    pairs, first = np.unique(np.stack([near[last], side[last]]), axis=1, return_index=True)
    return np.asarray(pairs, np.int64), np.asarray(flat[last][first], np.int64)


def _drop_line_fringes(without: Mask, blobs: npt.NDArray[np.int32], count: int, lines: Mask, width: int,
                       keep: npt.NDArray[np.bool_], *, share: float = 0.6, raw: Mask | None = None,
                       line_length: float = 0.0) -> Mask:
    """`without` less the blobs (not in `keep`) with more than `share` of their ink along `lines`.

    With `raw` (the ink before the lines were taken out), such a blob is dropped only when it is joined
    in `raw` to a piece of ink longer than `line_length` either way (a line), or is no longer than a
    speck (under 2 × `width`, the lines' width). A line's fringe is the line's own ink, so it is joined
    to the rest of the line; a stroke with paper between it and the line (a "1" written level with the
    line just below it, the foot of a digit hanging near it) is writing, even where it lies as close to
    the line as a fringe does. A speck there (where squared paper's ruling crosses beside a line) is not.
    """
    if count <= 1:
        return without
    # A square reach (separable, so fast) is close enough to a round one here.
    near = cv2.dilate(lines, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * width + 1, 2 * width + 1)))
    # Only the inked pixels (the blobs' own) are looked at, by their places.
    points = cv2.findNonZero(without)
    if points is None:
        return without
    xs, ys = np.asarray(points, np.int64).reshape(-1, 2).T
    labels = blobs[ys, xs]
    total = np.bincount(labels, minlength=count)
    close = np.bincount(labels[near[ys, xs] > 0], minlength=count)
    drop = (close > share * np.maximum(total, 1)) & ~keep
    drop[0] = False
    if not drop.any():
        return without
    if raw is not None:
        drop &= ~_apart(raw, xs, ys, labels, np.flatnonzero(drop), 2 * width, line_length)
    # Decision: a blob that leaves the lines (`_leaving`: reaching the lines' width from them, touching them
    # over less than 0.9 of its length, not running on through them) is writing, not fringe: small writing
    # touching a line, or joined to it by squared paper's ruling, was dropped whole (bench_styles small,
    # seed 5000: 46 of the 65 digits that lost their ink).
    if drop.any():
        drop &= ~_leaving(xs, ys, labels, np.flatnonzero(drop), lines, width)
    gone = drop[labels]
    out = without.copy()
    out[ys[gone], xs[gone]] = 0
    return out


def _leaving(xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64], labels: npt.NDArray[np.int32],
             which: npt.NDArray[np.int64], lines: Mask, reach: int, *, along: float = 0.9
             ) -> npt.NDArray[np.bool_]:
    """Per label (of the pixels at `xs`, `ys`): True for the blobs in `which` that leave the `lines`: at least
    `reach` px long either way, with some ink at least `reach` px from the lines, and touching them (within
    3 px) over less than `along` of their own length either way.

    A line's fringe lies along the line, within its width; where the line's mask has a gap (the zone stage
    left a place out), the line's own piece there reaches further from the mask, but touches it at both
    ends, along its whole length. Writing that touches a line (a small digit standing on it, hanging from
    it, or joined to it by squared paper's ruling) stands off it. Each blob is measured within its own box
    and `reach` px around it.
    """
    out = np.zeros(int(labels.max()) + 1, dtype=bool)
    looked_at = np.zeros_like(out)
    looked_at[which] = True
    on = looked_at[labels]
    order = np.argsort(labels[on], kind="stable")  # by blob
    blob, bx, by = labels[on][order], xs[on][order], ys[on][order]
    if blob.size == 0:
        return out
    first = np.flatnonzero(np.concatenate([[True], blob[1:] != blob[:-1]]))
    h, w = lines.shape
    for start, stop in zip(first, np.append(first[1:], blob.size), strict=True):
        px, py = bx[start:stop], by[start:stop]
        length = max(int(px.max() - px.min()), int(py.max() - py.min())) + 1
        if length < reach:
            continue
        x0, y0 = max(0, int(px.min()) - reach - 1), max(0, int(py.min()) - reach - 1)
        x1, y1 = min(w, int(px.max()) + reach + 2), min(h, int(py.max()) + reach + 2)
        box = lines[y0:y1, x0:x1]
        if not box.any():
            continue
        distance = np.asarray(cv2.distanceTransform(np.asarray(box == 0, np.uint8), cv2.DIST_L2, 3),
                              np.float32)[py - y0, px - x0]
        if float(distance.max()) < reach:
            continue
        touch = distance <= 3.0
        if not touch.any():
            out[blob[start]] = True
            continue
        tx, ty = px[touch], py[touch]
        spread = max(int(tx.max() - tx.min()), int(ty.max() - ty.min())) + 1
        # Decision: a blob touching the lines all along is writing too when it stands off the course along
        # which it touches them by the lines' width: a small digit written on a line (a "2"'s foot, a "4"'s
        # bar) touches it over its whole length, but rises from it by its height; a line's own piece where
        # its mask has a gap runs along that course, as thick as the pen (bench_styles small, seed 6000:
        # 14 digits dropped as fringe, most of them touching a line along their whole length).
        standing = spread >= along * length and _across(px, py, tx, ty) >= reach
        out[blob[start]] = ((spread < along * length or standing)
                            and not _runs_on(lines, px, py, distance, tx, ty, reach))
    return out


def _across(px: npt.NDArray[np.int64], py: npt.NDArray[np.int64], tx: npt.NDArray[np.int64],
            ty: npt.NDArray[np.int64]) -> float:
    """How far a blob (pixels `px`, `py`) reaches across the course of its pixels `tx`, `ty` (where it
    touches the lines): the extent of its pixels along the normal of the touching pixels' main direction."""
    points = np.stack([tx, ty], axis=1).astype(np.float64)
    centred = points - points.mean(axis=0)
    # The main direction of the touching pixels: the eigenvector of their scatter with the larger eigenvalue.
    _, vectors = np.linalg.eigh(centred.T @ centred)
    nx, ny = float(vectors[0, 0]), float(vectors[1, 0])  # (eigh: ascending, so the first is the normal)
    offsets = px.astype(np.float64) * nx + py.astype(np.float64) * ny
    return float(offsets.max() - offsets.min()) + 1.0


def _runs_on(lines: Mask, px: npt.NDArray[np.int64], py: npt.NDArray[np.int64],
             distance: npt.NDArray[np.float32], tx: npt.NDArray[np.int64], ty: npt.NDArray[np.int64],
             width: int) -> bool:
    """Whether a blob (pixels `px`, `py`, each `distance` from the `lines`) touching the lines at `tx`, `ty`
    runs on through them: the lines lie where the blob would go on, from where it touches them away from its
    farthest pixel, between `width` and 3 × `width` px on (at 0.7 of the places or more).

    Where a line crosses another and overshoots it, the stub beyond is the line's own end: the line goes on
    on the other side. A digit standing on a line has paper beyond it.
    """
    far = int(np.argmax(distance))
    cx, cy = float(tx.mean()), float(ty.mean())
    dx, dy = cx - float(px[far]), cy - float(py[far])
    norm = float(np.hypot(dx, dy))
    if norm == 0.0:
        return False
    steps = np.arange(width, 3 * width + 1, dtype=np.float64)
    h, w = lines.shape
    xs = np.clip(np.rint(cx + steps * dx / norm).astype(np.int64), 0, w - 1)
    ys = np.clip(np.rint(cy + steps * dy / norm).astype(np.int64), 0, h - 1)
    return bool(np.mean(lines[ys, xs] > 0) >= 0.7)


def _apart(raw: Mask, xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64], labels: npt.NDArray[np.int32],
           which: npt.NDArray[np.int64], speck: int, line_length: float) -> npt.NDArray[np.bool_]:
    """Per label (of the pixels at `xs`, `ys`): True for the blobs in `which` at least `speck` px long
    either way whose piece of `raw` ink is no longer than `line_length` either way.

    The blobs looked at are those about to be dropped as a line's fringe: their extents come from their
    own pixels (sorted by blob once), and the piece of ink each lies in is filled from its first pixel;
    pieces already filled (a line with several fringes) are not filled again.
    """
    apart = np.zeros(int(labels.max()) + 1, dtype=bool)
    looked_at = np.zeros_like(apart)
    looked_at[which] = True
    on = looked_at[labels]
    order = np.argsort(labels[on], kind="stable")  # by blob, each blob's pixels in their first order
    blob, bx, by = labels[on][order], xs[on][order], ys[on][order]
    if blob.size == 0:
        return apart
    first = np.flatnonzero(np.concatenate([[True], blob[1:] != blob[:-1]]))
    extent = np.maximum(np.maximum.reduceat(bx, first) - np.minimum.reduceat(bx, first),
                        np.maximum.reduceat(by, first) - np.minimum.reduceat(by, first)) + 1
    filled: Mask | None = None
    long_piece: dict[int, bool] = {}
    for label, x, y, size in zip(blob[first], bx[first], by[first], extent, strict=True):
        if size < speck:
            continue
        if filled is None or len(long_piece) >= 250:  # (out of marks: never on a sheet, but start afresh)
            filled = np.asarray(cv2.threshold(raw, 0, 1, cv2.THRESH_BINARY)[1], np.uint8)
            long_piece = {}
        seed = (int(x), int(y))
        mark = int(filled[seed[1], seed[0]])
        if mark < 2:
            # Each piece filled gets its own mark (2, 3, …): a second blob in it is answered at once.
            mark = len(long_piece) + 2
            _, _, _, (_, _, w, h) = cv2.floodFill(filled, None, seed, mark, 0, 0, 8)
            long_piece[mark] = max(w, h) > line_length
        apart[label] = not long_piece[mark]
    return apart


def _across_the_line(crossing: Mask, pieces: npt.NDArray[np.int32], sides: npt.NDArray[np.int32],
                     pairs: npt.NDArray[np.int64], looked_at: npt.NDArray[np.bool_], lines: Mask, width: int
                     ) -> npt.NDArray[np.bool_]:
    """Per piece label (of `pieces`, the labelled non-zero pixels of `crossing`): False for the pieces in
    `looked_at` whose sides (`pairs`: piece, side) all reach it from one side of the lines; True otherwise.

    Two digits written against a line from the same side (hanging from it, standing on it) reach the same
    piece of it, but handwriting crossing the line reaches it from both sides. Around each piece (its box and
    `width` px more), the `lines` (non-zero) cut the paper into regions, one each side of a line; a side is
    in the region its pixels touching the piece lie in. A side touching the piece only from within the lines
    (writing lying on them) counts for every region. Where the piece is at least twice as long as wide, the
    sides must also lie on one side of its course (the main direction of its pixels).
    """
    out = np.ones(len(looked_at), dtype=bool)
    h, w = pieces.shape
    xs, ys = np.asarray(cv2.findNonZero(crossing), np.int64).reshape(-1, 2).T
    labels = pieces[ys, xs]
    on = looked_at[labels]
    order = np.argsort(labels[on], kind="stable")  # by piece
    labels, xs, ys = labels[on][order], xs[on][order], ys[on][order]
    first = np.flatnonzero(np.concatenate([[True], labels[1:] != labels[:-1]]))
    for start, stop in zip(first, np.append(first[1:], labels.size), strict=True):
        piece = int(labels[start])
        px, py = xs[start:stop], ys[start:stop]
        x0, y0 = max(0, int(px.min()) - width), max(0, int(py.min()) - width)
        x1, y1 = min(w, int(px.max()) + width + 1), min(h, int(py.max()) + width + 1)
        near = cv2.dilate(np.asarray(pieces[y0:y1, x0:x1] == piece, np.uint8), np.ones((3, 3), np.uint8)) > 0
        box_sides = sides[y0:y1, x0:x1]
        ny, nx = np.nonzero(near)
        by_side = box_sides[ny, nx]
        touching = [(ny[by_side == side], nx[by_side == side]) for side in pairs[1][pairs[0] == piece]]
        # Decision: a piece is taken as reached from one side only when both measures say so: the regions
        # join round a line's end within the box (a strike through a crossed-out number ends just past it),
        # and a piece's course is no line's where it takes in the writing's own ink on the lines. The course
        # (cheap) first: the main direction of the piece's pixels, when it is clearly longer than wide.
        points = np.stack([px, py], axis=1).astype(np.float64)
        centre = points.mean(axis=0)
        values, vectors = np.linalg.eigh((points - centre).T @ (points - centre))
        if values[1] >= 4.0 * values[0]:
            normal = vectors[:, 0]
            signs = {1 if float((np.mean(tx) + x0 - centre[0]) * normal[0]
                                + (np.mean(ty) + y0 - centre[1]) * normal[1]) > 0 else -1
                     for ty, tx in touching if tx.size}
            if len(signs) >= 2:
                continue
        _, regions = cv2.connectedComponents(np.asarray(lines[y0:y1, x0:x1] == 0, np.uint8), connectivity=4)
        seen: set[int] = set()
        on_lines = 0
        for ty, tx in touching:
            inside = regions[ty, tx]
            inside = inside[inside > 0]
            if inside.size == 0:
                on_lines += 1
            else:
                seen.add(int(np.bincount(inside).argmax()))
        out[piece] = len(seen) >= 2 or (on_lines > 0 and len(seen) + on_lines >= 2)
    return out


def _extents(without: Mask, which: npt.NDArray[np.int64], seeds: npt.NDArray[np.int64], count: int
             ) -> npt.NDArray[np.int64]:
    """Per blob label of `without` (`count` labels): the longer side of the box of each blob in `which`
    (each given by a pixel of it, `seeds`: flat indices; `_filled`), 0 for the others."""
    out = np.zeros(max(count, 1), np.int64)
    for label, (_, _, bw, bh), _ in _filled(without, which, seeds):
        out[label] = max(bw, bh)
    return out


def without_line_pieces(mask: Mask, strength: Mask, *, stroke: float, silent: Mask | None = None,
                        share: float = 0.5, along: float = 0.8, longest_stroke: float = 20.0,
                        longest: float = 0.2) -> Mask:
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
    that are not ink (a line is told by the stretches that did not pass for ink). `silent` (non-zero) counts
    for neither line nor paper: squared or lined paper's ruling (a stroke lying on it would continue along
    it) and the lines already taken out, with their fringe (a digit's bar pointing at a crossing of drawn
    lines ran into its darkness); when most of the stretch is silent, that end says nothing. Blobs
    longer than `longest` of the sheet's shorter side are left to `_cut_long_blobs`. A single stroke longer
    than `longest_stroke` stroke widths goes whatever lies past it: no digit has one (a "1" is 5-12 strokes
    tall), a line crossing a glare fades at both ends.
    """
    count, found_labels, found_stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count <= 1:
        return mask
    labels = np.asarray(found_labels, np.int32)
    gone = line_pieces(labels, np.asarray(found_stats, np.int32), strength, stroke=stroke, silent=silent,
                       share=share, along=along, longest_stroke=longest_stroke, longest=longest)
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
    stats[0] = (0, 0, mask.shape[1], mask.shape[0], int(np.count_nonzero(mask == 0)))
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
                longest_stroke: float = 20.0, longest: float = 0.2) -> npt.NDArray[np.bool_]:
    """Which of the blobs (`labels`, `stats` as cv2.connectedComponentsWithStats gives them) are pieces of a
    line (`without_line_pieces`), by label (the background's entry False)."""
    height, width = labels.shape
    gone = np.zeros(len(stats), dtype=bool)
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    area = stats[:, cv2.CC_STAT_AREA]
    # Thin and long enough to be a stroke of a line: area at most ~2 strokes wide along its extent.
    candidates = np.flatnonzero((extent >= 3.0 * stroke) & (extent <= longest * min(height, width))
                                & (area <= 2.5 * stroke * extent * 1.5))
    for label in candidates[candidates > 0]:
        gone[label] = _runs_on_past_an_end(labels, stats, int(label), strength, silent, stroke=stroke,
                                           share=share, along=along, longest_stroke=longest_stroke)
    return gone


def _runs_on_past_an_end(labels: npt.NDArray[np.int32], stats: npt.NDArray[np.int32], label: int,
                         strength: Mask, silent: Mask | None, *, stroke: float, share: float,
                         along: float, longest_stroke: float) -> bool:
    """Whether blob `label` is a straight-ish stroke whose course runs on, past one of its ends, as a ridge
    of the strength at least `share` of its own, or is longer than `longest_stroke` strokes
    (`without_line_pieces`)."""
    x, y, w, h = (int(v) for v in stats[label, :4])
    ys, xs = np.nonzero(labels[y:y + h, x:x + w] == label)
    points = np.stack([xs + x, ys + y], axis=1).astype(np.float64)
    middle = points.mean(axis=0)
    centred = points - middle
    values, vectors = np.linalg.eigh(centred.T @ centred / len(points))
    length, thickness = math.sqrt(12.0 * max(values[1], 0.0)), math.sqrt(12.0 * max(values[0], 0.0))
    if thickness > 2.0 * stroke or length < 3.0 * max(thickness, 1.0):
        return False
    if length >= longest_stroke * stroke:
        return True
    axis, across = vectors[:, 1], vectors[:, 0]
    own = float(np.median(strength[ys + y, xs + x]))
    if own <= 0:
        return False
    along_axis = centred @ axis
    height, width = strength.shape
    if thickness < stroke and _edge_of_the_dark(labels, strength, middle, axis, across, along_axis, thickness,
                                                 stroke=stroke, level=own, along=along):
        return True
    # 8 strokes, longer than a digit (5-7 strokes tall): a pale "1" broken by the thresholds into two pieces
    # has a ridge past each piece too, its own unbroken stretch, but paper after that. (And a long piece of a
    # spoke may end near the corner it runs into.)
    reach = 8.0 * stroke
    t = np.arange(1.0, reach + 1.0)
    for sign, end in ((1.0, float(along_axis.max())), (-1.0, float(along_axis.min()))):
        start = middle + axis * end
        half = 0.5 * stroke + 1.0 + 0.1 * t  # the band widens: a freehand line bends
        offsets = np.linspace(-1.0, 1.0, 9)
        px = start[0] + sign * axis[0] * t[:, None] + across[0] * half[:, None] * offsets[None, :]
        py = start[1] + sign * axis[1] * t[:, None] + across[1] * half[:, None] * offsets[None, :]
        ix, iy = np.rint(px).astype(np.int64), np.rint(py).astype(np.int64)
        inside = (ix >= 0) & (ix < width) & (iy >= 0) & (iy < height)
        cx, cy = np.clip(ix, 0, width - 1), np.clip(iy, 0, height - 1)
        # Silent pixels and the ink (the writing past a digit's stroke, e.g. a "2"'s foot pointing at the
        # "0" beside it) say nothing, neither line nor paper: a line is told by its stretches that did not
        # pass for ink. A sample all on them is not counted.
        inside &= labels[cy, cx] == 0
        if silent is not None:
            inside &= silent[cy, cx] == 0
        dark = np.where(inside, strength[cy, cx], 0).max(axis=1) >= share * own
        counted = inside.any(axis=1)
        if counted.sum() < 0.5 * len(t):
            continue
        # The ridge must run on from the blob's very end (its first stroke width past it) with no stretch of
        # paper longer than half a stroke: a digit's stroke pointing at a line a little way off (a "1" under
        # a crossing of lines, or the piece of a pale "1" the thresholds broke) has paper between.
        first = counted & (t <= stroke)
        if float(dark[counted].mean()) >= along and bool(dark[first].all()) \
                and _longest_run(counted & ~dark) <= 0.5 * stroke:
            return True
    return False


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
