"""A recogniser for stage-5 tests that reads each digit box by its width alone, and numbers to read
with it: digit boxes of given widths."""

from __future__ import annotations

import numpy as np

from sheetscan.vision._recog_types import crop_digits
from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, read_number


class ByWidth:
    """Reads a digit box by its width (`table[width]`: digit, probability)."""

    name = "by-width"
    reads_by_digit = True

    def __init__(self, table: dict[int, tuple[int, float]]) -> None:
        self.table = table

    def read_digits(self, crops: list[np.ndarray]) -> list[DigitReading]:
        return [DigitReading(((self.table[c.shape[1]][0], self.table[c.shape[1]][1]),),
                             1.0 - self.table[c.shape[1]][1]) for c in crops]

    def read_numbers(self, numbers: list[NumberImage]) -> list[NumberReading]:
        return [read_number(self.read_digits(crop_digits(n))) for n in numbers]


def number_of_widths(widths: tuple[int, ...], *, cuts: tuple[tuple[int, ...], ...] = ()) -> NumberToken:
    """A number with one digit box of each width, side by side; `cuts`: other ways to cut its one
    glyph (box widths from its left edge), offered after the first."""
    boxes, x = [], 0
    for w in widths:
        boxes.append((x, 0, w, 40))
        x += w + 4
    image = NumberImage(gray=np.full((40, x), 200, np.uint8), digit_boxes=tuple(boxes))
    quad = ((0.0, 0.0), (float(x), 0.0), (float(x), 40.0), (0.0, 40.0))
    ways = [tuple(boxes)]
    for cut in cuts:
        other, left = [], 0
        for w in cut:
            other.append((left, 0, w, 40))
            left += w + 4
        ways.append(tuple(other))
    glyph_cuts = (tuple(ways),) if cuts else tuple(((box,),) for box in boxes)
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False, image=image,
                       glyph_cuts=glyph_cuts)


Box = tuple[int, int, int, int]


def cut_token(glyph_cuts: list[list[list[Box]]], height: int, typical: float) -> NumberToken:
    """A token of the glyphs' ways of cutting (each glyph's first way its first), uniform ink, written
    `height` px tall by a writer whose typical digit is `typical` px wide."""
    boxes = tuple(box for cuts in glyph_cuts for box in cuts[0])
    right = max(x + w for x, _, w, _ in boxes)
    quad = ((0.0, 0.0), (float(right), 0.0), (float(right), float(height)), (0.0, float(height)))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False,
                       glyph_cuts=tuple(tuple(tuple(way) for way in cuts) for cuts in glyph_cuts),
                       image=NumberImage(gray=np.full((height, right + 2), 200, np.uint8), digit_boxes=boxes),
                       digit_size=(float(height), typical))
