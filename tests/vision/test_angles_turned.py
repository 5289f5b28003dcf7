"""Stage 5: a sheet's blocks are read turned by 180° together or not at all (`_angles._upright`,
`_angles._TURN`), and the circle's number is chosen as a pulka target (`_angles.circle_number`).

A stand-in recogniser reads each digit box by its width (`table[width]`: digit, probability), so the
scores below are computed by hand from `_angles._score`: the mean log-confidence of the numbers, plus
the share of steps in the block's way (0.5 with no step), minus 2 x the share of leading zeros, plus
0.3 x (mean digits - 1), plus the usual angle's bonus 0.25.
"""

from __future__ import annotations

import math

from sheetscan.vision._angles import _TURN, Candidates, _turned, choose_angles, circle_number
from sheetscan.vision._digit_cache import DigitCache
from sheetscan.vision.numbers import _candidate_angles
from tests.vision._by_width import ByWidth, number_of_widths

# Widths: 10-19 read surely (0.99), 20-29 at 0.9, 30-39 at 0.6, 40-49 at 0.3; the last digit is the digit.
_TABLE = {base + d: (d, p) for base, p in ((10, 0.99), (20, 0.9), (30, 0.6), (40, 0.3)) for d in range(10)}


def _clear_block() -> tuple[Candidates, bool]:
    """Four numbers 12, 14, 16, 18 read surely: log(0.99^2) + 1 + 0.3 + 0.25 = 1.53 >= `_CLEAR` (1.0),
    so its turned angle is never read and it votes the full 1 a number (4) for the sheet upright."""
    usual = tuple(number_of_widths((11, 10 + d)) for d in (2, 4, 6, 8))
    return ((0, usual), (180, tuple(number_of_widths((10 + d, 11)) for d in (8, 6, 4, 2)))), True


def _short_block(own: int) -> tuple[Candidates, bool]:
    """One number: "24" at its own angle with each digit read at `own` (a width base), "72" turned
    with each digit at 0.9."""
    return ((0, (number_of_widths((own + 2, own + 4)),)), (180, (number_of_widths((27, 22)),))), True


def test_candidate_angles_are_own_then_turned_in_the_same_order() -> None:
    assert _candidate_angles([0]) == (0, 180)
    assert _candidate_angles([-90, 180]) == (-90, 180, 90, 0)
    assert _turned(tuple((a, ()) for a in _candidate_angles([0]))) == {1}
    assert _turned(tuple((a, ()) for a in _candidate_angles([-90, 180]))) == {2, 3}
    # The circle may be written from any side: (0, 180, 90, -90) is not own-then-turned.
    assert _turned(tuple((a, ()) for a in (0, 180, 90, -90))) == frozenset()


def test_a_short_block_reads_at_its_own_angle_on_an_upright_sheet() -> None:
    # "24" at 0.6 a digit: log(0.36) + 0.5 + 0.3 + 0.25 = 0.029; "72" turned at 0.9 a digit:
    # log(0.81) + 0.5 + 0.3 = 0.589: better by 0.56 < 3.0 (`_TURN`).
    own = math.log(0.36) + 0.5 + 0.3 + 0.25
    turned = math.log(0.81) + 0.5 + 0.3
    assert 0 < turned - own < _TURN
    # Alone, the block itself is the sheet: it votes -0.56 and is read turned.
    ((angle, _),) = choose_angles([_short_block(30)], DigitCache(ByWidth(_TABLE)))
    assert angle == 180
    # With two blocks that read clearly the usual way (+4 each), the sheet is upright and the turned
    # angle must win by 3.0: it does not.
    chosen = choose_angles([_clear_block(), _short_block(30), _clear_block()], DigitCache(ByWidth(_TABLE)))
    assert [angle for angle, _ in chosen] == [0, 0, 0]


def test_a_block_that_reads_much_better_turned_is_read_turned_on_an_upright_sheet() -> None:
    # Three numbers "24" at 0.3 a digit, no step up: log(0.09) + 0 + 0.3 + 0.25 = -1.858; turned
    # 12, 14, 16 at 0.99 a digit, every step up: log(0.9801) + 1 + 0.3 = 1.280: better by 3.14 > 3.0.
    own = math.log(0.09) + 0.0 + 0.3 + 0.25
    turned = math.log(0.99 ** 2) + 1.0 + 0.3
    assert turned - own > _TURN
    block: tuple[Candidates, bool] = (((0, tuple(number_of_widths((42, 44)) for _ in range(3))),
                                       (180, tuple(number_of_widths((11, 10 + d)) for d in (2, 4, 6)))), True)
    chosen = choose_angles([_clear_block(), block, _clear_block()], DigitCache(ByWidth(_TABLE)))
    assert [angle for angle, _ in chosen] == [0, 180, 0]


def test_a_sheet_read_turned_is_read_turned_everywhere() -> None:
    # The clear blocks with their angles swapped: at 0 they read 81, 61, 41, 21 (going down, no step
    # up in a rising block: log(0.98) + 0 + 0.3 + 0.25 = 0.53 < 1.0), turned 12, 14, 16, 18 surely and
    # in order (1.28): each votes -0.75 a number, so the short block is free to read turned (by 0.56).
    def swapped() -> tuple[Candidates, bool]:
        (own, usual), (turn, other) = _clear_block()[0]
        return ((own, other), (turn, usual)), True
    chosen = choose_angles([swapped(), _short_block(30), swapped()], DigitCache(ByWidth(_TABLE)))
    assert [angle for angle, _ in chosen] == [180, 180, 180]


def test_the_circle_takes_the_angle_where_its_number_holds_together() -> None:
    # At 0: a piece of the circle's line read as a sure "1" (0.99) and "20" at 0.9 a digit: scores
    # log(0.99) = -0.01 and log(0.81) + 1 (two digits) = 0.79. At 90 (the angle chosen for the circle
    # as a block): the "20" fallen apart, "2" and "0" each at 0.99: -0.01 and no target (0).
    # Turned (180): "02" read surely: a leading zero, no target.
    at_0 = (number_of_widths((11,)), number_of_widths((22, 20)))
    at_90 = (number_of_widths((12,)), number_of_widths((10,)))
    at_180 = (number_of_widths((10, 12)),)
    candidates: Candidates = ((0, at_0), (180, at_180), (90, at_90), (-90, ()))
    angle, numbers = circle_number(candidates, (90, at_90), DigitCache(ByWidth(_TABLE)))
    assert angle == 0
    assert numbers == (at_0[1],)


def test_a_touching_10_in_the_circle_is_cut_as_two_digits() -> None:
    # One glyph, 36 px wide, reads as one "6" at 0.6 a digit (log 0.6 = -0.51, one digit); cut as an
    # 11 px "1" and a 10 px (+4 gap) "0": "10" at 0.99 x 0.99, log 0.98 - 0.05 (another way) + 1 = 0.93.
    token = number_of_widths((36,), cuts=((11, 10),))
    cache = DigitCache(ByWidth(_TABLE))
    (angle, (number,)) = circle_number(((0, (token,)), (180, ())), (0, (token,)), cache)
    assert angle == 0
    assert number.image.digit_boxes == ((0, 0, 11, 40), (15, 0, 10, 40))
    # Cut that way only (its one glyph, one way, two boxes): nothing later cuts it otherwise.
    assert number.glyph_cuts == ((((0, 0, 11, 40), (15, 0, 10, 40)),),)
    reading = DigitCache(ByWidth(_TABLE)).read([number])[0]
    assert int(reading.candidates[0][0]) == 10


def test_the_circle_with_nothing_that_could_be_a_target_keeps_the_chosen_angle() -> None:
    zero = (number_of_widths((10,)),)
    angle, numbers = circle_number(((0, zero), (180, zero)), (180, zero), DigitCache(ByWidth(_TABLE)))
    assert (angle, numbers) == (180, zero)
