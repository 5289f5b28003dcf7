"""The paper's own printed lines in the mask that stage 3 measures the drawn lines on: lined or squared
paper's rulings, a fold, a ruled margin, found where they run on past the drawn frame into the margins
on both sides, and erased (`without_rulings`); and the share of a segment on ink (`coverage`), which
both this and `_layout_fit.measure` look along.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.vision._arrays import F64, U8, f64, u8
from sheetscan.vision._lines import opening, runs_of, without_crossed
from sheetscan.vision._threads import in_background

__all__ = ["coverage", "without_rulings"]


def coverage(mask: U8, a: F64, b: F64, *, samples: int = 48, tolerance: int = 0) -> float:
    """Share of points on the segment a→b that lie on ink."""
    h, w = mask.shape
    t = np.linspace(0.0, 1.0, samples)[:, None]
    pts = a + t * (b - a)
    x = np.clip(pts[:, 0].round().astype(int), 0, w - 1)
    y = np.clip(pts[:, 1].round().astype(int), 0, h - 1)
    if tolerance:
        d = (b - a) / max(float(np.hypot(*(b - a))), 1e-9)
        normal = np.array([-d[1], d[0]])
        # Every offset across the segment at once (rows), each place as `off * normal` moves it.
        offs = np.arange(-tolerance, tolerance + 1)[:, None]
        xo = np.clip((pts[None, :, 0] + offs * normal[0]).round().astype(int), 0, w - 1)
        yo = np.clip((pts[None, :, 1] + offs * normal[1]).round().astype(int), 0, h - 1)
        return float((mask[yo, xo] > 0).any(axis=0).mean())
    return float((mask[y, x] > 0).mean())


def without_rulings(mask: U8, frame: tuple[float, float, float, float], slack: int) -> U8:
    """`mask` without the paper's own straight lines: the rulings of lined or squared paper, a fold or
    the ruled margin, wherever they show at the lines' level (a fine pen's lines are as faint as they).

    A drawn line ends at the outer rectangle; a line of the paper runs on past it into the margin on
    both sides. A straight line is taken where ink crosses both margin strips (left and right for a
    horizontal one, above and below for a vertical one) and runs (nearly) all the way between them; where
    one strip is hidden (a shadow, the table, the paper's edge fill it with "ink"), a line crossing the
    other strip that runs all the way to just inside the frame's far side. Its pixels are erased, except
    where a drawn line crosses it (ink on both sides of it there, other than the paper's lines the other
    way), so the drawn lines are not cut.
    """
    left, top, right, bottom = frame
    turned = np.ascontiguousarray(mask.T)  # the vertical lines as rows
    # Decision: the vertical lines are looked for (and, below, kept off the drawn lines) in a second
    # thread while this one does the horizontal ones, because each way looks only at `mask` and the
    # other way's lines, and OpenCV and numpy let go of the GIL; what is erased is the same.
    aside = in_background(lambda: _lines_across(turned, top, bottom, slack))
    rows = _lines_across(mask, left, right, slack)
    cols = aside.result()

    def erased(m: U8, lines: list[Ruling], others: list[Ruling]) -> U8 | None:
        if not lines:
            return None
        # Decision: a paper's line crossing another paper's line (squared paper's grid) does not keep
        # it, as a drawn line crossing it does, because every crossing of the grid kept a cross of it,
        # 2 `slack` wide, at every node: a diagonal through the mesh of crosses, with the slack beside
        # it, was seen along 0.77-0.9 of a bare corner (bench_styles seed 37000, dark, photo 3).
        if others:
            m = u8(cv2.bitwise_and(m, cv2.bitwise_not(_drawn_across(m.shape, others))))
        return _erase_lines(m, lines)

    later = in_background(lambda: erased(turned, cols, rows))
    out = mask.copy()
    across, along = erased(mask, rows, cols), later.result()
    for erase in (across, None if along is None else u8(along.T)):
        if erase is not None:
            out = u8(cv2.bitwise_and(out, cv2.bitwise_not(erase)))
    return out


Ruling = tuple[int, int, int]
"""A paper's line found by `_lines_across`: its row at the first column, its row at the last, its width."""


def _drawn_across(shape: tuple[int, ...], lines: list[Ruling]) -> U8:
    """The other way's row-wise `lines` (found in the image turned a quarter) drawn at their widths on an
    empty image of `shape`, where they run column-wise."""
    drawn = np.zeros(shape[:2], np.uint8)
    for a, b, line_width in lines:
        cv2.line(drawn, (a, 0), (b, shape[0] - 1), 255, line_width)
    return drawn


def _erase_lines(m: U8, lines: list[Ruling]) -> U8:
    """The pixels of row-wise `lines` of `m` to erase: each drawn at its width, except where a drawn line
    crosses it (ink a little above and below it there, `without_crossed`, as far off as the line is wide).

    Decision: a line more than twice as wide as the lines' middle width is left out of the others' look,
    and looked at alone in its own rows (as far off as it is wide, as far along as they), because the
    crossings were looked for as far off and along as the widest line made them: a run of the margin
    strip widened by a mark printed beside one line of squared paper (28 px where the lines showed 12)
    made every line's crossings as wide as the grid's pitch, and no line was erased at all; the grid's
    lines, left whole along one way, were taken for the rectangles' sides (bench_styles seed 37000,
    dark, photo 3: the sheet read turned by a quarter).
    """
    h, w = m.shape
    widths = sorted(line[2] for line in lines)
    typical = widths[len(widths) // 2]
    erase = np.zeros_like(m)
    wide = [line for line in lines if line[2] > 2 * typical]
    ordinary = [line for line in lines if line[2] <= 2 * typical]
    for a, b, line_width in ordinary:
        cv2.line(erase, (0, a), (w - 1, b), 255, line_width)
    # A drawn line crossing the paper's line has ink a little above and below it there: kept.
    d = max(line[2] for line in ordinary) // 2 + 2
    erase = without_crossed(erase, m, off=d, reach=2 * d)
    reach = 2 * d
    for a, b, line_width in wide:
        d = line_width // 2 + 2
        r0 = max(0, min(a, b) - line_width - d - 1)
        r1 = min(h, max(a, b) + line_width + d + 2)
        alone = np.zeros((r1 - r0, w), np.uint8)
        cv2.line(alone, (0, a - r0), (w - 1, b - r0), 255, line_width)
        alone = without_crossed(alone, np.ascontiguousarray(m[r0:r1]), off=d, reach=reach)
        erase[r0:r1] = np.maximum(erase[r0:r1], alone)
    return erase


def _lines_across(m: U8, lo: float, hi: float, slack: int) -> list[Ruling]:
    """The rows-wise lines of `m` that run past the frame's sides at columns `lo` and `hi` (see
    `without_rulings`), each with its width."""
    h, w = m.shape
    length = hi - lo
    width = int(lo - 2 * slack)  # the margin strips, clear of a hand-drawn frame's overshoot at the corners
    lines: list[Ruling] = []
    if width < 5 or int(hi + 2 * slack) + width > w:
        return lines
    # Decision: thickened along the lines too (by `slack`), so a ruling as faint as the lines' level,
    # which the mask holds only in dashes, is still one run across the margin strip and one line across
    # the paper: thickened across only, squared paper's dashed grid was never erased and crossed every
    # whist band, read as spokes on every side (bench_styles seed 16000 photo 3, usual: standard-4 for a
    # standard-3 sheet). A drawn line ends at the frame, and `slack` more does not carry it into the strip.
    thick = u8(cv2.dilate(m, cv2.getStructuringElement(cv2.MORPH_RECT, (slack, slack))))
    run = cv2.getStructuringElement(cv2.MORPH_RECT, (max(3, int(0.8 * width)), 1))

    def crossing(x0: int) -> tuple[list[tuple[int, int]], NDArray[np.bool_]]:
        # Runs of rows that ink crosses straight (not a line along the strip, nor a fold's shadow or a
        # digit), no wider than a line; and the rows under wider runs (the strip hidden there).
        share = (opening(np.ascontiguousarray(thick[:, x0:x0 + width]), run) > 0).mean(axis=1)
        hidden = np.zeros(h, bool)
        for r0, r1 in runs_of(share >= 0.5):
            if r1 - r0 + 1 > 3 * slack:  # (and a line at its edge, cut short where the strip's hidden)
                hidden[max(0, r0 - slack):r1 + slack + 1] = True
        return [r for r in runs_of(share >= 0.8) if r[1] - r[0] + 1 <= 3 * slack], hidden

    near_x, far_x = 1, w - 1 - width
    near_in, far_in = int(lo + 2 * slack), int(hi - 2 * slack)
    starts, start_hidden = crossing(near_x)
    ends, end_hidden = crossing(far_x)
    # (from, origins, targets as (run, the column it is seen at)) for both ways round: margin to margin
    # (once), and margin to just inside the frame's far side where the far margin is hidden.
    tries = [
        (near_x, starts, [(e, far_x + width) for e in ends]
         + [(e, far_in) for e in crossing(far_in - width)[0] if end_hidden[(e[0] + e[1]) // 2]]),
        (far_x + width, ends,
         [(e, near_in) for e in crossing(near_in)[0] if start_hidden[(e[0] + e[1]) // 2]]),
    ]
    for x_from, origins, targets in tries:
        for s0, s1 in origins:
            a = (s0 + s1) / 2
            best: tuple[int, float] | None = None
            best_cover = 0.9
            for (e0, e1), x_end in targets:
                b = (e0 + e1) / 2
                if abs(b - a) > 0.1 * length:
                    continue
                cover = coverage(thick, f64([x_from, a]), f64([x_end, b]), samples=max(48, int(length // 8)))
                if cover >= best_cover:
                    best, best_cover = (x_end, b), cover
            if best is None:
                continue
            line_width = max(3, s1 - s0 + 1 - slack + 3)  # its own width (the strip saw it thickened)
            x_end, b = best
            slope = (b - a) / (x_end - x_from)
            lines.append((round(a - slope * x_from), round(a + slope * (w - 1 - x_from)), line_width))
    return lines
