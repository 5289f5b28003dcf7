"""Stage 3, following a drawn line where digits are written close beside it (`trace_band`): the line goes
on under them, and the digits stay out of the band.

Small synthetic masks: the truth is where the test drew the line and the digits.
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision._bend import trace_band


def _line_with_close_ones() -> tuple[np.ndarray, np.ndarray]:
    """A 4 px level line (rows 100-103, x 20-380) on the model line y = 101.5, and, 3 px below it
    (rows 107-110), three "1"s lying level (a zone written sideways), 4 px thick and 14 px long, at
    x 150, 170 and 190. They lie within the 5 px the trace merges strokes by: the merged run across the
    line there is line + gap + "1" (11 px), much wider than the line's own."""
    mask = np.zeros((200, 400), np.uint8)
    mask[100:104, 20:381] = 255
    line = mask.copy()
    for x in (150, 170, 190):
        mask[107:111, x:x + 14] = 255
    return mask, (mask > 0) & (line == 0)


def _band(mask: np.ndarray) -> np.ndarray:
    return trace_band(mask, [np.array([[20.0, 101.5], [380.0, 101.5]])], search=20.0, step=2.0,
                      max_run=12, merge=5, pad=1.0)


def test_the_line_is_followed_beside_digits_written_close_to_it() -> None:
    mask, ones = _line_with_close_ones()
    band = _band(mask)
    # The line beside the "1"s (x 150-203) is in the band: the single stroke nearest the model there,
    # not merged with the "1" 3 px below, is 4 px like the rest of the line.
    beside = np.count_nonzero(band[100:104, 150:204]) / (4 * 54)
    assert beside >= 0.95, f"only {beside:.0%} of the line beside the digits is in the band"
    # The "1"s are not (the band is the line's run and 1 px of pad: rows 99-104).
    assert not np.any((band > 0) & ones)


def test_a_blot_on_the_line_is_still_left_out() -> None:
    # A blot joined to the line (rows 104-110 right under it, x 150-170): no single stroke as narrow as
    # the line is there, so the places stay out of the band (and the blot with them).
    mask, _ = _line_with_close_ones()
    mask[104:111, 150:171] = 255
    band = _band(mask)
    assert not np.any(band[105:111, 150:171])


def test_a_thinner_stroke_nearer_the_model_is_not_taken_for_the_line() -> None:
    # The model line lies at y = 96.5, 5 px above the drawn line (rows 100-103); a 1 px ruling runs
    # along at row 96 (x 140-214, about the "1"s), 3 px above the line. Elsewhere the run nearest the
    # model is the line (4 px). Along the ruling the merged run (ruling, line and maybe a "1") is too
    # wide, and the single stroke nearest the model is the ruling: thinner than the line, it is not
    # taken for it.
    mask, _ = _line_with_close_ones()
    mask[96, 140:215] = 255
    band = trace_band(mask, [np.array([[20.0, 96.5], [380.0, 96.5]])], search=20.0, step=2.0,
                      max_run=12, merge=5, pad=1.0)
    assert np.count_nonzero(band[100:104, 40:130]) / (4 * 90) >= 0.95  # the line, away from the "1"s
    # Along the ruling (x 140-214) nothing is painted from its run (the ruling's row and 1 px of pad
    # either side lie above the line's own band, rows 98-105 with its pad).
    assert not band[92:98, 140:215].any()
