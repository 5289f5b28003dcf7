"""Stage 5: a way of cutting that cuts a piece off a digit and leaves it out as noise
(`_totals._part_noise`). Where the digit, read surely whole, reads as another digit without the piece
(a 6's loop cut off its stem, the stem a sure "1"), the piece was the digit's own and the way costs;
where it reads the same digit (a "1"'s flag cut off, a "2" either way), the piece was a stray bit, and
where the whole was read unsurely, it may have been misread: those ways cost nothing.

A stand-in recogniser reads a digit box by its width (each box has its own width), so the tests check
which readings the totals choose, not the network.
"""

from __future__ import annotations

from sheetscan.vision._totals import choose_cuts
from sheetscan.vision.numbers import NumberToken
from tests.vision._by_width import ByWidth, cut_token

Box = tuple[int, int, int, int]
HEIGHT = 40
TYPICAL = 26.0
"""The writer's typical digit width."""

# A "3" 27 px wide, a "0" 25 px, an "8" 24 px; a "6" 18 px read at 0.94 whole, whose 7 px stem, cut off,
# reads a sure "1" and whose 11 px loop reads as noise (0 at 0.001); a "2" 40 px read at 0.90 whole,
# whose 10 px flag reads as noise and whose 30 px rest reads a surer "2".
READER = ByWidth({27: (3, 1.0), 25: (0, 0.99), 24: (8, 0.99), 18: (6, 0.94), 7: (1, 1.0), 11: (0, 0.001),
                  40: (2, 0.90), 10: (0, 0.001), 30: (2, 0.99)})


def _token(glyph_cuts: list[list[list[Box]]]) -> NumberToken:
    """A token of the glyphs' ways of cutting (each glyph's first way its first), uniform ink."""
    return cut_token(glyph_cuts, HEIGHT, TYPICAL)


def _values(sequence: list[NumberToken], reader: ByWidth = READER) -> list[list[int | None]]:
    """The values each token of one rising zone is read as, its cut chosen by the totals."""
    readings = {id(t): reader.read_numbers([t.image])[0] for t in sequence}
    parts = choose_cuts(reader, [(True, True, sequence)], readings)
    return [[reading.value for _, reading in parts.get(id(t), ((t, readings[id(t)]),))] for t in sequence]


def test_a_digit_whose_loop_a_way_leaves_out_as_noise_keeps_its_loop() -> None:
    # 30, "36", 38: the 6 is read at 0.94 whole (ln -0.062); cut at its stem, "1" (1.0) and the loop as
    # noise (0.999) read 31 at ln -0.001 - 0.05 (another way), surer. Both step on from 30 to 38. Without
    # its loop the 6 reads as another digit (1): the loop was the 6's, and the way that drops it costs.
    thirty = _token([[[(0, 0, 27, HEIGHT)]], [[(29, 0, 25, HEIGHT)]]])
    thirty_six = _token([[[(0, 0, 27, HEIGHT)]],
                         [[(29, 0, 18, HEIGHT)], [(29, 0, 7, HEIGHT), (36, 0, 11, HEIGHT)]]])
    thirty_eight = _token([[[(0, 0, 27, HEIGHT)]], [[(29, 0, 24, HEIGHT)]]])
    assert _values([thirty, thirty_six, thirty_eight]) == [[30], [36], [38]]


def test_a_stray_bit_cut_off_a_digit_that_reads_the_same_without_it_costs_nothing() -> None:
    # 20, "22", 30: the second "2" is read at 0.90 whole; its flag cut off as noise leaves a "2" read at
    # 0.99, the same digit: the flag was a stray bit, and the surer way wins.
    twenty = _token([[[(0, 0, 30, HEIGHT)]], [[(32, 0, 25, HEIGHT)]]])
    twenty_two = _token([[[(0, 0, 30, HEIGHT)]],
                         [[(32, 0, 40, HEIGHT)], [(32, 0, 10, HEIGHT), (42, 0, 30, HEIGHT)]]])
    thirty = _token([[[(0, 0, 27, HEIGHT)]], [[(29, 0, 25, HEIGHT)]]])
    readings = {id(t): READER.read_numbers([t.image])[0] for t in (twenty, twenty_two, thirty)}
    parts = choose_cuts(READER, [(True, True, [twenty, twenty_two, thirty])], readings)
    ((token, reading),) = parts[id(twenty_two)]
    assert reading.value == 22
    assert len(token.image.digit_boxes) == 3  # the way that cut the flag off, read surer


def test_a_digit_read_unsurely_whole_may_lose_a_piece_that_made_it_read_otherwise() -> None:
    # 74, "82", 90: the "2" with its hook touching reads "7" at 0.62 whole; its hook cut off as noise
    # leaves a "2" read at 0.99. The network was not sure of the whole, which may be misread: the way
    # costs nothing, and 82 (ln 0.98 - 0.05) beats 87 (ln 0.61).
    reader = ByWidth({24: (8, 0.99), 42: (7, 0.62), 10: (0, 0.001), 32: (2, 0.99), 26: (7, 0.99),
                      25: (4, 0.99), 27: (9, 0.99), 28: (0, 0.99)})
    seventy_four = _token([[[(0, 0, 26, HEIGHT)]], [[(28, 0, 25, HEIGHT)]]])
    eighty_two = _token([[[(0, 0, 24, HEIGHT)]],
                         [[(26, 0, 42, HEIGHT)], [(26, 0, 10, HEIGHT), (36, 0, 32, HEIGHT)]]])
    ninety = _token([[[(0, 0, 27, HEIGHT)]], [[(29, 0, 28, HEIGHT)]]])
    assert _values([seventy_four, eighty_two, ninety], reader) == [[74], [82], [90]]
