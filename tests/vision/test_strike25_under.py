"""Stage 5, numbers: a long level line with only a pen's width of the number's ink under it is the foot
the digits stand on, not a strike (`_strikes.find_strikes`, `_strikes._under`).

# Source: the renderer's way of crossing a number out (`sheetscan/vision/render/_hand.py`,
# `write_cross`): a single line between 0.35 and 0.65 of the digits' height from their top, a double
# one at about 0.4 and 0.6, so a strike always leaves more than a third of the digits under it.
Small synthetic masks whose answer is evident by construction."""

from __future__ import annotations

import numpy as np

from sheetscan.vision import _strikes
from tests.vision._stroke_masks import strikes_in, stroke_mask

STEMS = [((24, 10), (24, 40)), ((56, 10), (56, 40))]  # an "11", both stems full height


def test_a_line_through_the_middle_of_the_digits_is_a_strike() -> None:
    found = strikes_in(stroke_mask([*STEMS, ((12, 25), (68, 25))]))
    assert len(found) == 1
    assert abs(found[0][1] - 25) <= 2 and abs(found[0][3] - 25) <= 2


def test_a_line_at_the_digits_feet_is_no_strike() -> None:
    # Three pixels above the stems' ends: each stem keeps a pen's width of ink under the line, so the
    # line runs through both (as many as stand on it: none), but the number stands on it.
    assert strikes_in(stroke_mask([*STEMS, ((12, 37), (68, 37))])) == []


def test_under_measures_the_ink_below_the_lines_middle() -> None:
    mask = stroke_mask([*STEMS, ((12, 25), (68, 25))])
    ys, _ = np.nonzero(mask)
    lowest = int(ys.max())  # the stems' lowest pixel row (their pen's round end)
    assert _strikes._under(mask, (12, 25, 68, 25), stroke=2) == lowest - 25
    # A sloping segment is measured from its middle.
    assert _strikes._under(mask, (12, 23, 68, 27), stroke=2) == lowest - 25
    # Nothing but the segment's own stroke: nothing under it.
    assert _strikes._under(stroke_mask([((12, 25), (68, 25))]), (12, 25, 68, 25), stroke=2) == 0.0
