"""Stage 2, `_frame_search._drawn_in_darkest`: an outline with one side not drawn in the darkest channel (its
other three drawn there) gives way to a whole outline drawn all round that lies over it, where no outline
alike to it is drawn.

A synthetic 800 × 800 preview: white paper and a black pen frame; the outline chosen shares the frame's
left, right and bottom sides and closes 80 px above the frame's top side, where nothing is drawn (past
the `votes` reach: not the frame seen again). (The rendered case behind it: bench_styles seed 31000,
shadow, photo 5: on the ratios with a hard shadow's edge told back to paper, the outline closed past the
frame's top side out to the paper's edge was taken, 738 px off, over the frame seen whole at one level.)
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._arrays import F64, U8, f64
from sheetscan.vision._quad import FrameCandidate, quad_area
from tests.vision._darkest_outlines import chosen_in_darkest, corner_off

_SIZE = 800
_FRAME = f64([[160, 140], [640, 140], [640, 660], [160, 660]])
_TALL = f64([[160, 60], [640, 60], [640, 660], [160, 660]])  # the frame's top side moved up 80 px


def _paper(*quads: F64) -> U8:
    image = np.full((_SIZE, _SIZE, 3), 230, np.uint8)
    for quad in quads:
        cv2.polylines(image, [np.round(quad).astype(np.int32)], True, (40, 40, 40), 2)
    return image


def _candidate(quad: F64) -> tuple[FrameCandidate, U8]:
    mask = np.zeros((_SIZE, _SIZE), np.uint8)
    cv2.polylines(mask, [np.round(quad).astype(np.int32)], True, 255, 2)
    return FrameCandidate(quad, 1.0, quad_area(quad), ()), mask


def test_an_outline_closed_over_an_undrawn_side_gives_way_to_the_frame_drawn_whole() -> None:
    image = _paper(_FRAME)
    # The tall outline's ink (a step in the light, closing it at its level) is not on the photo.
    assert corner_off(chosen_in_darkest(image, _candidate(_TALL), _candidate(_FRAME)), _FRAME) < 2.0


def test_an_outline_drawn_all_round_is_kept() -> None:
    image = _paper(_FRAME, _TALL)
    assert corner_off(chosen_in_darkest(image, _candidate(_TALL), _candidate(_FRAME)), _TALL) < 2.0


def test_an_outline_with_an_undrawn_side_is_kept_over_a_small_rectangle_inside_it() -> None:
    # Under half its area: the pulka rectangle, not the frame.
    inner = f64([[300, 300], [500, 300], [500, 500], [300, 500]])
    image = _paper(inner, _FRAME)
    assert corner_off(chosen_in_darkest(image, _candidate(_TALL), _candidate(inner)), _TALL) < 2.0


def test_an_outline_with_two_sides_undrawn_is_kept() -> None:
    # Top and bottom moved out, 80 px each: two of its sides are not drawn.
    taller = f64([[160, 60], [640, 60], [640, 740], [160, 740]])
    image = _paper(_FRAME)
    assert corner_off(chosen_in_darkest(image, _candidate(taller), _candidate(_FRAME)), taller) < 2.0
