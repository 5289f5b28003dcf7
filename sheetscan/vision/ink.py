"""Stage 4 of reading a photo: separate the handwriting from the paper and from the drawn lines.

The rectified sheet is lit unevenly (a lamp on one side, the phone's shadow), pens are blue, black or
violet, and the sheet's lines are printed grey/black or drawn by the same pens as the numbers. So:

1. take the darkest colour channel, which makes a blue or violet stroke as dark as a black one;
2. divide by an estimate of the paper's own brightness (a grey closing that fills in every stroke),
   which removes light gradients and soft shadows: what is left is how much darker than the paper
   around it each pixel is; a photo out of focus has that strength sharpened back (`_focus`);
3. keep pixels clearly darker than the paper (hysteresis: a weak pixel counts only right next to a
   strong one, so faint anti-aliased edges stay with their strokes, and paper grain and the faint
   ruling of squared paper do not); out of focus, with thresholds lowered by the darkness a thin stroke
   loses to the blur (not on the ruling), and the outline then drawn at half of each stroke's darkness;
4. take out the drawn lines the zone stage found (with the stretches its mask left out between two of its
   ends, in line: `_line_gaps`) and any long straight level or upright run of ink
   (squared paper's ruling, printed lines; not a run's end sticking out past a drawn line it runs
   along, which is writing in line with the line: `_straight.past_line_ends`), then give back the
   pieces of line that handwriting crosses, so a digit written across a line is not cut in two
   (`_line_removal`; the line's own fringe goes: `_line_fringes`), and the writing lying on the
   ruling, darker than the ruling by a stroke's darkness (`_ruling.written_on_ruling`); the specks of
   a ruling too faint to be found whole (its crossings) go too (`_ruling`), and so do pieces of lines
   no mask took out (`_line_pieces`);
5. drop what cannot be handwriting: blobs as long as a good part of the sheet (unfound lines, the
   paper's edge, a shadow's border), keeping the digits written against such a line (`_long_blobs`).

A specular glare's lost contrast is given back first (`_glare`); straight runs of ink are found by
`_straight`, the stroke width measured by `_stroke_width`.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision._focus import blur_of, darkness_kept, out_of_focus, sharpened, within_half_peak
from sheetscan.vision._glare import without_glare
from sheetscan.vision._line_gaps import line_gaps
from sheetscan.vision._line_pieces import blob_stats, line_pieces
from sheetscan.vision._line_removal import line_width, remove_lines
from sheetscan.vision._lines import INK_REACH, INK_STRONG, INK_WEAK, at_least, cleared, seeded
from sheetscan.vision._long_blobs import cut_long_blobs, drop_long_blobs
from sheetscan.vision._motion import steadied
from sheetscan.vision._ruling import faint_ruling, labelled_without_ruling_specks, written_on_ruling
from sheetscan.vision._straight import past_line_ends, straight_lines
from sheetscan.vision._stroke_width import Middles, median_stroke_width
from sheetscan.vision._threads import in_background

__all__ = ["Ink", "InkStrength", "find_ink", "ink_strength"]

Mask = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Ink:
    """The handwriting on an upright rectified sheet, as images of the sheet's size."""

    mask: Mask
    """255 where there is handwriting, 0 elsewhere (paper and drawn lines)."""
    strength: Mask
    """How much darker than the paper each pixel is, 0 (paper) … 255 (black); ink bright on dark."""
    stroke_width: float
    """Typical width of a pen stroke in pixels (median over the handwriting)."""


def find_ink(
    image: npt.NDArray[np.uint8],
    *,
    line_mask: npt.NDArray[np.uint8] | None = None,
    strong: float = INK_STRONG,
    weak: float = INK_WEAK,
    max_extent: float = 0.2,
    grid_length: float = 0.06,
    faintest: float = 0.2,
    prepared: InkStrength | Future[InkStrength] | None = None,
) -> Ink:
    """Find the handwriting on an upright rectified sheet (BGR or grey).

    `line_mask` marks the sheet's drawn lines (non-zero = line). `strong` and `weak` are the
    hysteresis thresholds as a share of the paper's brightness: a stroke pixel must be at least `weak`
    darker than the paper and lie next to one at least `strong` darker. Ink blobs longer than `max_extent`
    of the sheet's shorter side are taken for lines and dropped (with `line_mask`, less the handwriting
    joined to them: `cut_long_blobs`); so are straight level or upright runs of ink longer than
    `grid_length` of it (the ruling of squared paper, printed lines), except where handwriting crosses
    them. A faint pen or pencil gets lower thresholds where all the ink
    around is faint (`_local_strong`), down to `faintest` for the strong one. `prepared` is
    `ink_strength(image)` with the same `weak` and `grid_length`, when already found, or the `Future` of it
    still being found in another thread (waited for once the drawn lines are measured, which need only
    `line_mask`).
    """
    drawn = None
    drawn_width = 3
    near: Mask | None = None  # within a line width of the drawn lines
    if line_mask is not None and line_mask.shape[:2] == image.shape[:2] and line_mask.any():
        drawn = (line_mask > 0).astype(np.uint8)
        drawn_width = line_width(drawn)
        square = cv2.getStructuringElement(cv2.MORPH_RECT, (drawn_width, drawn_width))
        near = np.asarray(cv2.dilate(drawn, square), np.uint8)
    if prepared is None:
        prepared = ink_strength(image, weak=weak, grid_length=grid_length)
    elif isinstance(prepared, Future):
        prepared = prepared.result()
    strength, blur, ruling = prepared.strength, prepared.blur, prepared.ruling
    # Decision: out of focus (`_focus.out_of_focus`), the strong thresholds (and with them the weak one near
    # faint ink) are lowered by the share of its darkness a thin stroke keeps (`darkness_kept`, sharp / blur),
    # and the ink's outline is then drawn at half of each stroke's own darkness (`within_half_peak`), because
    # a pale pen's strokes fell below the thresholds while a dark pen's spread edges fattened its strokes
    # until loops closed (bench_styles blur, seeds 5000 and 6000: digits 90.85 / 84.53 % against 96.17 /
    # 94.93 % with the ink of the same photos in focus). Squared paper's ruling and its blurred spread keep
    # the full strong threshold (`_ruling_kept_strong`): with the lowered one they passed for ink (phantom
    # "1"s: blur and far, seed 6000).
    kept = darkness_kept(blur)
    blurred = out_of_focus(blur)
    length = grid_length * min(strength.shape)
    local = _local_strong(strength, strong=strong * kept, faintest=faintest * kept, near_lines=near,
                          ruling=prepared.straight)
    if blurred:
        local = _ruling_kept_strong(local, ruling, strong, reach=round(2 * blur))
    mask = _hysteresis(strength, strong=local, weak=int(weak * 255), weak_share=weak / strong)
    if blurred:
        # Trimmed, a stroke's far fringe (past the reach the trim looks for the stroke's darkness in) is left
        # as pieces of its own: as hysteresis wants, a piece stays only with a pixel passing the strong one.
        mask = seeded(within_half_peak(mask, strength, blur),
                       np.asarray(cv2.compare(strength, local, cv2.CMP_GE), np.uint8))
    lines = prepared.straight
    if near is not None:
        # Decision: a run's end sticking out past a drawn line it runs along, shorter than a straight run, is
        # not taken for a ruling (`past_line_ends`): a level "1" written in line with a line's stub past a
        # crossing made, with the line, a run longer than `length`, and went with it (27002 "14", in every
        # style).
        lines = np.asarray(cv2.bitwise_and(lines, cv2.bitwise_not(
            past_line_ends(prepared.level, prepared.upright, near, length=length, shortest=2 * drawn_width))),
            np.uint8)
    # Decision: the ink lying on squared or lined paper's ruling that is writing once the ruling's own
    # darkness is divided out (`_ruling.written_on_ruling`) is kept when the ruling is taken out, because a
    # pale pencil's strokes lying along a strongly printed ruling went with it (a 7's bar, a 5's top: bench
    # photo 11003, usual style, 106 of 144 digits right); before, only the ruling under a stroke crossing it
    # came back (`remove_lines`). Not within a line width of the drawn lines: those go by their own mask.
    away = prepared.slanting if near is None else np.asarray(np.maximum(near, prepared.slanting), np.uint8)
    # Decision: the writing on the ruling is found in a second thread while this one drops the ruling's
    # specks, because both only read the hysteresis mask (neither changes it) and OpenCV and numpy let go
    # of the GIL: the two cores share them (~25 ms each on a 12 MP photo's sheet), and the ink is the same.
    written_job = in_background(partial(written_on_ruling, strength, mask, prepared.level, prepared.upright,
                                        strong=local, length=length, away=away))
    if line_mask is not None and line_mask.shape[:2] == mask.shape:
        lines = np.maximum(lines, (line_mask > 0).astype(np.uint8) * 255)
    mask, blobs = labelled_without_ruling_specks(mask, strength, level=0.5 * weak, length=length,
                                                 faint=ruling)
    written = written_job.result()
    if drawn is not None and near is not None:
        # Decision: the stretches of a drawn line that the zone stage's mask left out between two of its ends,
        # in line with them, go with the line (`_line_gaps.line_gaps`), because the digits touching such a
        # stretch were joined to it into one blob and a row of numbers hanging from the line was not found
        # (bench_styles seed 37006 dark: a divider's stretch over "2.3.7.9"). Only the line's own ink, joined
        # to the masked line at both ends: a digit written in line with a line's end stands off it (39002: a
        # "2" along a spoke). Crossing digits get their piece of it back (`remove_lines`).
        gaps = line_gaps(mask, drawn, near, drawn_width)
        if gaps.any():
            lines = np.asarray(np.maximum(lines, gaps), np.uint8)
            drawn = np.asarray(np.maximum(drawn, (gaps > 0).astype(np.uint8)), np.uint8)
    # Decision: the drawn lines dilated by twice their width once, for both the fringes `remove_lines` drops
    # and the pieces `_without_line_pieces` leaves silent, because both dilate the same mask by the same
    # square: the same mask, made once.
    around = _around(drawn, drawn_width) if drawn is not None else None
    if lines.any():
        # Decision: the blobs as the specks' rule labelled them are handed on to the line removal, which
        # labelled the same mask's blobs again for the writing the zone stage's mask took in
        # (`_apart_in_lines`): every pixel of ink keeps its label (only whole specks went), so the same
        # blobs, one labelling of the sheet fewer (~5-9 ms) on every sheet with faint ruling found.
        mask = remove_lines(mask, lines, drawn=drawn, drawn_width=drawn_width,
                             line_length=max_extent * min(mask.shape), written=written, drawn_near=around,
                             blobs=blobs)
    # Decision: handwriting joined to a long blob is kept only when the sheet's drawn lines are given (the
    # reading of a sheet): a blob that long is then a line the zone stage did not give, and the digits
    # written against it are cut off it (`cut_long_blobs`). Without them (the ink of everything, as the
    # bench's truth zones look for the lines' own ink), a long blob goes whole, as before.
    if line_mask is not None:
        mask = cut_long_blobs(mask, max_length=max_extent * min(mask.shape),
                               straight=grid_length * min(mask.shape))
        mask, stroke_width = _without_line_pieces(mask, prepared, drawn, around)
    else:
        mask = drop_long_blobs(mask, max_length=max_extent * min(mask.shape))
        stroke_width = median_stroke_width(mask)
    return Ink(mask=mask, strength=strength, stroke_width=stroke_width)


@dataclass(frozen=True, eq=False)  # holds arrays: compared by identity
class InkStrength:
    """What `find_ink` finds from the image alone, before the drawn lines are known (`ink_strength`)."""

    strength: Mask
    """How much darker than the paper each pixel is, sharpened when out of focus (`Ink.strength`)."""
    blur: float
    """How out of focus the sheet is (`_focus.blur_of`, σ px)."""
    ruling: Mask
    """Squared paper's faint ruling (`_ruling.faint_ruling`): for the thresholds out of focus, the specks."""
    straight: Mask
    """The level, upright and long slanting straight runs among the faint pixels (rulings, printed lines)."""
    level: Mask
    """The level runs of `straight` (non-zero), for the writing on them (`_ruling.written_on_ruling`)."""
    upright: Mask
    """The upright runs of `straight` (non-zero), as `level`."""
    slanting: Mask
    """The long slanting straight lines of `straight` (non-zero, 5 px wide): spokes the zone stage missed."""


def ink_strength(image: npt.NDArray[np.uint8], *, weak: float = INK_WEAK, grid_length: float = 0.06
                 ) -> InkStrength:
    """The part of `find_ink` that needs only the image (give it to `find_ink` as `prepared`, with the same
    `weak` and `grid_length`), so that it may run while the zone stage traces the lines."""
    if image.ndim == 2:
        darkest = np.ascontiguousarray(image)
    else:
        channels = cv2.split(image)
        darkest = np.asarray(cv2.min(cv2.min(channels[0], channels[1]), channels[2]), np.uint8)
    paper = _paper_brightness(darkest)
    strength = without_glare(_strength(darkest, paper), darkest, paper)
    strength = steadied(strength)
    blur = blur_of(strength)
    strength = sharpened(strength, blur=blur)
    length = grid_length * min(strength.shape)
    ruling = faint_ruling(strength, level=0.5 * weak, length=max(60, int(length)))
    # Straight runs are looked for among the faint pixels too: the ruling of squared paper is faint
    # but unbroken, while its crossings are dark enough to pass for dots.
    level, upright, slanting = straight_lines(at_least(strength, int(weak * 255)), length=length)
    straight = np.asarray(np.maximum(np.maximum(level, upright), slanting), np.uint8)
    return InkStrength(strength=strength, blur=blur, ruling=ruling, straight=straight, level=level,
                       upright=upright, slanting=slanting)


def _paper_brightness(darkest: Mask) -> Mask:
    """The brightness the paper would have under each pixel without anything written on it."""
    height, width = darkest.shape
    # Work at a quarter of the size: light changes slowly, and the closing is the costly step.
    scale = 4
    small = cv2.resize(darkest, (max(1, width // scale), max(1, height // scale)),
                       interpolation=cv2.INTER_AREA)
    # The closing must be wider than any pen stroke and the dots of a blur; 1/50 of the sheet is
    # several stroke widths at any resolution a phone gives.
    size = max(5, (min(small.shape) // 50) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    closed = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel)
    closed = cv2.medianBlur(closed, 5)
    closed = cv2.GaussianBlur(closed, (0, 0), size / 2)
    paper = cv2.resize(closed, (width, height), interpolation=cv2.INTER_LINEAR)
    # The closing of the quarter-size image can be slightly darker than the paper where ink is
    # dense; never let the paper be darker than the pixel itself.
    return np.asarray(cv2.max(paper, darkest), np.uint8)


def _strength_table() -> Mask:
    """How much darker than the paper a pixel is (0 … 255), for every paper brightness (rows) and pixel
    brightness (columns): 255 × (1 − pixel / paper), rounded, 0 where the pixel is not darker."""
    pixel = np.arange(256, dtype=np.float32)[None, :]
    paper = np.arange(256, dtype=np.float32)[:, None]
    darkness = 1.0 - pixel / np.maximum(paper, 1.0)
    np.clip(darkness, 0.0, 1.0, out=darkness)
    return np.asarray(np.rint(darkness * 255.0), np.uint8)


_STRENGTH = _strength_table()


def _strength(darkest: Mask, paper: Mask) -> Mask:
    """How much darker than `paper` each pixel of `darkest` is (0 = paper … 255 = black).

    Both are whole-numbered brightnesses, so the ratio is looked up in a 256 × 256 table made once
    rather than worked out in floating point for every pixel of the sheet.
    """
    index = np.left_shift(paper, 8, dtype=np.uint16)
    np.bitwise_or(index, darkest, out=index)
    return np.asarray(_STRENGTH.ravel()[index], np.uint8)


def _local_strong(strength: Mask, *, strong: float, faintest: float, share: float = 0.6,
                  near_lines: Mask | None = None, ruling: Mask | None = None) -> Mask:
    """The strong threshold at each pixel: `strong`, or, where the darkest ink around (within about
    a digit) passes `strong` but only just, `share` of that ink's strength, never below `faintest`.

    A faint writer's strokes (a pencil, a pale pen, a washed-out photo) vary in strength along the
    stroke; with one threshold for the sheet, their thinner parts fall below it and digits break into
    pieces. Paper grain never reaches `faintest`, so blank paper gains nothing. The drawn lines with their
    blurred edges (`near_lines`, non-zero: the lines widened by their own width, `line_width`) are not
    writing and set no threshold around them; nor do the long straight runs of `ruling` (non-zero: squared or
    lined paper's ruling, printed lines, `straight_lines`), with the pixel the blur spreads them by.
    """
    size = max(15, (min(strength.shape) // 40) | 1)
    blurred = np.asarray(cv2.blur(strength, (3, 3)), np.uint8)
    if ruling is not None and ruling.any():
        # Decision: the ruling's crossings (two rulings' darkness on one spot) pass the strong threshold in a
        # dark, noisy photo of squared paper, just: taken for a faint writer's ink, they lowered the threshold
        # around them until the ruling itself passed, and crosses of ruling all over the sheet were read as
        # "4", "1", "7" (bench_styles dark, seed 24000 photos 0 and 5, stages 4-7 on the truth's zones: 44
        # numbers read where nothing is written -> 1).
        blurred = cleared(blurred, cv2.dilate(ruling, np.ones((3, 3), np.uint8)))
    if near_lines is not None:
        # A faint pencil line drawn next to a dark drawn line would otherwise lower the threshold all
        # along it, and squared paper's ruling beside the line (its stubs, a grid line running close
        # to it) then passes for ink: pieces of it were read as "1" and "4".
        blurred = cleared(blurred, near_lines)
    # The neighbourhood's peak, from the 90th-percentile-like strength of a blurred stroke rather
    # than a single dark speck: a dilation of a slightly blurred image.
    peak = cv2.dilate(blurred, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    # The threshold depends on the peak alone: worked out once for each of its 256 values.
    levels = np.arange(256, dtype=np.uint8)
    table = np.clip(share * levels.astype(np.float32), faintest * 255.0, strong * 255.0)
    # Only next to ink that passes the sheet's own threshold somewhere: faint things alone (the
    # ruling of squared paper, a shadow's edge) keep the full threshold.
    table[levels < strong * 255.0] = strong * 255.0
    return np.asarray(cv2.LUT(peak, np.asarray(table, np.uint8)), np.uint8)


def _hysteresis(strength: Mask, *, strong: Mask | int, weak: int, weak_share: float = 0.5,
                reach: int = INK_REACH) -> Mask:
    """Pixels above `strong` (one threshold, or one per pixel), and pixels above the weak threshold
    within `reach` pixels of one: `weak`, or `weak_share` of a per-pixel strong threshold where
    that is lower.

    The weak pixels are a stroke's soft edges and faint joins; keeping them only next to strong ink
    stops faint things that run on (the ruling of squared paper, a pencil guide line) from joining
    the digits they pass into one long blob.
    """
    disk = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * reach + 1, 2 * reach + 1))
    if isinstance(strong, np.ndarray):
        near = cv2.dilate(cv2.compare(strength, strong, cv2.CMP_GE), disk)
        # The weak threshold depends on the strong one alone: a table over its 256 values, rounded up
        # (a whole-numbered strength passes a fractional threshold exactly when it passes its ceiling).
        levels = np.arange(256, dtype=np.uint8).astype(np.float32)
        table = np.ceil(np.minimum(levels * weak_share, float(weak))).astype(np.uint8)
        passes = cv2.compare(strength, cv2.LUT(strong, table), cv2.CMP_GE)
    else:
        near = cv2.dilate(at_least(strength, int(np.ceil(strong))), disk)
        passes = at_least(strength, weak)
    return np.asarray(cv2.bitwise_and(passes, near), np.uint8)


def _without_line_pieces(mask: Mask, prepared: InkStrength, drawn: Mask | None, around: Mask | None
                         ) -> tuple[Mask, float]:
    """`mask` less the pieces of lines no mask took out (`_line_pieces.without_line_pieces`), and its stroke
    width (`_stroke_width.median_stroke_width`, of the mask less those pieces). The ruling found in `prepared`
    and the drawn lines (`drawn` non-zero) with a line width around them (`around`, `_around` of them), count
    for neither line nor paper in the ridges past a stroke's ends; a stroke that runs on into the drawn lines'
    own mask at both ends (alone, or joined to the pale stretches of line past its ends), or lies along it
    touching it at both, is a piece of them too."""
    # Decision: a stroke whose course runs on past its end as a ridge about as dark as itself is a piece of a
    # line and goes, because pale freehand lines the zone stage's mask does not follow (spokes wandering off
    # the model, lines crossing a glare, a line drawn twice) left pieces read as "1", "11", "18" where nothing
    # is written (bench_styles seed 16000, usual photo 0, glare photos 0, 5, 7);
    # a digit's stroke ends on paper.
    if not mask.any():
        return mask, 0.0
    count, found_labels = cv2.connectedComponents(mask, connectivity=8)
    labels = np.asarray(found_labels, np.int32)
    stats = blob_stats(mask, labels, count)
    middles = Middles(mask, labels, count, area=stats[:, cv2.CC_STAT_AREA])
    stroke = middles.width()
    silent = np.asarray(np.maximum(prepared.level, prepared.upright), np.uint8)
    if around is not None:
        silent = np.asarray(np.maximum(silent, around), np.uint8)
    gone = line_pieces(labels, stats, prepared.strength, stroke=max(1.0, stroke), silent=silent, drawn=drawn)
    if not gone.any():
        return mask, stroke
    # Decision: the pieces that go are cleared within their own boxes, because they are a few blobs of the
    # sheet's thousands: the same mask as looking every pixel's blob up (`gone[labels]`), without going over
    # the whole sheet twice.
    out = mask.copy()
    for label in np.flatnonzero(gone):
        x, y, w, h = (int(v) for v in stats[label, :4])
        out[y:y + h, x:x + w][labels[y:y + h, x:x + w] == label] = 0
    return out, middles.width(gone=gone)


def _around(drawn: Mask, width: int) -> Mask:
    """The drawn lines (`drawn`, non-zero) and `width` px around them: dilated by a square of side 2 × `width`
    + 1 (the reach of a line's fringe and of a piece's silent surroundings)."""
    side = 2 * width + 1
    return np.asarray(cv2.dilate(drawn, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))), np.uint8)


def _ruling_kept_strong(local: Mask, ruling: Mask, strong: float, *, reach: int = 1) -> Mask:
    """The per-pixel strong thresholds `local`, never below `strong` (a share of 255) on squared paper's
    `ruling` (non-zero, `faint_ruling`) and within `reach` px of it (the blur's spread: 2 σ).

    Out of focus the thresholds are lowered for the pale strokes the blur made paler (`darkness_kept`), but
    the ruling is no thinner than a stroke: blurred, it keeps about the darkness it had, and with the lowered
    threshold its stretches and crossings passed for ink ("1"s and "+"s all over a squared sheet). A stroke
    crossing the ruling still passes beside it, and hysteresis joins it across.
    """
    band = cv2.dilate(ruling, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * reach + 1, 2 * reach + 1)))
    floor = np.uint8(min(255, round(strong * 255)))
    return np.where(band > 0, np.maximum(local, floor), local).astype(np.uint8)
