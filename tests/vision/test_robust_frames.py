"""Stage 2 on sheets unlike the usual ones: dense writing, a felt-tip frame, a frame joined to the table's
rim on a light table (synthetic masks and grey images, 800 × 600, as the preview sees them)."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._drawn_frame import frame_candidates
from sheetscan.vision._frame_choice import choose_frame
from sheetscan.vision._quad import FrameCandidate, find_frames

_SHAPE = (600, 800)
_FRAME = np.array([[120.0, 90.0], [690.0, 110.0], [670.0, 520.0], [100.0, 500.0]])
_PAPER, _TABLE, _INK = 235, 190, 80


def _drawn(quad: np.ndarray, thickness: int = 3) -> np.ndarray:
    mask = np.zeros(_SHAPE, np.uint8)
    cv2.polylines(mask, [np.round(quad).astype(np.int32)], True, 255, thickness)
    return mask


def _inside(quad: np.ndarray) -> np.ndarray:
    inside = np.zeros(_SHAPE, np.uint8)
    cv2.fillPoly(inside, [np.round(quad).astype(np.int32)], 255)
    return inside > 0


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    return min(float(np.hypot(*(np.roll(found, k, axis=0) - truth).T).max()) for k in range(4))


def test_a_frame_crowded_with_writing_is_still_a_frame() -> None:
    # Rows of bold writing (10 × 25 px strokes every 14 px, rows 50 px apart) cover 0.29 of the inside
    # with ink, over the 0.2 a printed grid seen at a faint level reaches; the paper between the rows
    # (25 px bands, up to 12 px from any ink) is what a grid never leaves.
    mask = _drawn(_FRAME)
    for y in range(130, 480, 50):
        for x in range(150, 640, 14):
            cv2.rectangle(mask, (x, y), (x + 9, y + 24), 255, -1)
    assert np.mean(mask[_inside(_FRAME)] > 0) > 0.25
    found = find_frames(mask)
    assert found and _corner_error(found[0].quad, _FRAME) < 5


def test_a_frame_filled_with_a_grid_is_a_mesh() -> None:
    # A 10 px grid inside the same frame: ink within 5 px of every point, over a fifth of the inside.
    mask = _drawn(_FRAME)
    for x in range(100, 700, 10):
        cv2.line(mask, (x, 90), (x, 520), 255, 1)
    for y in range(90, 520, 10):
        cv2.line(mask, (100, y), (690, y), 255, 1)
    assert np.mean(mask[_inside(_FRAME)] > 0) > 0.2
    assert not find_frames(mask)


def test_a_felt_tip_frame_is_not_the_papers_edge() -> None:
    # A 6 px line (0.75 % of the size; measured 7 px across) with the same paper on both sides. The
    # outline lies on the ink's outer edge: the grey 0.6-1 % of the size inside it is still the line.
    mask = _drawn(_FRAME, thickness=6)
    grey = np.where(mask > 0, _INK, _PAPER).astype(np.uint8)
    found = find_frames(mask, gray=grey)
    assert found and _corner_error(found[0].quad, _FRAME) < 6


def test_a_frame_joined_to_the_tables_rim_on_a_light_table_is_found() -> None:
    # A light table (0.81 of the paper's grey: too light to cut the paper out by its brightness) makes
    # a 10 px band of "ink" along the paper's edge, on the table's side of it. The frame's top runs
    # 14 px inside the paper's edge and a name written in the margin joins the two: one component,
    # with the table beyond three sides of it.
    paper = np.array([[60.0, 40.0], [740.0, 60.0], [725.0, 570.0], [45.0, 555.0]])
    frame = np.array([[110.0, 54.0], [690.0, 71.0], [670.0, 520.0], [100.0, 505.0]])
    centre = paper.mean(axis=0)
    rim_outer = centre + (paper - centre) * (1 + 10 / float(np.linalg.norm(paper - centre, axis=1).mean()))
    grey = np.full(_SHAPE, _TABLE, np.uint8)
    cv2.fillPoly(grey, [np.round(paper).astype(np.int32)], _PAPER)
    mask = np.zeros(_SHAPE, np.uint8)
    cv2.fillPoly(mask, [np.round(rim_outer).astype(np.int32)], 255)
    cv2.fillPoly(mask, [np.round(paper).astype(np.int32)], 0)
    for image, value in ((mask, 255), (grey, _INK)):
        cv2.polylines(image, [np.round(frame).astype(np.int32)], True, value, 3)
    cv2.rectangle(mask, (380, 40), (392, 66), 255, -1)
    cv2.rectangle(grey, (380, 45), (392, 66), _INK, -1)
    found = frame_candidates(mask, grey)
    assert found and _corner_error(found[0][0].quad, frame) < 5


def test_an_outline_mostly_filled_with_a_grid_is_a_mesh() -> None:
    # A grid (2 px lines every 8 px) over the left four fifths of the frame: over a third of the inside
    # is ink, though the right fifth is bare paper.
    mask = _drawn(_FRAME)
    for x in range(100, 560, 8):
        cv2.line(mask, (x, 90), (x, 520), 255, 2)
    for y in range(90, 520, 8):
        cv2.line(mask, (100, y), (560, y), 255, 2)
    assert np.mean(mask[_inside(_FRAME)] > 0) > 1 / 3
    assert not find_frames(mask)


def test_a_frame_merged_with_writing_at_one_level_loses_to_the_clean_one() -> None:
    # At one ink level a row of writing along the top side joins it, and that level's outline has its
    # top on the writing 8 px above the frame's line: a bigger, crowded outline near the frame seen
    # on its own lines at two other levels (all three within 1.5 % of the size: each seen thrice).
    merged = _FRAME + np.array([[0.0, -8.0], [0.0, -8.0], [0.0, 0.0], [0.0, 0.0]])
    mask = np.maximum(_drawn(_FRAME), _drawn(merged))
    clean = FrameCandidate(_FRAME, 1.0, 230000.0, ())
    crowded = FrameCandidate(merged, 1.0, 235000.0, (), crowded=True)
    assert choose_frame([(crowded, mask), (clean, mask), (clean, mask)])[0] is clean
    assert choose_frame([(crowded, mask)])[0] is crowded  # alone, it is what was seen
