"""A recogniser for stage-5 tests that reads each digit box by its width alone."""

from __future__ import annotations

import numpy as np

from sheetscan.vision._recog_types import crop_digits
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
