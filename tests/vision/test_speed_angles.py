"""Stage 5: a block that reads clearly the usual way (`_angles._CLEAR`) is neither cut nor read at its
other angles; one that does not is.

A stand-in recogniser reads each digit box by its width, so the test checks which numbers are asked
for, not the network.
"""

from __future__ import annotations

import math

from sheetscan.vision._angles import _CLEAR, choose_angles
from sheetscan.vision._digit_cache import DigitCache
from tests.vision._by_width import ByWidth, number_of_widths
from tests.vision._watched import Watched


def test_a_block_read_clearly_the_usual_way_is_not_read_at_its_other_angles() -> None:
    # Usual angle: 12, 14, 16, 18, every digit at p. At p = 0.99 each number reads at 0.9801: mean
    # log-confidence -0.020, every step up (+1), two digits a number (+0.3), with the usual angle's
    # bonus (+0.25): 1.53 >= 1.0, so the turned numbers are never asked for; at p = 0.82 (0.6724 a
    # number): -0.397 + 1 + 0.3 + 0.25 = 1.153 >= 1.0, neither. At p = 0.7 (0.49 a number):
    # -0.713 + 1 + 0.3 + 0.25 = 0.84 < 1.0: the turned angle is read (its first number at least)
    # and, reading 21, 41, 61, 81 surely in order as well (1.3 without the bonus), it wins.
    for p, asked, chosen in ((0.99, False, 0), (0.82, False, 0), (0.7, True, 180)):
        table = {10: (1, p), 12: (2, p), 14: (4, p), 16: (6, p), 18: (8, p),
                 11: (1, 0.99), 13: (2, 0.99), 15: (4, 0.99), 17: (6, 0.99), 19: (8, 0.99)}
        usual = tuple(number_of_widths((10, w)) for w in (12, 14, 16, 18))
        turned = Watched(tuple(number_of_widths((w, 11)) for w in (13, 15, 17, 19)))
        score = math.log(p * p) + 1.0 + 0.3 + 0.25
        assert (score >= _CLEAR) is (not asked)
        ((angle, _),) = choose_angles([(((0, usual), (180, turned)), True)], DigitCache(ByWidth(table)))
        assert turned.asked is asked
        assert angle == chosen
