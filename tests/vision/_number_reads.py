"""Numbers as the totals see them, built by hand for the totals' tests (`test_numbers_regroup`,
`test_steps_pulka`, `test_totals_unwritten`): a token with its digit boxes and the reading each digit is
given, numbers side by side on a line, and a recogniser that must not be asked."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, read_number

HEIGHT = 40
"""A digit box's height (px)."""
WIDTH = 20
"""A digit box's width (px)."""
SPACE = 6
"""The space between two digit boxes of one number (px)."""

Digits = list[tuple[int, float]]
"""Each digit of a number as (digit, probability the recogniser gives it)."""
Read = tuple[NumberToken, NumberReading]
"""A number's token and its reading."""


def number_read(digits: Digits, left: float, *, zone: int = 3) -> Read:
    """A number of zone `zone` whose digits start `left` px along the line: each digit's box is 20 px
    wide, 6 px apart, and reads as the given (digit, probability), the rest of it noise. Each digit's
    ink is a block of its own grey level (the digit's value + 1, times 20), to tell crops apart."""
    count = len(digits)
    width = count * WIDTH + (count - 1) * SPACE
    gray = np.zeros((HEIGHT, width), np.uint8)
    boxes = []
    for k, (digit, _) in enumerate(digits):
        x = k * (WIDTH + SPACE)
        gray[4:HEIGHT - 4, x + 4:x + WIDTH - 4] = 20 * (digit + 1)
        boxes.append((x, 0, WIDTH, HEIGHT))
    quad = ((left, 0.0), (left + width, 0.0), (left + width, float(HEIGHT)), (left, float(HEIGHT)))
    token = NumberToken(zone=zone, angle=0, row=0, quad=quad, crossed_out=False,
                        image=NumberImage(gray=gray, digit_boxes=tuple(boxes)),
                        digit_size=(float(HEIGHT), float(WIDTH)))
    reading = read_number([DigitReading(((d, p),), 1.0 - p) for d, p in digits])
    return token, reading


def numbers_in_line(numbers: list[Digits], gaps: Sequence[float] | float = 20.0, *, zone: int = 3
                    ) -> list[Read]:
    """Numbers of zone `zone` side by side on one line (`number_read`): `gaps` px between each number
    and the next, or `gaps[i]` px between number i and i + 1."""
    out: list[Read] = []
    left = 0.0
    for k, digits in enumerate(numbers):
        token, reading = number_read(digits, left, zone=zone)
        out.append((token, reading))
        gap = gaps if isinstance(gaps, float | int) else (gaps[k] if k < len(gaps) else 0.0)
        left = token.quad[1][0] + gap
    return out


class UnusedRecognizer:
    """A recogniser that must not be asked: the numbers it is given to have one way of cutting each."""

    name = "unused"
    """Its name, as every recogniser has one."""

    def read_numbers(self, numbers: object) -> list[NumberReading]:
        """Fails the test: no number should need reading again."""
        raise AssertionError("no number should need reading again")
