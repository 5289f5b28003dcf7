"""A recogniser for tests that reads each digit box by its width, and notes every width it was asked to
read (how many crops went through the network, and which)."""

from __future__ import annotations

import numpy as np

from sheetscan.vision._recog_types import crop_digits
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, read_number


class WidthReader:
    """Reads a digit box by its width (`table[width]`: digit, probability); notes the widths read."""

    name = "width"
    reads_by_digit = True

    def __init__(self, table: dict[int, tuple[int, float]]) -> None:
        self.table = table
        self.widths: list[int] = []

    def read_digits(self, crops: list[np.ndarray]) -> list[DigitReading]:
        """One reading per crop, from the table by the crop's width."""
        self.widths.extend(crop.shape[1] for crop in crops)
        return [DigitReading(((self.table[c.shape[1]][0], self.table[c.shape[1]][1]),),
                             1.0 - self.table[c.shape[1]][1]) for c in crops]

    def read_numbers(self, numbers: list[NumberImage]) -> list[NumberReading]:
        """Each number read digit box by digit box."""
        return [read_number(self.read_digits(crop_digits(n))) for n in numbers]
