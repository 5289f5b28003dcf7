"""Stage 4 of reading a photo: a drawn line's own fringe (its ink wider or more wobbly than its mask) dropped
once the lines are taken out of the ink (`drop_line_fringes`), keeping the writing that touches a line.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["drop_line_fringes"]

Mask = npt.NDArray[np.uint8]


def drop_line_fringes(without: Mask, blobs: npt.NDArray[np.int32], count: int, lines: Mask, width: int,
                       keep: npt.NDArray[np.bool_], *, share: float = 0.6, raw: Mask | None = None,
                       line_length: float = 0.0, near: Mask | None = None) -> Mask:
    """`without` less the blobs (not in `keep`) with more than `share` of their ink along `lines`.

    With `raw` (the ink before the lines were taken out), such a blob is dropped only when it is joined
    in `raw` to a piece of ink longer than `line_length` either way (a line), or is no longer than a
    speck (under 2 × `width`, the lines' width). A line's fringe is the line's own ink, so it is joined
    to the rest of the line; a stroke with paper between it and the line (a "1" written level with the
    line just below it, the foot of a digit hanging near it) is writing, even where it lies as close to
    the line as a fringe does. A speck there (where squared paper's ruling crosses beside a line) is not.

    `near` is `lines` dilated by a square of side 2 × `width` + 1, when the caller has it already.
    """
    if count <= 1:
        return without
    # A square reach (separable, so fast) is close enough to a round one here.
    if near is None:
        square = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * width + 1, 2 * width + 1))
        near = np.asarray(cv2.dilate(lines, square), np.uint8)
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
