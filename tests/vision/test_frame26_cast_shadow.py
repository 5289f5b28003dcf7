"""Stage 2 under a cast shadow with a soft straight edge: the preview's grey with the shadow's light divided
out (`_shadow_edge.shadow_lifted`), so that the frame search's cut to the bright paper
(`_drawn_frame._paper_only`) keeps the paper in shadow.

Synthetic previews (600 × 800 BGR): a paper (grey 220) on a streaked table (grey 70 on average), a frame
drawn on it, and a shadow over one side of a straight line across the whole photo keeping `_LIGHT` of the
light, its edge soft over about 3 % of the photo (bench_styles' shadow: 0.4-0.5 of the light, a penumbra
of 1.5-3 % of the sheet's side). The truth is the drawing's own: where the paper and the shadow lie. (The
rendered cases behind them: bench_styles seed 37000, shadow, photo 6, and seed 38000, photo 3, where the
frame's part in shadow was cut off with the table and the lit part taken for the sheet: 764 and 694 px
off.)
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._drawn_frame import _paper_only
from sheetscan.vision._lines import dark_ratio, ridges_only
from sheetscan.vision._shadow_edge import shadow_lifted

_SIZE = (600, 800)
_PAPER = np.array([[180.0, 90.0], [640.0, 70.0], [660.0, 530.0], [170.0, 545.0]])
_FRAME = np.array([[230.0, 140.0], [590.0, 125.0], [605.0, 480.0], [225.0, 490.0]])
_LINE_WIDTH = 2.4  # the preview's lines' width (`sheet`: 0.003 of the longer side, at least 2)
_LIGHT = 0.45
_SHADOW_EDGE = ((0.0, 330.0), (800.0, 150.0))  # the directed line; everything left of it is in shadow


def _photo(*, shadow: bool, seed: int = 3) -> np.ndarray:
    """The paper with its frame (grey pencil, 3 px) on a table streaked along its rows, and, with
    `shadow`, everything left of `_SHADOW_EDGE` (the side towards the photo's top) at `_LIGHT`."""
    rng = np.random.default_rng(seed)
    streaks = cv2.GaussianBlur(rng.normal(0.0, 1.0, _SIZE).astype(np.float32), (0, 0), sigmaX=20, sigmaY=1)
    image = np.repeat((70.0 * (1.0 + 0.25 * streaks / streaks.std()))[..., None], 3, axis=2)
    cv2.fillPoly(image, [_PAPER.astype(np.int32)], (220.0, 220.0, 220.0))
    cv2.polylines(image, [_FRAME.astype(np.int32)], True, (130.0, 130.0, 130.0), 3, cv2.LINE_AA)
    if shadow:
        image *= _light()[..., None]
    return np.clip(image + rng.normal(0.0, 2.0, (*_SIZE, 1)), 0, 255).astype(np.uint8)


def _depth() -> np.ndarray:
    """Each pixel's distance (px) to the right of `_SHADOW_EDGE` (negative: in the shadow)."""
    (ax, ay), (bx, by) = _SHADOW_EDGE
    ys, xs = np.mgrid[0 : _SIZE[0], 0 : _SIZE[1]].astype(np.float32)
    length = float(np.hypot(bx - ax, by - ay))
    return ((bx - ax) * (ys - ay) - (by - ay) * (xs - ax)) / length


def _light() -> np.ndarray:
    """The light's share at each pixel: `_LIGHT` in the shadow, 1 in the light, a logistic penumbra
    between (as bench_styles draws it, its scale 1 % of the photo's longer side)."""
    cover = 1.0 / (1.0 + np.exp(4.0 * np.clip(_depth() / 8.0, -10, 10)))
    return (1.0 - (1.0 - _LIGHT) * cover).astype(np.float32)


def _paper_mask() -> np.ndarray:
    paper = np.zeros(_SIZE, np.uint8)
    cv2.fillPoly(paper, [_PAPER.astype(np.int32)], 255)
    return paper > 0


def _grey_and_steps(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The preview's grey and the dark side of its steps in the light, as `_frame_search` gives them."""
    ratio = dark_ratio(image, line_width=_LINE_WIDTH, channel="min")
    ridged = ridges_only(image, ratio, line_width=_LINE_WIDTH, channel="min")
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return grey, cv2.compare(ridged, ratio, cv2.CMP_GT)


def _away_from_lines(depth_min: float) -> tuple[np.ndarray, np.ndarray]:
    """The paper and the table in the shadow, over `depth_min` px from the shadow's edge and 12 px from
    the paper's edge and the frame."""
    depth = _depth()
    paper = _paper_mask()
    lines = np.zeros(_SIZE, np.uint8)
    cv2.polylines(lines, [_PAPER.astype(np.int32), _FRAME.astype(np.int32)], True, 255, 25)
    clear = (lines == 0) & (depth < -depth_min)
    return paper & clear, ~paper & clear


def test_the_shadows_light_is_divided_out_on_paper_and_table_alike() -> None:
    grey, steps = _grey_and_steps(_photo(shadow=True))
    unlit = np.median(cv2.cvtColor(_photo(shadow=False), cv2.COLOR_BGR2GRAY)[_away_from_lines(40.0)[0]])
    paper, table = _away_from_lines(40.0)
    # The premise: the paper in shadow is at under half the lit paper's grey.
    assert float(np.median(grey[paper])) < 0.5 * float(unlit)
    lifted = shadow_lifted(grey, steps)
    assert lifted is not None
    # Lifted, the paper in shadow is as bright as the lit paper (220), the table as the lit table (70),
    # within the light's share at the profile's reach (a few %).
    assert abs(float(np.median(lifted[paper])) - 220.0) < 0.08 * 220.0
    assert abs(float(np.median(lifted[table])) - 70.0) < 0.12 * 70.0
    # The lit part is left as it was.
    lit = (_depth() > 40.0)
    assert float(np.abs(lifted[lit].astype(float) - grey[lit].astype(float)).mean()) < 2.0


def test_a_photo_without_a_shadow_has_nothing_lifted() -> None:
    # The paper's own edges are steps too (the table beyond them darker), but the lines along them run
    # on over the table, table on both sides: no shadow's edge.
    grey, steps = _grey_and_steps(_photo(shadow=False))
    assert np.count_nonzero(steps) > 0
    assert shadow_lifted(grey, steps) is None


def test_the_cut_to_the_paper_keeps_the_paper_in_shadow_once_lifted() -> None:
    # The cause behind the rendered cases: the cut to the bright paper takes the paper in shadow for
    # the table, and the frame's part there is cut off with it.
    grey, steps = _grey_and_steps(_photo(shadow=True))
    everything = np.full(_SIZE, 255, np.uint8)
    paper, _ = _away_from_lines(40.0)
    cut = _paper_only(everything, grey)
    assert cut is not None
    assert float(np.mean(cut[paper] > 0)) < 0.1
    lifted = shadow_lifted(grey, steps)
    assert lifted is not None
    cut = _paper_only(everything, lifted)
    assert cut is not None
    assert float(np.mean(cut[paper] > 0)) > 0.95
    # ... and still leaves the table out.
    _, table = _away_from_lines(40.0)
    assert float(np.mean(cut[table] > 0)) < 0.05


def test_a_paper_edge_across_the_whole_photo_is_no_shadows_edge() -> None:
    # The paper fills the photo's width, the table a strip above its top edge (slightly slanted): the
    # table is darker than the paper all along that edge, as a shadow's dark side is, but the lit side
    # is the paper everywhere, never the table.
    rng = np.random.default_rng(7)
    streaks = cv2.GaussianBlur(rng.normal(0.0, 1.0, _SIZE).astype(np.float32), (0, 0), sigmaX=20, sigmaY=1)
    image = np.repeat((70.0 * (1.0 + 0.25 * streaks / streaks.std()))[..., None], 3, axis=2)
    paper = np.array([[-20.0, 110.0], [820.0, 80.0], [820.0, 620.0], [-20.0, 620.0]])
    cv2.fillPoly(image, [paper.astype(np.int32)], (220.0, 220.0, 220.0))
    cv2.polylines(image, [_FRAME.astype(np.int32)], True, (130.0, 130.0, 130.0), 3, cv2.LINE_AA)
    photo = np.clip(image + rng.normal(0.0, 2.0, (*_SIZE, 1)), 0, 255).astype(np.uint8)
    grey, steps = _grey_and_steps(photo)
    assert shadow_lifted(grey, steps) is None
