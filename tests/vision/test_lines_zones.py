"""Stage 3, the line mask beside a drawn line: the model's band around the fitted line counts only on the line
as traced, so small writing standing a few px off the line is not taken for line where the model lies a little
off the drawn line.

A small synthetic sheet: the truth is where the test drew the line and the digit.
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision.zones import _line_mask


def test_a_small_digit_just_below_a_line_the_model_misses_by_3_px_is_not_line() -> None:
    # A 600 × 800 sheet, line width 4 (the model's band: 8 px, 4 px either side of the model). The drawn line
    # is 4 px thick (rows 170-173, centre 171.5), the model lies 3 px below it (174.5: its band reaches row
    # 178). A small "1" (4 × 16 px) hangs 4 px below the line's ink: rows 178-193, x 400-403; its top row is
    # within the model's band, but 6.5 px from the line's centre, past half the line's run and the pad
    # (2 px). (Where a wider digit stands, the places in its middle see no line around them, and there the
    # band is left as it is.)
    mask = np.zeros((600, 800), np.uint8)
    mask[170:174, 50:751] = 255
    digit = np.zeros_like(mask)
    digit[178:194, 400:404] = 255
    mask = np.maximum(mask, digit)
    model = [np.array([[50.0, 174.5], [750.0, 174.5]])]
    line_mask, _ = _line_mask(mask, mask, model, None, (400.0, 450.0, 60.0), 4.0, search=40.0)
    taken = int(np.count_nonzero((line_mask > 0) & (digit > 0)))
    assert taken == 0, f"{taken} px of the digit taken for line"
    covered = np.count_nonzero(line_mask[170:174, 50:751]) / (4 * 701)
    assert covered >= 0.95, f"only {covered:.0%} of the line masked"
