"""Stage 3 on drawn sheets with big writing: a column of digits turned along a whist band is not a side."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._layout_fit import measure

# A standard-3 sheet in rectified pixels (the frame 1900 px tall: measure's slack is 11 px, a line must
# run 95 px, lines are told apart 38 px apart; the middle rows it looks along are y 620-1380, 760 rows).
_FRAME = (50, 50, 1950, 1950)
_PULKA = (350, 400, 1600, 1540)
_GORA = (580, 590, 1410, 1310)
_FRAME_PX = (50.0, 50.0, 1950.0, 1950.0)


def _standard_3_mask() -> np.ndarray:
    """The sheet's lines, solid and 4 px wide, the mid spoke on the top side."""
    mask = np.zeros((2000, 2000), np.uint8)
    for left, top, right, bottom in (_FRAME, _PULKA, _GORA):
        cv2.rectangle(mask, (left, top), (right, bottom), 255, 4)
    cx, cy = (_GORA[0] + _GORA[2]) // 2, (_GORA[1] + _GORA[3]) // 2
    cv2.circle(mask, (cx, cy), 95, 255, 4)
    cv2.line(mask, (_FRAME[0], _FRAME[3]), (_GORA[0], _GORA[3]), 255, 4)
    cv2.line(mask, (_FRAME[2], _FRAME[3]), (_GORA[2], _GORA[3]), 255, 4)
    cv2.line(mask, (cx, _FRAME[1]), (cx, cy - 95), 255, 4)
    return mask


def _turned_writing(mask: np.ndarray, x: int, rows: tuple[int, int]) -> None:
    """Big digits written turned along the left whist band at column x: strokes 6 px wide, each digit
    50 px along the band, touching the next (so the column forms one long run over `rows`), with a
    gap of 40 px between numbers every 150 px."""
    for y in range(rows[0], rows[1], 150):
        end = min(y + 110, rows[1])
        for d in range(y, end, 50):
            # a "0" turned: an outline 40 px across the band, 50 px along it
            cv2.rectangle(mask, (x - 20, d), (x + 20, min(d + 50, end)), 255, 6)


def _measured_sides(mask: np.ndarray) -> tuple[float | None, float | None]:
    m = measure(mask, _FRAME_PX)
    return m.pulka_rect["left"], m.gora_rect["left"]


def test_the_rectangles_sides_are_found_without_the_writing() -> None:
    # Control: the plain sheet's left sides are where they were drawn.
    pulka, gora = _measured_sides(_standard_3_mask())
    assert pulka is not None and abs(pulka - _PULKA[0]) <= 3
    assert gora is not None and abs(gora - _GORA[0]) <= 3


def test_a_column_of_turned_digits_is_not_the_pulka_rectangles_side() -> None:
    # The digits run along 330 of the 760 middle rows, minus the gaps: their column is seen along about
    # 0.36 of them (over the 0.3 a line needs), the drawn sides along all of them. Taken as the pulka
    # rectangle's side, the pulka's side becomes the gora's (what 175ba81 did: bench_styles seed 6000,
    # big, photo 5).
    mask = _standard_3_mask()
    _turned_writing(mask, 190, (640, 970))
    pulka, gora = _measured_sides(mask)
    assert pulka is not None and abs(pulka - _PULKA[0]) <= 3
    assert gora is not None and abs(gora - _GORA[0]) <= 3


def test_a_faint_side_among_strong_ones_is_kept() -> None:
    # Only where more lines than the two sides are seen is a weak one dropped: a side seen along only
    # 0.39 of the middle rows (drawn in 100 px pieces, under half the gora side's 0.92) with no writing
    # beside it stays the pulka's side.
    mask = _standard_3_mask()
    cv2.line(mask, (_PULKA[0], 0), (_PULKA[0], 2000), 0, 8)
    cv2.rectangle(mask, (_PULKA[0], _PULKA[1]), (_PULKA[2], _PULKA[3]), 0, 8)
    for y in range(_PULKA[1], _PULKA[3], 250):
        cv2.line(mask, (_PULKA[0], y), (_PULKA[0], y + 100), 255, 4)
    cv2.line(mask, (_PULKA[0], _PULKA[1]), (_PULKA[2], _PULKA[1]), 255, 4)
    cv2.line(mask, (_PULKA[2], _PULKA[1]), (_PULKA[2], _PULKA[3]), 255, 4)
    cv2.line(mask, (_PULKA[0], _PULKA[3]), (_PULKA[2], _PULKA[3]), 255, 4)
    pulka, gora = _measured_sides(mask)
    assert pulka is not None and abs(pulka - _PULKA[0]) <= 3
    assert gora is not None and abs(gora - _GORA[0]) <= 3
