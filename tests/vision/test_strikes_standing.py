"""Stage 5, numbers: a level line that is the foot of the digits standing on it is no long strike
(`_strikes.find_strikes`, `_strikes._standing_on`); a strike runs through its digits, leaving ink above
and below it. Small synthetic masks whose answer is evident by construction."""

from __future__ import annotations

from sheetscan.vision import _strikes
from tests.vision._stroke_masks import strikes_in, stroke_mask

# A "2" drawn square, its base run on to the right through the stem of the next digit (a "1" or a 4's
# stem, standing full height): one level stroke from x = 14 to x = 66 at y = 32, two thirds down the
# number, sticking out on its own at both ends (4 px left of the 2's diagonal, 10 px right of the stem).
TWO_ON_ITS_BASE = [((18, 10), (34, 10)), ((34, 10), (34, 20)), ((34, 20), (18, 32)),
                   ((14, 32), (66, 32)), ((56, 10), (56, 40))]


def test_a_twos_base_run_through_the_next_digit_is_no_strike() -> None:
    # The 2 stands on the line (all its ink above it), the stem is crossed: as many digits stand on it
    # as it runs through.
    assert strikes_in(stroke_mask(TWO_ON_ITS_BASE)) == []


def test_the_same_line_under_two_digits_it_crosses_is_a_strike() -> None:
    # The 2 replaced by a stem standing full height, as the other: the line runs through both. (Drawn
    # at y = 28, 0.6 of the digits' height, where a strike goes: at y = 32 the stems would reach on
    # below it by 0.27 of a digit only, a digit's foot run on (`_strikes._STRIKE_UNDER`).)
    crossed = [((24, 10), (24, 40)), ((14, 28), (66, 28)), ((56, 10), (56, 40))]
    found = strikes_in(stroke_mask(crossed))
    assert len(found) == 1
    assert abs(found[0][1] - 28) <= 2 and abs(found[0][3] - 28) <= 2


def test_digits_standing_on_a_line_and_run_through_are_counted() -> None:
    mask = stroke_mask(TWO_ON_ITS_BASE)
    assert _strikes._standing_on(mask, (14, 32, 66, 32), stroke=2) == (1, 1)
    # Struck through the middle instead, the 2 keeps its top above the line and its base below it (the
    # base, under the stem, makes the two one run of ink across: one digit, run through).
    assert _strikes._standing_on(mask, (12, 22, 68, 22), stroke=2) == (0, 1)
