"""The values every digit recogniser returns, and the beam that turns digit readings into numbers.

Public through `sheetscan.vision.recognise`; kept here so that the recognisers (`_cnn.py`,
`_tesseract.py`) and the public module can all import them without a cycle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Protocol

import numpy as np
import numpy.typing as npt

__all__ = [
    "DigitReading",
    "NumberImage",
    "NumberReading",
    "Recognizer",
    "crop_box",
    "crop_digits",
    "read_number",
]

TOP_DIGITS = 3
"""How many candidates a `DigitReading` keeps."""
TOP_NUMBERS = 5
"""How many candidates a `NumberReading` keeps."""
_BEAM = 64


@dataclass(frozen=True)
class DigitReading:
    """What one written digit may be."""

    candidates: tuple[tuple[int, float], ...]
    """(digit 0–9, probability), best first, at most 3. The probabilities are joint with "it is a
    digit at all", so with `noise` they add up to at most 1."""
    noise: float
    """Probability that the crop is not a digit at all (a dot, a piece of line, a smudge); 0.0 when the
    recogniser cannot tell."""

    @property
    def digit(self) -> int | None:
        """The most likely digit, or None when there is no candidate."""
        return self.candidates[0][0] if self.candidates else None

    def __str__(self) -> str:
        shown = " ".join(f"{d}:{p:.3f}" for d, p in self.candidates)
        return f"[{shown} noise:{self.noise:.3f}]"


@dataclass(frozen=True)
class NumberImage:
    """One written number as the segmenter found it, already turned upright."""

    gray: npt.NDArray[np.uint8]
    """uint8 H×W image of the number, ink bright (255) on dark paper (0), like MNIST."""
    digit_boxes: tuple[tuple[int, int, int, int], ...]
    """(x, y, w, h) of each digit in `gray`, left to right."""


@dataclass(frozen=True)
class NumberReading:
    """What one written number may be."""

    candidates: tuple[tuple[int, float], ...]
    """(value, confidence), best first, at most 5; empty when nothing could be read. For the CNN the
    confidence of a value is the product of its digits' probabilities (summed over the readings that
    give the same value)."""
    digits: tuple[DigitReading, ...]
    """One reading per digit box (CNN), or per character read (Tesseract)."""

    @property
    def value(self) -> int | None:
        """The most likely value, or None when nothing could be read."""
        return self.candidates[0][0] if self.candidates else None

    @property
    def confidence(self) -> float:
        """Confidence of the most likely value (0.0 when nothing could be read)."""
        return self.candidates[0][1] if self.candidates else 0.0

    def __str__(self) -> str:
        shown = ", ".join(f"{v} ({p:.3f})" for v, p in self.candidates)
        return f"NumberReading({shown or 'unread'}; digits {' '.join(map(str, self.digits))})"


class Recognizer(Protocol):
    """Anything that reads written numbers (STYLE.md §6): the CNN, Tesseract, a scripted stand-in."""

    name: str
    """The name `find_recognizer` knows it by."""

    def read_numbers(self, numbers: Sequence[NumberImage]) -> list[NumberReading]:
        """One reading per number, in order; a whole sheet at once, so it can be batched."""
        ...


def crop_digits(number: NumberImage) -> list[npt.NDArray[np.uint8]]:
    """The digit crops of `number`, each box clipped to the image (an empty crop if it lies outside)."""
    if number.gray.ndim != 2:
        raise ValueError(f"a number image must be a 2-D grey image, got shape {number.gray.shape}")
    return [crop_box(number.gray, box) for box in number.digit_boxes]


def crop_box(gray: npt.NDArray[np.uint8], box: tuple[int, int, int, int]) -> npt.NDArray[np.uint8]:
    """The crop of one box (x, y, w, h) of the 2-D image `gray`, clipped to it (empty outside it)."""
    height, width = gray.shape
    x, y, w, h = box
    x0, y0 = min(max(x, 0), width), min(max(y, 0), height)
    x1, y1 = min(max(x + w, x0), width), min(max(y + h, y0), height)
    return gray[y0:y1, x0:x1]


def read_number(digits: Sequence[DigitReading], top: int = TOP_NUMBERS) -> NumberReading:
    """The `top` most likely values of a number whose digits read as `digits`.

    A beam over each digit's candidates; a digit that may be noise may also be left out (with its
    noise probability), so a stray dot next to "7" still gives "7" as a candidate.
    """
    beam: dict[str, float] = {"": 1.0}
    for reading in digits:
        options = [(str(digit), q) for digit, q in reading.candidates]
        noise = reading.noise
        grown: dict[str, float] = {}
        get = grown.get
        for text, p in beam.items():
            for digit, q in options:
                key = text + digit
                grown[key] = get(key, 0.0) + p * q
            if noise > 0.0:
                grown[text] = get(text, 0.0) + p * noise
        # Sorted only to cut the beam: the order it is in changes no sum, since a text gets at most two
        # terms (from itself with the digit left out, from the text one digit shorter), and adding two
        # floats gives the same either way round.
        beam = grown if len(grown) <= _BEAM else dict(sorted(grown.items(), key=itemgetter(1),
                                                                 reverse=True)[:_BEAM])
    # Decision: a reading of two or more digits that starts with 0 is dropped, because nobody writes
    # a score with a leading zero and its value would pile onto a different reading's value. (So each
    # value comes from one text.)
    texts = [(text, p) for text, p in beam.items() if text and (text[0] != "0" or len(text) == 1)]
    if 0 < top < len(texts):
        # Decision: only the texts as likely as the `top`-th likeliest (ties included) are turned into
        # numbers and sorted, because no other can be among the first `top`: the same order, and a
        # beam holds up to 64 texts (the value-and-probability sorts were a fifth of this function).
        least = sorted([p for _, p in texts], reverse=True)[top - 1]
        texts = [(text, p) for text, p in texts if p >= least]
    values = [(int(text), p) for text, p in texts]
    # Likeliest first, the smaller value first among equals (a stable sort by value, then by probability).
    values.sort(key=itemgetter(0))
    values.sort(key=itemgetter(1), reverse=True)
    return NumberReading(tuple((v, float(p)) for v, p in values[:top]), tuple(digits))
