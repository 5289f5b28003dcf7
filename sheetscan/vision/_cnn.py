"""The trained digit networks (`models/digits_first.onnx`, `models/digits_second.onnx`) run through
cv2.dnn: the product's recogniser (the first network alone, `MODEL_PATHS`; the pair, `PAIR_PATHS`).

Each file is one network (`tools/train_digits_fast.py` and `tools/train_digits.py`, shipped by
`tools/ensemble_digits.py`) that takes the 28×28 images of `_digit_norm` and gives 11 calibrated logits
(digits 0–9 and "not a digit"). The first, faster network reads every crop; the crops it is not `SURE`
of are read by the second too, and their probabilities are the normalised geometric mean of the two
networks' (the mean of their log-probabilities).
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

__all__ = ["MODEL_PATHS", "PAIR_PATHS", "SURE", "CnnRecognizer"]

_MODELS = Path(__file__).resolve().parent / "models"
PAIR_PATHS = (_MODELS / "digits_first.onnx", _MODELS / "digits_second.onnx")
"""The networks shipped in the package (`models/digits.json` records both): the one that reads every
crop, then the one that may read the crops the first is not sure of."""
# Decision: the first network alone, because on the truth's zones of bench seeds 1000-4000 and 21000
# (12 photos each, both in one process on the same tokens) it misread 82 digits against the pair's 86,
# with 62 numbers of a wrong digit count against 64 and the same or better zone final values, while
# the second network cost about a quarter of the number stage's time (tools/README.md). The pair
# stays a `CnnRecognizer(PAIR_PATHS)` away.
MODEL_PATHS = PAIR_PATHS[:1]
"""The networks the product reads with: the first alone."""
# Decision: 0.99, because on the truth's zones of bench seeds 1000, 2000 and 3000 (12 photos each) the
# readings are the same, number for number, as with both networks reading every crop, while the second
# network reads only about 47 % of the crops; at 0.95 they begin to change (tools/README.md).
SURE = 0.99
"""The first network's top probability (of the 11 classes) from which its reading stands alone."""
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


def _readings(rows: npt.NDArray[np.float64]) -> list[DigitReading]:
    """Each row's `TOP_DIGITS` likeliest digits (the lower digit first among equals) and its noise."""
    # One sort for the whole batch, and the numbers as Python's own (`tolist`: the same doubles).
    order = np.argsort(-rows[:, :_NOISE], axis=1, kind="stable")[:, :TOP_DIGITS].tolist()
    return [DigitReading(tuple((d, row[d]) for d in best), row[_NOISE])
            for best, row in zip(order, rows.tolist(), strict=True)]


class CnnRecognizer:
    """Reads digits with the small CNNs trained on MNIST (`tools/README.md`), via cv2.dnn."""

    name = "cnn"
    """The name `find_recognizer` knows it by."""
    reads_by_digit = True
    """A number's reading is built from its digit boxes' readings alone (`read_digits`), so the number
    stage may read each distinct digit crop once and reuse it."""

    def __init__(self, model_paths: Path | Sequence[Path] = MODEL_PATHS) -> None:
        self.model_paths = (model_paths,) if isinstance(model_paths, Path) else tuple(model_paths)
        """The ONNX files this recogniser runs (loaded on first use): one network, or the network that
        reads every crop and the one that reads the crops the first is not `SURE` of."""

    def probabilities(self, blob: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """Softmax over the 11 classes for each image of an N×1×28×28 blob of `normalise_digits`."""
        first = _load(self.model_paths[0]).probabilities(blob)
        if len(self.model_paths) == 1:
            return first
        unsure = np.flatnonzero(first.max(axis=1) < SURE)
        if not len(unsure):
            return first
        # A lone crop is read beside a copy of itself: cv2.dnn's batch of one is ~1e-10 off larger
        # batches, and a reading must not depend on how many crops came with it.
        again = blob[unsure] if len(unsure) > 1 else np.concatenate([blob[unsure]] * 2)
        logs = np.log(np.maximum(first[unsure], 1e-300))
        for path in self.model_paths[1:]:
            logs += np.log(np.maximum(_load(path).probabilities(again)[: len(unsure)], 1e-300))
        logs -= logs.max(axis=1, keepdims=True)  # the mean's normalised exp: the /len cancels below
        mean = np.exp(logs / len(self.model_paths))
        result = first.copy()
        result[unsure] = mean / mean.sum(axis=1, keepdims=True)
        return result

    def read_digits(self, crops: Sequence[npt.NDArray[np.uint8]]) -> list[DigitReading]:
        """One reading per crop of a single digit (uint8, ink bright on dark), in one pass per network."""
        if not crops:
            return []
        return _readings(self.probabilities(normalise_digits(crops)))

    def read_numbers(self, numbers: Sequence[NumberImage]) -> list[NumberReading]:
        """One reading per number: all digits of all numbers go through the network in one batch."""
        crops = [crop_digits(number) for number in numbers]
        digits = self.read_digits([crop for group in crops for crop in group])
        readings, start = [], 0
        for group in crops:
            readings.append(read_number(digits[start: start + len(group)]))
            start += len(group)
        return readings
