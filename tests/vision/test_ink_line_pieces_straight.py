"""Stage 4, the pieces of lines no mask took out (`ink._without_line_pieces`, `_line_pieces`): the stretch
where a line found straight (a level or upright run of ink, `InkStrength.level`, `upright`) bows off its
straight course goes with it when the runs are about as dark as the stretch; a stroke along a paler run
stays.

A small synthetic sheet (400 × 400): the truth is where the test drew each stroke. The straight runs are given
as `ink_strength` finds them for such a line: the straight band along the whole line, the bow left beside it.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision.ink import InkStrength, _without_line_pieces

SIZE = 400
LINE_Y = 200


def _sheet(run_darkness: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The strength of a level line (4 px, `run_darkness` dark) that bows 8 px down over x 170-230 (0.6 dark
    there), its straight band (the level run found), and the ink left off the band (the bow)."""
    strength = np.zeros((SIZE, SIZE), np.uint8)
    cv2.line(strength, (0, LINE_Y), (SIZE - 1, LINE_Y), round(run_darkness * 255), 4)
    level = np.zeros_like(strength)
    cv2.line(level, (0, LINE_Y), (SIZE - 1, LINE_Y), 255, 5)
    xs = np.arange(170, 231, dtype=np.float64)
    ys = LINE_Y + 8.0 * np.sin(np.pi * (xs - 170) / 60.0)
    bow = np.zeros_like(strength)
    cv2.polylines(bow, [np.rint(np.stack([xs, ys], axis=1)).astype(np.int32)], False, 255, 4)
    strength[bow > 0] = round(0.6 * 255)
    off_band = cv2.dilate(level, np.ones((3, 3), np.uint8)) == 0
    mask = np.where((bow > 0) & off_band, 255, 0).astype(np.uint8)
    return strength, level, mask


def _prepared(strength: np.ndarray, level: np.ndarray) -> InkStrength:
    none = np.zeros_like(strength)
    return InkStrength(strength=strength, blur=0.0, ruling=none, straight=level, level=level, upright=none,
                       slanting=none)


def test_the_bow_of_a_line_found_straight_goes() -> None:
    strength, level, mask = _sheet(0.6)
    assert mask.any()
    kept, _ = _without_line_pieces(mask, _prepared(strength, level), None, 3)
    assert not kept.any()


def test_a_stroke_along_a_paler_run_stays() -> None:
    # The same stroke along a run half as dark (squared paper's ruling under a pen's stroke): writing.
    strength, level, mask = _sheet(0.3)
    kept, _ = _without_line_pieces(mask, _prepared(strength, level), None, 3)
    assert np.count_nonzero(kept) == np.count_nonzero(mask)
