"""Stage 4 of reading a photo: separate the handwriting from the paper and from the drawn lines.

The rectified sheet is lit unevenly (a lamp on one side, the phone's shadow), pens are blue, black or
violet, and the sheet's lines are printed grey/black or drawn by the same pens as the numbers. So:

1. take the darkest colour channel, which makes a blue or violet stroke as dark as a black one;
2. divide by an estimate of the paper's own brightness (a grey closing that fills in every stroke),
   which removes light gradients and soft shadows: what is left is how much darker than the paper
   around it each pixel is;
3. keep pixels clearly darker than the paper (hysteresis: a weak pixel counts only right next to a
   strong one, so faint anti-aliased edges stay with their strokes, and paper grain and the faint
   ruling of squared paper do not);
4. take out the drawn lines the zone stage found and any long straight level or upright run of ink
   (squared paper's ruling, printed lines), then give back the pieces of line that handwriting
   crosses, so a digit written across a line is not cut in two;
5. drop what cannot be handwriting: blobs as long as a good part of the sheet (unfound lines, the
   paper's edge, a shadow's border).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["Ink", "find_ink"]

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
    strong: float = 0.32,
    weak: float = 0.16,
    max_extent: float = 0.2,
    grid_length: float = 0.06,
    faintest: float = 0.2,
) -> Ink:
    """Find the handwriting on an upright rectified sheet (BGR or grey).

    `line_mask` marks the sheet's drawn lines (non-zero = line). `strong` and `weak` are the
    hysteresis thresholds as a share of the paper's brightness: a stroke pixel must be at least `weak`
    darker than the paper and lie next to one at least `strong` darker. Ink blobs longer than `max_extent`
    of the sheet's shorter side are taken for lines and dropped; so are straight level or upright
    runs of ink longer than `grid_length` of it (the ruling of squared paper, printed lines), except
    where handwriting crosses them. A faint pen or pencil gets lower thresholds where all the ink
    around is faint (`_local_strong`), down to `faintest` for the strong one.
    """
    if image.ndim == 2:
        darkest = np.ascontiguousarray(image)
    else:
        channels = cv2.split(image)
        darkest = np.asarray(cv2.min(cv2.min(channels[0], channels[1]), channels[2]), np.uint8)
    paper = _paper_brightness(darkest)
    darkness = 1.0 - darkest.astype(np.float32) / np.maximum(paper, 1.0)
    np.clip(darkness, 0.0, 1.0, out=darkness)
    strength = np.rint(darkness * 255.0).astype(np.uint8)

    drawn = None
    if line_mask is not None and line_mask.shape[:2] == strength.shape and line_mask.any():
        drawn = (line_mask > 0).astype(np.uint8)
    local = _local_strong(strength, strong=strong, faintest=faintest, lines=drawn)
    mask = _hysteresis(strength, strong=local, weak=int(weak * 255), weak_share=weak / strong)
    # Straight runs are looked for among the faint pixels too: the ruling of squared paper is faint
    # but unbroken, while its crossings are dark enough to pass for dots.
    lines = _straight_lines((strength >= int(weak * 255)).astype(np.uint8) * 255,
                            length=grid_length * min(mask.shape))
    if line_mask is not None and line_mask.shape[:2] == mask.shape:
        lines = np.maximum(lines, (line_mask > 0).astype(np.uint8) * 255)
    if lines.any():
        mask = _remove_lines(mask, lines, drawn=drawn)
    mask = _drop_long_blobs(mask, max_length=max_extent * min(mask.shape))
    return Ink(mask=mask, strength=strength, stroke_width=_stroke_width(mask))


def _paper_brightness(darkest: Mask) -> npt.NDArray[np.float32]:
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
    return np.maximum(paper, darkest).astype(np.float32)


def _local_strong(strength: Mask, *, strong: float, faintest: float, share: float = 0.6,
                  lines: Mask | None = None) -> Mask:
    """The strong threshold at each pixel: `strong`, or, where the darkest ink around (within about
    a digit) passes `strong` but only just, `share` of that ink's strength, never below `faintest`.

    A faint writer's strokes (a pencil, a pale pen, a washed-out photo) vary in strength along the
    stroke; with one threshold for the sheet, their thinner parts fall below it and digits break into
    pieces. Paper grain never reaches `faintest`, so blank paper gains nothing. The drawn `lines`
    (non-zero), with their blurred edges, are not writing and set no threshold around them.
    """
    size = max(15, (min(strength.shape) // 40) | 1)
    blurred = cv2.blur(strength, (3, 3))
    if lines is not None:
        # A faint pencil line drawn next to a dark drawn line would otherwise lower the threshold all
        # along it, and squared paper's ruling beside the line (its stubs, a grid line running close
        # to it) then passes for ink: pieces of it were read as "1" and "4".
        edge = _line_width(lines)
        near = cv2.dilate(lines, cv2.getStructuringElement(cv2.MORPH_RECT, (edge, edge)))
        blurred = np.where(near > 0, 0, blurred).astype(np.uint8)
    # The neighbourhood's peak, from the 90th-percentile-like strength of a blurred stroke rather
    # than a single dark speck: a dilation of a slightly blurred image.
    peak = cv2.dilate(blurred, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    local = np.clip(share * peak.astype(np.float32), faintest * 255.0, strong * 255.0)
    # Only next to ink that passes the sheet's own threshold somewhere: faint things alone (the
    # ruling of squared paper, a shadow's edge) keep the full threshold.
    local[peak < strong * 255.0] = strong * 255.0
    return np.asarray(local, np.uint8)


def _hysteresis(strength: Mask, *, strong: Mask | int, weak: int, weak_share: float = 0.5,
                reach: int = 3) -> Mask:
    """Pixels above `strong` (one threshold, or one per pixel), and pixels above the weak threshold
    within `reach` pixels of one: `weak`, or `weak_share` of a per-pixel strong threshold where
    that is lower.

    The weak pixels are a stroke's soft edges and faint joins; keeping them only next to strong ink
    stops faint things that run on (the ruling of squared paper, a pencil guide line) from joining
    the digits they pass into one long blob.
    """
    strong_mask = (strength >= strong).astype(np.uint8)
    disk = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * reach + 1, 2 * reach + 1))
    near = cv2.dilate(strong_mask, disk)
    low: npt.NDArray[np.float32] | float = float(weak)
    if isinstance(strong, np.ndarray):
        low = np.minimum(strong.astype(np.float32) * weak_share, float(weak))
    return np.where((strength >= low) & (near > 0), 255, 0).astype(np.uint8)


def _straight_lines(mask: Mask, *, length: float) -> Mask:
    """Level and upright straight runs of ink at least `length` long: ruled or squared paper, a form's
    printed lines. No digit has a straight stroke that long, so nothing written is taken."""
    # Never shorter than a large digit on the smallest sheet we read (tests use small images).
    size = max(60, int(length))
    # Thicken across each direction first, so a ruling a degree off level still gives unbroken runs.
    across = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (1, 3)))
    level = cv2.morphologyEx(across, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (size, 1)))
    across = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 1)))
    upright = cv2.morphologyEx(across, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, size)))
    found = np.asarray(np.maximum(level, upright) & mask, np.uint8)
    # Slanting drawn lines (spokes the zone stage missed): long, straight and unbroken.
    # Looked for at half size (four times faster), where a thin line is still unbroken.
    half = cv2.resize(mask, (mask.shape[1] // 2, mask.shape[0] // 2), interpolation=cv2.INTER_AREA)
    half = np.where(half >= 64, 255, 0).astype(np.uint8)
    segments = cv2.HoughLinesP(half, 1, np.pi / 180, threshold=size // 2, minLineLength=size // 2,
                               maxLineGap=1)
    if segments is not None:
        drawn = np.zeros_like(mask)
        for x0, y0, x1, y1 in np.asarray(segments).reshape(-1, 4):
            count = max(2, int(np.hypot(x1 - x0, y1 - y0)))
            xs = np.rint(np.linspace(x0, x1, count)).astype(int)
            ys = np.rint(np.linspace(y0, y1, count)).astype(int)
            slope = abs(float(np.degrees(np.arctan2(y1 - y0, x1 - x0)))) % 90.0
            # Level and upright lines are found above; this adds the slanting ones only.
            if 8.0 <= slope <= 82.0 and (half[ys, xs] > 0).mean() >= 0.95:
                cv2.line(drawn, (2 * int(x0), 2 * int(y0)), (2 * int(x1), 2 * int(y1)), 255, 5)
        found = np.maximum(found, drawn & mask)
    return found


def _remove_lines(mask: Mask, line_mask: npt.NDArray[np.uint8], *, drawn: Mask | None = None) -> Mask:
    """Take the lines out of `mask`, keeping line pixels where handwriting crosses a line.

    With `drawn` (the sheet's drawn lines), blobs that lie mostly along those lines and cross none
    are dropped too: the fringe of a line wider or more wobbly than its mask.
    """
    lines = np.asarray(cv2.dilate((line_mask > 0).astype(np.uint8), np.ones((3, 3), np.uint8)), np.uint8)
    without = np.where(lines > 0, 0, mask).astype(np.uint8)
    # A piece of line belongs to the handwriting when handwriting crosses it: ink reaches it from off
    # the line on two sides (two separate off-line pieces). A digit that only touches a line gets
    # nothing back, so no stub of line is left beside it looking like a "1".
    width = _line_width(lines)
    reach = cv2.dilate(without, cv2.getStructuringElement(cv2.MORPH_RECT, (width, width)))
    crossing = ((mask > 0) & (lines > 0) & (reach > 0)).astype(np.uint8)
    count, pieces = cv2.connectedComponents(crossing, connectivity=8)
    sides_count, sides = cv2.connectedComponents(without, connectivity=8)
    keep = np.zeros(max(count, 1), dtype=bool)
    crossed_sides = np.zeros(max(sides_count, 1), dtype=bool)
    if count > 1:
        grown = np.asarray(cv2.dilate(pieces.astype(np.float32), np.ones((3, 3), np.uint8)), np.int64)
        touching = (grown > 0) & (sides > 0)
        pairs = np.unique(np.stack([grown[touching], sides[touching]]), axis=1)
        keep = np.bincount(pairs[0], minlength=count) >= 2
        keep[0] = False
        crossed_sides[pairs[1][keep[pairs[0]]]] = True
    if drawn is not None:
        blobs = np.asarray(sides, np.int32)
        without = _drop_line_fringes(without, blobs, sides_count, drawn, _line_width(drawn), crossed_sides)
    return np.where(keep[pieces], 255, without).astype(np.uint8)


def _drop_line_fringes(without: Mask, blobs: npt.NDArray[np.int32], count: int, lines: Mask, width: int,
                       keep: npt.NDArray[np.bool_], *, share: float = 0.6) -> Mask:
    """`without` less the blobs (not in `keep`) with more than `share` of their ink along `lines`."""
    if count <= 1:
        return without
    # A square reach (separable, so fast) is close enough to a round one here.
    near = cv2.dilate(lines, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * width + 1, 2 * width + 1)))
    inked = blobs > 0
    total = np.bincount(blobs[inked], minlength=count)
    close = np.bincount(blobs[inked & (near > 0)], minlength=count)
    drop = (close > share * np.maximum(total, 1)) & ~keep
    drop[0] = False
    return np.where(drop[blobs], 0, without).astype(np.uint8)


def _line_width(lines: Mask) -> int:
    """About twice the half-width of the drawn lines, odd, at least 3 pixels."""
    if not lines.any():
        return 3
    distance = cv2.distanceTransform(lines, cv2.DIST_L2, 3)
    ridge = distance[distance > 0]
    half = float(np.percentile(ridge, 90)) if ridge.size else 1.0
    return max(3, round(2 * half + 2) | 1)


def _drop_long_blobs(mask: Mask, *, max_length: float) -> Mask:
    """Remove connected blobs longer than `max_length` (lines, edges), keeping everything else."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count <= 1:
        return mask
    long_side = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    drop = long_side > max_length
    drop[0] = False
    if not drop.any():
        return mask
    return np.where(drop[labels], 0, mask).astype(np.uint8)


def _stroke_width(mask: Mask) -> float:
    """Median stroke width: twice the distance to the background along the strokes' middles."""
    if not mask.any():
        return 0.0
    distance = cv2.distanceTransform((mask > 0).astype(np.uint8), cv2.DIST_L2, 3)
    # A pixel is on a stroke's middle when no 3×3 neighbour is farther from the background.
    ridge = (distance > 0) & (distance >= cv2.dilate(distance, np.ones((3, 3), np.uint8)))
    values = distance[ridge]
    return float(2.0 * np.median(values)) if values.size else 0.0
