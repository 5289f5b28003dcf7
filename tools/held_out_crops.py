"""The held-out crops' check of digit networks: digits read and the "not a digit" sense, side by side.

    .venv/bin/python tools/held_out_crops.py --model NEW.onnx OLD.onnx --crops A.npz B.npz

For each crop file of `tools/pipeline_crops.py` (the segmenter's own cut-outs of rendered sheets, digits
and "not a digit" pieces) it takes the last tenth of the file's rows, which `train_digits_fast.py
--keep-noise` never trains on, and reads them with each ONNX file through `cv2.dnn`, as the product
does. Per file and model it prints the digits' accuracy and the share of digits read as "not a digit",
and for the noise pieces the mean "not a digit" probability and the share read as "not a digit".

Why the noise pieces matter: the number stage chooses where to cut a number by how surely each piece
is a digit, so a tuning that reads digits better but calls the segmenter's stray pieces less surely
noise cuts numbers worse (tools/README.md, sessions 13 and 14). Check this before measuring photos.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from sheetscan.vision.recognise import CnnRecognizer

HELD_OUT = 0.1  # the last share of a crop file's rows that no run trained on
NOISE_CLASS = 10  # the 11th output: "not a digit"


def held_out_start(rows: int) -> int:
    """The first held-out row of a crop file of `rows` rows: its last tenth, digits and noise alike."""
    return round(rows * (1.0 - HELD_OUT))


def held_out(path: Path) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """The held-out rows of a crop file, as network inputs (N×1×28×28, 0 = paper, 1 = ink) and labels."""
    data = np.load(path)
    start = held_out_start(len(data["y"]))
    x = data["x"][start:].astype(np.float32)[:, None] / 255.0
    return x, data["y"][start:].astype(np.int64)


def probabilities(recognizer: CnnRecognizer, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """The recogniser's softmax probabilities (N×11) for each input, read 1000 at a time."""
    parts = [recognizer.probabilities(np.ascontiguousarray(x[first: first + 1000]))
             for first in range(0, len(x), 1000)]
    return np.concatenate(parts) if parts else np.zeros((0, NOISE_CLASS + 1))


@dataclass(frozen=True)
class CropFigures:
    """One network's reading of one file's held-out crops."""

    digits: int
    """How many digit crops (labels 0–9)."""
    digit_accuracy: float
    """Share of the digit crops read as their digit."""
    digits_as_noise: float
    """Share of the digit crops read as "not a digit" (a digit the number stage would lose)."""
    noise: int
    """How many "not a digit" pieces."""
    noise_probability: float
    """The noise pieces' mean "not a digit" probability: the number stage's cue for a bad cut."""
    noise_as_noise: float
    """Share of the noise pieces read as "not a digit" (the most probable class)."""


def figures(probs: npt.NDArray[np.float64], labels: npt.NDArray[np.int64]) -> CropFigures:
    """`CropFigures` of probabilities `probs` (N×11) against the true `labels` (10 = not a digit)."""
    read = probs.argmax(axis=1)
    digit = labels != NOISE_CLASS

    def mean(values: npt.NDArray[np.bool_] | npt.NDArray[np.float64]) -> float:
        return float(np.mean(values)) if len(values) else float("nan")

    return CropFigures(
        digits=int(digit.sum()), digit_accuracy=mean(read[digit] == labels[digit]),
        digits_as_noise=mean(read[digit] == NOISE_CLASS), noise=int((~digit).sum()),
        noise_probability=mean(probs[~digit, NOISE_CLASS]), noise_as_noise=mean(read[~digit] == NOISE_CLASS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, nargs="+", required=True, metavar="ONNX",
                        help="networks to compare (the first file of a shipped pair, or a training export)")
    parser.add_argument("--crops", type=Path, nargs="+", required=True, metavar="NPZ",
                        help="crop files of tools/pipeline_crops.py")
    args = parser.parse_args()
    nets = [CnnRecognizer(path) for path in args.model]  # one network each, read as the product reads
    for path in args.crops:
        x, y = held_out(path)
        for model, net in zip(args.model, nets, strict=True):
            f = figures(probabilities(net, x), y)
            print(f"{path.name} {model}: {f.digits} digits {100 * f.digit_accuracy:.2f} % right, "
                  f"{100 * f.digits_as_noise:.2f} % read as noise | {f.noise} noise pieces: mean noise "
                  f"probability {f.noise_probability:.3f}, {100 * f.noise_as_noise:.1f} % read as noise",
                  flush=True)


if __name__ == "__main__":
    main()
