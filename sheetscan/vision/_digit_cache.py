"""Every digit crop of a photo through the recogniser once, whichever pass of stage 5 asks for it
(`DigitCache`: the angle trials, the rest of the numbers and the ways of cutting a number share most of
their digit boxes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from sheetscan.vision import _group
from sheetscan.vision._recog_types import crop_box
from sheetscan.vision.recognise import DigitReading, NumberReading, Recognizer, read_number

if TYPE_CHECKING:
    from sheetscan.vision.numbers import NumberToken

__all__ = ["DigitCache", "read_tokens"]


class DigitCache:
    """Reads numbers through a recogniser, each distinct digit crop once: the angle trials, the rest
    of the numbers and the ways of cutting a number share most of their digit boxes. A crop is known
    by its number image (which must stay alive while the cache is used) and its box. Only a recogniser
    whose number reading is its digits' readings (`reads_by_digit`, the CNN) is asked digit by digit;
    any other (Tesseract reads a whole line far better than its digits one by one) reads whole
    numbers every time."""

    def __init__(self, recognizer: Recognizer) -> None:
        self.recognizer = recognizer
        """The recogniser that reads what is not yet known."""
        self._digits: dict[tuple[int, _group.Box], DigitReading] = {}
        self._numbers: dict[tuple[int, tuple[_group.Box, ...]], NumberReading] = {}

    def read(self, tokens: list[NumberToken]) -> list[NumberReading]:
        """The recogniser's reading of each token's image, unknown digit crops in one batch."""
        read_digits = getattr(self.recognizer, "read_digits", None)
        if read_digits is None or not getattr(self.recognizer, "reads_by_digit", False):
            return read_tokens(self.recognizer, tokens)
        keys: list[tuple[int, _group.Box]] = []
        crops: list[npt.NDArray[np.uint8]] = []
        for token in tokens:
            for box in token.image.digit_boxes:
                key = (id(token.image.gray), box)
                if key not in self._digits:
                    self._digits[key] = _PENDING
                    keys.append(key)
                    crops.append(crop_box(token.image.gray, box))
        if crops:
            # Decision: a lone crop is read beside a copy of itself, because cv2.dnn computes a batch of
            # one otherwise than a larger batch (probabilities off by ~1e-10): a crop then reads the same
            # whatever else happens to be read with it, and a change in how the passes batch their crops
            # changes no reading.
            read = read_digits(crops * 2 if len(crops) == 1 else crops)
            self._digits.update(zip(keys, read[:len(keys)], strict=True))
        out = []
        for token in tokens:
            whole = (id(token.image.gray), token.image.digit_boxes)
            number = self._numbers.get(whole)
            if number is None:
                number = read_number([self._digits[(whole[0], box)] for box in token.image.digit_boxes])
                self._numbers[whole] = number
            out.append(number)
        return out


_PENDING = DigitReading((), 0.0)


def read_tokens(recognizer: Recognizer, tokens: list[NumberToken]) -> list[NumberReading]:
    """The recogniser's reading of each token's image, in one batch."""
    if not tokens:
        return []
    return list(recognizer.read_numbers([t.image for t in tokens]))
