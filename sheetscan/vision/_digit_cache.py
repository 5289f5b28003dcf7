"""Every digit crop of a photo through the recogniser once, whichever pass of stage 5 asks for it
(`DigitCache`: the angle trials, the rest of the numbers and the ways of cutting a number share most of
their digit boxes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from sheetscan.vision import _group
from sheetscan.vision._recog_types import START, Beam, beam_number, crop_digits, grow_beam
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, Recognizer

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
        self._beams: dict[tuple[int, tuple[_group.Box, ...]], Beam] = {}

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
                    crops.append(crop_digits(NumberImage(gray=token.image.gray, digit_boxes=(box,)))[0])
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
                number = self._number(*whole)
                self._numbers[whole] = number
            out.append(number)
        return out

    def _number(self, image: int, boxes: tuple[_group.Box, ...]) -> NumberReading:
        """`read_number` of the digit readings of `boxes` of the image `image` (its id), the beam
        started from the longest run of first boxes already read as a number's first digits.

        Decision: the beams of a number's first digits are kept and shared, because the ways of
        cutting a number and the parts of its splits (`_totals`) mostly start with the same digit
        boxes, and the beam is a function of the digits read so far: the same readings, with about
        half the beam's steps (its Python was about a tenth of the reading's CPU)."""
        digits = [self._digits[(image, box)] for box in boxes]
        known = len(boxes)
        beam = None
        while known > 0 and beam is None:
            beam = self._beams.get((image, boxes[:known]))
            if beam is None:
                known -= 1
        beam = beam if beam is not None else START
        for k in range(known, len(boxes)):
            beam = grow_beam(beam, digits[k])
            self._beams[(image, boxes[:k + 1])] = beam
        return beam_number(beam, digits)


_PENDING = DigitReading((), 0.0)


def read_tokens(recognizer: Recognizer, tokens: list[NumberToken]) -> list[NumberReading]:
    """The recogniser's reading of each token's image, in one batch."""
    if not tokens:
        return []
    return list(recognizer.read_numbers([t.image for t in tokens]))
