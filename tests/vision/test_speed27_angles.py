"""Stage 5: on a sheet that reads the usual way up however its turned angles read, a block whose usual
angle reads better than any turned reading could after the turn's penalty (`_angles._TURN`) is not cut
or read turned (`_angles._without_hopeless_turns`); the angles chosen are those of reading them all.

A stand-in recogniser reads each digit box by its width, so the scores below are computed by hand from
`_angles._score`: the mean log-confidence of the numbers, plus the share of steps in the block's way
(0.5 with no step), minus 2 x the share of leading zeros, plus 0.3 x (mean digits - 1), plus the usual
angle's bonus 0.25.
"""

from __future__ import annotations

import math

from sheetscan.vision._angles import _CLEAR, _HIGHEST, _TURN, Candidates, _score, choose_angles
from sheetscan.vision._digit_cache import DigitCache
from sheetscan.vision.recognise import DigitReading, NumberReading
from tests.vision._by_width import ByWidth, number_of_widths
from tests.vision._watched import Watched

# Widths: 10-19 read surely (0.99), 20-29 at 0.7; the last digit is the digit.
_TABLE = {base + d: (d, p) for base, p in ((10, 0.99), (20, 0.7)) for d in range(10)}


def _clear_block() -> tuple[Candidates, bool]:
    """12, 14, 16, 18 read surely: log(0.99^2) + 1 + 0.3 + 0.25 = 1.53 >= `_CLEAR`: never read turned,
    it votes the full 1 a number (4) for the sheet upright."""
    usual = tuple(number_of_widths((11, 10 + d)) for d in (2, 4, 6, 8))
    return ((0, usual), (180, tuple(number_of_widths((10 + d, 11)) for d in (8, 6, 4, 2)))), True


def _unsure_block() -> tuple[tuple[Candidates, bool], Watched]:
    """12, 14, 16, 18 with every digit at 0.7: log(0.49) + 1 + 0.3 + 0.25 = 0.84, below `_CLEAR`; turned
    21, 41, 61, 81 read surely and in order (1.28, better by 0.44 < `_TURN`)."""
    usual = tuple(number_of_widths((21, 20 + d)) for d in (2, 4, 6, 8))
    turned = Watched(tuple(number_of_widths((10 + d, 11)) for d in (2, 4, 6, 8)))
    return (((0, usual), (180, turned)), True), turned


def test_an_unsure_block_on_an_upright_sheet_is_not_read_turned() -> None:
    own = math.log(0.49) + 1.0 + 0.3 + 0.25
    assert own < _CLEAR
    # The most a turned reading could score, less the turn's penalty, is below the block's own score.
    assert own >= _HIGHEST - _TURN
    block, turned = _unsure_block()
    # Two clear blocks vote +4 each; the unsure one at least 4 x max(-1, 0.84 - 1.6) = -3.04: the sheet
    # is upright whatever the turned angle reads, and then it could not win by 3.0.
    chosen = choose_angles([_clear_block(), block, _clear_block()], DigitCache(ByWidth(_TABLE)))
    assert [angle for angle, _ in chosen] == [0, 0, 0]
    assert not turned.asked


def test_an_unsure_block_alone_is_read_turned_and_takes_the_turn() -> None:
    # Alone, the block is the sheet: its vote could be -1 a number, so the turned angle is read, and
    # reading better (1.28 against 0.84) it is taken.
    block, turned = _unsure_block()
    ((angle, _),) = choose_angles([block], DigitCache(ByWidth(_TABLE)))
    assert turned.asked
    assert angle == 180


def test_no_reading_scores_above_the_highest() -> None:
    # Three-digit totals read at certainty, every step up: 0 + 1 + 0.3 x 2 = 1.6, the most `_score` gives.
    sure = DigitReading(((1, 1.0),), 0.0)
    readings = [NumberReading(((value, 1.0),), (sure, sure, sure)) for value in (111, 222, 333)]
    best = _score(readings, crossed=[False] * 3, rising=True)
    assert math.isclose(best, 1.6)
    assert best <= _HIGHEST
