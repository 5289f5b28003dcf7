"""Stage 3's eraser of the paper's lines (`_paper_lines.without_rulings`) on squared paper: the grid's
lines crossing each other keep nothing of each other (only a drawn line crossing one keeps a stub of it
there), and each line keeps stubs beside a drawn line only as far as it is wide itself, not as far as
the widest line seen (a mark printed beside one line in the margin)."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._paper_lines import without_rulings

_SIZE = (420, 500)
_FRAME = (30.0, 30.0, 470.0, 390.0)
_PITCH = 40
_SLACK = 4


def _squared() -> np.ndarray:
    """The frame (30 px in), a drawn rectangle inside it, and a grid of 2 px lines `_PITCH` apart across
    the whole image (into the margins, as a printed grid runs), none on the rectangle's sides."""
    mask = np.zeros(_SIZE, np.uint8)
    h, w = _SIZE
    cv2.rectangle(mask, (30, 30), (w - 30, h - 30), 255, 2)
    cv2.rectangle(mask, (118, 118), (398, 278), 255, 2)
    for v in range(18, max(h, w), _PITCH):
        cv2.line(mask, (v, 0), (v, h - 1), 255, 2)
        cv2.line(mask, (0, v), (w - 1, v), 255, 2)
    return mask


def _grid_nodes_left(clean: np.ndarray) -> int:
    """How many of the grid's nodes inside the drawn rectangle, clear of its sides, still hold ink."""
    h, w = _SIZE
    nodes = [(x, y) for x in range(18, w, _PITCH) for y in range(18, h, _PITCH)
             if 118 + 12 < x < 398 - 12 and 118 + 12 < y < 278 - 12]
    return sum(bool(clean[y - 1:y + 3, x - 1:x + 3].any()) for x, y in nodes)


def test_the_grid_keeps_no_cross_at_its_nodes() -> None:
    # Each line of the grid crosses the other way's lines: were those taken for drawn lines crossing it,
    # a cross would stay at every node, and a diagonal through the mesh of crosses, with the slack
    # beside it, would be seen along most of a bare corner (bench_styles seed 37000, dark, photo 3).
    clean = without_rulings(_squared(), _FRAME, _SLACK)
    assert _grid_nodes_left(clean) == 0
    # The drawn rectangle stays whole where the grid crosses it.
    assert clean[118, 120:396].all() and clean[278, 120:396].all()
    assert clean[120:276, 118].all() and clean[120:276, 398].all()


def test_a_mark_beside_one_line_in_the_margin_widens_only_that_line() -> None:
    # A mark printed in the left margin beside one horizontal line (row 178) makes it 11 px wide there,
    # where the others are 5: the others keep stubs beside the rectangle's left side (x = 118) only as
    # far as they are wide (8 px), not as far as that one (14 px).
    mask = _squared()
    mask[180:186, 0:24] = 255
    clean = without_rulings(mask, _FRAME, _SLACK)
    for y in (138, 218, 258):
        assert not clean[y - 1:y + 2, 106].any(), y
    # The wide line is erased too, away from the drawn lines.
    assert not clean[176:182, 190:200].any()
