"""Stage 5: a "1" found run into its digit that the totals turned down still says the writer runs his
"1"s into their digits (`_totals._one_swallowed`). A zone's first "12" is one glyph read as a sure 2; its
cut finds a sure "1", but the "18" after it swallowed its "1" as well and reads 8, so 12 -> 8 steps back
and the totals keep 2, 8, 26, in step everywhere: no "1" picked, no step broken for one to mend. The "1"
found is evidence enough for the zone's other glyphs to be read for one.

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
"""The writer's typical digit width: a glyph over 1.2 of it (31 px) is wide enough to have swallowed a
"1" by itself (`_swallow.may_swallow`); one of 30 px is not, unless the writer is known to run them in
(over 0.6 of the height, 24 px)."""

# "12" a glyph of 34 px, "18" one of 30 px: each read whole as its second digit, each cut 8 px off its
# left side into a sure "1" (8 px) and the digit (26 px: 2, 22 px: 8) read as surely as whole.
# "26" two glyphs of 25 and 27 px; "20" of 25 and 23 px.
READER = ByWidth({34: (2, 0.99), 26: (2, 0.99), 30: (8, 0.99), 22: (8, 0.99), 8: (1, 0.99),
                  25: (2, 0.99), 27: (6, 0.99), 23: (0, 0.99)})


def _swallowed(width: int) -> NumberToken:
    """One glyph `width` px wide, cut whole first, or as an 8 px "1" and the rest."""
    return cut_token([[[(0, 0, width, HEIGHT)], [(0, 0, 8, HEIGHT), (8, 0, width - 8, HEIGHT)]]],
                     HEIGHT, TYPICAL)


def _two_glyphs(second: int) -> NumberToken:
    """A "2" of 25 px, then a glyph `second` px wide, 4 px apart."""
    return cut_token([[[(0, 0, 25, HEIGHT)]], [[(29, 0, second, HEIGHT)]]], HEIGHT, TYPICAL)


def _values(sequence: list[NumberToken]) -> list[int | None]:
    """The value each token of one rising zone is read as, its cut chosen by the totals."""
    readings = {id(t): READER.read_numbers([t.image])[0] for t in sequence}
    parts = choose_cuts(READER, [(True, True, sequence)], readings)
    return [reading.value for t in sequence for _, reading in parts.get(id(t), ((t, readings[id(t)]),))]


def test_a_one_found_and_turned_down_by_the_totals_has_the_zone_read_for_ones() -> None:
    # 2, 8, 26 as read steps on; 12 alone would step back to the 8. Read for "1"s, 12, 18, 26 steps on.
    assert _values([_swallowed(34), _swallowed(30), _two_glyphs(27)]) == [12, 18, 26]


def test_a_zone_with_no_one_found_is_not_read_for_ones() -> None:
    # 2 (one glyph of 25 px), "18" read 8, 26: in step, and no glyph wide enough to have swallowed a "1"
    # by itself, so no way finds one and nothing says the writer runs them in: 2, 8, 26 stays.
    two = cut_token([[[(0, 0, 25, HEIGHT)]]], HEIGHT, TYPICAL)
    assert _values([two, _swallowed(30), _two_glyphs(27)]) == [2, 8, 26]


def test_a_one_turned_down_finds_only_ones_as_sure_as_it_elsewhere() -> None:
    # 1, then a wide "2" (34 px) whose hook cut off reads a sure "1" (the rest a sure 2), then a "4"
    # (29 px) whose arm cut off its stem reads a sure "1" too, the stem then a 4 at 0.9 against 0.99
    # whole: a stroke of the 4, not a "1" run into it. 1, 12 steps on but 12 -> 4 goes back, so the
    # totals turn the "1" down; the zone is read for "1"s, but the 4's is not one, and 1, 2, 4 stays
    # (1, 12, 14 would rise too).
    reader = ByWidth({9: (1, 0.99), 34: (2, 0.99), 26: (2, 0.99), 8: (1, 0.99), 29: (4, 0.99),
                      21: (4, 0.9)})
    one = cut_token([[[(0, 0, 9, HEIGHT)]]], HEIGHT, TYPICAL)
    sequence = [one, _swallowed(34), _swallowed(29)]
    readings = {id(t): reader.read_numbers([t.image])[0] for t in sequence}
    parts = choose_cuts(reader, [(True, True, sequence)], readings)
    assert [r.value for t in sequence for _, r in parts.get(id(t), ((t, readings[id(t)]),))] == [1, 2, 4]
