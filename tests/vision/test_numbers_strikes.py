"""Stage 5, numbers: a strike through one digit (`_strikes.find_short_strikes`) and the recogniser's
judgement of it (`_judge.judged`), on small synthetic masks whose answer is evident by construction.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from sheetscan.vision import _group, _strikes
from sheetscan.vision._digit_cache import DigitCache
from sheetscan.vision._judge import judged
from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import NumberImage
from tests.vision._fixed_reader import FixedReader

HEIGHT = 30  # the digit height of every mask below: strokes from y = 10 to y = 40


def _short_strikes(draw: list[tuple[tuple[int, int], tuple[int, int]]]) -> list[tuple[int, int, int, int]]:
    """The short strikes found in a 60 × 80 mask holding the given 2 px strokes."""
    mask = np.zeros((60, 80), np.uint8)
    for start, end in draw:
        cv2.line(mask, start, end, 255, 2)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    found = _strikes.find_short_strikes(mask, _group.blobs_of(stats), height=HEIGHT, stroke=2)
    return [segment for each in found for segment in each]


def test_a_level_stroke_reaching_past_a_one_on_both_sides_is_a_strike() -> None:
    # A "1" (x = 40) struck at mid-height from x = 28 to x = 52: 12 px (0.4 digit heights) past its
    # ink on either side, far more than the 0.1 digit heights asked for.
    found = _short_strikes([((40, 10), (40, 40)), ((28, 25), (52, 25))])
    assert found
    for x0, y0, x1, y1 in found:
        assert abs(y0 - 25) <= 2 and abs(y1 - 25) <= 2
        assert min(x0, x1) <= 30 and max(x0, x1) >= 50


def test_the_bar_of_a_four_is_no_strike() -> None:
    # A "4": its left arm comes down to the bar's left end (x = 26), the bar reaches 8 px past the stem
    # (x = 38) on the right only. Without the bar the arm still stands at the bar's left end: the bar
    # does not reach past the digit on that side.
    assert _short_strikes([((26, 10), (26, 27)), ((26, 27), (46, 27)), ((38, 10), (38, 40))]) == []


def test_a_strike_must_reach_past_both_sides_by_much_the_same() -> None:
    # A "1" (x = 39..41) with a level stroke from x = 24 to x = 46: about 15 px past it on the left
    # and 5 px on the right. Both are more than 0.1 digit heights (3 px), but the right is under
    # half the left: a stroke run on from one side (a flag written level), not one drawn across.
    assert _short_strikes([((40, 10), (40, 40)), ((24, 25), (46, 25))]) == []
    # The same stroke moved to reach 10 px past the "1" on either side is a strike.
    assert _short_strikes([((40, 10), (40, 40)), ((30, 25), (50, 25))])


def test_a_lone_dash_is_no_strike() -> None:
    # A level dash with nothing behind it is a dot written with a flick (or a minus), not a strike;
    # it is also not digit-tall, so it is not even looked at.
    assert _short_strikes([((20, 25), (50, 25))]) == []


def _token(crossed: bool) -> NumberToken:
    gray = np.zeros((30, 20), np.uint8)
    quad = ((0.0, 0.0), (20.0, 0.0), (20.0, 30.0), (0.0, 30.0))
    image = NumberImage(gray=gray, digit_boxes=((0, 0, 20, 30),))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, image=image, crossed_out=crossed)


def _judge(written: tuple[int, float], struck: tuple[int, float]) -> bool:
    """Whether the token stays crossed out when the number with its stroke reads `written` and without
    it `struck`."""
    plain = _token(False)
    token = replace(_token(True), unstruck=plain)
    reader = FixedReader({id(plain.image.gray): written, id(token.image.gray): struck})
    return judged(token, DigitCache(reader)).crossed_out  # type: ignore[arg-type]


def test_a_strike_stands_when_the_digit_reads_the_same_with_and_without_it() -> None:
    # A "5" struck through reads 5 both ways: the stroke carried nothing of the digit.
    assert _judge(written=(5, 0.99), struck=(5, 0.95))


def test_a_stroke_the_digit_needs_is_its_own() -> None:
    # A "4" reads 1 without its bar: the bar was the 4's, the number is not crossed out.
    assert not _judge(written=(4, 0.99), struck=(1, 0.9))
    # Read the same, but not surely one way: a guess proves nothing (a "14" read "11" at 0.45).
    assert not _judge(written=(11, 0.45), struck=(11, 0.84))


def test_a_token_without_a_short_strike_is_left_as_it_is() -> None:
    token = _token(True)
    assert judged(token, DigitCache(FixedReader({}))) is token  # type: ignore[arg-type]
