"""Stage images for `scan(debug_dir=…)`: the photo, the zones, the ink, the numbers with their readings.

Stages 2–3 write their own images (`01_photo_sheet`, `02_rectified`, `03_…`); these add the photo,
the ink and the numbers. With no
folder every function returns at once: no image is drawn (STYLE.md §7).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from sheetscan.vision._debug import emit
from sheetscan.vision.ink import Ink
from sheetscan.vision.numbers import SheetNumbers
from sheetscan.vision.photo import Photo
from sheetscan.vision.zones import SheetZones

__all__ = ["ink", "numbers", "photo"]

Folder = str | Path | None

def photo(folder: Folder, source: Photo) -> None:
    """`00_photo`: the photo as decoded (EXIF orientation applied)."""
    if folder is not None:
        emit(folder, "00_photo", source.image)


def ink(folder: Folder, found: Ink) -> None:
    """`04_ink`: the handwriting found, black on white."""
    if folder is not None:
        emit(folder, "04_ink", np.asarray(cv2.cvtColor(255 - found.mask, cv2.COLOR_GRAY2BGR), np.uint8))


def numbers(folder: Folder, located: SheetZones, read: SheetNumbers) -> None:
    """`05_numbers`: each number's box on the upright sheet with its reading (red: crossed out,
    orange: unsure)."""
    if folder is None:
        return
    canvas = located.image.copy()
    every = [n for z in read.zones for n in z.numbers]
    if read.target is not None:
        every.append(read.target)
    for number in every:
        quad = np.rint(np.asarray(number.token.quad, dtype=np.float64)).astype(np.int32)
        if number.token.crossed_out:
            colour = (0, 0, 220)
        elif number.confidence < 0.9:
            colour = (0, 140, 255)
        else:
            colour = (0, 160, 0)
        cv2.polylines(canvas, [quad], True, colour, 2)
        label = "?" if number.value is None else str(number.value)
        x, y = quad.min(axis=0)
        cv2.putText(canvas, label, (int(x), max(12, int(y) - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.8, colour, 2)
    emit(folder, "05_numbers", canvas)
