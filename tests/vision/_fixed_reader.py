"""A recogniser for tests that reads each number image as the test says, by the image's identity."""

from __future__ import annotations

from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading


class FixedReader:
    """Reads the number image whose `gray` array is `id`-keyed in `readings` as that (value, probability)."""

    def __init__(self, readings: dict[int, tuple[int, float]]) -> None:
        self.readings = readings

    def read_numbers(self, images: list[NumberImage]) -> list[NumberReading]:
        """One reading per image, as given."""
        out = []
        for image in images:
            value, p = self.readings[id(image.gray)]
            digit = DigitReading(candidates=((value, p),), noise=0.0)
            out.append(NumberReading(candidates=((value, p),), digits=(digit,)))
        return out
