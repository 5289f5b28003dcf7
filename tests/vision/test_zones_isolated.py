"""Stage 3, the line mask: ink the line trace runs into that is not joined to any long stroke (a row of
digits beside a freehand line that wandered off the model) is not line.

A small synthetic mask: the truth is where the test drew the line and the digits.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision.zones import _line_mask


def test_digits_on_the_model_line_beside_the_drawn_line_are_not_line() -> None:
    # A 600 × 800 sheet. The drawn line runs level along rows 200-203 (x 50-750), 30 px below where
    # the model puts it (row 171.5). Right on the model line, x 300-500, a row of five separate
    # "digits" (6 × 30 px strokes, 40 px apart) that the trace reaches first. The circle is far away
    # and undrawn.
    mask = np.zeros((600, 800), np.uint8)
    mask[200:204, 50:751] = 255
    digits = np.zeros_like(mask)
    for x in range(300, 501, 40):
        digits[157:187, x:x + 6] = 255
    mask = np.maximum(mask, digits)
    model = [np.array([[50.0, 171.5], [750.0, 171.5]])]
    line_mask, _ = _line_mask(mask, mask, model, None, (400.0, 450.0, 60.0), 4.0, search=40.0)
    # No pixel of the digits is line; the drawn line is, wherever the digits did not stand in front.
    assert not np.any((line_mask > 0) & (digits > 0))
    covered = np.count_nonzero(line_mask[200:204, 50:751]) / (4 * 701)
    assert covered >= 0.6


def test_a_line_broken_by_small_gaps_is_still_line() -> None:
    # The same sheet size; the drawn line lies on the model (rows 170-173) but fades out every 33 px
    # for 3 px (a pale pencil): each dash is 30 px, shorter than the 40 px (0.05 of the sheet) a
    # stroke must reach, yet the dashes are one stroke.
    mask = np.zeros((600, 800), np.uint8)
    for x in range(50, 750, 33):
        mask[170:174, x:x + 30] = 255
    model = [np.array([[50.0, 171.5], [750.0, 171.5]])]
    line_mask, _ = _line_mask(mask, mask, model, None, (400.0, 450.0, 60.0), 4.0, search=40.0)
    covered = np.count_nonzero((line_mask > 0) & (mask > 0)) / np.count_nonzero(mask)
    assert covered >= 0.95


def test_an_egg_shaped_circle_is_masked_all_round() -> None:
    # A freehand "circle" on a 600 × 800 sheet, 4 px thick: its upper half round (radius 60 about
    # (400, 300)), its lower half drawn 40 % deeper (a half-ellipse reaching 84 px below the centre),
    # about 20 px off any round fit at the bottom. The model expects the circle where it is drawn
    # (radius 60).
    mask = np.zeros((600, 800), np.uint8)
    cv2.ellipse(mask, (400, 300), (60, 60), 0, 180, 360, 255, 4)
    cv2.ellipse(mask, (400, 300), (60, 84), 0, 0, 180, 255, 4)
    line_mask, _ = _line_mask(mask, mask, [], None, (400.0, 300.0, 60.0), 4.0, search=40.0)
    covered = np.count_nonzero((line_mask > 0) & (mask > 0)) / np.count_nonzero(mask)
    assert covered >= 0.95
