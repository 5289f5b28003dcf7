"""Stage 5: a writer who runs his "1"s into their digits (`_totals.choose_cuts`' habit). When two
neighbours both swallowed their "1" ("10, 14, 16, 22" read 10, 4, 6, 22), the "1" found in the one at the
broken step mends no step alone (10, 14, 6 steps back as 10, 4, 6 does), so the totals do not pick it;
that way is still evidence enough for the zone's other glyphs to be read for a "1" (`_one_would_mend`).

A stand-in recogniser reads a digit box by its width (each box has its own width), so the tests check
which readings are offered and chosen, not the network.
"""

from __future__ import annotations

from sheetscan.vision._totals import choose_cuts
from sheetscan.vision.numbers import NumberToken
from tests.vision._by_width import ByWidth, cut_token

Box = tuple[int, int, int, int]
HEIGHT = 40
TYPICAL = 26.0
"""The writer's typical digit width: a glyph up to 1.2 of it (31 px) is not wide enough to have
swallowed a "1" by itself (`_swallow.may_swallow`), one over 0.6 of the height (24 px) is in a zone
whose writer runs them in."""


# "10" and "22" written apart; "4" and "6" each a glyph of 30 and 29 px whose left 8 px, cut off, read a
# sure "1" (the rest 22 and 21 px read the digit): the network reads the whole glyph as the digit alone.
READER = ByWidth({9: (1, 0.99), 24: (0, 0.99), 25: (2, 0.99), 30: (4, 0.99), 29: (6, 0.99),
                  8: (1, 0.99), 22: (4, 0.99), 21: (6, 0.99)})


def _token(glyph_cuts: list[list[list[Box]]]) -> NumberToken:
    """A token of the glyphs' ways of cutting (each glyph's first way its first), uniform ink."""
    return cut_token(glyph_cuts, HEIGHT, TYPICAL)


def _swallowed(width: int) -> NumberToken:
    """One glyph `width` px wide, cut whole first, or as an 8 px "1" and the rest."""
    return _token([[[(0, 0, width, HEIGHT)], [(0, 0, 8, HEIGHT), (8, 0, width - 8, HEIGHT)]]])


def _values(sequence: list[NumberToken]) -> list[list[int | None]]:
    """The values each token of one rising zone is read as, its cut chosen by the totals."""
    readings = {id(t): READER.read_numbers([t.image])[0] for t in sequence}
    parts = choose_cuts(READER, [(True, True, sequence)], readings)
    return [[reading.value for _, reading in parts.get(id(t), ((t, readings[id(t)]),))] for t in sequence]


def test_two_neighbours_that_swallowed_their_one_both_get_it_back() -> None:
    # 10, "14" (read 4), "16" (read 6), 22: the step 10 -> 4 goes back. The 4 is read every way and its
    # "1 4" finds a sure "1", but 10, 14, 6, 22 steps back too, so the totals keep 4; the 6 is sure and
    # in step. The "1" found where the totals break says the writer runs them in: the 6 is read for one,
    # and 10, 14, 16, 22 steps on everywhere.
    ten = _token([[[(0, 0, 9, HEIGHT)]], [[(11, 0, 24, HEIGHT)]]])
    twenty_two = _token([[[(0, 0, 25, HEIGHT)]], [[(27, 0, 25, HEIGHT)]]])
    assert _values([ten, _swallowed(30), _swallowed(29), twenty_two]) == [[10], [14], [16], [22]]


def test_a_zone_in_step_is_not_read_for_ones() -> None:
    # 2, 4, 6, 22 steps on: no step is broken, nothing is read again, the 4 and the 6 stay.
    two = _token([[[(0, 0, 25, HEIGHT)]]])
    twenty_two = _token([[[(0, 0, 25, HEIGHT)]], [[(27, 0, 25, HEIGHT)]]])
    assert _values([two, _swallowed(30), _swallowed(29), twenty_two]) == [[2], [4], [6], [22]]
