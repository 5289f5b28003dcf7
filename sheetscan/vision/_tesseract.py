"""Tesseract (through pytesseract, digits only) behind the recogniser interface: the baseline.

Not the product: it is what the trained network is measured against (`bench/bench_digits.py`). Each
number is inverted to dark ink on white, scaled up, padded and read as one line of digits. Tesseract
runs as a separate process per image, so a batch is spread over a few threads (one process each).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np
import numpy.typing as npt
import pytesseract

from sheetscan.errors import SheetscanError
from sheetscan.vision._recog_types import DigitReading, NumberImage, NumberReading

__all__ = ["TesseractRecognizer"]

_LINE = "--psm 7 -c tessedit_char_whitelist=0123456789"
_CHAR = "--psm 10 -c tessedit_char_whitelist=0123456789"
_HEIGHT = 48  # Tesseract reads best when capitals are roughly 30–50 pixels tall
_PAD = 16


def _prepare(gray: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Dark digits on white paper, about 48 px tall, with a white margin (what Tesseract expects)."""
    if gray.size == 0:
        return np.full((_HEIGHT + 2 * _PAD, _HEIGHT + 2 * _PAD), 255, np.uint8)
    scale = _HEIGHT / gray.shape[0]
    size = (max(1, round(gray.shape[1] * scale)), _HEIGHT)
    big = np.asarray(cv2.resize(gray, size, interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA),
                     np.uint8)
    padded = cv2.copyMakeBorder(255 - big, _PAD, _PAD, _PAD, _PAD, cv2.BORDER_CONSTANT, value=255)
    return np.asarray(padded, np.uint8)


def _read(image: npt.NDArray[np.uint8], config: str) -> tuple[str, float]:
    """The digits Tesseract reads in `image` and its confidence (0–1, the least sure word's)."""
    data = pytesseract.image_to_data(image, config=config, output_type=pytesseract.Output.DICT)
    text, confidence = "", 1.0
    for word, conf in zip(data["text"], data["conf"], strict=True):
        digits = "".join(ch for ch in str(word) if ch.isdigit())
        if digits and float(conf) >= 0:
            text += digits
            confidence = min(confidence, float(conf) / 100.0)
    return text, (confidence if text else 0.0)


class TesseractRecognizer:
    """Reads numbers with Tesseract's LSTM engine restricted to digits (one process call per image)."""

    name = "tesseract"
    """The name `find_recognizer` knows it by."""

    def __init__(self, workers: int | None = None) -> None:
        if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
            raise SheetscanError("the Tesseract recogniser needs the tesseract program: "
                                 "apt-get install tesseract-ocr (or choose --recognizer cnn)")
        self.workers = workers or min(4, os.cpu_count() or 1)
        """How many tesseract processes run at once."""

    def _read_all(self, images: list[npt.NDArray[np.uint8]], config: str) -> list[tuple[str, float]]:
        if len(images) <= 1 or self.workers == 1:
            return [_read(image, config) for image in images]
        with ThreadPoolExecutor(self.workers) as pool:
            return list(pool.map(lambda image: _read(image, config), images))

    def read_digits(self, crops: Sequence[npt.NDArray[np.uint8]]) -> list[DigitReading]:
        """One reading per single-digit crop (ink bright on dark); at most one candidate each."""
        readings = []
        for text, confidence in self._read_all([_prepare(crop) for crop in crops], _CHAR):
            candidates = ((int(text[0]), confidence),) if len(text) == 1 else ()
            readings.append(DigitReading(candidates, 0.0))
        return readings

    def read_numbers(self, numbers: Sequence[NumberImage]) -> list[NumberReading]:
        """One reading per number: the line of digits Tesseract sees, with one candidate at most.

        `digits` holds one reading per character Tesseract read (not per digit box: it does its own
        segmentation), each with the number's confidence.
        """
        readings = []
        for text, confidence in self._read_all([_prepare(number.gray) for number in numbers], _LINE):
            digits = tuple(DigitReading(((int(ch), confidence),), 0.0) for ch in text)
            candidates = ((int(text), confidence),) if text else ()
            readings.append(NumberReading(candidates, digits))
        return readings
