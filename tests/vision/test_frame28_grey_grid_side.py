"""Stage 2, `_frame_search._drawn_in_darkest`: an outline whose sides as fitted are not ink in the darkest
channel (a grey grid line printed on tinted paper, seen as ink in the brightest channel only) gives way to
an outline alike to it whose every side is drawn there.

A synthetic 800 × 800 preview: beige paper, a blue pen frame, and a grey printed line 8 px outside it
all round (one cell of squared paper's grid; within the 1.5 % `votes` reach, beyond the 3 px the sides'
ink is looked for across). (The rendered case behind it: bench_styles seed 45000, photo 6, usual and
jpeg: on beige squared paper an outline closed on the grid a cell outside the blue frame was taken and
fitted half onto grid lines, 60-63 px off.)
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._arrays import F64, U8, f64, u8
from sheetscan.vision._frame_search import fitted
from sheetscan.vision._quad import FrameCandidate, quad_area
from tests.vision._darkest_outlines import chosen_in_darkest, corner_off

_SIZE = 800
_PAPER = (170, 200, 225)  # beige (BGR): its blue channel, the darkest, well under its red
# A neutral printed line: 0.67 of the paper in the brightest channel, 0.88 in the darkest.
_GREY = (150, 150, 150)
_BLUE = (150, 60, 20)  # a blue pen: 0.12 of the paper in the darkest channel
_DARK = (60, 60, 60)  # a black pen
_FRAME = f64([[160, 140], [640, 140], [640, 660], [160, 660]])
_GAP = 8
_OUTER = _FRAME + f64([[-_GAP, -_GAP], [_GAP, -_GAP], [_GAP, _GAP], [-_GAP, _GAP]])


def _draw(image: U8, quad: F64, colour: tuple[int, int, int]) -> None:
    cv2.polylines(image, [np.round(quad).astype(np.int32)], True, colour, 2)


def _mask(*quads: F64) -> U8:
    mask = np.zeros((_SIZE, _SIZE), np.uint8)
    for quad in quads:
        cv2.polylines(mask, [np.round(quad).astype(np.int32)], True, 255, 2)
    return mask


def _candidate(quad: F64, mask: U8) -> tuple[FrameCandidate, U8]:
    return FrameCandidate(quad, 1.0, quad_area(quad), ()), mask


def _sheet(frame_colour: tuple[int, int, int], line_colour: tuple[int, int, int]) -> U8:
    image = np.zeros((_SIZE, _SIZE, 3), np.uint8)
    image[:] = _PAPER
    _draw(image, _OUTER, line_colour)
    _draw(image, _FRAME, frame_colour)
    return image


def test_an_outline_on_a_grey_printed_line_gives_way_to_the_blue_frame_alike_inside_it() -> None:
    image = _sheet(_BLUE, _GREY)
    grid_level = _candidate(_OUTER, _mask(_OUTER, _FRAME))  # the brightest channel: both lines ink
    pen_level = _candidate(_FRAME, _mask(_FRAME))  # the darkest channel: the frame only
    assert corner_off(fitted(grid_level, u8(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))), _OUTER) < 2.0
    assert corner_off(chosen_in_darkest(image, grid_level, pen_level), _FRAME) < 2.0


def test_a_frame_drawn_outside_a_blue_line_is_kept_where_its_sides_are_drawn_in_every_channel() -> None:
    # The outer outline is a black pen frame, seen in the darkest channel too: the rule leaves it.
    image = _sheet(_BLUE, _DARK)
    outer = _candidate(_OUTER, _mask(_OUTER, _FRAME))
    inner = _candidate(_FRAME, _mask(_FRAME))
    assert corner_off(chosen_in_darkest(image, outer, inner), _OUTER) < 2.0


def test_an_outline_on_a_grey_line_is_kept_where_no_outline_alike_is_drawn() -> None:
    # The blue outline lies 40 px inside, beyond the `votes` reach: not the same frame seen again.
    image = np.zeros((_SIZE, _SIZE, 3), np.uint8)
    image[:] = _PAPER
    inner = _FRAME + f64([[40, 40], [-40, 40], [-40, -40], [40, -40]])
    _draw(image, _OUTER, _GREY)
    _draw(image, inner, _BLUE)
    grey = _candidate(_OUTER, _mask(_OUTER))
    blue = _candidate(inner, _mask(inner))
    assert corner_off(chosen_in_darkest(image, grey, blue), _OUTER) < 2.0
