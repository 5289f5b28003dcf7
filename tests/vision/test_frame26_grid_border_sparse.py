"""Stage 2 on squared paper whose grid leaves under a fifth of its border's inside in ink and the paper
under `_BUSY` in ink (a grid fading where the light is brightest, or printed at a wide pitch): the grid's
own border, seen whole at the usual levels with the grid repeating inside it, still gives way to the
frame seen whole at a plain level within it (`_frame_search._drawn_frame_in`).

A synthetic 600 × 600 preview (ratios as `dark_ratio` gives them: 1 = paper): a paper 40..560 on a dark
table, a grid every 32 px (2 px lines, about 12 % of the inside) printed 70..534, and a pencil frame
100..500 × 90..510 (2 px, 0.72). In the brightest channel's ratio the grid is 0.7 (darker than the
frame); in the darkest's 0.85, so that the faint level's hysteresis (0.78 to 0.88) joins it to the frame.
(The rendered case: bench_styles seed 35000, photo 1: the grid's border taken for the sheet in usual,
glare, thin and shadow, 186-1397 px off.)
"""
from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._frame_search import _busy, _drawn_frame_in
from sheetscan.vision._lines import below

SIZE = 600
_PITCH, _LINE = 32, 2  # the grid's pitch and line width (px)


def _preview() -> tuple[dict[str, np.ndarray], np.ndarray]:
    dark = np.full((SIZE, SIZE), 60, np.uint8)
    dark[40:560, 40:560] = 230
    brightest = np.ones((SIZE, SIZE), np.float32)
    darkest = np.ones((SIZE, SIZE), np.float32)
    end = 70 + _PITCH * 14 + _LINE
    for v in range(70, end, _PITCH):
        for ratio, level in ((brightest, 0.7), (darkest, 0.85)):
            ratio[v:v + _LINE, 70:end] = level
            ratio[70:end, v:v + _LINE] = level
    for ratio in (brightest, darkest):
        cv2.rectangle(ratio, (100, 90), (500, 510), 0.72, 2)
    return {"max": brightest, "min": darkest}, dark


def test_the_frame_within_a_sparse_grid_border_on_paper_that_is_not_busy_is_the_sheet() -> None:
    ratios, dark = _preview()
    busy = _busy(below(ratios["min"], 0.78))
    assert not busy
    found = _drawn_frame_in(lambda channel: ratios[channel], dark, busy=busy)
    assert found is not None
    frame = np.array([[100, 90], [100, 90], [500, 510], [500, 510]], np.float64)
    # Sorted per axis: the two smallest x and y, then the two largest; within 2 px of the drawn frame
    # (the grid's border lies 30 px out of it at the left, 20 at the top).
    assert np.abs(np.sort(np.round(found[0].quad), axis=0) - frame).max() <= 2
