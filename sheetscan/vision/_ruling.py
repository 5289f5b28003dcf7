"""Stage 4 of reading a photo: the specks that squared paper's ruling leaves in the ink where it is too
faint to be found and taken out whole (`labelled_without_ruling_specks`, with the faint ruling from
`faint_ruling`)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision._line_pieces import blob_stats
from sheetscan.vision._lines import at_least, cleared, opening, shrunk

__all__ = ["faint_ruling", "labelled_without_ruling_specks", "written_on_ruling"]

Mask = npt.NDArray[np.uint8]


def labelled_without_ruling_specks(mask: Mask, strength: Mask, *, level: float, length: float,
                                   share: float = 0.9, darker: float = 2.0, faint: Mask | None = None
                                   ) -> tuple[Mask, tuple[int, npt.NDArray[np.int32]] | None]:
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

    Returned with the blobs of `mask` as labelled here (their count with the background, and the labels:
    8-connected, numbered in no particular order), when they were (None when the sheet has no faint ruling
    or no ink): the specks taken out keep their labels, so for the mask returned they hold for every pixel
    that is ink.
    """
    size = max(60, int(length))
    threshold = int(np.ceil(level * 255))
    if faint is None:
        faint = faint_ruling(strength, level=level, length=size)
    if not faint.any():
        return mask, None
    # (Labels alone, and the blobs' statistics and middles from the inked pixels: cv2's statistics over the
    # whole sheet cost four times the labelling.)
    # Decision: labelled by Wu's algorithm (`cv2.CCL_WU`), because it gives the same blobs as the default
    # at ~0.8 of its time, only numbered otherwise, and nothing here reads their numbering: every measure is
    # a blob's own, summed over its pixels in the order `cv2.findNonZero` lists them (row by row) whatever
    # the blob's number.
    count, found_labels = cv2.connectedComponentsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_WU)
    if count <= 1:
        return mask, None
    # A speck spreads a pixel beyond the averaged ruling it sits on.
    band = cv2.dilate(faint, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    labels = np.asarray(found_labels, np.int32)
    blobs = (int(count), labels)
    xs, ys = np.asarray(cv2.findNonZero(mask), np.int64).reshape(-1, 2).T
    # Decision: the sheets looked up at the ink's pixels by their places in the flattened sheet (`np.take`),
    # because that is the same values at about half the cost of indexing by row and column.
    flat = ys * mask.shape[1] + xs
    which = np.take(labels.reshape(-1), flat)
    area = np.bincount(which, minlength=count)
    on_band = np.bincount(which[np.take(np.ascontiguousarray(band).reshape(-1), flat) > 0], minlength=count)
    # Decision: blobs of one or two pixels are left alone, because the number stage already takes them
    # for specks (no dot is that small) and dropping them only moved what the line removal gives back.
    # Decision: the blobs' boxes are measured only for those that may be specks by their ink alone (on the
    # ruling, and fewer pixels than a box `size` wide holds), because the drawn lines lie on the ruling found
    # too and, measured, took most of the work (bench 1000 photos 0-7: 29 -> 21 ms a 12 MP photo's sheet);
    # a blob of `size`² pixels or more is no shorter than `size` either way, so the same blobs are kept.
    maybe = (on_band >= share * np.maximum(area, 1)) & (area > 2) & (area < size * size)
    maybe[0] = False
    if not maybe.any():
        return mask, blobs
    near = maybe[which]
    stats = blob_stats(mask, labels, count, (xs[near], ys[near]))
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    candidates = np.flatnonzero(maybe & (extent < size))
    if candidates.size == 0:
        return mask, blobs
    # Decision: the candidates' sums (strength, places) over the pixels of the blobs that may be specks
    # (`near`) alone, because only the candidates' are read and each blob's pixels are summed in the same
    # order as over the whole sheet (a blob's pixels are all near or none): the same bits.
    wx, wy, wl = xs[near], ys[near], which[near]
    inked = np.bincount(wl, weights=np.take(np.ascontiguousarray(strength).reshape(-1), flat[near]
                                            ).astype(np.float64), minlength=count)
    mean = inked / np.maximum(area, 1)
    # The ruling around each candidate, from running sums over the sheet (four lookups per blob, whatever
    # its size): the ruling's pixels that are not ink, and their strength. Only those at least `level`
    # strong count: where writing runs along the ruling, the runs found take in paper beside it.
    ruling = cv2.bitwise_and(cv2.bitwise_and(faint, cv2.bitwise_not(mask)), at_least(strength, threshold))
    # (1 where set, by cv2.threshold: as `ruling > 0` as uint8, without numpy's pass to bool and back)
    ruling = np.asarray(cv2.threshold(ruling, 0, 1, cv2.THRESH_BINARY)[1], np.uint8)
    h, w = mask.shape
    reach = max(9, size // 4)
    # The middles as cv2 gives them: the sums of the places (exact in float64) over the area.
    cx = np.rint(np.bincount(wl, weights=wx.astype(np.float64), minlength=count)[candidates]
                 / area[candidates]).astype(np.int64)
    cy = np.rint(np.bincount(wl, weights=wy.astype(np.float64), minlength=count)[candidates]
                 / area[candidates]).astype(np.int64)
    x0, x1 = np.clip(cx - reach, 0, w), np.clip(cx + reach + 1, 0, w)
    y0, y1 = np.clip(cy - reach, 0, h), np.clip(cy + reach + 1, 0, h)
    found, total = _window_sums(np.asarray(ruling, np.uint8), strength, (x0, x1, y0, y1))
    around = total / np.maximum(found, 1)
    drop = np.zeros(count, dtype=bool)
    drop[candidates] = (found > 0) & (mean[candidates] <= darker * around)
    if not drop.any():
        return mask, blobs
    gone = drop[which]
    out = mask.copy()
    out[ys[gone], xs[gone]] = 0
    return out, blobs


_DIRECT = 0.1
"""The share of the sheet under the candidates' windows below which `_window_sums` sums each window itself."""


def _window_sums(ruling: Mask, strength: Mask, boxes: tuple[npt.NDArray[np.int64], ...]
                 ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The count of `ruling`'s non-zero pixels and the sum of `strength` on them in each window (x0, x1,
    y0, y1: arrays of first and past-last columns and rows), both exact.

    Decision: a few windows are summed one by one, and only many (over `_DIRECT` of the sheet between
    them) from running sums over the whole sheet, because those cost every pixel of the sheet (4-10 ms a
    sheet for the two) while a window costs ~20 us and most sheets have a few candidates (bench seed
    1000, photos 0-7: 0-39, and 308 on one); the sums are whole numbers either way (exact in float64),
    so the answer is the same.
    """
    x0, x1, y0, y1 = boxes
    if int(np.sum((x1 - x0) * (y1 - y0))) > _DIRECT * ruling.size:
        pixels = cv2.integral(ruling, sdepth=cv2.CV_32S)
        sums = cv2.integral(np.asarray(cv2.bitwise_and(strength, strength, mask=ruling), np.uint8),
                            sdepth=cv2.CV_64F)
        counted = pixels[y1, x1] - pixels[y0, x1] - pixels[y1, x0] + pixels[y0, x0]
        summed = sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0]
        return np.asarray(counted, np.int64), np.asarray(summed, np.float64)
    found = np.zeros(len(x0), np.int64)
    total = np.zeros(len(x0), np.float64)
    for i, (a, b, c, d) in enumerate(zip(x0.tolist(), x1.tolist(), y0.tolist(), y1.tolist(), strict=True)):
        on = ruling[c:d, a:b] > 0
        found[i] = int(np.count_nonzero(on))
        total[i] = int(strength[c:d, a:b].sum(dtype=np.int64, where=on))
    return found, total


def faint_ruling(strength: Mask, *, level: float, length: float, along: int = 4) -> Mask:
    """Level and upright ruling too faint to stand out of the noise pixel by pixel: where `strength`,
    averaged over 2 × `along` px along each direction, is at least `level` (a share of 255) in straight
    runs at least `length` long (at least 60 px, as `straight_lines` takes them).

    Squared paper photographed in poor light (or by a noisy sensor) has ruling about as strong as the
    weak threshold, so the noise breaks it into pieces and `straight_lines` misses it, while its
    crossings, two rulings' darkness on one spot, pass the strong one. Averaged along its length a
    ruling line keeps its strength while the noise around it falls by the square root of the count, so
    half the weak threshold still finds it unbroken, and the noise does not make runs that long. No
    written stroke is straight that long (as for `straight_lines`). Each direction is searched on the
    sheet shrunk `along` times along it (each pixel the mean of `along`, then of two of those): a
    quarter of the work, and a thin line keeps its full width across.
    """
    size = max(60, int(length))
    threshold = int(np.ceil(level * 255))
    height, width = strength.shape
    found: Mask | None = None
    for level_run in (True, False):
        narrow = (max(1, width // along), height) if level_run else (width, max(1, height // along))
        small = np.asarray(cv2.resize(strength, narrow, interpolation=cv2.INTER_AREA), np.uint8)
        # (the averaging window, the run, the thickening across); sizes are (x, y).
        window, run, across = ((2, 1), (max(1, size // along), 1), (1, 3)) if level_run else \
            ((1, 2), (1, max(1, size // along)), (3, 1))
        passes = at_least(np.asarray(cv2.blur(small, window), np.uint8), threshold)
        # Thickened across first, as `straight_lines` does, so a ruling slightly off level is unbroken.
        thick = cv2.dilate(passes, cv2.getStructuringElement(cv2.MORPH_RECT, across))
        runs = cv2.bitwise_and(opening(thick, cv2.getStructuringElement(cv2.MORPH_RECT, run)), passes)
        back = np.asarray(cv2.resize(runs, (width, height), interpolation=cv2.INTER_NEAREST), np.uint8)
        # Decision: the first direction's runs as they are and the second's joined by cv2.max, rather than
        # both by np.maximum into a sheet of zeros: the same pixels, two passes over the sheet fewer.
        found = back if found is None else np.asarray(cv2.max(found, back), np.uint8)
    assert found is not None
    return found


def written_on_ruling(strength: Mask, mask: Mask, level: Mask, upright: Mask, *, strong: Mask,
                      length: float, share: float = 0.5, darker: float = 1.0, line_share: float = 0.5,
                      away: Mask | None = None) -> Mask:
    """The ink of `mask` (non-zero) on the `level` and `upright` straight runs (non-zero: the ruling of
    squared or lined paper, printed lines) that is writing over them: 255 where, once the ruling's own
    darkness is divided out, what is left is at least `share` of the per-pixel strong threshold `strong`
    (the weak threshold hysteresis uses there) and at least `darker` times as dark as the ruling, and the
    ink is not a line running on along the ruling (`_on_lines`); 0 elsewhere, and where `away` is
    non-zero.

    Light is taken away by each layer it passes through (a pencil stroke over a printed line lets through
    what the line lets through, times what the pencil does), so a pixel s dark on a ruling r dark has
    1 − (1 − s) / (1 − r) of darkness over the ruling; where a level and an upright run cross, two
    rulings are divided out (a crossing is two rulings' darkness, not writing). The ruling's darkness is
    the mean of the runs' pixels that are not ink within `length` px (at least 60) around: the ruling
    away from the writing; where the runs are ink all along (a printed or drawn line), there is none and
    nothing on them is taken for writing.
    """
    size = max(60, int(length)) | 1
    runs = cv2.bitwise_or(level, upright)
    candidates = cv2.bitwise_and(runs, mask)
    if away is not None:
        candidates = cleared(np.asarray(candidates, np.uint8), away)
    found = cv2.findNonZero(candidates)
    out = np.zeros_like(strength)
    if found is None:
        return out
    xs, ys = np.asarray(found, np.int64).reshape(-1, 2).T
    bare = np.asarray(cv2.bitwise_and(runs, cv2.bitwise_not(mask)), np.uint8)
    has, ruling = _ruling_darkness(strength, bare, xs, ys, size)
    left = 1.0 - ruling
    crossing = (level[ys, xs] > 0) & (upright[ys, xs] > 0)
    left[crossing] *= left[crossing]
    over = 1.0 - (1.0 - strength[ys, xs].astype(np.float64) / 255.0) / np.maximum(left, 1e-3)
    written = has & (over * 255.0 >= share * strong[ys, xs]) & (over >= darker * ruling)
    # Decision: whether the ink is a line running on along the ruling (`_on_lines`) is asked only at the
    # pixels that pass as writing by their darkness, and not at all when none does, because each pixel's
    # answer is its own (its row or column and the 2 either side) and it only takes pixels away: the same
    # mask, without measuring the drawn lines' ink lying on the runs (most of the candidates; in 47 of 56
    # captured sheets of bench 1000 and 45000 usual, small, thin, motion nothing was written on the ruling;
    # 20.2 -> 11.6 ms of CPU a call, the same masks).
    if not written.any():
        return out
    xs, ys = xs[written], ys[written]
    # Only ink darker than writing over the sheet's ruling is a line's: near pale writing the ruling passes
    # the lowered thresholds and is in `mask` too, all along the stroke.
    sheet = _masked_mean(strength, bare) / 255.0
    dark = 255.0 * (1.0 - (1.0 - sheet) * (1.0 - share * float(strong.max()) / 255.0))
    inked = np.asarray(cv2.bitwise_and(mask, at_least(strength, min(255, int(np.ceil(dark))))), np.uint8)
    kept = ~_on_lines(inked, level, upright, xs, ys, size, line_share)
    out[ys[kept], xs[kept]] = 255
    return out


def _masked_mean(image: Mask, mask: Mask) -> float:
    """`cv2.mean(image, mask=mask)[0]` of a uint8 `image` and a 0/255 `mask`, as OpenCV computes it: the
    whole-number sum of the pixels under the mask times the reciprocal of their count (0 where none).

    Decision: the sum and the count by two plain passes (`cv2.sumElems` of the masked image, exact in
    float64 below 2^53, and `cv2.countNonZero`), because OpenCV's masked mean goes over the sheet pixel by
    pixel at ~15 times their cost (3.2-4.2 -> 0.2-0.3 ms a 12 MP photo's sheet) for the same number.
    """
    count = cv2.countNonZero(mask)
    total = float(cv2.sumElems(cv2.bitwise_and(image, image, mask=mask))[0])
    return total * (1.0 / count) if count else 0.0


_SHRINK = 4
"""How many times the sheet is shrunk for the slowly changing measures of `written_on_ruling`."""


def _ruling_darkness(strength: Mask, bare: Mask, xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64],
                     size: int) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """At the pixels `xs`, `ys`: whether there is ruling to measure within `size` px around (at least half a
    run's length of the `bare` ruling: the runs' pixels that are not ink), and its mean darkness (0 … 1).

    The ruling's darkness changes slowly over the sheet: it is measured on the sheet shrunk `_SHRINK` times
    (each cell the share of its pixels that are ruling, and their strength's sum).
    """
    height, width = strength.shape
    small = (max(1, width // _SHRINK), max(1, height // _SHRINK))
    window = (max(1, size // _SHRINK) | 1,) * 2
    count = cv2.blur(shrunk(bare, _SHRINK).astype(np.float32), window)
    summed = shrunk(np.asarray(cv2.bitwise_and(strength, bare), np.uint8), _SHRINK)
    total = cv2.blur(np.asarray(summed, np.float32), window)
    sy, sx = np.minimum(ys // _SHRINK, small[1] - 1), np.minimum(xs // _SHRINK, small[0] - 1)
    found = count[sy, sx].astype(np.float64)
    has = found / 255.0 * (window[0] * window[1] * _SHRINK * _SHRINK) > 0.5 * size
    return has, np.where(has, total[sy, sx] / np.maximum(found, 1e-6), 1.0)


def _on_lines(inked: Mask, level: Mask, upright: Mask, xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64],
              size: int, line_share: float) -> npt.NDArray[np.bool_]:
    """At the pixels `xs`, `ys`: whether `inked` (non-zero) is a line there rather than a stroke along the
    ruling: it covers more than `line_share` of `size` px along a level or upright band 5 px across (a
    freehand line wanders off a straight course), or of the pixel's own `level` or `upright` run (a line
    found as a run is ink all along it, however it wanders beyond; a ruling is bare most of its way).

    The zone stage's line mask leaves pieces of a drawn line out; such a piece is as dark over the ruling as
    writing, but a digit's stroke along the ruling is far shorter. Measured on the sheet shrunk `_SHRINK`
    times along the band, as `faint_ruling` searches it.
    """
    reach = max(1, size // _SHRINK)
    line = np.zeros(len(xs), dtype=bool)
    # Decision: the upright direction's columns gathered and turned over into rows (`_rows`), then measured
    # as the level direction's rows are, because OpenCV shrinks and blurs a row along itself as it does a
    # column along itself (the same weights summed in the same order, the same box sums) while shrinking
    # columns across the rows cost 2-3 times the work (a sheet with ~900 such columns: ~17 -> ~11 ms).
    for level_way, run, places, others in ((True, level, ys, xs), (False, upright, xs, ys)):
        # Decision: each direction is measured on the rows (level) or columns (upright) the pixels lie on
        # alone, and the band's on those within 2 of them, because every step keeps to its row or column
        # (the shrinking and the blur run along it, the band's dilation reaches 2 across) and the pixels lie
        # on a few of them: the same numbers as over the whole sheet, looked up at the same places.
        last = inked.shape[0 if level_way else 1] - 1
        length = inked.shape[1 if level_way else 0]
        # Decision: the rows or columns the pixels lie on found by counting the pixels on each (in order,
        # as `np.unique` gives them, without its sort), and each pixel's own among them by the running count
        # of those (`np.searchsorted` gave the same).
        present = np.bincount(places, minlength=last + 1) > 0
        lines = np.flatnonzero(present)
        # The lines within 2 of those (the same way: `present` widened by 2 each way).
        banded = present.copy()
        for offset in (1, 2):
            banded[offset:] |= present[:-offset]
            banded[:-offset] |= present[offset:]
        band_lines, in_band = np.flatnonzero(banded), np.cumsum(banded) - 1
        thin = _shrunk_along(_rows(inked, band_lines, level_way), None, True)
        # The band (a dilation 5 across, paper past the sheet's edge): a line's neighbours within 2, clipped
        # to the sheet (a clipped one is then the edge line, itself within 2).
        band = None
        for offset in range(-2, 3):
            near = thin[in_band[np.clip(lines + offset, 0, last)]]
            band = near if band is None else np.maximum(band, near)
        at = ((np.cumsum(present) - 1)[places], np.minimum(others // _SHRINK, max(1, length // _SHRINK) - 1))
        line |= cv2.blur(np.ascontiguousarray(band), (reach, 1))[at] > line_share * 255
        run_on = _rows(run, lines, level_way)
        both = np.asarray(cv2.bitwise_and(run_on, _rows(inked, lines, level_way)), np.uint8)
        own = cv2.blur(_shrunk_along(run_on, None, True), (reach, 1))[at].astype(np.float64)
        own_inked = cv2.blur(_shrunk_along(both, None, True), (reach, 1))[at].astype(np.float64)
        line |= (run[ys, xs] > 0) & (own_inked > line_share * np.maximum(own, 1e-6))
    return line


def _rows(image: Mask, lines: npt.NDArray[np.int64], level_way: bool) -> Mask:
    """The rows of `image` at `lines` (`level_way`), or its columns at `lines` turned over into rows."""
    if level_way:
        return np.asarray(image[lines], np.uint8)
    return np.asarray(cv2.transpose(np.take(image, lines, axis=1)), np.uint8)


def _shrunk_along(image: Mask, lines: npt.NDArray[np.int64] | None, along_x: bool) -> Mask:
    """The rows (`along_x`) or columns of `image` at `lines` (all when None), each shrunk `_SHRINK` times
    along itself (the mean of its cells, as `cv2.resize` with INTER_AREA gives it for the whole image)."""
    if lines is not None:
        image = image[lines] if along_x else image[:, lines]
    height, width = image.shape
    shrunk = (max(1, width // _SHRINK), height) if along_x else (width, max(1, height // _SHRINK))
    return np.asarray(cv2.resize(np.ascontiguousarray(image), shrunk, interpolation=cv2.INTER_AREA), np.uint8)
