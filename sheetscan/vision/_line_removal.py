"""Stage 4 of reading a photo: the drawn lines taken out of the ink (`remove_lines`), and the pieces of
line that handwriting crosses, or that a digit written against a line leaves, given back; a line's own
fringe (wider or more wobbly than its mask) dropped."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision._line_contacts import WITHIN_MASK
from sheetscan.vision._line_fringes import drop_line_fringes
from sheetscan.vision._line_pieces import blob_stats
from sheetscan.vision._lines import cleared

__all__ = ["line_width", "remove_lines"]

Mask = npt.NDArray[np.uint8]


def line_width(lines: Mask) -> int:
    """About twice the half-width of the drawn lines, odd, at least 3 pixels."""
    if not lines.any():
        return 3
    distance = cv2.distanceTransform(lines, cv2.DIST_L2, 3)
    # Decision: the distances are gathered from every `_width_step`-th pixel of the sheet in raster order,
    # because listing and ranking all of a sheet's line pixels (~150-300 thousand) cost more than the distance
    # transform itself, twice a sheet (the drawn lines' width in `ink.find_ink` and the lines' width in
    # `remove_lines`), while the 90th percentile of the half-width is a property of the lines all over the
    # sheet. The step shifts the sampled column from row to row (the sheet's width is no multiple of it, nor
    # one more or less), so a level, upright or 45-degree line's middle is sampled all along it; every other
    # row (tried first) missed the middle row of a level line of odd thickness (width 2 px less). On 22
    # captured sheets (bench 1000 photos 0-11, usual and small 45000-45003, thin 45000-45001) all 44 widths
    # are the same as from every pixel; 9.3 -> 6.0 ms CPU a call (loaded machine).
    sampled = distance.reshape(-1)[::_width_step(distance.shape[1])]
    ridge = sampled[sampled > 0]
    if ridge.size == 0:  # (a few pixels of line, all left out: all of them)
        ridge = distance[distance > 0]
    half = float(np.percentile(ridge, 90))
    return max(3, round(2 * half + 2) | 1)


def _width_step(width: int) -> int:
    """Every how many pixels (raster order) of a sheet `width` px wide the lines' half-widths are gathered for
    their width (`line_width`): 5, 7, 11 or 13, the first that the width, one more or one less is no multiple
    of (so the sampled pixel moves along a row, an upright and both 45-degree lines from row to row); 1 (all)
    when there is none."""
    return next((step for step in (5, 7, 11, 13) if width % step not in (0, 1, step - 1)), 1)


def remove_lines(mask: Mask, line_mask: npt.NDArray[np.uint8], *, drawn: Mask | None = None,
                  drawn_width: int | None = None, line_length: float | None = None,
                  written: Mask | None = None, drawn_near: Mask | None = None,
                  blobs: tuple[int, npt.NDArray[np.int32]] | None = None) -> Mask:
    """Take the lines out of `mask`, keeping line pixels where handwriting crosses a line.

    With `drawn` (the sheet's drawn lines, `drawn_width` their `line_width`), blobs that lie mostly
    along those lines and cross none are dropped too: the fringe of a line wider or more wobbly than
    its mask. With `line_length` (how long a piece of ink must be to be a line), a blob is a fringe
    only when joined to such a piece or no longer than a speck (`_apart`).

    `written` (non-zero) is writing lying on the lines (`_ruling.written_on_ruling`): kept, and a side
    of the pieces of line it meets, but it gives back no line of its own (see below). `drawn_near` is
    `drawn` dilated by a square of side 2 × `drawn_width` + 1, when the caller has it already. `blobs` is the
    8-connected blobs of `mask` (their count with the background, and labels right at least at every pixel
    of ink), when the caller has labelled them.
    """
    lines = np.asarray(cv2.dilate((line_mask > 0).astype(np.uint8), np.ones((3, 3), np.uint8)), np.uint8)
    # (The drawn lines' width, measured here once where the caller did not give it: each use below needs it.)
    width_drawn = 0 if drawn is None else drawn_width if drawn_width is not None else line_width(drawn)
    # Decision: a blob of ink apart from every other, no longer than a digit, lying within a piece of the
    # drawn lines' mask that holds nothing more (`_apart_in_lines`), is handwriting the zone stage's mask took
    # in and is given back whole, because a "1" hanging just under a line, with paper between, went with the
    # line (bench_styles small 40007, usual and small 45007: "10" read 0). A line's mask runs on out of a
    # digit's neighbourhood: where only the crossing of two pale lines passed for ink (thin 37006: read as
    # "2" and "7" when every blob wholly within the mask was given back), or a piece of a line drawn twice
    # lies between its strokes. Only beside a digit past it from the line (`_writing_beside`): a line's
    # parallel fringe strips, apart from it within its mask, have none (a blank sheet's lines: given back,
    # they were read as 8 numbers).
    apart = None
    if drawn is not None and line_length:
        speck = 2 * width_drawn
        apart = _apart_in_lines(mask, drawn, lines, speck=speck, longest=_DIGIT * line_length, blobs=blobs)
    # Decision: the line given back is only what handwriting OFF the lines reaches, not what the writing
    # lying on them reaches, because the ruling beside and past a dark pen's stroke lying along it (its
    # soft edge, the stretch past the stroke's end) then came back as "crossed" between the stroke and the
    # next piece of ink: a stub on a "1" read as a 7's bar ("12" as a crossed-out "17"), a dot joined to a
    # digit (bench_scan seed 4000 x12: 98.12 % digits without the writing on the ruling, 97.92 % with it
    # and its reach, 98.12 % with it and this rule).
    bare = cv2.compare(lines, np.zeros_like(lines), cv2.CMP_EQ)
    off_ink = np.asarray(cv2.bitwise_and(mask, bare), np.uint8)
    barrier = lines  # (never changed: the writing on the lines is cleared in a new mask)
    if written is not None:
        lines = cleared(lines, written)
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
        # Decision: the crossing pieces' places listed once, for every rule below that looks at them (who
        # touches them, which lie on the drawn lines, from which side they are reached, which are given
        # back), because each listing went over the whole sheet (~2.5 ms) for the same few pixels, four
        # times: the same places in the same (raster) order.
        places = np.asarray(cv2.findNonZero(crossing), np.int64).reshape(-1, 2).T
        pairs, seeds = _touching(pieces, sides, places)
        every, every_seeds = pairs, seeds
        if drawn is not None and pairs.shape[1]:
            # Decision: at a piece of the drawn lines, a side lying wholly within half a line width of them
            # is the line's own fringe (the line drawn wider than its mask), not writing: it makes no
            # crossing. Otherwise a line with fringes on both sides got its masked ink back as "crossed" and
            # was read (a stub on a "1" as a 7's bar, a line's end as "9"). Not at the ruling of squared
            # or lined paper: the writing crossing it lies near the drawn lines too.
            xs, ys = places
            on_drawn = np.zeros(count, dtype=bool)
            on_drawn[pieces[ys, xs][drawn[ys, xs] > 0]] = True
            looked_at = on_drawn[pairs[0]]
            off = _off_lines(without, pairs[1][looked_at], seeds[looked_at], sides_count, drawn, width_drawn)
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
                across = _across_the_line(places, pieces, sides, every, digits, barrier, width)
                keep &= ~digits | across
    if drawn is not None:
        without = drop_line_fringes(without, sides, sides_count, drawn, width_drawn, crossed_sides,
                                     raw=mask if line_length is not None else None,
                                     line_length=line_length or 0.0,
                                     near=drawn_near if drawn_width is not None else None)
    if apart is not None:
        without = np.asarray(np.maximum(without, apart), np.uint8)
    if not keep.any():
        return without
    # The crossing pieces are few pixels: given back by their places rather than a lookup over the sheet.
    xs, ys = places
    given = keep[pieces[ys, xs]]
    out = without.copy()
    out[ys[given], xs[given]] = 255
    return out


_BESIDE_SIZE = 0.5
"""How long a digit beside a blob given back from the drawn lines' mask must be, as a share of the blob's
length (`_writing_beside`): the digits of a number are about as tall as its "1"; half of it leaves out
specks."""


_DIGIT = 0.3
"""The longest a digit is, as a share of the length from which a piece of ink is a line (`remove_lines`'s
`line_length`): 0.3 of 0.2 of the sheet's shorter side is several digit heights."""


def _apart_in_lines(mask: Mask, drawn: Mask, lines: Mask, *, speck: int, longest: float,
                    blobs: tuple[int, npt.NDArray[np.int32]] | None = None) -> Mask | None:
    """The blobs of `mask` (non-zero) lying within the `drawn` lines' mask (non-zero, and a pixel around it;
    at least `WITHIN_MASK` of their ink), at least `speck` px and under `longest` px long either way, each
    in a piece of the mask of its own (`_island`) (255), or None when there is none.

    Each blob is a piece of ink apart from all others: with paper all round it, it is not joined to the line
    it lies beside, whose own ink runs on along the line far past a digit's size. `blobs` is `mask`'s blobs
    (as `remove_lines` takes them), when already labelled.
    """
    # Only the ink within the mask is looked at, by its places (few of the sheet's pixels); a blob's extent
    # is that of its ink within the mask (all of it but a few soft edge pixels). Its whole ink is counted
    # only for the blobs of a digit's extent there (`_whole_within`): over the sheet's ink it took half of
    # the rule's CPU (usual 45000: 23 ms a sheet).
    inside = np.asarray(cv2.bitwise_and(mask, cv2.dilate(drawn, np.ones((3, 3), np.uint8))), np.uint8)
    points = cv2.findNonZero(inside)
    if points is None:
        return None
    if blobs is None:
        count, found = cv2.connectedComponents(mask, connectivity=8)
        labels = np.asarray(found, np.int32)
    else:
        count, labels = blobs
    xs, ys = np.asarray(points, np.int64).reshape(-1, 2).T
    stats = blob_stats(inside, labels, count, inked=(xs, ys))
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    chosen = (extent >= speck) & (extent < longest)
    chosen[0] = False
    if not chosen.any():
        return None
    out = np.zeros_like(mask)
    for label in np.flatnonzero(chosen):
        box = stats[label, :4]
        own = _whole_within(labels, int(label), box, int(stats[label, cv2.CC_STAT_AREA]))
        if own is not None and _island(labels, int(label), box, drawn, reach=speck // 2) \
                and _writing_beside(mask, lines, labels, int(label), box):
            (x0, y0), window = own
            out[y0:y0 + window.shape[0], x0:x0 + window.shape[1]][window] = 255
    return out if out.any() else None


def _whole_within(labels: npt.NDArray[np.int32], label: int, box: npt.NDArray[np.int32], inside: int
                  ) -> tuple[tuple[int, int], npt.NDArray[np.bool_]] | None:
    """Blob `label` (of `labels`) whole, when at least `WITHIN_MASK` of it is its `inside` px (those within
    the drawn lines' mask, all in their `box` x, y, width, height): the top-left corner of a window around
    the box and the blob's pixels in it; else None.

    The window reaches past the box by as many pixels as the blob may have outside the mask, and a pixel:
    a blob reaching its edge has more than that outside (a path of them from the box), so only the few
    blobs worth it are counted, within their windows rather than over the sheet.
    """
    x, y, w, h = (int(v) for v in box)
    pad = int(np.ceil(inside * (1.0 - WITHIN_MASK) / WITHIN_MASK)) + 1
    height, width = labels.shape
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(width, x + w + pad), min(height, y + h + pad)
    own = labels[y0:y1, x0:x1] == label
    edge = (x0 > 0 and own[:, 0].any()) or (y0 > 0 and own[0].any()) \
        or (x1 < width and own[:, -1].any()) or (y1 < height and own[-1].any())
    if edge or inside < WITHIN_MASK * int(np.count_nonzero(own)):
        return None
    return (x0, y0), own


def _island(labels: npt.NDArray[np.int32], label: int, box: npt.NDArray[np.int32], drawn: Mask, *,
            reach: int) -> bool:
    """Whether the `drawn` lines' mask (non-zero) around blob `label` (of `labels`, its box x, y, width,
    height) holds the blob and nothing more: every piece of the mask (8-connected) that meets the blob lies
    within `reach` px of it.

    A line's mask runs on along the line, out of any digit's neighbourhood: past a piece of a line drawn
    twice, out of the crossing of two pale lines where only the crossing passed for ink, along the line a
    "1" written against it touches. An island of mask around a blob of ink apart from all other ink (the
    zone stage's band took in a "1" hanging under a line) is no line's.
    """
    x, y, w, h = (int(v) for v in box)
    height, width = drawn.shape
    pad = reach + 1
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(width, x + w + pad), min(height, y + h + pad)
    own = np.asarray(labels[y0:y1, x0:x1] == label, np.uint8)
    window = np.asarray(drawn[y0:y1, x0:x1] > 0, np.uint8)
    _, found = cv2.connectedComponents(np.maximum(window, own), connectivity=8)
    pieces = np.asarray(found, np.int32)
    piece = pieces[own > 0][0]
    near = cv2.dilate(own, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)) > 0
    return not np.any((pieces == piece) & ~near)


def _writing_beside(mask: Mask, lines: Mask, labels: npt.NDArray[np.int32], label: int,
                    box: npt.NDArray[np.int32], *, size: float = _BESIDE_SIZE) -> bool:
    """Whether a digit lies beside blob `label` (of `labels`, its box x, y, width, height), within its own
    length of it: another blob of `mask` mostly off the `lines` (non-zero: drawn lines, ruling), at least
    `size` of the blob's length long either way, lying whole within twice that length (so no line's).

    A digit is written among others, so the "1" the zone stage's mask took in has the rest of its number
    beside it, about as tall as itself; a line's parallel fringe strips have only the line, one another
    and specks around them.
    """
    x, y, w, h = (int(v) for v in box)
    length = max(w, h)
    height, width = mask.shape
    x0, y0 = max(0, x - 2 * length), max(0, y - 2 * length)
    x1, y1 = min(width, x + w + 2 * length), min(height, y + h + 2 * length)
    around = np.where(mask[y0:y1, x0:x1] > 0, labels[y0:y1, x0:x1], 0)
    # Blobs reaching the wider window's edge are lines, or run on out of a number's neighbourhood.
    whole = np.ones(int(around.max()) + 1, dtype=bool)
    whole[np.concatenate([around[0], around[-1], around[:, 0], around[:, -1]])] = False
    whole[[0, label]] = False
    ys, xs = np.nonzero(around)
    owner = around[ys, xs]
    off = np.bincount(owner[lines[ys + y0, xs + x0] == 0], minlength=whole.size)
    every = np.bincount(owner, minlength=whole.size)
    close = np.zeros_like(whole)
    close[owner[(xs + x0 >= x - length) & (xs + x0 < x + w + length)
                & (ys + y0 >= y - length) & (ys + y0 < y + h + length)]] = True
    spans = np.zeros((whole.size, 4), np.int64)
    spans[:, 0] = spans[:, 2] = np.iinfo(np.int64).max
    np.minimum.at(spans[:, 0], owner, xs)
    np.maximum.at(spans[:, 1], owner, xs)
    np.minimum.at(spans[:, 2], owner, ys)
    np.maximum.at(spans[:, 3], owner, ys)
    extent = np.maximum(spans[:, 1] - spans[:, 0], spans[:, 3] - spans[:, 2]) + 1
    digits = whole & close & (2 * off >= every) & (extent >= size * length)
    if not digits.any():
        return False
    # Past the blob, away from the line it lies beside: the lines' pixels within its length of it, less its
    # own, lie on one side of it, and the rest of its number on the other.
    own = around == label
    oy, ox = np.nonzero(own)
    middle = np.array([ox.mean(), oy.mean()])
    square = np.ones((2 * length + 1, 2 * length + 1), np.uint8)
    near = np.asarray(cv2.dilate(own.astype(np.uint8), square), bool)
    ly, lx = np.nonzero(near & (lines[y0:y1, x0:x1] > 0) & ~own)
    if lx.size == 0:
        return False
    away = middle - np.array([lx.mean(), ly.mean()])
    sums = np.zeros((whole.size, 2))
    np.add.at(sums, owner, np.stack([xs, ys], axis=1).astype(np.float64))
    centres = sums / np.maximum(every, 1)[:, None]
    return bool(np.any(digits & ((centres - middle) @ away > 0)))


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


def _touching(pieces: npt.NDArray[np.int32], sides: npt.NDArray[np.int32],
              places: npt.NDArray[np.int64] | None = None
              ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The distinct (piece, side) label pairs (2 × K) where a pixel of side lies within one pixel
    (8-neighbourhood) of piece, and for each pair such a pixel of the side (K flat indices); where a
    side's pixel is that near to several pieces, only the one with the highest label counts (as a grey
    dilation of the piece labels would give).

    The pieces are few and small (where handwriting meets a line), so only their neighbourhoods are
    looked at rather than the whole sheet. `places` (2 × N: xs, ys) are the pieces' pixels in raster order
    (`cv2.findNonZero`), when the caller has listed them.
    """
    h, w = pieces.shape
    if places is None:
        points = cv2.findNonZero(np.asarray(pieces > 0, np.uint8))
        if points is None:
            return np.zeros((2, 0), np.int64), np.zeros(0, np.int64)
        places = np.asarray(points, np.int64).reshape(-1, 2).T
    xs, ys = places
    if xs.size == 0:
        return np.zeros((2, 0), np.int64), np.zeros(0, np.int64)
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


def _across_the_line(places: npt.NDArray[np.int64], pieces: npt.NDArray[np.int32],
                     sides: npt.NDArray[np.int32],
                     pairs: npt.NDArray[np.int64], looked_at: npt.NDArray[np.bool_], lines: Mask, width: int
                     ) -> npt.NDArray[np.bool_]:
    """Per piece label (of `pieces`, the labelled pixels, listed in raster order in `places`: 2 × N, xs and
    ys): False for the pieces in
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
    xs, ys = places
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
