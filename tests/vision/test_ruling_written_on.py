"""Writing lying along squared paper's ruling is kept (`_ruling.written_on_ruling`, `ink.find_ink`).

The numbers are worked out by hand from the layer model the rule uses: light passing a ruling of darkness r
and a stroke of darkness d over it keeps (1 - r)(1 - d) of itself, so the pixel is 1 - (1 - r)(1 - d) dark.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._ruling import written_on_ruling
from sheetscan.vision.ink import find_ink

SIZE = 200
RULING = 77  # r = 77 / 255 = 0.302


def _runs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A level ruling along row 100 and an upright one along column 150, r dark, as strength / level /
    upright images."""
    strength = np.zeros((SIZE, SIZE), np.uint8)
    level = np.zeros_like(strength)
    upright = np.zeros_like(strength)
    level[100, :] = 255
    upright[:, 150] = 255
    strength[100, :] = RULING
    strength[:, 150] = RULING
    return strength, level, upright


def test_a_stroke_along_the_ruling_is_writing_and_its_crossing_is_not() -> None:
    strength, level, upright = _runs()
    mask = np.zeros_like(strength)
    # A stroke d = 0.4 dark lying along the level ruling for 20 px: 1 - (1 - 0.302)(1 - 0.4) = 0.581 -> 148.
    # Divided by the ruling: 1 - (1 - 148/255) / (1 - 0.302) = 0.399, i.e. 102 >= half the strong threshold
    # (41) and more than the ruling's own 0.302: writing.
    strength[100, 90:110] = 148
    mask[100, 90:110] = 255
    # Where the rulings cross, two rulings: 1 - (1 - 0.302)^2 = 0.513 -> 131, passing for ink as a speck.
    # Divided by both rulings nothing is left; divided by one, 0.304 would pass as writing.
    strength[100, 150] = 131
    mask[100, 150] = 255
    strong = np.full_like(strength, 82)
    written = written_on_ruling(strength, mask, level, upright, strong=strong, length=89)
    assert np.count_nonzero(written[100, 90:110]) == 20
    assert written[100, 150] == 0
    assert np.count_nonzero(written) == 20


def test_a_line_inked_all_along_a_run_is_not_writing() -> None:
    strength, level, upright = _runs()
    mask = np.zeros_like(strength)
    # A drawn line 200 dark along row 80, found as a level run too: over the ruling measured beside it
    # (0.302) it is 1 - (1 - 200/255) / (1 - 0.302) = 0.69 dark, as dark as writing, but it is ink over its
    # whole run (a stroke along the ruling covers a fraction of it).
    strength[80, :] = 200
    level[80, :] = 255
    mask[80, :] = 255
    written = written_on_ruling(strength, mask, level, upright, strong=np.full_like(strength, 82), length=89)
    assert np.count_nonzero(written) == 0


def _squared_sheet(with_bar: bool) -> np.ndarray:
    """Pink paper with blue squared ruling 3 px wide every 30 px (0.72 of the light kept in red, 0.86 in
    blue) and, when asked, a grey pencil "7" (0.6 of the light kept) whose bar lies on a ruling line."""
    paper = np.array([215.0, 205.0, 225.0])
    image = np.ones((400, 400, 3)) * paper
    ruled = np.zeros((400, 400), bool)
    for k in range(14):
        ruled[k * 30 + 14:k * 30 + 17, :] = True
        ruled[:, k * 30 + 14:k * 30 + 17] = True
    image[ruled] *= np.array([0.86, 0.78, 0.72])
    if with_bar:
        pencil = np.zeros((400, 400), np.uint8)
        pencil[104:107, 72:96] = 1  # the bar, on the ruling's rows 104-106
        cv2.line(pencil, (94, 105), (78, 150), 1, 3)  # the stem, off the ruling
        image[pencil > 0] *= 0.6
    return np.clip(np.rint(image), 0, 255).astype(np.uint8)


def test_a_pencil_bar_on_the_ruling_is_kept_and_bare_ruling_is_not_ink() -> None:
    ink = find_ink(_squared_sheet(with_bar=True)).mask
    # Before, the bar went with the ruling it lies on (the stem alone was left: a "/", not a "7").
    assert np.count_nonzero(ink[104:107, 74:93]) >= 0.8 * 3 * 19
    assert np.count_nonzero(ink[160:395, 120:395]) == 0  # squares with nothing written in them
    assert np.count_nonzero(find_ink(_squared_sheet(with_bar=False)).mask) == 0
