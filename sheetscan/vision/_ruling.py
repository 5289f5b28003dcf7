"""Stage 4 of reading a photo: the specks that squared paper's ruling leaves in the ink where it is too
faint to be found and taken out whole (`without_ruling_specks`, with the faint ruling from
`faint_ruling`)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision._lines import at_least, opening

__all__ = ["faint_ruling", "without_ruling_specks"]

Mask = npt.NDArray[np.uint8]


def without_ruling_specks(mask: Mask, strength: Mask, *, level: float, length: float,
                           share: float = 0.9, darker: float = 2.0, faint: Mask | None = None) -> Mask:
    """`mask` less the blobs that are pieces of faint ruling: more than 2 px, shorter either way than the
    ruling's runs (`length`, at least 60 px), with at least `share` of their ink on the ruling
    (`faint_ruling`), and on average no more than `darker` times as strong as the ruling around them (the
    mean of its pixels at least `level` strong that are not ink, within a quarter of the runs' length of
    the blob's middle, at least 9 px).

    Where the ruling is too faint to be found and taken out whole, its crossings (two rulings' darkness
    on one spot: at most twice one ruling's) and its darker stretches still pass the ink thresholds
    here and there, as specks on the ruling that pass for the dots between numbers. Writing is not like
    that: a dot or a stroke written on the ruling is darker than the ruling beside it by far more (a pen
    against a printed tint), and writing that is not on it lies off it. The ruling's measure is what did
    not pass for ink: beside a drawn line, which does, that is the line's soft edges, not the line.
    `faint` is `faint_ruling(strength, level=level, length=length)` when already found.
    """
    size = max(60, int(length))
    threshold = int(np.ceil(level * 255))
    if faint is None:
        faint = faint_ruling(strength, level=level, length=size)
    if not faint.any():
        return mask
    count, found_labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count <= 1:
        return mask
    # A speck spreads a pixel beyond the averaged ruling it sits on.
    band = cv2.dilate(faint, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    labels = np.asarray(found_labels, np.int32)
    xs, ys = np.asarray(cv2.findNonZero(mask), np.int64).reshape(-1, 2).T
    which = labels[ys, xs]
    area = stats[:, cv2.CC_STAT_AREA]
    on_band = np.bincount(which[band[ys, xs] > 0], minlength=count)
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    # Decision: blobs of one or two pixels are left alone, because the number stage already takes them
    # for specks (no dot is that small) and dropping them only moved what the line removal gives back.
    candidates = np.flatnonzero((on_band >= share * np.maximum(area, 1)) & (extent < size) & (area > 2))
    candidates = candidates[candidates > 0]
    if candidates.size == 0:
        return mask
    inked = np.bincount(which, weights=strength[ys, xs].astype(np.float64), minlength=count)
    mean = inked / np.maximum(area, 1)
    # The ruling around each candidate, from running sums over the sheet (four lookups per blob, whatever
    # its size): the ruling's pixels that are not ink, and their strength. Only those at least `level`
    # strong count: where writing runs along the ruling, the runs found take in paper beside it.
    ruling = cv2.bitwise_and(cv2.bitwise_and(faint, cv2.bitwise_not(mask)), at_least(strength, threshold))
    ruling = np.asarray(ruling > 0, np.uint8)
    pixels = cv2.integral(ruling, sdepth=cv2.CV_32S)
    sums = cv2.integral(np.asarray(cv2.bitwise_and(strength, strength, mask=ruling), np.uint8),
                        sdepth=cv2.CV_64F)
    h, w = mask.shape
    reach = max(9, size // 4)
    cx = np.rint(centroids[candidates, 0]).astype(np.int64)
    cy = np.rint(centroids[candidates, 1]).astype(np.int64)
    x0, x1 = np.clip(cx - reach, 0, w), np.clip(cx + reach + 1, 0, w)
    y0, y1 = np.clip(cy - reach, 0, h), np.clip(cy + reach + 1, 0, h)
    found = pixels[y1, x1] - pixels[y0, x1] - pixels[y1, x0] + pixels[y0, x0]
    total = sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0]
    around = total / np.maximum(found, 1)
    drop = np.zeros(count, dtype=bool)
    drop[candidates] = (found > 0) & (mean[candidates] <= darker * around)
    if not drop.any():
        return mask
    gone = drop[which]
    out = mask.copy()
    out[ys[gone], xs[gone]] = 0
    return out


def faint_ruling(strength: Mask, *, level: float, length: float, along: int = 4) -> Mask:
    """Level and upright ruling too faint to stand out of the noise pixel by pixel: where `strength`,
    averaged over 2 × `along` px along each direction, is at least `level` (a share of 255) in straight
    runs at least `length` long (at least 60 px, as `_straight_lines` takes them).

    Squared paper photographed in poor light (or by a noisy sensor) has ruling about as strong as the
    weak threshold, so the noise breaks it into pieces and `_straight_lines` misses it, while its
    crossings, two rulings' darkness on one spot, pass the strong one. Averaged along its length a
    ruling line keeps its strength while the noise around it falls by the square root of the count, so
    half the weak threshold still finds it unbroken, and the noise does not make runs that long. No
    written stroke is straight that long (as for `_straight_lines`). Each direction is searched on the
    sheet shrunk `along` times along it (each pixel the mean of `along`, then of two of those): a
    quarter of the work, and a thin line keeps its full width across.
    """
    size = max(60, int(length))
    threshold = int(np.ceil(level * 255))
    height, width = strength.shape
    found = np.zeros_like(strength)
    for level_run in (True, False):
        shrunk = (max(1, width // along), height) if level_run else (width, max(1, height // along))
        small = np.asarray(cv2.resize(strength, shrunk, interpolation=cv2.INTER_AREA), np.uint8)
        # (the averaging window, the run, the thickening across); sizes are (x, y).
        window, run, across = ((2, 1), (max(1, size // along), 1), (1, 3)) if level_run else \
            ((1, 2), (1, max(1, size // along)), (3, 1))
        passes = at_least(np.asarray(cv2.blur(small, window), np.uint8), threshold)
        # Thickened across first, as `_straight_lines` does, so a ruling slightly off level is unbroken.
        thick = cv2.dilate(passes, cv2.getStructuringElement(cv2.MORPH_RECT, across))
        runs = cv2.bitwise_and(opening(thick, cv2.getStructuringElement(cv2.MORPH_RECT, run)), passes)
        back = cv2.resize(runs, (width, height), interpolation=cv2.INTER_NEAREST)
        found = np.maximum(found, np.asarray(back, np.uint8))
    return found
