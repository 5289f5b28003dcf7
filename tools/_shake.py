"""Hand shake for the training tools: an image smeared along a straight line (`shaken`).

Torch-free, so that `pipeline_crops.py` (run in the product's venv) and `_digit_training.py` (the
training venv) share it."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt


def shaken(image: npt.NDArray[np.float32], length: int, angle: float) -> npt.NDArray[np.float32]:
    """`image` (float32) smeared along a straight line `length` px long at `angle` degrees, as a hand moving
    while the shutter is open does: a row of ones turned to `angle`, normalised to sum 1."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    kernel = np.asarray(cv2.warpAffine(kernel, turn, (length, length)), np.float32)
    return np.asarray(cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6)), np.float32)
