"""Stage 4 of reading a photo: how out of focus the rectified sheet is (`blur_of`, `out_of_focus`), the
ink's strength sharpened back when it is blurred (`sharpened`), the share of its darkness a thin stroke
keeps there (`darkness_kept`), and the ink's outline put back where a blurred stroke's edge is
(`within_half_peak`)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

__all__ = [
    "FOCUS_GATE", "SHARP_BLUR", "blur_of", "darkness_kept", "out_of_focus", "sharpened", "within_half_peak",
]

Mask = npt.NDArray[np.uint8]


SHARP_BLUR = 1.3
"""The blur (Gaussian σ, px) `blur_of` measures on the rectified sheet of a photo in focus: the camera's own
softness, the rectification's resampling and the ink's soft edges."""

FOCUS_GATE = 1.5
"""The blur (σ px, `blur_of`) above which a photo is taken for out of focus: photos in focus measure 1.0-1.4,
out-of-focus ones (σ 2.2 px at 12 MP) about 1.6-1.9."""


def out_of_focus(blur: float, *, gate: float = FOCUS_GATE) -> bool:
    """Whether a sheet measuring `blur` (`blur_of`) is out of focus."""
    return blur > gate


def darkness_kept(blur: float, *, sharp: float = SHARP_BLUR, gate: float = FOCUS_GATE) -> float:
    """The share of its darkness a stroke thinner than the blur keeps on a sheet measuring `blur` beside one
    in focus: `sharp` / `blur` when the sheet is out of focus (`out_of_focus`), else 1.0.

    A blur keeps a thin stroke's ink but spreads it across: the stroke's profile, about as wide as the blur
    (a Gaussian of σ `blur` rather than `sharp`), is `blur` / `sharp` times as wide and so, holding the same
    ink, that much less dark at its middle. A stroke wider than the blur loses less; a pale pen's strokes
    lose this much and fell below the thresholds a photo in focus is read with.
    """
    return sharp / blur if out_of_focus(blur, gate=gate) else 1.0


def sharpened(strength: Mask, *, sharp: float = SHARP_BLUR, gate: float = FOCUS_GATE, amount: float = 2.0,
               blur: float | None = None) -> Mask:
    """`strength` with the blur beyond a sharp photo's (`sharp`, σ px) taken back out by unsharp masking,
    when the photo measures blurrier than `gate` (`blur_of`); else `strength` itself.

    Out of focus, a thin stroke or a dot spreads its ink over more paper and loses its darkness: it fell
    below the strong threshold (dots between numbers, a pale "0" beside a dark "2"), while a dark stroke's
    spread edges passed the weak one and fattened it until loops closed. Unsharp masking (`amount` ×
    the difference from a Gaussian of the extra blur's σ) gives a thin stroke back its darkness and a
    dark one its edges. `blur` is the sheet's `blur_of` when already measured.
    """
    # Decision: only photos measured blurrier than `gate` are sharpened, and by the blur beyond a sharp
    # photo's, because photos in focus measure 1.0-1.4 (and were read as before), out-of-focus ones (σ 2.2
    # px at 12 MP) about 1.8; amount 2 undoes to first order a blur of √2 × the extra σ (on bench_styles
    # blur seed 5000 x8 it read more than amount 1 and as much as 3).
    if blur is None:
        blur = blur_of(strength)
    if blur <= gate:
        return strength
    extra = float(np.sqrt(blur * blur - sharp * sharp))
    values = strength.astype(np.float32)
    spread = cv2.GaussianBlur(values, (0, 0), extra)
    return np.asarray(np.clip(np.rint(values + amount * (values - spread)), 0, 255), np.uint8)


def blur_of(strength: Mask, *, again: float = 1.0, share: float = 0.005) -> float:
    """The photo's blur as a Gaussian σ in px, measured at its sharpest edges (about the `share` of pixels
    with the steepest strength, each a local peak of it): blurred again by σ `again`, an edge blurred by σ
    loses steepness by the ratio r = √(σ² + again²) / σ, so σ = again / √(r² − 1) (the median over the
    edges). 0.0 when nothing on the sheet has an edge."""
    # Decision: the steepness is found from whole numbers (Sobel of the 8-bit strength, 16-bit), because
    # every value on the way is a whole number below 2²⁴ (|Sobel| ≤ 1020, its square sum ≤ 2,080,800),
    # which float32 holds exactly: the same squares, bit for bit, as from the float32 image, at about half
    # the cost (the two float Sobels alone took 16 of this measure's 46 ms on a 12 MP photo's sheet).
    # Not cv2.magnitude: it gives the same input different last bits from call to call (its vector and
    # plain paths, by where the output lands in memory), and a blur measured a hair either side of
    # `sharpened`'s gate, or a σ a hair off, changed which pixels passed as ink; the squares are exact.
    squared = _squared_steepness(strength)
    height, width = squared.shape
    if height < 3 or width < 3:
        return 0.0
    # The level of the steepest share, from every 7th pixel (a sample of the whole sheet).
    sample = squared.ravel()[::7]
    count = max(1, int(share * sample.size))
    level = np.sqrt(np.partition(sample, sample.size - count)[sample.size - count])
    if level <= 0.0:
        return 0.0
    steepest = cv2.findNonZero((squared[1:-1, 1:-1] >= _least_square_reaching(level)).view(np.uint8))
    if steepest is None:
        return 0.0
    xs, ys = np.asarray(steepest, np.int64).reshape(-1, 2).T + 1
    # Each a local peak of steepness among its eight neighbours; its steepness once blurred again, from
    # the same Sobel kernels at that pixel alone.
    steep = np.sqrt(squared[ys, xs])
    around = np.sqrt(np.max(np.stack([squared[ys + dy, xs + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)]),
                            axis=0))
    peak = steep >= around
    ys, xs, steep = ys[peak], xs[peak], steep[peak]
    blurred = np.asarray(cv2.GaussianBlur(strength.astype(np.float32), (0, 0), again), np.float32)
    gx = (blurred[ys - 1, xs + 1] + 2 * blurred[ys, xs + 1] + blurred[ys + 1, xs + 1]
          - blurred[ys - 1, xs - 1] - 2 * blurred[ys, xs - 1] - blurred[ys + 1, xs - 1])
    gy = (blurred[ys + 1, xs - 1] + 2 * blurred[ys + 1, xs] + blurred[ys + 1, xs + 1]
          - blurred[ys - 1, xs - 1] - 2 * blurred[ys - 1, xs] - blurred[ys - 1, xs + 1])
    ratio = steep / np.maximum(np.hypot(gx, gy), 1e-6)
    ratio = ratio[ratio > 1.0001]
    if ratio.size == 0:
        return 0.0
    return float(np.median(again / np.sqrt(ratio * ratio - 1.0)))


def _squared_steepness(strength: Mask) -> npt.NDArray[np.float32]:
    """The squared Sobel steepness of `strength` (3 × 3, across² + down²) as float32: whole numbers, exact."""
    across = cv2.Sobel(strength, cv2.CV_16S, 1, 0, ksize=3)
    down = cv2.Sobel(strength, cv2.CV_16S, 0, 1, ksize=3)
    squared = cv2.multiply(across, across, dtype=cv2.CV_32F)
    return np.asarray(cv2.add(squared, cv2.multiply(down, down, dtype=cv2.CV_32F)), np.float32)


def _least_square_reaching(level: np.float32) -> np.float32:
    """The least float32 whose square root (rounded to float32) is at least `level`.

    Decision: `blur_of` finds its steepest edges among the squared steepnesses and takes the square root
    only of those it keeps (tens of thousands of a sheet's millions), because the root of every pixel and
    the search over it cost a third of the measure (40 -> 24 ms on a 12 MP photo's sheet, one thread). A
    root is monotone, so the share's level is the root of the squares' level; but two neighbouring floats
    can have the same rounded root, so the squares' threshold is walked down to the least one whose root
    still reaches the level: the same pixels pass as when the roots were compared.
    """
    least = np.float32(level) * np.float32(level)
    while np.sqrt(least) < level:
        least = np.nextafter(least, np.float32(np.inf))
    while least > 0 and np.sqrt(np.nextafter(least, np.float32(0))) >= level:
        least = np.nextafter(least, np.float32(0))
    return np.float32(least)


def within_half_peak(mask: Mask, strength: Mask, blur: float, *, share: float = 0.5,
                     reach: float = 2.0, own: bool = True) -> Mask:
    """`mask` less its pixels weaker than `share` of the strongest `strength` within `reach` × `blur` px (a
    round neighbourhood) of them: on a sheet out of focus (`blur`, σ px, `blur_of`), the ink's outline drawn
    where each stroke's edge is.

    A blur spreads each stroke's edge over a few σ on either side of it, and the edge itself lies where the
    darkness has fallen to half of the stroke's own (half-way down a blurred step). Thresholds fixed for the
    sheet cut a dark stroke far out on its spread edges: strokes fattened until a "0"'s or an "8"'s loop
    closed and digits touched their neighbours and the lines. Within 2 σ of an edge lies the stroke's own
    darkness, so half of the darkest there is half of the stroke's: each stroke, pale or dark, keeps the
    width it was written with.
    """
    radius = max(1, round(reach * blur))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    peak = np.asarray(cv2.dilate(strength, disk), np.uint8)
    if own:
        # A stroke's own darkness, not a darker neighbour's within reach (a dot beside a digit, a pale "1"
        # beside a dark "6"): never above the darkest of the blob of `mask` a pixel lies in.
        count, found_labels = cv2.connectedComponents(mask, connectivity=8)
        labels = np.asarray(found_labels, np.int32)
        inked = mask > 0
        darkest = np.zeros(count, np.uint8)
        np.maximum.at(darkest, labels[inked], strength[inked])
        peak = np.where(inked, np.minimum(peak, darkest[labels]), peak).astype(np.uint8)
    keep = strength.astype(np.float32) >= share * peak.astype(np.float32)
    return np.where(keep, mask, 0).astype(np.uint8)
