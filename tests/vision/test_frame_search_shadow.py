"""Stage 2 under a hard shadow: which of two outlines, the first search's and the one found again on the
ridges (`_frame_search._drawn_better`), is the sheet's frame; and how much of the photo the paper covers
when a shadow darkens part of it (`_paper.paper_box`).

Small synthetic ratio images (400 × 400: 1 = paper, 0.3 = ink, as `dark_ratio` gives them); the outlines
are built by hand; small synthetic photos of a paper on a table. (The rendered cases behind them:
bench_styles seed 17000, shadow, photo 2, where the shadow's edge crosses a frame drawn whole and the search
on the ridges found the paper's rim; photos 4 and 6, where only the lit part of the paper was taken for the
paper, so that the sheet looked far and that part was searched first; seed 30000, shadow, photo 1, a far
sheet whose lit part alone was searched.)
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision._frame_search import _drawn_better, _on_step
from sheetscan.vision._paper import paper_box
from sheetscan.vision._quad import FrameCandidate, quad_area
from sheetscan.vision.photo import Photo, load_photo
from sheetscan.vision.sheet import _FAR_FIRST

_FRAME = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 300.0], [100.0, 300.0]])
_PAPER = np.array([[40.0, 40.0], [360.0, 40.0], [360.0, 360.0], [40.0, 360.0]])


def _ratio() -> np.ndarray:
    """Paper with the frame drawn whole (3 px), and the paper's rim drawn on three sides whole and on the
    fourth (the bottom) for 80 % of its length."""
    ratio = np.ones((400, 400), np.float32)
    cv2.polylines(ratio, [_FRAME.astype(np.int32)], True, 0.3, 3)
    rim = _PAPER.astype(np.int32)
    for a, b in ((rim[0], rim[1]), (rim[1], rim[2]), (rim[3], rim[0])):
        cv2.line(ratio, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 0.3, 3)
    cv2.line(ratio, (40, 360), (296, 360), 0.3, 3)
    return ratio


def _grey() -> np.ndarray:
    """The preview's grey that `_drawn_better` fits the outlines in: the paper (200) on a dark table (60)."""
    grey = np.full((400, 400), 60, np.uint8)
    cv2.fillPoly(grey, [_PAPER.astype(np.int32)], 200)
    return grey


def _outline(quad: np.ndarray, ratio: np.ndarray) -> tuple[FrameCandidate, np.ndarray]:
    mask = np.where(ratio < 0.78, 255, 0).astype(np.uint8)
    area = quad_area(quad)
    return FrameCandidate(quad=quad, coverage=1.0, area=area, touches=()), mask


def test_a_frame_drawn_whole_keeps_its_place_beside_a_larger_outline() -> None:
    ratio = _ratio()
    # The frame as the first search found it: its corners 8 px out of its lines (the outside of its
    # blob), so that its sides as found lie off the ink; the larger outline is the paper's rim.
    found = _FRAME + np.array([[-8.0, -8.0], [8.0, -8.0], [8.0, 8.0], [-8.0, 8.0]])
    chosen, again = _outline(found, ratio), _outline(_PAPER, ratio)
    assert not _drawn_better(again, chosen, ratio, ratio, _grey())
    # ... and the rim drawn whole as well: both sides as drawn, no side of the frame on a step.
    whole = ratio.copy()
    cv2.line(whole, (296, 360), (360, 360), 0.3, 3)
    assert not _drawn_better(_outline(_PAPER, whole), _outline(found, whole), whole, whole, _grey())


def test_the_larger_outline_wins_where_a_step_made_a_side_of_the_first() -> None:
    # The first outline: the frame cut short at y = 200 by a shadow's edge, which the ratios see as a
    # band of ink across the sheet (0.4); the outline found again is the frame.
    ratio = _ratio()
    ratio[198:203, 60:340] = 0.4
    cut = np.array([[100.0, 200.0], [300.0, 200.0], [300.0, 300.0], [100.0, 300.0]])
    chosen, again = _outline(cut, ratio), _outline(_FRAME, _ratio())
    # On the ridges the band is paper (the frame's lines crossing it kept): the cut side is undrawn.
    ridged = ratio.copy()
    ridged[198:203, 60:340] = 1.0
    ridged[198:203, 98:103] = 0.3
    ridged[198:203, 298:303] = 0.3
    assert _drawn_better(again, chosen, ratio, ridged, _grey())
    # Where the band's ratio was only raised to ink at the ridges' level (a soft penumbra), both are
    # drawn whole on the ridges: the larger wins, as the cut side lies on the step ...
    ridged[198:203, 60:340] = 0.8
    assert _drawn_better(again, chosen, ratio, ridged, _grey())
    # ... and not where the band is a drawn line (no step: the ridges are the ratios).
    assert not _drawn_better(again, chosen, ratio, ratio, _grey())


def test_a_larger_outline_drawn_worse_does_not_win() -> None:
    ratio = _ratio()
    # The first outline: the frame whose top side lies along a step (`ridged` above `ratio` there) but
    # is ink on the ridges as well; the larger one is the rim with its bottom side 80 % drawn.
    stepped = ratio.copy()
    stepped[97:104, 100:300] = 0.2
    chosen, again = _outline(_FRAME, ratio), _outline(_PAPER, ratio)
    assert not _drawn_better(again, chosen, stepped, ratio, _grey())


# --- the paper's share of the photo under a cast shadow (`_paper.paper_box`) --------------------------------

_PHOTO = (1200, 1600)
_PAPER_BOX = (400, 250, 1200, 950)  # left, top, right, bottom: 800 × 700 px, 0.29 of the photo


def _photo(table: tuple[int, int, int]) -> Photo:
    """A paper (warm white) on a table of colour `table` (BGR), the right 40 % of the paper and everything
    right of it in a hard shadow keeping 0.45 of the light, its edge a few pixels soft."""
    image = np.full((*_PHOTO, 3), table, np.float32)
    left, top, right, bottom = _PAPER_BOX
    image[top:bottom, left:right] = (215, 228, 232)
    edge = left + 0.6 * (right - left)
    light = np.where(np.arange(_PHOTO[1]) < edge, 1.0, 0.45).astype(np.float32)
    light = cv2.GaussianBlur(np.tile(light, (_PHOTO[0], 1)), (0, 0), 4.0)
    grain = np.random.default_rng(5).normal(0.0, 2.0, image.shape)
    shaded = np.clip(image * light[..., None] + grain, 0, 255).astype(np.uint8)
    return load_photo(_encoded(shaded))


def _encoded(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image)
    assert ok
    return bytes(data.tobytes())


def test_the_paper_in_a_shadow_counts_for_its_share_of_the_photo() -> None:
    # The lit part alone covers 480 × 700 px, 0.175 of the photo: a sheet that far would be looked for
    # in that part first (under `_FAR_FIRST`). With its shadowed part (0.45 of the light, the paper's
    # colour) it is the whole paper, 0.29 of the photo (the preview's pixels: within 2 %).
    found = paper_box(_photo((60, 110, 50)))  # green felt
    assert found is not None
    assert found[1] == pytest.approx(800 * 700 / (1600 * 1200), rel=0.03)
    assert found[1] > _FAR_FIRST


def test_the_box_searched_reaches_over_the_paper_in_a_shadow() -> None:
    # The lit part's box with its margin (a tenth of 700 px) ends at x = 880 + 70: the paper's shaded
    # right part (to x = 1200), where a frame's side lies, would be left out of the region searched.
    found = paper_box(_photo((60, 110, 50)))
    assert found is not None
    left, top, right, bottom = found[0]
    assert right >= _PAPER_BOX[2]
    assert left <= _PAPER_BOX[0] and top <= _PAPER_BOX[1] and bottom >= _PAPER_BOX[3]


def test_specks_of_a_dark_tables_grain_do_not_stretch_the_box() -> None:
    # A lit paper on a dark table whose grain has a chain of small specks (16 px, 0.55 of the paper's
    # grey, its colour) running down from the paper's bottom edge: they join the paper as "shadowed
    # paper" and count for its share, but they are no paper, and the box searched stays the paper's
    # with its margin (a tenth of 800 px below its bottom at 950).
    image = np.full((*_PHOTO, 3), (50, 55, 60), np.uint8)
    left, top, right, bottom = _PAPER_BOX
    image[top:bottom, left:right] = (215, 228, 232)
    for k in range(9):
        x, y = 700 + 12 * k, bottom + 8 + 28 * k
        image[y:y + 16, x:x + 16] = (120, 125, 128)
    found = paper_box(load_photo(_encoded(image)))
    assert found is not None
    assert found[0][3] <= bottom + 0.1 * (right - left) + 8


def test_a_grey_table_as_dark_as_shadowed_paper_is_not_taken_for_paper() -> None:
    # A grey table at 0.45 of the paper's light has the shadowed paper's grey and (nearly) its colour:
    # the region grown runs over the whole table, which is no paper, so the lit part's share is kept.
    found = paper_box(_photo((100, 104, 106)))
    assert found is not None
    assert found[1] == pytest.approx(480 * 700 / (1600 * 1200), rel=0.05)
    assert found[0][2] < _PAPER_BOX[2]  # nor does the box searched reach over the table


def test_a_step_just_outside_the_outline_is_met() -> None:
    # A shadow's edge (a band "ink" on the ratios, paper on the ridges) running 5 px above the outline's
    # top side, neither along a side (within 2 px) nor inside it: the frame cut to the lit paper along a
    # chord close to the band. 40 px away it is some other edge, not the outline's.
    ratio = _ratio()
    chosen = _outline(_FRAME, ratio)
    for row, met in ((95, True), (60, False)):
        stepped, ridged = ratio.copy(), ratio.copy()
        stepped[row - 1 : row + 2, 100:300] = 0.4
        assert _on_step(chosen, stepped, ridged, size=400, line_width=3.0) is met
