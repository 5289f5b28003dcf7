"""Reading written digits and numbers (issue 5, stage 6): recognisers behind one small interface.

- `cnn` (the product): a small CNN trained on MNIST's train part (`tools/README.md`), shipped as
  `models/digits_first.onnx` and run through cv2.dnn; `models/digits_second.onnx`, a second network
  that may read the crops the first is not sure of, is `CnnRecognizer(PAIR_PATHS)`.
- `tesseract`: Tesseract restricted to digits, the baseline the CNN is measured against.
- `ScriptedRecognizer`: replays known values, for tests of everything downstream (STYLE.md §6).

Every recogniser keeps its doubt: each digit and each number comes with its top candidates and their
confidences, for reconciliation to choose from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from sheetscan.vision._cnn import MODEL_PATHS, PAIR_PATHS, CnnRecognizer
from sheetscan.vision._digit_norm import normalise_digit
from sheetscan.vision._recog_types import (
    DigitReading,
    NumberImage,
    NumberReading,
    Recognizer,
    read_number,
)
from sheetscan.vision._tesseract import TesseractRecognizer

__all__ = [
    "MODEL_PATHS",
    "PAIR_PATHS",
    "RECOGNIZERS",
    "CnnRecognizer",
    "DigitReading",
    "NumberImage",
    "NumberReading",
    "Recognizer",
    "ScriptedRecognizer",
    "TesseractRecognizer",
    "find_recognizer",
    "normalise_digit",
    "read_number",
]

RECOGNIZERS: dict[str, Callable[[], Recognizer]] = {
    CnnRecognizer.name: CnnRecognizer,
    TesseractRecognizer.name: TesseractRecognizer,
}
"""The recognisers `find_recognizer` (and `sheetscan scan --recognizer`) can build, by name."""


def find_recognizer(name: str = "cnn") -> Recognizer:
    """The recogniser called `name` ("cnn" or "tesseract"); a ValueError naming the known ones."""
    key = name.strip().lower()
    if key not in RECOGNIZERS:
        raise ValueError(f"unknown recognizer {name!r}: known are {', '.join(RECOGNIZERS)}")
    return RECOGNIZERS[key]()


ScriptEntry = int | NumberReading
"""What a script says about one number: its true value, or a full reading to replay doubt."""


class ScriptedRecognizer:
    """Replays given values instead of reading pixels, for testing everything after the recogniser.

    `script` is either the values of the numbers in the order they will be read (each call to
    `read_numbers` takes the next ones; running out is an error, since it means the pipeline found more
    numbers than the test expected), or a function from a `NumberImage` to its value. An int becomes
    a reading with that single candidate at `confidence`; a `NumberReading` is returned as given.
    """

    name = "scripted"
    """The name this recogniser reports (it is not built by `find_recognizer`)."""

    def __init__(self, script: Iterable[ScriptEntry] | Callable[[NumberImage], ScriptEntry], *,
                 confidence: float = 1.0) -> None:
        if not 0.0 <= confidence <= 1.0:
            raise ValueError(f"confidence must be within 0..1, got {confidence}")
        self._function = script if callable(script) else None
        self._queue: list[ScriptEntry] = [] if callable(script) else list(script)
        self._confidence = confidence
        self.calls = 0
        """How many numbers it has read so far."""

    @property
    def remaining(self) -> int:
        """Scripted values not read yet (0 for a function script)."""
        return len(self._queue)

    def _reading(self, entry: ScriptEntry) -> NumberReading:
        if isinstance(entry, NumberReading):
            return entry
        if entry < 0:
            raise ValueError(f"a written number is never negative, the script says {entry}")
        digits = tuple(DigitReading(((int(ch), self._confidence),), 0.0) for ch in str(entry))
        return NumberReading(((entry, self._confidence),), digits)

    def read_numbers(self, numbers: Sequence[NumberImage]) -> list[NumberReading]:
        """The next scripted readings, one per number."""
        if self._function is not None:
            entries = [self._function(number) for number in numbers]
        else:
            if len(numbers) > len(self._queue):
                raise ValueError(f"the script has {len(self._queue)} values left but "
                                 f"{len(numbers)} numbers were read (after {self.calls})")
            entries, self._queue = self._queue[: len(numbers)], self._queue[len(numbers):]
        self.calls += len(numbers)
        return [self._reading(entry) for entry in entries]
