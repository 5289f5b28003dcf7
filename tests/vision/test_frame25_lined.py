"""Lined paper's rulings divided out of the ink ratios (`_grid_flat.grid_free`, one family of lines, told
from a squared grid that lost a family: `_families`), and a pencil frame paler than the rulings found
there (`_frame_search._drawn_frame_in`).

A synthetic photo seen from above: paper whose rulings (one family, 14 px apart, 0.72-0.88 of the paper
by channel) run along the paper's side or across it, and a pencil frame (with an inner rectangle and its
spokes) 0.86 of the paper, turned 1.7 degrees off the rulings. (The rendered cases behind it:
bench_styles seeds 38000 and 39000, thin, photos 6 and 3: no sheet found, and 1861 px off.)
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision._arrays import F64, U8, u8
from sheetscan.vision._frame_search import _drawn_frame_in, fitted
from sheetscan.vision._grid_flat import _families, _pitch, grid_free
from sheetscan.vision._lines import dark_ratio
from tests.vision._squared_paper import PAPER, pencil_frame

_LINE_WIDTH = 3.6
_PITCH = 14


def _lined_photo(*, across: bool, rulings: bool = True) -> tuple[U8, F64, U8]:
    """The photo (BGR, 900 × 1200 px), its frame's corners and the rulings' pixels on the paper; the
    rulings run along the paper's left side, or across it (`across`)."""
    rng = np.random.default_rng(0)
    h, w = 1200, 900
    image = np.full((h, w, 3), 70.0)
    cv2.fillPoly(image, [PAPER.astype(np.int32)], (185, 200, 205))
    turn = float(np.arctan2(PAPER[1, 1] - PAPER[0, 1], PAPER[1, 0] - PAPER[0, 0]))
    along, side = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    step, run = (along, side) if across else (side, along)
    lines = np.zeros((h, w), np.uint8)
    for k in range(-5, 90):
        a, b = PAPER[0] + _PITCH * k * step - 200 * run, PAPER[0] + _PITCH * k * step + 1400 * run
        cv2.line(lines, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 255, 1)
    paper = np.zeros((h, w), np.uint8)
    cv2.fillPoly(paper, [PAPER.astype(np.int32)], 255)
    printed = ((lines > 0) & (paper > 0)).astype(np.uint8) * 255
    if rulings:
        image[printed > 0] *= np.array([0.85, 0.88, 0.72])
    frame, drawn = pencil_frame((h, w), turn + 0.03)
    image[drawn > 0] *= 0.86
    image += rng.normal(0.0, 2.0, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8), frame, printed


def _ratios(image: U8) -> dict[str, np.ndarray]:
    return {channel: dark_ratio(image, line_width=_LINE_WIDTH, channel=channel) for channel in ("min", "max")}


@pytest.mark.parametrize("across", [False, True])
def test_the_rulings_are_divided_out_and_the_paler_frame_kept(across: bool) -> None:
    image, frame, printed = _lined_photo(across=across)
    ratios = _ratios(image)
    flat = grid_free(ratios, cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert flat is not None
    drawn = np.zeros(image.shape[:2], np.uint8)
    cv2.polylines(drawn, [np.round(frame).astype(np.int32)], True, 255, 1)
    near_frame = cv2.dilate(drawn, np.ones((9, 9), np.uint8))
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(inside, [cv2.convexHull(PAPER.astype(np.int32))], 255)
    inside = cv2.erode(inside, np.ones((25, 25), np.uint8))
    ruling = (printed > 0) & (inside > 0) & (near_frame == 0) & (ratios["min"] < 0.9)
    # Before: the rulings are darker than the pencil (0.86); after, they are paper and the frame is
    # still a line, its sides along the rulings too.
    assert float(np.median(ratios["min"][ruling])) < 0.85
    assert float(np.median(flat["min"][ruling])) > 0.95
    assert float(np.median(flat["min"][drawn > 0])) < 0.9


@pytest.mark.parametrize("across", [False, True])
def test_a_pencil_frame_paler_than_the_rulings_is_found_with_them_divided_out(across: bool) -> None:
    image, frame, _ = _lined_photo(across=across)
    ratios = _ratios(image)
    dark = u8(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    flat = grid_free(ratios, dark)
    assert flat is not None

    def error(ink: dict[str, np.ndarray]) -> float:
        chosen = _drawn_frame_in(ink.__getitem__, dark, busy=False)
        assert chosen is not None
        corners = fitted(chosen, dark)
        return min(float(np.hypot(*(np.roll(corners, k, axis=0) - frame).T).max()) for k in range(4))

    # On the photo's own ratios the rulings join the frame and the paper's rim: the outline closed
    # there is over 100 px off; with the rulings divided out the frame is seen whole.
    assert error(ratios) > 50.0
    assert error(flat) < 4.0


def test_plain_paper_has_no_rulings_to_divide_out() -> None:
    image, _, _ = _lined_photo(across=False, rulings=False)
    assert grid_free(_ratios(image), cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)) is None


def _lines(*, across: bool, jitter: int = 0) -> U8:
    """A mask of lines 12 px apart, across rows, and (`across`) down the columns too, each column's line
    moved up to `jitter` px off its place."""
    rng = np.random.default_rng(5)
    mask = np.zeros((600, 600), np.uint8)
    for k in range(2, 48):
        cv2.line(mask, (20, 12 * k), (580, 12 * k), 255, 1)
        x = 12 * k + int(rng.integers(-jitter, jitter + 1))
        if across:
            cv2.line(mask, (x, 20), (x, 580), 255, 1)
    return mask


def test_rulings_alone_are_one_family() -> None:
    families = _families(_lines(across=False))
    assert families is not None and len(families) == 1
    theta, pitch = families[0]
    assert abs(np.sin(theta)) > 0.99 and pitch == 12.0


def test_a_grid_whose_other_family_falls_short_of_the_repeat_is_not_taken_for_rulings() -> None:
    # Columns a pixel off their places: they repeat near the rows' pitch, under the bar `_pitch` asks.
    mask = _lines(across=True, jitter=1)
    assert _pitch(mask, 0.0) is None
    assert _families(mask) is None
