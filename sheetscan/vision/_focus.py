"""Stage 4 of reading a photo, before the thresholds: how out of focus the rectified sheet is
(`blur_of`), and the ink's strength sharpened back when it is blurred (`sharpened`)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["SHARP_BLUR", "blur_of", "sharpened"]

Mask = npt.NDArray[np.uint8]


SHARP_BLUR = 1.3
"""The blur (Gaussian σ, px) `blur_of` measures on the rectified sheet of a photo in focus: the camera's own
softness, the rectification's resampling and the ink's soft edges."""


def sharpened(strength: Mask, *, sharp: float = SHARP_BLUR, gate: float = 1.5, amount: float = 2.0) -> Mask:
    """`strength` with the blur beyond a sharp photo's (`sharp`, σ px) taken back out by unsharp masking,
    when the photo measures blurrier than `gate` (`blur_of`); else `strength` itself.

    Out of focus, a thin stroke or a dot spreads its ink over more paper and loses its darkness: it fell
    below the strong threshold (dots between numbers, a pale "0" beside a dark "2"), while a dark stroke's
    spread edges passed the weak one and fattened it until loops closed. Unsharp masking (`amount` ×
    the difference from a Gaussian of the extra blur's σ) gives a thin stroke back its darkness and a
    dark one its edges.
    """
    # Decision: only photos measured blurrier than `gate` are sharpened, and by the blur beyond a sharp
    # photo's, because photos in focus measure 1.0-1.4 (and were read as before), out-of-focus ones (σ 2.2
    # px at 12 MP) about 1.8; amount 2 undoes to first order a blur of √2 × the extra σ (on bench_styles
    # blur seed 5000 x8 it read more than amount 1 and as much as 3).
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
    values = strength.astype(np.float32)
    across = np.asarray(cv2.Sobel(values, cv2.CV_32F, 1, 0, ksize=3), np.float32)
    down = np.asarray(cv2.Sobel(values, cv2.CV_32F, 0, 1, ksize=3), np.float32)
    # Not cv2.magnitude: it gives the same input different last bits from call to call (its vector and
    # plain paths, by where the output lands in memory), and a blur measured a hair either side of
    # `sharpened`'s gate, or a σ a hair off, changed which pixels passed as ink; numpy's arithmetic is
    # exactly rounded every time.
    steep = np.sqrt(across * across + down * down)
    height, width = steep.shape
    if height < 3 or width < 3:
        return 0.0
    # The level of the steepest share, from every 7th pixel (a sample of the whole sheet).
    sample = steep.ravel()[::7]
    count = max(1, int(share * sample.size))
    level = float(np.partition(sample, sample.size - count)[sample.size - count])
    if level <= 0.0:
        return 0.0
    inner = steep[1:-1, 1:-1]
    ys, xs = np.nonzero(inner >= level)
    ys, xs = ys + 1, xs + 1
    # Each a local peak of steepness among its eight neighbours; its steepness once blurred again, from
    # the same Sobel kernels at that pixel alone.
    around = np.max(np.stack([steep[ys + dy, xs + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)]), axis=0)
    peak = steep[ys, xs] >= around
    ys, xs = ys[peak], xs[peak]
    blurred = np.asarray(cv2.GaussianBlur(values, (0, 0), again), np.float32)
    gx = (blurred[ys - 1, xs + 1] + 2 * blurred[ys, xs + 1] + blurred[ys + 1, xs + 1]
          - blurred[ys - 1, xs - 1] - 2 * blurred[ys, xs - 1] - blurred[ys + 1, xs - 1])
    gy = (blurred[ys + 1, xs - 1] + 2 * blurred[ys + 1, xs] + blurred[ys + 1, xs + 1]
          - blurred[ys - 1, xs - 1] - 2 * blurred[ys - 1, xs] - blurred[ys - 1, xs + 1])
    ratio = steep[ys, xs] / np.maximum(np.hypot(gx, gy), 1e-6)
    ratio = ratio[ratio > 1.0001]
    if ratio.size == 0:
        return 0.0
    return float(np.median(again / np.sqrt(ratio * ratio - 1.0)))
