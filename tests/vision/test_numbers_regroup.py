"""Stage 5: a digit that landed in the neighbouring number (their dot lost) moves back when the zone's
running totals call for it (`_regroup.regroup`).

Crafted tokens on one line, each digit a 20×40 box with a known reading, so the tests check which
moves are taken, not the network.
"""

from __future__ import annotations

import math

import numpy as np

from sheetscan.vision._recog_types import DigitReading, crop_digits, read_number
from sheetscan.vision._regroup import regroup
from sheetscan.vision._steps import Part
from sheetscan.vision._totals import OTHER_WAY, choose_cuts
from sheetscan.vision.numbers import NumberToken
from tests.vision._number_reads import HEIGHT, Read, UnusedRecognizer, number_read, numbers_in_line

_HEIGHT = HEIGHT


def _values(line: list[Read], rising: bool = True) -> list[int | None]:
    tokens = [t for t, _ in line]
    readings = {id(t): r for t, r in line}
    parts = regroup([(True, rising, tokens)], {}, readings)
    return [r.value for t in tokens for _, r in parts.get(id(t), ((t, readings[id(t)]),))]


def test_a_digit_cut_into_the_number_before_moves_to_its_own() -> None:
    # "70.75.83.98" with the dot between 75 and 8 lost and a wider space after the 8: cut as 70, 758,
    # 3, 98. 70 -> 758 -> 3 -> 98 jumps and falls; with the 8 moved on, 70 < 75 < 83 < 98.
    sure = 0.99
    digits = [[(7, sure), (0, sure)], [(7, sure), (5, sure), (8, sure)], [(3, sure)], [(9, sure), (8, sure)]]
    line = numbers_in_line(digits, [20.0, 20.0, 20.0])
    assert _values(line) == [70, 75, 83, 98]


def test_a_digit_moves_even_when_the_number_after_is_misread() -> None:
    # As above, but the 98 reads as 8: 70, 758, 3, 8 -> 70, 75, 83, 8. The move mends both steps
    # into and out of 758 (two steps back's worth) and leaves one step back (83 -> 8), a misread the
    # move is not asked to mend.
    sure = 0.99
    digits = [[(7, sure), (0, sure)], [(7, sure), (5, sure), (8, sure)], [(3, sure)], [(8, sure)]]
    line = numbers_in_line(digits, [20.0, 20.0, 20.0])
    assert _values(line) == [70, 75, 83, 8]


def test_a_digit_cut_into_the_number_after_moves_back() -> None:
    # "12.16.20" cut as 12, 1, 620: the 6 belongs to the 1 before it (12 < 16 < 20).
    sure = 0.99
    line = numbers_in_line([[(1, sure), (2, sure)], [(1, sure)], [(6, sure), (2, sure), (0, sure)]],
                           [20.0, 20.0])
    assert _values(line) == [12, 16, 20]


def test_the_moved_digit_keeps_its_crop_and_its_share_of_the_quad() -> None:
    sure = 0.99
    line = numbers_in_line([[(7, sure), (0, sure)], [(7, sure), (5, sure), (8, sure)], [(3, sure)]],
                           [20.0, 20.0])
    tokens = [t for t, _ in line]
    readings = {id(t): r for t, r in line}
    parts = regroup([(True, True, tokens)], {}, readings)
    ((kept, kept_reading),) = parts[id(tokens[1])]
    ((grown, grown_reading),) = parts[id(tokens[2])]
    assert (kept_reading.value, grown_reading.value) == (75, 83)
    # The 8 was the third box of "758": its crop (grey 20 * 9) now stands first in "83", the 3's next.
    crops = crop_digits(grown.image)
    assert [int(c.max()) for c in crops] == [180, 80]
    assert np.array_equal(crops[0], crop_digits(tokens[1].image)[2])
    # "70" spans x 0..46 of the line (two 20 px digits 6 px apart), "758" 66..138 (its 8 from 66 + 52
    # = 118), "3" 158..178. The 83 now reaches from the 8 to the end of the 3; 75 ends at 66 + 46.
    assert grown.quad[0][0] == 118.0 and grown.quad[1][0] == 178.0
    assert kept.quad[0][0] == 66.0 and kept.quad[1][0] == 112.0


def test_a_move_only_the_reading_likes_is_not_taken() -> None:
    # 6, a pale "1" read mostly as noise (0.09), 12, 14: moving the 1 of 12 onto it reads more surely
    # (11 or 1 and 2), but 6 -> 1 still falls: the totals' order does not call for it.
    line = numbers_in_line([[(6, 0.99)], [(1, 0.09)], [(1, 0.99), (2, 0.99)], [(1, 0.99), (4, 0.99)]],
                           [20.0, 20.0, 20.0])
    assert _values(line, rising=False) == [6, 1, 12, 14]


def test_one_step_back_is_no_reason_to_move_a_digit() -> None:
    # 11, then an 18 whose 8 was lost (read 1), then 19: 11 -> 1 falls once. Moving the second 1 of
    # 11 over reads 1, 11, 19 in order, but one misread number breaks one step as well; a digit on
    # the wrong side of a lost dot breaks the steps on both sides of the pair.
    sure = 0.99
    line = numbers_in_line([[(1, sure), (1, sure)], [(1, sure)], [(1, sure), (9, sure)]], [20.0, 20.0])
    assert _values(line) == [11, 1, 19]


def test_no_digit_moves_across_a_wide_space_or_to_another_line() -> None:
    sure = 0.99
    digits = [[(7, sure), (0, sure)], [(7, sure), (5, sure), (8, sure)], [(3, sure)], [(9, sure), (8, sure)]]
    # Three digit heights between 758 and 3: not one number whose dot was lost.
    far = numbers_in_line(digits, [20.0, 3 * _HEIGHT, 20.0])
    assert _values(far) == [70, 758, 3, 98]
    # The 3 on the next line of writing.
    line = numbers_in_line(digits, [20.0, 20.0, 20.0])
    token, reading = line[2]
    moved = NumberToken(zone=token.zone, angle=token.angle, row=1, quad=token.quad, crossed_out=False,
                        image=token.image, digit_size=token.digit_size)
    line[2] = (moved, reading)
    assert _values(line) == [70, 758, 3, 98]



def test_digits_move_before_the_totals_choose_other_readings() -> None:
    # 70, "758" whose 8 reads 8 at 0.7 and "not a digit" at 0.3, 3, 98. Read as "75" (0.3 x 0.99 x
    # 0.99 = 0.29, against 758 at 0.69) it already steps well from 70, and only 75 -> 3 falls: moving
    # the 8 would then mend one step back, no reason to move it (see the tests above), and the 83 would
    # be lost. Digits are moved first, on the likeliest readings (70, 758, 3 breaks two steps).
    sure = 0.99
    digits = [[(7, sure), (0, sure)], [(7, sure), (5, sure), (8, 0.7)], [(3, sure)], [(9, sure), (8, sure)]]
    line = numbers_in_line(digits, [20.0, 20.0, 20.0])
    tokens = [t for t, _ in line]
    readings = {id(t): r for t, r in line}
    assert [v for v, _ in readings[id(tokens[1])].candidates[:2]] == [758, 75]

    def values(parts: dict[int, tuple[Part, ...]]) -> list[int | None]:
        return [r.value for t in tokens for _, r in parts.get(id(t), ((t, readings[id(t)]),))]

    assert values(choose_cuts(UnusedRecognizer(), [(True, True, tokens)], readings)) == [70, 75, 3, 98]
    assert values(choose_cuts(UnusedRecognizer(), [(True, True, tokens)], readings, moves=regroup)) \
        == [70, 75, 83, 98]


def test_a_number_cut_in_two_is_read_as_one() -> None:
    # "44. 45. 48" whose 45 was written with a wide space between its digits (half a digit height,
    # 20 px): cut as 44, 4, 5, 48. 44 -> 4 falls; read as one, 44 < 45 < 48. The crafted readings are
    # the recogniser's digits, so the merged number is these two digits read together.
    sure = 0.99
    digits = [[(4, sure), (4, sure)], [(4, sure)], [(5, sure)], [(4, sure), (8, sure)]]
    line = numbers_in_line(digits, [30.0, 20.0, 30.0])
    assert _values(line) == [44, 45, 48]
    tokens = [t for t, _ in line]
    readings = {id(t): r for t, r in line}
    parts = regroup([(True, True, tokens)], {}, readings)
    # The 5's token keeps no part; the 4's now spans both, its image the two side by side (2 px apart,
    # the 5's grey level 120 in the second box).
    assert parts[id(tokens[2])] == ()
    ((whole, reading),) = parts[id(tokens[1])]
    assert reading.value == 45 and len(whole.image.digit_boxes) == 2
    assert [int(c.max()) for c in crop_digits(whole.image)] == [100, 120]
    assert whole.quad[0] == tokens[1].quad[0] and whole.quad[1] == tokens[2].quad[1]


def test_numbers_read_as_one_leave_the_totals_with_one_number() -> None:
    # The same line through choose_cuts: the merged token is gone from the zone's numbers.
    sure = 0.99
    digits = [[(4, sure), (4, sure)], [(4, sure)], [(5, sure)], [(4, sure), (8, sure)]]
    line = numbers_in_line(digits, [30.0, 20.0, 30.0])
    tokens = [t for t, _ in line]
    readings = {id(t): r for t, r in line}
    parts = choose_cuts(UnusedRecognizer(), [(True, True, tokens)], readings, moves=regroup)
    assert [r.value for t in tokens for _, r in parts.get(id(t), ((t, readings[id(t)]),))] == [44, 45, 48]


def test_numbers_are_not_read_as_one_without_cause() -> None:
    sure = 0.99
    # A space wider than any between a number's digits (a digit height): two numbers, 44 -> 4 falls
    # but that is a misread for the totals to bear, not a lost space.
    digits = [[(4, sure), (4, sure)], [(4, sure)], [(5, sure)], [(4, sure), (8, sure)]]
    far = numbers_in_line(digits, [30.0, 40.0, 30.0])
    assert _values(far) == [44, 4, 5, 48]
    # 2, 4 at the start of a zone, close together: in order as they stand, nothing to mend.
    near = numbers_in_line([[(2, sure)], [(4, sure)], [(1, sure), (2, sure)]], [20.0, 30.0])
    assert _values(near) == [2, 4, 12]
    # 44, 4, 1, 48 (a 7 read as 1?): "41" would mend two steps back into one, but it still falls.
    digits = [[(4, sure), (4, sure)], [(4, sure)], [(1, sure)], [(4, sure), (8, sure)]]
    misread = numbers_in_line(digits, [30.0, 20.0, 30.0])
    assert _values(misread) == [44, 4, 1, 48]


def _with_other_way(line: list[Read], k: int, other: list[tuple[int, float]],
                    more: dict[int, list[tuple[int, float]]] | None = None) -> list[int | None]:
    """The values of `line` after `regroup`, number `k`'s token (and each of `more`'s) read first as
    given (its chosen way) and also, as its next way (scored less the other-way prior), as `other`."""
    tokens = [t for t, _ in line]
    readings = {id(t): r for t, r in line}
    ways = {}
    for n, digits in {k: other, **(more or {})}.items():
        token, reading = line[n]
        way, way_reading = number_read(digits, token.quad[0][0])
        found = [(((token, reading),), math.log(reading.confidence)),
                 (((way, way_reading),), math.log(way_reading.confidence) + OTHER_WAY)]
        ways[id(token)] = (found, 0)
    parts = regroup([(True, True, tokens)], {}, readings, None, ways)
    return [r.value for t in tokens for _, r in parts.get(id(t), ((t, readings[id(t)]),))]


def test_two_numbers_are_read_as_one_in_a_token_s_other_way() -> None:
    # "70" written with its 7 apart from its 0: the 7's chosen way reads "1" (a stray bit of its bar
    # left out), its other way "7". 46, 1, 0, 74 falls twice and 46, 10, 74 still does; only the 7's
    # other way read with the 0 steps in order: 46 < 70 < 74.
    line = numbers_in_line([[(4, 0.99), (6, 0.99)], [(1, 0.96)], [(0, 0.99)], [(7, 0.99), (4, 0.99)]],
                           [20.0, 8.0, 20.0])
    assert _values(line) == [46, 1, 0, 74]
    assert _with_other_way(line, 1, [(7, 0.89)]) == [46, 70, 74]


def test_a_token_s_other_way_is_not_read_with_its_neighbour_out_of_step() -> None:
    # As above, but the next number is an 8: 78 falls to 74 as 1, 8 does, so the other way is no
    # reason to read the two as one.
    line = numbers_in_line([[(4, 0.99), (6, 0.99)], [(1, 0.96)], [(8, 0.99)], [(7, 0.99), (4, 0.99)]],
                           [20.0, 8.0, 20.0])
    assert _with_other_way(line, 1, [(7, 0.89)]) == [46, 1, 8, 74]


def test_numbers_read_in_step_are_not_read_as_one_in_their_other_ways() -> None:
    # "12" (read unsurely, nothing of it noise) and "35" read in order; their other ways "82" and "5"
    # fall, and "825" would step on from nothing: the chosen ways call for no merge.
    (token, _), second = numbers_in_line([[(1, 0.3), (2, 0.3)], [(3, 0.85), (5, 0.85)]], 8.0)
    unsure = read_number([DigitReading(((1, 0.3),), 0.0), DigitReading(((2, 0.3),), 0.0)])
    assert _with_other_way([(token, unsure), second], 0, [(8, 0.99), (2, 0.99)], {1: [(5, 0.99)]}) == [12, 35]


def test_two_numbers_alone_are_not_read_as_one_in_their_other_ways() -> None:
    # "82", "35" alone in their zone fall; the 35's other way "5" with the 82 reads "825", but no
    # number before or after confirms it.
    line = numbers_in_line([[(8, 0.8), (2, 0.8)], [(3, 0.85), (5, 0.85)]], 8.0)
    assert _with_other_way(line, 1, [(5, 0.99)]) == [82, 35]
