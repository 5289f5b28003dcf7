"""Stage 3 of reading a photo, the drawn lines: the level at which a sheet's drawn lines are cut from
the paper (`lines_mask`, `line_contrast`: as dark as the frame is drawn, clear of the paper's own marks),
and the sides of the frame drawn along the paper's edge, with the table's rim beyond them (`rim_sides`,
`cleared_beyond`, `drawn_at_rims`)."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.vision._arrays import U8, u8
from sheetscan.vision._layout_fit import Measured
from sheetscan.vision._lines import below, dark_ratio
from sheetscan.vision._threads import in_background

__all__ = ["cleared_beyond", "drawn_at_rims", "line_contrast", "lines_mask", "rim_sides"]


def lines_mask(image: U8, frame: tuple[float, float, float, float], line_width: float, *, band: int
                ) -> tuple[U8, NDArray[np.float32], float, NDArray[np.float32], bool]:
    """The ink of the drawn lines (and the writing), at a level set by the frame's own darkness; also
    the ratio and threshold it was cut at, the darkest channel's ratio (what the ink stage reads), and
    whether the lines are faint in it (paler than 0.7 of the paper: cut near their own level, they
    show in dashes).

    On squared or lined notebook paper the printed rulings may be about as dark as a pencil frame;
    they are coloured (blue, violet, red) while pencil and pens are darker in every channel, so when
    the sheet's inside is crowded with "ink", the brightest channel is used instead of the darkest.
    """
    left, top, right, bottom = (round(v) for v in frame)
    found: dict[str, tuple[float, NDArray[np.uint8], NDArray[np.float32], float, float, bool]] = {}
    plain = False

    def measured(channel: str) -> tuple[NDArray[np.float32], float]:
        ratio = dark_ratio(image, line_width=line_width, channel=channel)
        # Decision: the grid's darker quarter is kept clear of in the darkest channel only: in the
        # brightest one the cap below keeps the cut under a grid's lines, and lowered further by them there
        # it showed less ink for that alone, was chosen, and the lines were cut at 0.749 instead of 0.825
        # (bench seed 1000, photo 15: digits 97.5 % -> 90.7 %).
        return ratio, line_contrast(ratio, frame, band=band, quarter=channel == "min")

    # Decision: the brightest channel's ratio and contrast are measured in a second thread while this one
    # measures the darkest's, because the two need nothing from each other (OpenCV and numpy let go of the
    # GIL): the same numbers, ~10 ms a 12 MP photo off this thread.
    brightest = in_background(lambda: measured("max"))
    for channel in ("min", "max"):
        ratio, halfway = measured("min") if channel == "min" else brightest.result()
        if channel == "min":
            plain = _plain_paper(ratio, frame, band=band)
        # Rulings keep ~0.85-0.9 of the paper's brightness in the brightest channel: stay below them.
        # Decision: only where the paper shows marks: on plain paper there is nothing to stay below, and
        # cut there the brightest channel showed less ink only because it lost a sheet's pale grey inner
        # lines (its frame gone over darker), so it was chosen, and the paper's fold was taken for a spoke
        # (bench_styles seed 9000, blur, photo 3: 0.052 ink at 0.8 against the darkest channel's 0.079 at
        # 0.868).
        contrast = min(halfway, 0.8) if channel == "max" and not plain else halfway
        candidate = below(ratio, contrast)
        inside = candidate[top:bottom, left:right]
        found[channel] = (float(np.count_nonzero(inside)) / max(1, inside.size), candidate, ratio, contrast,
                          _frame_seen(candidate, frame, band=band), halfway > 0.85)
    # Decision: the brightest channel only when it shows clearly less "ink" (under two thirds): then
    # coloured rulings were part of it; otherwise the darkest, which keeps light coloured pens.
    # Decision: and only when it still shows the frame about as fully (0.8 of the places the darkest
    # channel sees it): a fine or pale pen's lines are as faint as the rulings in that channel, and then
    # it showed less ink because it lost the lines themselves (no inner rectangle was found).
    chosen = ("max" if found["max"][0] < 0.67 * found["min"][0] and found["max"][4] >= 0.8 * found["min"][4]
              else "min")
    _, mask, ratio, contrast, _, faint = found[chosen]
    return u8(mask), ratio, contrast, found["min"][2], faint


def _frame_places(frame: tuple[float, float, float, float], band: int, inward: float = 0.0
                  ) -> list[tuple[float, float, float, float]]:
    """The windows across the outer rectangle's sides where its line is sampled (x0, x1, y0, y1): 24
    places along each side, each `band` px either side of it, moved `inward` px towards the middle."""
    left, top, right, bottom = frame
    places = []
    for t in np.linspace(0.1, 0.9, 24):
        x, y = left + t * (right - left), top + t * (bottom - top)
        places += [(x, x, top + inward - band, top + inward + band),
                   (x, x, bottom - inward - band, bottom - inward + band),
                   (left + inward - band, left + inward + band, y, y),
                   (right - inward - band, right - inward + band, y, y)]
    return places


def _window(shape: tuple[int, ...], place: tuple[float, float, float, float]) -> tuple[slice, slice]:
    """The pixels of `place` (x0, x1, y0, y1), each end clamped to the image and cut to a whole pixel."""
    h, w = shape[0] - 1, shape[1] - 1
    x0, x1, y0, y1 = place
    return slice(_clamped(y0, h), _clamped(y1, h) + 1), slice(_clamped(x0, w), _clamped(x1, w) + 1)


def _clamped(value: float, last: int) -> int:
    """int(max(0, min(last, value))), written out: `_window` is called ~670 times a photo, and min() and
    max() of a numpy float take twice as long (a NaN goes to `last`, as with min and max)."""
    return int(value) if 0 < value < last else (0 if value < last else last)


def _darkest_at(ratio: NDArray[np.float32], frame: tuple[float, float, float, float], band: int,
                inward: float = 0.0) -> list[np.float32]:
    """The darkest ratio in each window across the outer rectangle's sides (`_frame_places`), as float32
    (the medians and quantiles taken of them are float32's, as they always were)."""
    return [ratio[_window(ratio.shape, p)].min() for p in _frame_places(frame, band, inward)]


def _plain_paper(ratio: NDArray[np.float32], frame: tuple[float, float, float, float], *, band: int) -> bool:
    """Whether the paper just inside the frame shows no marks of its own: nearly every place sampled 3 bands
    inside the frame (all but a twentieth, which writing may reach) keeps `_PLAIN` of the paper's
    brightness at its darkest pixel. A ruling or a grid passes through a fifth to a half of them, at 0.8-0.9
    in the darkest channel; a clean paper's grain keeps 0.97-0.99."""
    inside = _darkest_at(ratio, frame, band, inward=3 * band)
    return float(np.quantile(inside, 0.05)) >= _PLAIN


_PLAIN = 0.95
"""The darkest a clean paper's own grain comes to, as a ratio to the paper (`_plain_paper`)."""


def _frame_seen(mask: U8, frame: tuple[float, float, float, float], *, band: int) -> float:
    """Share of the places sampled across the outer rectangle's sides where `mask` has ink."""
    places = _frame_places(frame, band)
    return sum(bool(mask[_window(mask.shape, p)].any()) for p in places) / len(places)


def line_contrast(ratio: NDArray[np.float32], frame: tuple[float, float, float, float], *,
                   band: int, quarter: bool = True) -> float:
    """The ink threshold for this sheet's lines: halfway between their darkness and the paper.

    The outer rectangle lies where stage 2 put it; its darkest value across each sampled place is the
    pen's darkness. Halfway to the paper keeps every drawn line and drops what is much fainter (the
    printed grid of squared paper, show-through from the other side). With `quarter`, the cut also
    stays clear of the marks a quarter of the places just inside the frame see (a grid's darker lines).
    """
    line = float(np.median(_darkest_at(ratio, frame, band)))
    # Decision: clamp to 0.6..0.85 so a very dark pen still admits slightly lighter strokes of the same
    # pen, and a missing frame sample (line not where expected) cannot make everything ink.
    contrast = min(0.85, max(0.6, (1.0 + line) / 2.0))
    # The paper as the same windows see it 3 bands inside the frame, where the whist zones' paper mostly
    # is: a window's darkest pixel there is the paper's own darkest mark (its grain, a printed grid).
    inside = _darkest_at(ratio, frame, band, inward=3 * band)
    paper = float(np.median(inside))
    if contrast < 0.85:
        # Decision: where the paper's own marks come as close as _PAPER_CLEARANCE to the cut (a pencil
        # line on squared paper in a dark photo: the grid reached 0.86 with the cut at 0.84, and showed
        # in dashes everywhere, read as whist splits and spokes: bench_styles seed 8000, dark, photo 5),
        # the cut is halfway between the line and those marks instead, because halfway to a clean
        # paper's 1.0 no longer keeps them out. Only marks paler than _PAPER_MARKS (as light as the
        # printed rulings usually keep): halfway to darker ones (a grid at 0.72-0.75 in the brightest
        # channel) came too close to a pen's own paler stretches and lost a freehand sheet's lines
        # (seed 7000, photo 2, in four styles).
        # Decision: where the marks half the places see stay clear of the cut, those a quarter of them see
        # must too, because a window sees a grid only where one of its lines passes through it, and a
        # grid's lines differ (bolder ones every few squares, a printed grid fading in and out): the
        # median place saw the paler lines at 0.841 with the cut at 0.796, a quarter saw marks at 0.815
        # and under, and the grid showed in dashes, read as splits and spokes everywhere (photo 10000 of
        # seed 10000 read as standard-4 in seven styles). The median first: halfway to the darker
        # quarter's marks where the median's already come close cut a pencil's paler stretches (dark
        # 8005: 0.760 instead of 0.773 lost the gora rectangle's side).
        for marks in (paper, float(np.quantile(inside, 0.25))) if quarter else (paper,):
            if line < marks < contrast + _PAPER_CLEARANCE and marks >= _PAPER_MARKS:
                return (line + marks) / 2.0
        return contrast
    # A pale or fine line (a fine pen's or a hard pencil's stroke blurred over a few pixels keeps 0.85-0.9
    # of the paper's brightness): halfway to the paper as the same windows see it just inside the frame,
    # where the whist zones' paper mostly is (a window's darkest pixel there is the paper's grain).
    # Decision: the level rises above 0.85 only as far as that, and only when the line is darker than
    # that paper: a missing frame still cannot make the paper's grain ink.
    return max(contrast, (line + paper) / 2.0) if line < paper else contrast


_PAPER_CLEARANCE = 0.03
"""How far above the ink cut the paper's own darkest marks must stay (in the ratio to the paper) for the
cut halfway between the line and a clean paper to be kept."""

_PAPER_MARKS = 0.8
"""The darkest marks of the paper (a printed grid, rulings, grain), as a ratio to the paper, that the ink
cut is moved away from (`line_contrast`)."""


_BEYOND = {"left": (0, -1), "top": (1, -1), "right": (0, 1), "bottom": (1, 1)}
"""Per side of the outer rectangle: its axis (0 = x, 1 = y) and which way is outwards."""


def rim_sides(image: U8, frame: tuple[float, float, float, float], *, band: int) -> tuple[str, ...]:
    """The sides of the outer rectangle beyond which the rectified image is no longer paper: there
    stage 2 took the paper's edge (the table beyond it) for the drawn side.

    Beyond a drawn side lies the paper's bare rim; beyond the paper's edge, the table or the floor. The
    grey level of the margin beyond the side (the middle 80 % of it) is compared with the paper's just
    inside it (clear of the side's own line).
    """
    grey = u8(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)) if image.ndim == 3 else image
    h, w = grey.shape
    sides = dict(zip(("left", "top", "right", "bottom"), frame, strict=True))
    out = []
    for side, (axis, outwards) in _BEYOND.items():
        at = sides[side]
        extent = (h if axis == 1 else w) - 1
        room = extent - at if outwards > 0 else at
        if room < 3 * band:
            continue
        lo, hi = (sides["top"], sides["bottom"]) if axis == 0 else (sides["left"], sides["right"])
        along = slice(round(lo + 0.1 * (hi - lo)), round(hi - 0.1 * (hi - lo)))
        beyond = _strip_grey(grey, axis, along, at + outwards * band, at + outwards * (room - 1))
        inside = _strip_grey(grey, axis, along, at - outwards * 4 * band, at - outwards * 2 * band)
        # Decision: under 0.7 of the paper's grey: shadows and uneven light across a sheet's rim stay
        # above that (the dark_ratio of the ink stage calls 0.84 of the paper "faint ink").
        if beyond < 0.7 * inside:
            out.append(side)
    return tuple(out)


def _strip_grey(grey: U8, axis: int, along: slice, a: float, b: float) -> float:
    """The median grey of the strip between `a` and `b` across `axis` (0 = columns, 1 = rows)."""
    a_i, b_i = sorted((round(a), round(b)))
    block = grey[a_i:b_i, along] if axis == 1 else grey[along, a_i:b_i]
    return float(np.median(block)) if block.size else 0.0


def cleared_beyond(mask: U8, frame: tuple[float, float, float, float], rims: tuple[str, ...], *,
                    band: int) -> U8:
    """`mask` with everything from a band inside each rim side outwards cleared (the paper's edge)."""
    if not rims:
        return mask
    out = mask.copy()
    sides = dict(zip(("left", "top", "right", "bottom"), frame, strict=True))
    for side in rims:
        axis, outwards = _BEYOND[side]
        cut = max(0, round(sides[side] - outwards * band))
        rows = out if axis == 1 else out.T  # (a view: clearing its rows clears the mask's columns)
        if outwards > 0:
            rows[cut:] = 0
        else:
            rows[:cut] = 0
    return out


def drawn_at_rims(measured: Measured, rims: tuple[str, ...]) -> tuple[float, float, float, float]:
    """The outer rectangle with each rim side moved onto the drawn side seen inside it, if seen: the
    frame's line near the rim, or, further in, the first of three lines seen from that side (two are
    the pulka's and gora's rectangles: the frame drawn on the paper's very edge was cleared with it)."""
    sides = list(measured.frame)
    for side in rims:
        index = ("left", "top", "right", "bottom").index(side)
        seen = measured.drawn_frame[index]
        inner = (measured.lines_from or {}).get(side, ())
        if seen != measured.frame[index]:
            sides[index] = seen
        elif len(inner) >= 3:
            sides[index] = inner[0]
    return (sides[0], sides[1], sides[2], sides[3])


# --- turning upright ---------------------------------------------------------------------------------------
