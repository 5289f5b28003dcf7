"""The trained digit networks (`models/digits.onnx`) run through cv2.dnn: the product's recogniser.

The file holds two networks (`tools/train_digits.py` and `tools/train_digits_fast.py`, joined by
`tools/ensemble_digits.py`) that read every crop together; it takes the 28×28 images of `_digit_norm`
and gives 11 logits (digits 0–9 and "not a digit"): the mean of the two networks' calibrated
log-probabilities, so a softmax gives their normalised geometric mean.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.errors import SheetscanError
from sheetscan.vision._digit_norm import normalise_digits
from sheetscan.vision._recog_types import (
    TOP_DIGITS,
    DigitReading,
    NumberImage,
    NumberReading,
    crop_digits,
    read_number,
)

__all__ = ["MODEL_PATH", "CnnRecognizer"]

MODEL_PATH = Path(__file__).resolve().parent / "models" / "digits.onnx"
"""The network shipped in the package."""
_CLASSES = 11
_NOISE = 10


class _Net:
    """One loaded cv2.dnn network; a lock because a cv2.dnn.Net must not run two forwards at once."""

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise SheetscanError(f"the digit model {path} is missing: reinstall sheetscan or run "
                                 "tools/train_digits.py")
        try:
            self.net: Any = cv2.dnn.readNetFromONNX(str(path))
        except cv2.error as error:
            raise SheetscanError(f"cannot load the digit model {path}: {error}") from None
        self.lock = threading.Lock()

    def probabilities(self, blob: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """Softmax over the 11 classes for each image of an N×1×28×28 blob."""
        with self.lock:
            self.net.setInput(blob)
            logits = np.asarray(self.net.forward(), np.float64).reshape(len(blob), _CLASSES)
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        result: npt.NDArray[np.float64] = exp / exp.sum(axis=1, keepdims=True)
        return result


@cache
def _load(path: Path) -> _Net:
    # Loaded once per process and only when the first digit is read: importing costs nothing.
    return _Net(path)


def _reading(row: npt.NDArray[np.float64]) -> DigitReading:
    order = np.argsort(-row[:_NOISE], kind="stable")[:TOP_DIGITS]
    return DigitReading(tuple((int(d), float(row[d])) for d in order), float(row[_NOISE]))


class CnnRecognizer:
    """Reads digits with the small CNN trained on MNIST (`tools/train_digits.py`), via cv2.dnn."""

    name = "cnn"
    """The name `find_recognizer` knows it by."""
    reads_by_digit = True
    """A number's reading is built from its digit boxes' readings alone (`read_digits`), so the number
    stage may read each distinct digit crop once and reuse it."""

    def __init__(self, model_path: Path = MODEL_PATH) -> None:
        self.model_path = model_path
        """The ONNX file this recogniser runs (loaded on first use)."""

    def read_digits(self, crops: Sequence[npt.NDArray[np.uint8]]) -> list[DigitReading]:
        """One reading per crop of a single digit (uint8, ink bright on dark), in one forward pass."""
        if not crops:
            return []
        probabilities = _load(self.model_path).probabilities(normalise_digits(crops))
        return [_reading(row) for row in probabilities]

    def read_numbers(self, numbers: Sequence[NumberImage]) -> list[NumberReading]:
        """One reading per number: all digits of all numbers go through the network in one batch."""
        crops = [crop_digits(number) for number in numbers]
        digits = self.read_digits([crop for group in crops for crop in group])
        readings, start = [], 0
        for group in crops:
            readings.append(read_number(digits[start: start + len(group)]))
            start += len(group)
        return readings
