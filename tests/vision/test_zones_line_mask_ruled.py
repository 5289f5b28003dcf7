"""Stage 3, the line mask on squared paper: digits the line trace ran into are not line even when the paper's
ruling joins them to the drawn line, because within the mask they are pieces no longer than a digit, while the
drawn line runs on through it.

Small synthetic masks: the truth is where the test drew the line, the ruling and the digits.
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision.zones import _line_mask


def _ruled(shape: tuple[int, int]) -> np.ndarray:
    """Squared paper's faint ruling: 1 px upright lines every 20 px (x = 2, 22, 42, ...)."""
    ruling = np.zeros(shape, np.uint8)
    ruling[:, 2::20] = 255
    return ruling


def test_digits_joined_to_the_line_by_the_ruling_are_not_line() -> None:
    # A 600 x 800 sheet, line width 4. The drawn line runs level along rows 184-187 (x 50-750), 14 px below
    # where the model puts it (row 171.5). Right on the model line, x 300-505, a row of ten small separate
    # pieces of writing as thick as the line (4 x 14 px, rows 170-173, 8 px apart) that the trace reaches
    # first and follows (their runs across are the line's width, at an even offset). The ruling crosses the
    # pieces and the line, so in the faint ink they are one blob with the line; within the mask they are
    # pieces of 14 px, 8 px apart, far shorter than the 40 px (0.05 of the sheet) a stroke must reach.
    mask = np.zeros((600, 800), np.uint8)
    mask[184:188, 50:751] = 255
    digits = np.zeros_like(mask)
    for x in range(300, 501, 22):
        digits[170:174, x:x + 14] = 255
    mask = np.maximum(mask, digits)
    faint = np.maximum(mask, _ruled(mask.shape))
    model = [np.array([[50.0, 171.5], [750.0, 171.5]])]
    line_mask, _ = _line_mask(mask, faint, model, None, (400.0, 450.0, 60.0), 4.0, search=40.0)
    taken = int(np.count_nonzero((line_mask > 0) & (digits > 0)))
    assert taken == 0, f"{taken} of {np.count_nonzero(digits)} px of the writing taken for line"
    # The drawn line stays line where no writing stood in front of it (x 50-299 and 506-750 of 50-750: 0.65
    # of it, less the ruling's 1 px columns, which are not the line's dark ink).
    covered = np.count_nonzero(line_mask[184:188, 50:751]) / (4 * 701)
    assert covered >= 0.55, f"only {covered:.0%} of the line masked"


def test_a_pale_line_on_ruled_paper_is_still_line_all_along() -> None:
    # The drawn line on the model (rows 170-173) fading out every 33 px for 3 px (a pale pencil): dashes of
    # 30 px (x 50-739), shorter than the 40 px (0.05 of the sheet) a stroke must reach, under the same
    # ruling. The trace leaves out the places where a ruling column crosses (a run across as long as the
    # search): up to 3 of every 20 columns, so at least 0.85 of the line is traced. Within the mask the
    # dashes and the pieces between crossings join across their gaps (3 px) into one long stroke, so none of
    # that is dropped as a short piece (dropped, the line would be lost whole).
    mask = np.zeros((600, 800), np.uint8)
    for x in range(50, 720, 33):
        mask[170:174, x:x + 30] = 255
    faint = np.maximum(mask, _ruled(mask.shape))
    model = [np.array([[50.0, 171.5], [750.0, 171.5]])]
    line_mask, _ = _line_mask(mask, faint, model, None, (400.0, 450.0, 60.0), 4.0, search=40.0)
    covered = np.count_nonzero((line_mask > 0) & (mask > 0)) / np.count_nonzero(mask)
    assert covered >= 0.85, f"only {covered:.0%} of the line masked"
