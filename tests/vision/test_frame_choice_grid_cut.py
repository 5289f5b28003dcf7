"""The whole outline of a grid mesh cutting across a part-drawn frame (`grid_cut`, `bare_share`).

Synthetic masks, 600 × 600 px; the expected values are worked out by hand in each test.
"""
from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._arrays import F64, U8, f64
from sheetscan.vision._frame_choice import grid_cut
from sheetscan.vision._quad import FrameCandidate, bare_share, quad_area

SIZE = 600


def _quad(x0: int, y0: int, x1: int, y1: int) -> F64:
    return f64([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def _candidate(quad: F64) -> FrameCandidate:
    area = quad_area(quad)
    return FrameCandidate(quad, 1.0, area, (), crowded=False)


def _outlined(quad: F64) -> U8:
    mask = np.zeros((SIZE, SIZE), np.uint8)
    cv2.polylines(mask, [np.round(quad).astype(np.int32)], True, 255, 1)
    return mask


def _mesh(step: int = 10) -> U8:
    mask = np.zeros((SIZE, SIZE), np.uint8)
    mask[::step, :] = 255
    mask[:, ::step] = 255
    return mask


def test_bare_share_of_a_mesh_is_nil_and_of_a_drawn_outline_most_of_it() -> None:
    # 400 × 400 square: 1.5 % of sqrt(area) = 6 px. A mesh every 10 px leaves no point over 5 px
    # from a line -> 0. An outline drawn alone leaves the points over 6 px inside its sides: about
    # (400 - 2 * 7)² / 400² = 0.93 (one px of the line, and the distance transform's rounding).
    square = _quad(100, 100, 500, 500)
    assert bare_share(_mesh(), square) == 0.0
    assert 0.88 < bare_share(_outlined(square), square) < 0.96


def test_a_mesh_outline_cutting_across_a_drawn_frame_gives_way_to_it() -> None:
    # The mesh's "outline" 60..560 × 60..440 (the grid cut off by the paper's shade at y = 440); the
    # frame 150..540 × 100..520 drawn alone: its bottom corners 80 px below the outline (> 1.5 % of
    # 600 = 9 px), its area 390 × 420 = 163800 over half the outline's 500 × 380 = 190000.
    outline = _quad(60, 60, 560, 440)
    frame = _quad(150, 100, 540, 520)
    assert grid_cut((_candidate(frame), _outlined(frame)), (_candidate(outline), _mesh()), SIZE)


def test_no_grid_cut_when_the_outline_is_drawn_or_the_frame_lies_within_it() -> None:
    outline = _quad(60, 60, 560, 440)
    frame = _quad(150, 100, 540, 520)
    # The outline drawn alone (bare paper inside): a real outline, not a mesh.
    drawn = (_candidate(outline), _outlined(outline))
    assert not grid_cut((_candidate(frame), _outlined(frame)), drawn, SIZE)
    # The frame seen only at a mesh level itself: nothing tells it from the grid.
    assert not grid_cut((_candidate(frame), _mesh()), (_candidate(outline), _mesh()), SIZE)
    # A part-drawn frame within the outline (`frame_inside`'s case): 150..540 × 100..430.
    inner = _quad(150, 100, 540, 430)
    assert not grid_cut((_candidate(inner), _outlined(inner)), (_candidate(outline), _mesh()), SIZE)
    # A small part (200 × 200 = 40000, under half the outline's area) reaching out of it.
    small = _quad(300, 300, 500, 500)
    assert not grid_cut((_candidate(small), _outlined(small)), (_candidate(outline), _mesh()), SIZE)
