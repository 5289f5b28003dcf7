"""Typing glue between OpenCV's stubs (every image is `MatLike`) and our uint8/float arrays."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

U8 = NDArray[np.uint8]
"""An 8-bit image or mask (BGR images are height × width × 3)."""
F64 = NDArray[np.float64]
"""Float coordinates, homographies."""


def u8(array: Any) -> U8:
    """Declare an OpenCV result to be the uint8 image it is (no copy, no conversion)."""
    return cast(U8, array)


def f64(array: Any) -> F64:
    """An array of float64 (converted only when it is not already)."""
    return np.asarray(array, dtype=np.float64)
