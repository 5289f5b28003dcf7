"""Stage 5: how a block's candidate angles are scored (`_angles._score`), on crafted readings.

The readings are made up, digit by digit, so the test checks the score, not the network.
"""

from __future__ import annotations

from sheetscan.vision._angles import _score
from sheetscan.vision.recognise import DigitReading, NumberReading, read_number


def _read(value: int, confidence: float) -> NumberReading:
    """`value` read digit by digit, its first digit at `confidence` and the others sure."""
    digits = [DigitReading(((int(c), confidence if k == 0 else 1.0),), 0.0) for k, c in enumerate(str(value))]
    return read_number(digits)


def test_one_unreadable_number_does_not_outweigh_a_block_read_surely_in_order() -> None:
    # A whists block written the usual way: nine totals read surely and in order, and one (a smudged
    # 100) that reads as nothing at all. Turned upside down the same ink reads as ten numbers at
    # 0.3-0.9, out of order. With every log-confidence counted down to 1e-6 the unreadable number
    # alone cost 13.8 / 10 = 1.38 and the upside-down reading won (-0.02 against 0.43); counted down
    # to 0.05 it costs 3.0 / 10: mean log-confidence -0.30, every step up (+1), 2.2 digits a number
    # (+0.3 x 1.2), 1.06 in all.
    usual = [_read(v, 1.0) for v in (15, 30, 50, 75, 90)] + [NumberReading((), ())]
    usual += [_read(v, 1.0) for v in (110, 125, 135, 155)]
    turned = [_read(v, c) for v, c in ((551, 0.9), (59, 0.3), (581, 0.9), (60, 0.9), (11, 0.6),
                                       (870, 0.4), (82, 0.4), (96, 0.9), (56, 0.9), (825, 0.8))]
    crossed = [False] * 10
    assert _score(usual, crossed=crossed, rising=True) > _score(turned, crossed=crossed, rising=True)


def test_a_struck_numbers_leading_zero_does_not_turn_its_block() -> None:
    # A pulka block of two: a struck "17" and its correction "10" (seed 2000 photo 0). At the block's
    # own angle the strike's marks before the 7 read as a 0 or as nothing ("7" at 0.28 from two digit
    # boxes, as a total read upside down with its 0 in front is scored; crossed out) and the 10
    # reads surely; a quarter turn off the same ink reads as two single digits, 8 at 0.67 and 5 at
    # 0.3, stepping down. Counted as a leading zero, the struck number cost its block 1.0 and the
    # turned reading won even with the usual angle's bonus (-0.84 + 0.25 against 0.20); a strike's
    # marks say nothing of the angle, and the block reads at its own (0.16 + 0.25).
    struck = read_number([DigitReading(((0, 0.72),), 0.28), DigitReading(((7, 1.0),), 0.0)])
    assert struck.value == 7 and len(struck.digits) == 2
    own = _score([struck, _read(10, 1.0)], crossed=[True, False])
    turned = _score([_read(8, 0.67), _read(5, 0.3)], crossed=[False, False])
    assert own + 0.25 > turned
