"""Squared paper's printed grid (or lined paper's rulings) divided out of the preview's ink ratios, where it
hides a faint frame.

A pencil frame on squared paper may be paler than the grid (a ratio to the paper of 0.83-0.85 against
the grid's 0.86-0.88, unseen seed 29000, photo 4, thin): at every level that shows the frame whole the
grid joins it into one mesh, and at the darker levels the frame breaks up. Colour does not tell them
apart there (each channel's darkness differs by under 0.04 on both). What does is that the grid is
printed: straight lines at one pitch in two directions over the whole paper. Seen through a small window
of the preview (a tile), its lines are parallel and evenly spaced, so every pixel's place in the pitch
(its phase) says how dark the grid is there; the median ratio of the tile's pixels at each phase is the
grid's template (writing and drawn lines, at no fixed phase, move a median little), and dividing a
pixel's ratio by its two families' template values leaves paper where only the grid was and keeps a
drawn line, also where it crosses the grid. Lined paper's rulings are one such family alone.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.vision._arrays import F64, U8, u8
from sheetscan.vision._rulings import autocorrelation, peaks

__all__ = ["grid_free"]

_GRID_LEVEL = 0.9
"""The grid's lines are darker than this share of the paper (printed grids seen: 0.86-0.88)."""
_PHASES = 16
"""The pitch is cut into this many phases for the template."""
_TILE = 64
"""The preview is flattened in tiles this many px on a side ..."""
_PAD = 32
"""... each looked at with this many px round it (more of the grid's lines: a steadier pitch)."""
_PITCH = (4, 30)
"""The grid's pitch in px of the preview (a 5 mm grid on a sheet filling 35-100 % of the photo)."""
_REPEAT = 0.5
"""The ink across each family of lines repeats at the pitch at least this well (its autocorrelation)."""
_SAME_PITCH = 0.3
"""The two families' pitches are one within this share (a square grid, foreshortened by the view)."""


def grid_free(ratios: dict[str, NDArray[np.float32]], gray: U8, *, rulings: bool = True
              ) -> dict[str, NDArray[np.float32]] | None:
    """`ratios` (a channel's ratio to the paper, by channel) with the squared paper's printed grid or the
    lined paper's rulings (only with `rulings`) divided out (see the module's docstring), or None when the
    preview `gray` shows no such lines on its paper.
    The tiles' grid geometry is found on the "min" channel and used for every channel."""
    darkest = ratios["min"]
    paper = _paper(gray)
    if paper is None:
        return None
    lines = u8(((darkest < _GRID_LEVEL) & (paper > 0)).astype(np.uint8) * 255)
    families = _families(lines)
    if families is None or (len(families) == 1 and not rulings):
        return None
    flat = {channel: ratio.copy() for channel, ratio in ratios.items()}
    h, w = darkest.shape
    for y0 in range(0, h, _TILE):
        for x0 in range(0, w, _TILE):
            if float(np.mean(paper[y0:y0 + _TILE, x0:x0 + _TILE] > 0)) < 0.1:
                continue
            _flatten_tile(ratios, flat, paper, families, (y0, x0))
    return flat


def _paper(gray: U8) -> U8 | None:
    """The paper: the largest bright region of `gray` (Otsu), filled out to its convex hull and drawn in
    from its edge; None when it is under a tenth of the preview."""
    blurred = cv2.GaussianBlur(gray, (0, 0), 3)
    _, bright = cv2.threshold(blurred, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = cv2.erode(bright, np.ones((9, 9), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(bright)
    if count < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[largest, cv2.CC_STAT_AREA] < 0.1 * gray.size:
        return None
    points = np.argwhere(labels == largest)[:, ::-1].astype(np.int32)
    paper = np.zeros_like(gray)
    cv2.fillPoly(paper, [cv2.convexHull(points).reshape(-1, 2)], 255)
    return u8(cv2.erode(paper, np.ones((9, 9), np.uint8)))


def _families(lines: U8) -> list[tuple[float, float]] | None:
    """The grid's families of lines in the ink `lines` as (the angle of their normal, radians; their
    pitch, px): the most common straight-line angle (mod 90°) and the one at right angles, each with the
    pitch its ink repeats at, or the one of them that repeats (`_REPEAT`: lined paper's rulings); None
    when neither repeats or the two pitches differ."""
    found = cv2.HoughLines(lines, 1, np.pi / 360, threshold=int(0.15 * max(lines.shape)))
    if found is None:
        return None
    angles = np.degrees(found[:200, 0, 1]) % 90
    counts = np.histogram(angles, bins=180, range=(0, 90))[0].astype(np.float64)
    counts = np.convolve(np.r_[counts[-2:], counts, counts[:2]], np.ones(5), "valid")
    mode = (float(np.argmax(counts)) + 0.5) * 0.5
    # The mode's bin is a half degree wide and smoothed over five: the lines' own angles near it say
    # where in it they lie (a quarter degree off smears the lines' profile by 4 px over the paper).
    offsets = (angles - mode + 45) % 90 - 45
    first = np.radians(mode + float(np.median(offsets[np.abs(offsets) <= 1.5])))
    pitches = [(theta, _pitch(lines, theta)) for theta in (first, first + np.pi / 2)]
    families = [(theta, pitch) for theta, pitch in pitches if pitch is not None]
    # Decision: lined paper's rulings, one family repeating and none at right angles to it, are divided
    # out alone, because a pencil frame paler than the rulings is joined to them wherever it shows whole
    # as a squared grid joins it: at the faintest levels the rulings, the frame and the paper's rim
    # closed outlines along the paper's edge or a ruling, or none (bench_styles seeds 38000 and 39000,
    # thin, photos 6 and 3: no sheet, 1861 px off), while with the rulings divided out the frame is seen
    # whole (18 and 10 px). A frame's side along the rulings stays: it is one of the several lines at its
    # phase in a tile, and the template is their median.
    # Decision: not where the lines at right angles to the family repeat near its pitch all the same
    # (`_near_pitch`), because that is a square grid whose other family fell short of `_REPEAT` (the
    # far part foreshortened): one family divided out of squared paper left the other, and the outline
    # closed on it was taken, 120 px off (bench_styles seed 35000, thin, photo 5: 0.34 at 1.2 pitches;
    # rulings 0.17 at most, seeds 36000-44000).
    if not families or (len(families) == 1 and _near_pitch(lines, families[0], pitches)):
        return None
    if len(families) == 2:
        (_, one), (_, other) = families
        if abs(one - other) > _SAME_PITCH * max(one, other):
            return None
    return families


def _near_pitch(lines: U8, family: tuple[float, float], pitches: list[tuple[float, float | None]]) -> bool:
    """Whether the ink of `lines` across the direction at right angles to `family` (its normal angle and
    pitch; `pitches` both directions' normal angles) repeats within `_SAME_PITCH` of the family's pitch
    at `_REPEAT` / 2 at least (an autocorrelation peak there)."""
    theta, pitch = family
    other = next(angle for angle, _ in pitches if angle != theta)
    low, high = max(1, int(np.floor(pitch * (1 - _SAME_PITCH)))), int(np.ceil(pitch * (1 + _SAME_PITCH)))
    ac = _repeats(lines, other, high + 1)
    # A peak, not only a high value: the ink along the rulings' length changes smoothly, and a smooth
    # profile correlates with itself at short lags without repeating.
    return ac is not None and any(ac[lag] >= _REPEAT / 2 for lag in peaks(ac, low, high))


def _repeats(lines: U8, theta: float, longest: int) -> F64 | None:
    """The autocorrelation (lags 0 .. `longest`) of the ink of `lines` summed along the normal angle
    `theta`, less its slow change; None where there is too little of it."""
    ys, xs = np.nonzero(lines)
    if len(xs) == 0:
        return None
    rho = xs * np.cos(theta) + ys * np.sin(theta)
    profile = np.bincount((rho - rho.min()).astype(int)).astype(np.float64)
    if len(profile) < 4 * _PITCH[1]:
        return None
    # The slow change of the ink along the profile (the paper's outline, the writing's bands) is taken
    # away: only the lines' repeat is wanted.
    profile = profile - np.convolve(profile, np.ones(31) / 31, "same")
    centred = profile - profile.mean()
    energy = float(np.dot(centred, centred))
    if energy <= 0:
        return None
    return autocorrelation(centred, energy, longest)


def _pitch(lines: U8, theta: float) -> float | None:
    """The shortest lag within `_PITCH` at which the ink of `lines` summed along the normal angle `theta`
    repeats (an autocorrelation peak reaching `_REPEAT` and 0.7 of the highest), or None."""
    low, high = _PITCH
    ac = _repeats(lines, theta, high + 1)
    if ac is None:
        return None
    found = peaks(ac, low, high)
    if not found:
        return None
    top = max(float(ac[lag]) for lag in found)
    if top < _REPEAT:
        return None
    return float(min(lag for lag in found if ac[lag] >= 0.7 * top))


def _flatten_tile(ratios: dict[str, NDArray[np.float32]], flat: dict[str, NDArray[np.float32]], paper: U8,
                  families: list[tuple[float, float]], corner: tuple[int, int]) -> None:
    """Divide the grid out of the tile at `corner` (top, left) of every ratio in `ratios`, into `flat`:
    each family's angle and pitch fitted on the tile's window (`_fitted`), the template the median ratio
    of the window's paper pixels at each phase, relative to the median over the phases."""
    y0, x0 = corner
    h, w = paper.shape
    top, left = max(0, y0 - _PAD), max(0, x0 - _PAD)
    rows, cols = np.mgrid[top:min(h, y0 + _TILE + _PAD), left:min(w, x0 + _TILE + _PAD)]
    ys, xs = rows.ravel(), cols.ravel()
    on_paper = paper[ys, xs] > 0
    darkness = 1.0 - ratios["min"][ys, xs].astype(np.float64)
    phases = []
    for theta, pitch in families:
        # The fit looks at every other pixel both ways: as good a fit at a quarter of the cost.
        sample = on_paper & (ys % 2 == 0) & (xs % 2 == 0)
        angle, step = _fitted(darkness[sample], xs[sample], ys[sample], theta, pitch)
        phases.append(_phase(xs, ys, angle, step))
    core = (ys >= y0) & (ys < y0 + _TILE) & (xs >= x0) & (xs < x0 + _TILE)
    for channel, ratio in ratios.items():
        values = ratio[ys, xs].astype(np.float64)
        template = np.ones(len(values))
        for phase in phases:
            medians = _medians(values[on_paper], phase[on_paper])
            template *= np.minimum(medians / max(float(np.median(medians)), 1e-3), 1.0)[phase]
        flat[channel][ys[core], xs[core]] = np.minimum(values[core] / np.maximum(template[core], 0.3), 1.0)


def _medians(values: F64, phase: NDArray[np.int64]) -> F64:
    """The median of `values` at each phase (1, paper, at a phase no pixel has)."""
    order = np.lexsort((values, phase))
    ranked, phases = values[order], phase[order]
    ends = np.searchsorted(phases, np.arange(_PHASES + 1))
    medians = np.ones(_PHASES)
    for k in range(_PHASES):
        if ends[k + 1] > ends[k]:
            medians[k] = float(ranked[(ends[k] + ends[k + 1] - 1) // 2])
    return medians


def _phase(xs: NDArray[np.int64], ys: NDArray[np.int64], angle: float, pitch: float) -> NDArray[np.int64]:
    """Each pixel's phase (0 .. `_PHASES` - 1) in a family of lines of normal angle `angle` and `pitch`."""
    return _phase_along(_along(xs, ys, angle), pitch)


def _along(xs: NDArray[np.int64], ys: NDArray[np.int64], angle: float) -> F64:
    """Each pixel's distance along the normal of angle `angle` (from the origin)."""
    rho: F64 = xs * np.cos(angle) + ys * np.sin(angle)
    return rho


def _phase_along(rho: F64, pitch: float) -> NDArray[np.int64]:
    """The phase (0 .. `_PHASES` - 1) of each distance `rho` along a family's normal, at `pitch`."""
    phase: NDArray[np.int64] = ((rho / pitch) % 1.0 * _PHASES).astype(np.int64) % _PHASES
    return phase


def _contrasts(darkness: F64, xs: NDArray[np.int64], ys: NDArray[np.int64], pairs: list[tuple[float, float]]
               ) -> F64:
    """How much darker the darkest phase of a family of lines is than the median phase, for each (normal
    angle, pitch) in `pairs`, all at once.

    Decision: every pair's phases go into one `bincount` (each pair's bins offset by `_PHASES`), and the
    median of the phases' means is the mean of the two middle ones, because `_fitted` weighs some 47 pairs
    in each of a few hundred windows, and one call a pair (with `np.median`'s overhead on 16 numbers) was
    most of `grid_free`'s time; each bin still sums its pixels in the same order, so every contrast, and
    the pair chosen, is the same as one pair at a time.
    """
    rho = {angle: _along(xs, ys, angle) for angle, _ in pairs}
    phases = np.stack([_phase_along(rho[angle], pitch) for angle, pitch in pairs])
    bins = (phases + _PHASES * np.arange(len(pairs))[:, None]).ravel()
    size = _PHASES * len(pairs)
    counts = np.bincount(bins, minlength=size).reshape(len(pairs), _PHASES)
    sums = np.bincount(bins, weights=np.tile(darkness, len(pairs)), minlength=size)
    sums = sums.reshape(len(pairs), _PHASES)
    means = np.sort(sums / np.maximum(counts, 1), axis=1)
    middle = (means[:, _PHASES // 2 - 1] + means[:, _PHASES // 2]) / 2
    contrasts: F64 = means[:, -1] - middle
    return contrasts


def _fitted(darkness: F64, xs: NDArray[np.int64], ys: NDArray[np.int64], theta: float, pitch: float
            ) -> tuple[float, float]:
    """The angle and pitch near `theta` and `pitch` at which the window's darkness folds sharpest
    (`_contrasts`), coarse to fine: the view turns and foreshortens the grid across the paper."""
    def best(angles: F64, pitches: F64) -> tuple[float, float]:
        pairs = [(float(a), float(p)) for a in angles for p in pitches]
        return pairs[int(np.argmax(_contrasts(darkness, xs, ys, pairs)))]

    angle, _ = best(theta + np.radians(np.arange(-2.0, 2.01, 0.5)), np.array([pitch]))
    _, step = best(np.array([angle]), pitch * np.arange(0.85, 1.151, 0.02))
    angle, _ = best(angle + np.radians(np.arange(-0.5, 0.51, 0.125)), np.array([step]))
    _, step = best(np.array([angle]), step * np.arange(0.97, 1.031, 0.005))
    return angle, step
