"""Stage 2 for a hand-drawn sheet: the closed outlines of ink that may be the drawn outer rectangle.

`find_frames` (`_quad`) gives the closed four-sided outlines seen at one ink level; these helpers cut
the ink to the paper where that separates a frame from the paper's rim, and keep the outlines worth
choosing among (`frame_candidates`, `dashed_candidates`), with the tests both they and the choice ask
(`votes`, `whole`, `within`). `_frame_choice.choose_frame` chooses the drawn frame among those seen at
several ink levels.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._arrays import F64, U8, u8
from sheetscan.vision._lines import runs_of, without_crossed
from sheetscan.vision._quad import (
    FrameCandidate,
    find_frames,
    side_coverage,
    without_rims,
)

__all__ = ["closed", "dashed_candidates", "frame_candidates", "votes", "whole", "within"]


def _paper_only(mask: U8, dark: U8, *, sharp: bool = False) -> U8 | None:
    """The ink mask cut to the bright paper, when the paper stands out clearly from the table.

    A frame drawn close to the paper's edge touches the dark outline that the table makes around the
    paper, and with a textured table everything merges into one blob; cutting the mask to the paper
    separates them. Only used when the photo splits clearly into bright paper and a darker table.
    `sharp` finds the paper's edge at full resolution (its drawn lines filled in by a closing) instead
    of on a blurred quarter-size copy, whose edge may fall a few pixels inside the paper and cut off
    a frame side drawn that close to it.
    """
    if sharp:
        small = dark
    else:
        small = u8(cv2.resize(dark, (max(1, dark.shape[1] // 4), max(1, dark.shape[0] // 4)),
                              interpolation=cv2.INTER_AREA))
        small = u8(cv2.GaussianBlur(small, (0, 0), 2.0))
    _, paper = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright, darker = small[paper > 0], small[paper == 0]
    if bright.size < 0.1 * small.size or darker.size < 0.05 * small.size:
        return None
    if float(darker.mean()) > 0.8 * float(bright.mean()):
        return None
    if sharp:
        # Lines and writing are darker than the paper too: close them (they are thin) into it.
        reach = max(3, round(0.0125 * max(dark.shape)))
        paper = cv2.morphologyEx(paper, cv2.MORPH_CLOSE, np.ones((reach, reach), np.uint8))
        paper = cv2.erode(paper, np.ones((3, 3), np.uint8))
    else:
        paper = cv2.resize(paper, (dark.shape[1], dark.shape[0]), interpolation=cv2.INTER_NEAREST)
        paper = cv2.erode(paper, np.ones((5, 5), np.uint8))
    return u8(cv2.bitwise_and(mask, paper))


def frame_candidates(mask: U8, dark: U8, *, sharp_cut: bool = False) -> list[tuple[FrameCandidate, U8]]:
    """The best drawn-frame outline in `mask`, and, when that is not whole, in `mask` cut to the paper:
    to the bright paper (`_paper_only`), and without the table's rim along the paper's edges
    `find_frames` dropped (`without_rims`); `sharp_cut`: also in `mask` cut to the paper found at full
    resolution (`_paper_only(sharp=True)`). Only outlines with near right corners, or running off the photo.
    """
    mask = closed(mask)
    edges: list[F64] = []
    frames = _best_and_whole(find_frames(mask, gray=dark, edges=edges), mask)
    if not frames or not whole(frames[0][0]):
        paper = _paper_only(mask, dark)
        cut_to_paper = _best_and_whole(find_frames(paper, gray=dark), paper) if paper is not None else []
        frames += cut_to_paper
        if edges:
            # Decision: the rim is also cleared off along the paper's edge itself, because
            # `_paper_only` needs a table clearly darker than the paper (0.8 of it; on a light table
            # a frame joined to the rim was lost with it: bench_styles seed 6000, thin and far, photo
            # 2) and its paper, found on a blurred copy, may end a few px inside the paper (a frame's
            # side drawn that close to the edge was cut, and an outline made up of inner lines taken:
            # seed 9000, thick, photo 0). An outline the paper cut found too is not counted twice
            # among the levels `_frame_choice.choose_frame` weighs (that one is kept).
            cut = without_rims(mask, dark, edges)
            size = max(mask.shape)
            frames += [c for c in _best_and_whole(find_frames(cut, gray=dark), cut)
                       if votes(c[0], [f for f, _ in cut_to_paper], size) == 0]
    if sharp_cut:
        sharp = _paper_only(mask, dark, sharp=True)
        if sharp is not None:
            frames += _best_and_whole(find_frames(sharp, gray=dark), sharp)
    found = [_inside_ruling(frame, dark) for frame in frames]
    # Decision: an outline clear of the photo's edges with a corner over `_CORNER_SLACK` off a right
    # angle is dropped, as outlines closed by joined dashes are (`_square_cornered`), because a drawn
    # rectangle photographed from any angle we read keeps its corners near right ones, while the paper's
    # edges closed by a drawn line slanting across the sheet make a sliver (a frame low on squared paper,
    # its faint sides lost, the spokes through the circle one straight line from the paper's corner:
    # a corner of 38 degrees, taken for the frame, 2086 px off: seed 16000, small, photo 0, rendered with
    # the frame at the paper's end). One running off the photo may have a corner cut by the edge: kept.
    square = [c for c in found if c[0].touches or _square_cornered(c[0].quad)]
    return _once(square, max(mask.shape))


def _once(found: list[tuple[FrameCandidate, U8]], size: int) -> list[tuple[FrameCandidate, U8]]:
    """The outlines `found` at one ink level, each once: one with every corner within 1.5 % of the size
    of an outline before it (`votes`) is that outline found again in a cut of the same ink, and dropped.

    Decision: because `choose_frame` takes the outline seen at the most ink levels for the drawn frame,
    and an outline found both in the level's ink and in its cut to the paper counted as two levels: a
    kite of grid lines and spokes seen at one level (twice) beat the frame drawn whole at another
    (bench_styles seed 24000, motion, photo 0: 1659 px off).
    """
    kept: list[tuple[FrameCandidate, U8]] = []
    for outline in found:
        if votes(outline[0], [k[0] for k in kept], size) == 0:
            kept.append(outline)
    return kept


_DASH_VOTES = 0.06  # a straight run of dashes: this share of the size in ink along it (Hough votes) ...
_DASH_LENGTH = 0.12  # ... spanning this share of the size ...
_DASH_GAP = 0.02  # ... with no gap wider than this share of the size
_DASHED_SIDE = 0.5  # each side of an outline closed by joined dashes lies on them along this share at least


def dashed_candidates(mask: U8, dark: U8) -> list[tuple[FrameCandidate, U8]]:
    """The whole outlines in `mask` cut to the paper (found at full resolution) once its straight runs
    of dashes are joined into lines, each with the mask they were found in (the joined one).

    Decision: a frame drawn in fine pencil shows only in dashes at every ink level (a line at 0.86-0.92
    of the paper's brightness, broken up by the paper's grain), so no level closes it into an outline;
    the dashes of one side lie on one straight line, so each straight run of ink (`_DASH_VOTES` of the
    size in ink over at least `_DASH_LENGTH` of it, no gap over `_DASH_GAP`) is drawn in as a line and
    the outlines looked for again (bench_styles seed 11000, thin, photo 1: no result before). Only on
    the paper (the table's texture holds long straight runs too), and only whole outlines whose every
    side lies on the unjoined dashes along `_DASHED_SIDE` of it (within 2 px at the preview) count: an
    outline closed by joined runs of writing and parts of the frame's inner lines follows ink only
    roughly (0.17-0.22 on its worst side, thin 10006 of bench_styles seed 10000; the fine pencil frame of
    thin 11001 0.98).
    """
    mask = closed(mask)
    paper = _paper_only(mask, dark, sharp=True)
    if paper is None:
        return []
    size = max(mask.shape)
    segments = cv2.HoughLinesP(paper, 1, np.pi / 360, round(_DASH_VOTES * size),
                               minLineLength=_DASH_LENGTH * size, maxLineGap=_DASH_GAP * size)
    if segments is None:
        return []
    joined = paper.copy()
    for x0, y0, x1, y1 in np.asarray(segments).reshape(-1, 4).tolist():
        cv2.line(joined, (int(x0), int(y0)), (int(x1), int(y1)), 255, 1)
    found = [c for c in _best_and_whole(find_frames(joined, gray=dark), joined)
             if whole(c[0]) and _square_cornered(c[0].quad)
             and min(side_coverage(paper, c[0].quad, tolerance=max(2.0, 0.002 * size))) >= _DASHED_SIDE]
    return [_inside_ruling(frame, dark) for frame in found]


_CORNER_SLACK = 45.0
"""Degrees a photographed rectangle's corner may differ from a right angle (generous: a sheet photographed
at a steep angle keeps its corners well within it)."""


def _square_cornered(quad: F64) -> bool:
    """Whether every corner of `quad` is within `_CORNER_SLACK` of a right angle.

    Decision: asked of an outline closed by joined dashes, because the straight runs joined there
    also come from a table's grain or a texture, whose outlines are slivers (corners of 7° and 170°
    seen on a synthetic wooden table), while a drawn rectangle photographed from any sensible angle
    keeps its corners near right angles.
    """
    for k in range(4):
        u, v = quad[k - 1] - quad[k], quad[(k + 1) % 4] - quad[k]
        cosine = float(np.dot(u, v)) / max(1e-9, float(np.linalg.norm(u) * np.linalg.norm(v)))
        if abs(np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0))) - 90.0) > _CORNER_SLACK:
            return False
    return True


_RULED = 4
"""Lines running edge to edge of an outline, all one way, that make it the ruling of the paper."""


def _inside_ruling(found: tuple[FrameCandidate, U8], dark: U8) -> tuple[FrameCandidate, U8]:
    """The outline found inside `found` once the paper's ruling is erased from its ink, when `found` is
    the ruled part of the paper; else `found` itself.

    Decision: an outline crossed from side to opposite side by `_RULED` or more parallel lines is the
    paper's ruling (the rulings of lined or squared paper run from one edge of the paper to the other,
    and join the frame, the paper's edges and the first and last rulings into one outline), not the
    drawn frame: no line of a drawn sheet crosses its frame edge to edge. The frame is then the whole
    outline left inside it (up to 2.5 % of the size past it: the frame's side may lie just beyond the
    first or last ruling), over half its area, once those lines are erased (where no drawn line crosses
    them); when none is left, the outline stays as found (bench_styles seed 11000, photo 5: a pencil
    frame on lined paper read as the block of rulings between the paper's edges, in 9 of 10 styles).
    Rulings are looked for in rows of the outline seen straight on (its homography), so only rulings
    nearly parallel to two of its sides are found; tried and dropped: a straight-line search (Hough)
    that also finds rulings slanting across the outline, four times slower on a sheet's ink for two
    photos more.
    """
    frame, mask = found
    if frame.touches:
        return found
    erase = _ruling(mask, frame.quad)
    if erase is None:
        return found
    cleaned = closed(u8(cv2.bitwise_and(mask, cv2.bitwise_not(erase))))
    size = max(mask.shape)
    inside = [c for c in find_frames(cleaned, gray=dark)
              if whole(c) and c.area > 0.5 * frame.area and within(c.quad, frame.quad, 0.025 * size)]
    return (max(inside, key=lambda c: c.area), cleaned) if inside else found


def _ruling(mask: U8, quad: F64) -> U8 | None:
    """The lines of `mask` that run edge to edge of the outline `quad` (seen straight on), when
    `_RULED` or more of them run one way, as a mask of the pixels to erase (where no drawn line
    crosses them); None when the outline is not ruled."""
    width = round(float(np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[2] - quad[3]))) / 2)
    height = round(float(np.hypot(*(quad[3] - quad[0])) + np.hypot(*(quad[2] - quad[1]))) / 2)
    if min(width, height) < 50:
        return None
    rect = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.float32)
    to_rect = cv2.getPerspectiveTransform(quad.astype(np.float32), rect)
    seen = u8(cv2.warpPerspective(mask, to_rect, (width, height), flags=cv2.INTER_NEAREST))
    erase = np.zeros_like(seen)
    ruled = False
    for transposed in (False, True):
        m = np.ascontiguousarray(seen.T) if transposed else seen
        rows, cols = m.shape
        # A ruling may slant by a pixel or two across the outline and break into dashes at a faint level.
        gap = max(3, round(0.01 * cols))
        thick = cv2.dilate(m, np.ones((3, 1), np.uint8))
        thick = cv2.morphologyEx(thick, cv2.MORPH_CLOSE, np.ones((1, gap), np.uint8))
        on = thick > 0
        end = max(2, round(0.02 * cols))
        full = (on.mean(axis=1) >= 0.9) & on[:, :end].any(axis=1) & on[:, -end:].any(axis=1)
        lines = [(a, b) for a, b in runs_of(full) if b - a + 1 <= max(4, round(0.01 * rows))]
        inner = [(a, b) for a, b in lines if 0.03 * rows < (a + b) / 2 < 0.97 * rows]
        if len(inner) < _RULED:
            continue
        ruled = True
        out = np.zeros_like(m)
        for a, b in lines:
            out[max(0, a - 2):b + 3] = m[max(0, a - 2):b + 3]
        # A drawn line crossing a ruling has ink a little above and below it there: kept.
        d = max(3, round(0.006 * rows))
        out = without_crossed(out, m, off=d, reach=d)
        erase = u8(cv2.bitwise_or(erase, out.T if transposed else out))
    if not ruled:
        return None
    return u8(cv2.warpPerspective(erase, to_rect, (mask.shape[1], mask.shape[0]),
                                  flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP))


def closed(mask: U8) -> U8:
    """Grainy pencil lines break up at the preview's size; a small closing joins them again."""
    return u8(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)))


def _best_and_whole(found: list[FrameCandidate], mask: U8) -> list[tuple[FrameCandidate, U8]]:
    """The best outline `find_frames` gives, and every other fully drawn one clear of the edges.

    Decision: a whole outline that is not the biggest is kept for `choose_frame`, because the biggest
    may be a half-seen outline running off the photo (paper and card edges joined to the drawn lines)
    while the fully drawn frame is a component of its own beside it.
    """
    return [(frame, mask) for i, frame in enumerate(found) if i == 0 or whole(frame)]


def whole(frame: FrameCandidate) -> bool:
    """A fully drawn outline clear of the photo's edges."""
    return not frame.touches and frame.coverage >= 0.9


def within(inner: F64, outer: F64, slack: float) -> bool:
    """True when every corner of `inner` lies inside `outer` or within `slack` px of it."""
    polygon = outer.astype(np.float32)
    return all(cv2.pointPolygonTest(polygon, (float(x), float(y)), True) >= -slack for x, y in inner)


def votes(frame: FrameCandidate, frames: list[FrameCandidate], size: int) -> int:
    """How many of `frames` (itself included) have all four corners within 1.5 % of the size of its."""
    return sum(float(np.hypot(*(f.quad - frame.quad).T).max()) < 0.015 * size for f in frames)
