"""Stage 4 of reading a photo: a shaken photo's blur (`motion_of`: the direction and length the phone
moved while the shutter was open) and the ink's strength with it taken back out (`unsmeared`)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

__all__ = [
    "SMEAR_ALONG", "SMEAR_GATE", "SMEAR_KEPT", "SMEAR_LEAST", "SMEAR_SHARE", "Motion", "dips", "lag_at",
    "motion_from", "motion_of", "smear_kernel", "steadied", "unsmeared",
]

Mask = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Motion:
    """A straight smear of the photo: the path one point of the sheet drew across it while exposed."""

    angle: float
    """The smear's direction in degrees, 0 … 180: 0 along the sheet's rows, turning from x (right) towards
    y (down), as `cv2` measures angles."""
    length: float
    """The smear's length in px of the rectified sheet."""
    width: float = 0.0
    """Where the dips lie along the least smeared direction (`dips`, px): about a stroke's width."""


def _correlations(strength: Mask, scale: int, longest: int) -> tuple[Floats, Floats, Floats]:
    """The autocorrelations of the strength's two gradients and their cross-correlation (both ways
    summed), of `strength` shrunk `scale` times, each as an image whose pixel (dy, dx) is the lag (wrapped
    round: negative lags at the far ends)."""
    values = strength.astype(np.float32)
    if scale > 1:
        values = np.asarray(cv2.resize(values, None, fx=1.0 / scale, fy=1.0 / scale,
                                       interpolation=cv2.INTER_AREA), np.float32)
    height, width = values.shape
    rows, cols = cv2.getOptimalDFTSize(height + longest), cv2.getOptimalDFTSize(width + longest)
    # Decision: the spectra are kept in OpenCV's packed form for real images (CCS: each conjugate pair
    # once), because the gradients are real and so are their correlations: the full complex spectra did
    # every transform and product twice over (about 50 of 60 ms a 12 MP photo's sheet, 17 packed). The
    # correlations are the same but for float rounding (a millionth of their size).
    spectra = []
    for dx, dy in ((1, 0), (0, 1)):
        gradient = np.zeros((rows, cols), np.float32)
        gradient[:height, :width] = cv2.Sobel(values, cv2.CV_32F, dx, dy, ksize=3)
        spectra.append(np.asarray(cv2.dft(gradient), np.float32))
    across, down = spectra

    def correlation(first: Floats, second: Floats) -> Floats:
        product = cv2.mulSpectrums(first, second, 0, conjB=True)
        return np.asarray(cv2.idft(product, flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE), np.float32)

    both = correlation(across, down)
    # The cross term at lag d is Rxy(d) + Ryx(d) = Rxy(d) + Rxy(−d).
    turned = np.roll(both[::-1, ::-1], (1, 1), axis=(0, 1))
    return correlation(across, across), correlation(down, down), np.asarray(both + turned, np.float32)


def _along(image: Floats, angle: float, lags: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """`image` (a wrapped-round correlation) read bilinearly at `lags` px along `angle` (degrees)."""
    rows, cols = image.shape
    xs = lags * np.cos(np.deg2rad(angle))
    ys = lags * np.sin(np.deg2rad(angle))
    x0, y0 = np.floor(xs).astype(np.int64), np.floor(ys).astype(np.int64)
    fx, fy = xs - x0, ys - y0

    def at(y: npt.NDArray[np.int64], x: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        return np.asarray(image[y % rows, x % cols], np.float64)

    return np.asarray(at(y0, x0) * (1 - fx) * (1 - fy) + at(y0, x0 + 1) * fx * (1 - fy)
                      + at(y0 + 1, x0) * (1 - fx) * fy + at(y0 + 1, x0 + 1) * fx * fy, np.float64)


def dips(strength: Mask, *, scale: int = 2, longest: int = 12, step: float = 7.5
         ) -> list[tuple[float, float]]:
    """For each direction (every `step` degrees of 0 … 180), the lag (px of the full sheet) at which the
    autocorrelation of the strength's gradient along it is lowest."""
    xx, yy, xy = _correlations(strength, scale, longest)
    lags = np.arange(0, longest + 1, dtype=np.float64)
    found = []
    for angle in np.arange(0.0, 180.0, step):
        c, s = np.cos(np.deg2rad(angle)), np.sin(np.deg2rad(angle))
        line = (c * c * _along(xx, angle, lags) + s * s * _along(yy, angle, lags)
                + c * s * _along(xy, angle, lags))
        k = int(np.argmin(line[1:])) + 1
        # A parabola through the lowest lag and its neighbours for where the dip lies between lags.
        lag = float(k)
        if k < longest:
            left, mid, right = line[k - 1], line[k], line[k + 1]
            bend = left - 2 * mid + right
            if bend > 0:
                lag = k + 0.5 * (left - right) / bend
        found.append((float(angle), lag * scale))
    return found


def smear_kernel(motion: Motion) -> Floats:
    """The smear as a convolution kernel: a straight line `motion.length` px long through the kernel's
    middle along `motion.angle`, its weight spread bilinearly between pixels, summing to 1."""
    half = int(np.ceil(motion.length / 2)) + 1
    size = 2 * half + 1
    kernel = np.zeros((size, size), np.float64)
    count = max(2, int(np.ceil(motion.length * 4)))
    steps = np.linspace(-motion.length / 2, motion.length / 2, count)
    xs = half + steps * np.cos(np.deg2rad(motion.angle))
    ys = half + steps * np.sin(np.deg2rad(motion.angle))
    x0, y0 = np.floor(xs).astype(np.int64), np.floor(ys).astype(np.int64)
    fx, fy = xs - x0, ys - y0
    np.add.at(kernel, (y0, x0), (1 - fx) * (1 - fy))
    np.add.at(kernel, (y0, x0 + 1), fx * (1 - fy))
    np.add.at(kernel, (y0 + 1, x0), (1 - fx) * fy)
    np.add.at(kernel, (y0 + 1, x0 + 1), fx * fy)
    return np.asarray(kernel / kernel.sum(), np.float32)


def unsmeared(strength: Mask, motion: Motion, *, noise: float = 0.02) -> Mask:
    """`strength` with `motion`'s smear taken back out (a Wiener filter: `noise` is the power of what
    cannot be recovered against the ink's, at every frequency)."""
    kernel = smear_kernel(motion)
    half = kernel.shape[0] // 2
    height, width = strength.shape
    rows = cv2.getOptimalDFTSize(height + 2 * half)
    cols = cv2.getOptimalDFTSize(width + 2 * half)
    # Paper is 0 strength: the sheet padded with paper, so the filter's wrap-round meets no edge.
    padded = np.zeros((rows, cols), np.float32)
    padded[:height, :width] = strength
    shifted = np.zeros((rows, cols), np.float32)
    shifted[:kernel.shape[0], :kernel.shape[1]] = kernel
    shifted = np.roll(shifted, (-half, -half), axis=(0, 1))
    image = cv2.dft(padded, flags=cv2.DFT_COMPLEX_OUTPUT)
    smear = cv2.dft(shifted, flags=cv2.DFT_COMPLEX_OUTPUT)
    power = smear[..., 0] ** 2 + smear[..., 1] ** 2
    # conj(K) / (|K|² + noise) applied to the image's spectrum.
    gain = np.empty_like(smear)
    gain[..., 0] = smear[..., 0] / (power + noise)
    gain[..., 1] = -smear[..., 1] / (power + noise)
    restored = cv2.idft(cv2.mulSpectrums(image, gain, 0), flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)
    return np.asarray(np.clip(np.rint(restored[:height, :width]), 0, 255), np.uint8)


def motion_from(found: list[tuple[float, float]]) -> tuple[float, float, float]:
    """(direction, its lag, the least lag) from `dips`: the direction where the lags' curve over the
    angles peaks, from its second circular harmonic (a smear stretches the dip most along itself, less and
    less away from it), and the lag there read off the curve."""
    angles = np.deg2rad(np.array([a for a, _ in found]))
    lags = np.array([lag for _, lag in found])
    turn = np.sum((lags - lags.mean()) * np.exp(2j * angles))
    direction = float(np.rad2deg(np.angle(turn)) / 2.0) % 180.0
    return direction, lag_at(found, direction), float(lags.min())


def lag_at(found: list[tuple[float, float]], direction: float) -> float:
    """The lag of `dips` at `direction` (degrees), read off the curve between its two nearest angles
    (wrapping at 180)."""
    step = 180.0 / len(found)
    position = direction / step
    low = int(np.floor(position)) % len(found)
    high = (low + 1) % len(found)
    share = position - np.floor(position)
    return float(found[low][1] * (1 - share) + found[high][1] * share)


SMEAR_GATE = 2.5
"""How much farther (px) the gradient's autocorrelation dips along the sheet's most smeared direction than
along its least (`dips`) before the photo is taken for shaken: photos in focus measure 0.3-1.9, out of
focus 0.2-1.7, shaken by 9-13 px 2.2-6.7 (bench_styles seed 5000)."""

SMEAR_LEAST = 9.0
"""The shortest smear (px, `dips`) taken back out: below it the dip lies where a stroke's width puts it."""

SMEAR_SHARE = 0.3
"""How much farther, as a share of the dip along the least smeared direction (about a stroke's width), the
dip along the most smeared one must lie too (`motion_of`): photos with a thick pen held still measure
0.17-0.26, shaken photos 0.31-1.17 (bench_styles thick and motion, seeds 5000, 20000, 21000)."""


def motion_of(strength: Mask, *, gate: float = SMEAR_GATE, least: float = SMEAR_LEAST,
              share: float = SMEAR_SHARE, scale: int = 2, longest: int = 12, writing: int = 5000
              ) -> Motion | None:
    """The smear of a shaken photo, from its ink's `strength`, or None when it was held still (`dips`
    along its most smeared direction less than `gate` px, or `share` of its least, farther than along
    its least, or less than `least` px, or the sheet holds under `writing` px of ink); `dips` looks
    `longest` px of the sheet shrunk `scale` times far."""
    # Decision: a smear is looked for only on a sheet with at least `writing` px of ink (strength ≥ 64, a
    # quarter darker than the paper), because on a few strokes alone the dips are the strokes' own shapes
    # (a lone upright stroke measured as a 24 px smear along it); a rectified sheet's drawn lines alone
    # hold tens of thousands.
    if np.count_nonzero(strength >= 64) < writing:
        return None
    found = dips(strength, scale=scale, longest=longest)
    direction, lag, shortest = motion_from(found)
    # Decision: the spread must also be `share` of the least dip, because a pen's stroke is not as wide
    # every way (a nib or a felt tip held at a slant), and that difference grows with the stroke: thick pens
    # held still spread 2.6-3.0 px, past `gate` alone, and their sheets, deblurred for nothing, rang into
    # extra pieces (bench_styles thick: 5000 photo 3, 20000 photo 3; an unseen seed's photo 55 % digits).
    if lag - shortest < max(gate, share * shortest) or lag < least:
        return None
    return Motion(angle=direction, length=lag, width=shortest)


SMEAR_KEPT = 0.7
"""The least share of a stroke's width (`Motion.width`) that taking the smear out may leave (`steadied`):
shaken photos keep 0.80-1.00 of it, thick pens held still but taken for shaken 0.55-0.76 (bench_styles
motion 5000, 20000; thick 5000, 20000, 24000)."""


SMEAR_ALONG = 0.93
"""The least share of a stroke's width (`Motion.width`) that the dip along the smear's direction may
measure once the smear is taken out (`steadied`): shaken photos 0.99-1.71 (bench_styles motion, the 71
cached photos of seeds 33000-45000), a thick pen held still on squared paper but taken for shaken 0.84-0.86
(45000 photo 0 in usual, small, glare and shadow)."""


def steadied(strength: Mask, *, kept: float = SMEAR_KEPT, along: float = SMEAR_ALONG) -> Mask:
    """`strength` with a shaken photo's smear taken back out (`motion_of`, `unsmeared`); as it is when the
    photo was held still, or when taking the smear out leaves the strokes under `kept` of their width
    across them or under `along` of it along the smear."""
    motion = motion_of(strength)
    if motion is None:
        return strength
    restored = unsmeared(strength, motion)
    # Decision: taking a smear out along its line leaves a stroke's width across it as it was, so where the
    # strokes measure much narrower afterwards (`dips` along the least smeared direction) the smear was not
    # the photo's, and the filter's ringing, not a sharper stroke, is what is measured: the restored sheet
    # is dropped. A thick pen held still passed `motion_of` (bench_styles thick 24000 photo 5: 99.55 → 27.93
    # % digits, 329 numbers read where nothing is written); its strokes measured 8.90 → 4.89 px.
    found = dips(restored)
    _, _, width = motion_from(found)
    # Decision: nor may it leave the strokes narrower along the smear than they were across it (their
    # width), because taking out a smear that was there leaves each stroke as the pen drew it, no
    # narrower than its width: one taken out where there was none over-corrects, and its ringing is what
    # is measured along it. Squared paper with a thick pen held still passed both tests above, its
    # strokes measured 6.9 px wide with a 9.6 px smear, and deblurred for nothing its grid rang into ink
    # all over the sheet (bench_styles 45000 photo 0: usual 11 of 35 digits, 109 numbers read where
    # nothing is written; the same in small, glare and shadow).
    if width < kept * motion.width or lag_at(found, motion.angle) < along * motion.width:
        return strength
    return restored
