"""Stage 5: the tokens `_regroup` makes only for the move or merge it takes (`_moved`,
`_merged_token`, session 6 speed work), on crafted numbers whose boxes and quads are worked out by hand.
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision._regroup import _merged_token, _moved
from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, read_number


def _number(values: list[int], left: float) -> tuple[NumberToken, NumberReading]:
    """Digits 20 px wide, 6 px apart, 40 px tall, each filled with its own grey; the quad starts at
    `left` on the sheet."""
    width = 26 * len(values) - 6
    gray = np.zeros((40, width), np.uint8)
    for k, v in enumerate(values):
        gray[:, 26 * k:26 * k + 20] = 20 * (v + 1)
    boxes = tuple((26 * k, 0, 20, 40) for k in range(len(values)))
    quad = ((left, 0.0), (left + width, 0.0), (left + width, 40.0), (left, 40.0))
    token = NumberToken(zone=1, angle=0, row=0, quad=quad, crossed_out=False,
                        image=NumberImage(gray=gray, digit_boxes=boxes), digit_size=(40.0, 20.0))
    return token, read_number([DigitReading(((v, 0.9),), 0.1) for v in values])


def test_a_digit_moved_forward_and_back_makes_its_tokens() -> None:
    # "758" at x 0-72 and "3" at x 90-110. Moving the 8 forward: "75" keeps boxes 0-20 and 26-46
    # (its quad cut at 46/72 of its width), "83" is the 8's crop (20 px), 2 px, then the 3 (20 px).
    first, second = _number([7, 5, 8], 0.0), _number([3], 90.0)
    a = (first[0], read_number(first[1].digits[:-1]))
    b = (second[0], read_number((first[1].digits[-1], *second[1].digits)))
    (rest, ra), (grown, rb) = _moved(first, second, a, b)
    assert (ra.value, rb.value) == (75, 83)
    assert rest.image.digit_boxes == ((0, 0, 20, 40), (26, 0, 20, 40))
    assert rest.quad[1] == (46.0, 0.0)
    assert grown.image.digit_boxes == ((0, 0, 20, 40), (22, 0, 20, 40))
    assert grown.image.gray.shape == (40, 42)
    assert int(grown.image.gray[0, 0]) == 20 * 9 and int(grown.image.gray[0, 22]) == 20 * 4
    assert grown.quad[0] == (52.0, 0.0) and grown.quad[1] == (110.0, 0.0)
    # Moving the 7 of "75" back onto "3" instead: "37" and "5".
    first, second = _number([3], 0.0), _number([7, 5], 30.0)
    a = (first[0], read_number((*first[1].digits, second[1].digits[0])))
    b = (second[0], read_number(second[1].digits[1:]))
    (grown, ra), (rest, rb) = _moved(first, second, a, b)
    assert (ra.value, rb.value) == (37, 5)
    assert grown.image.digit_boxes == ((0, 0, 20, 40), (22, 0, 20, 40))
    assert int(grown.image.gray[0, 22]) == 20 * 8
    assert rest.image.digit_boxes == ((26, 0, 20, 40),)
    assert grown.quad[1] == (50.0, 0.0)


def test_two_numbers_read_as_one_make_one_token() -> None:
    # "1" at x 0-20 and "2" at x 30-50: one token over x 0-50, the two crops 2 px apart.
    first, second = _number([1], 0.0), _number([2], 30.0)
    token = _merged_token(first[0], second[0])
    assert token.quad == ((0.0, 0.0), (50.0, 0.0), (50.0, 40.0), (0.0, 40.0))
    assert token.image.digit_boxes == ((0, 0, 20, 40), (22, 0, 20, 40))
    assert int(token.image.gray[0, 0]) == 40 and int(token.image.gray[0, 22]) == 60
