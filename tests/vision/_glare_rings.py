"""The sheet of the glare tests (test_glare, test_glare26_deep): rings ("0"s) of a pen on paper of
brightness 210, one every STEP px, so the truth is where the rings were drawn; and the share of them an
ink mask holds."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
HEIGHT, WIDTH, STEP = 1000, 800, 80


def ring_sheet(pen: int) -> Image:
    """Paper 210 with a ring of brightness `pen` every STEP px (grey)."""
    sheet = np.full((HEIGHT, WIDTH), 210, np.uint8)
    for y in range(STEP // 2, HEIGHT, STEP):
        for x in range(STEP // 2, WIDTH, STEP):
            cv2.circle(sheet, (x, y), 14, pen, 4, cv2.LINE_AA)
    return sheet


def rings_found(mask: Image, near_middle: float, *, beyond: float = -1.0) -> float:
    """The share of the rings within `near_middle` px of the middle (and further than `beyond`) that the ink
    mask holds half of."""
    found = total = 0
    for y in range(STEP // 2, HEIGHT, STEP):
        for x in range(STEP // 2, WIDTH, STEP):
            if not beyond < np.hypot(x - WIDTH / 2, y - HEIGHT / 2) <= near_middle:
                continue
            ring = np.zeros_like(mask)
            cv2.circle(ring, (x, y), 14, 255, 2)
            total += 1
            found += int(np.count_nonzero(mask[ring > 0]) >= 0.5 * np.count_nonzero(ring))
    return found / total
