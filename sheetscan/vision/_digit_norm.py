"""Turn a raw crop of one written digit into the network's 28×28 input, the way MNIST was made.

MNIST digits were fitted into a 20×20 box keeping their aspect ratio and then placed in a 28×28 frame
so that their centre of mass sits at the centre. The recogniser's training script (`tools/
train_digits.py`) and the runtime (`recognise.py`) both call `normalise_digit`, so what the network
saw in training and what it sees on a photo cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["BOX", "SIZE", "normalise_digit", "normalise_digits"]

SIZE = 28
"""Side of the network's input image (pixels)."""
BOX = 20
"""Side of the square the digit's ink is fitted into (pixels), as in MNIST."""

# Below this peak the crop holds no ink worth reading (the ink stage paints paper as 0): blank input.
_MIN_PEAK = 24.0
# Faint ink is stretched to full brightness, but never by more than 255/_FULL_INK, so that a faint
# smudge stays faint instead of turning into a bold stroke.
_FULL_INK = 64.0
# A pixel is ink (for the bounding box) at this fraction of the crop's peak brightness.
_INK_FRACTION = 0.3
# Ink components smaller than this share of all ink (specks of noise, the tip of a neighbour's
# stroke) do not stretch the bounding box; the network sees them removed.
_SPECK_SHARE = 0.03


def normalise_digit(crop: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """The 28×28 network input (float32, 0 = paper, 1 = full ink) for one digit crop.

    `crop` is a uint8 H×W image with the ink bright on dark paper. The ink is stretched to full
    brightness (at most ×4), its bounding box (ignoring specks under 3 % of the ink) is fitted into
    20×20 keeping the aspect ratio, and the result is shifted so its centre of mass is at the centre of
    the 28×28 frame. A crop without ink gives an all-zero image.
    """
    out = np.zeros((SIZE, SIZE), np.float32)
    _normalise_into(crop, out)
    _to_unit(out)
    return out


def normalise_digits(crops: Sequence[npt.NDArray[np.uint8]]) -> npt.NDArray[np.float32]:
    """The network's input blob (N×1×28×28 float32) for a batch of digit crops."""
    blob = np.zeros((len(crops), 1, SIZE, SIZE), np.float32)
    for index, crop in enumerate(crops):
        _normalise_into(crop, blob[index, 0])
    _to_unit(blob)
    return blob


def _to_unit(placed: npt.NDArray[np.float32]) -> None:
    """Ink placed at 0-255 (`_normalise_into`) brought to 0-1, in place.

    Decision: once for the whole batch, because the division and the clip are the same for each pixel
    alone, and two numpy calls per crop cost more than their work (a crop is 784 pixels)."""
    np.divide(placed, 255.0, out=placed)
    np.clip(placed, 0.0, 1.0, out=placed)


def _normalise_into(crop: npt.NDArray[np.uint8], out: npt.NDArray[np.float32]) -> None:
    """`normalise_digit` of `crop` written into `out` (28×28 float32, all zero on entry), its ink at
    0-255: `_to_unit` brings it to the network's 0-1."""
    if crop.ndim != 2:
        raise ValueError(f"a digit crop must be a 2-D grey image, got shape {crop.shape}")
    if crop.size == 0:
        return
    peak = float(crop.max())
    if peak < _MIN_PEAK:
        return
    stretch = np.float32(255.0 / max(peak, _FULL_INK))
    ink = crop.astype(np.float32)
    ink *= stretch
    # (Straight into uint8: a boolean array's bytes are its 0s and 1s. The stretched ink's peak is the
    # peak stretched, in the same float32 product: rounding never turns a smaller product into a larger.)
    mask = (ink >= _INK_FRACTION * float(np.float32(peak) * stretch)).view(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    kept = stats[1:]
    if count > 2:
        areas = kept[:, cv2.CC_STAT_AREA]
        small = areas < _SPECK_SHARE * float(areas.sum())
        if small.any() and not small.all():
            # (A table over the labels: `np.isin` sorts them.)
            specks = np.concatenate([[0], small]).astype(np.uint8)[labels]
            # Their faint anti-aliased rim goes too, else it would leave a ghost of the speck.
            ink[cv2.dilate(specks, np.ones((3, 3), np.uint8)) > 0] = 0.0
            kept = kept[~small]
    # The ink's box: the union of the boxes of the components kept (what is left of the mask), in
    # Python's own numbers: most crops are one piece, and numpy's reductions over one row cost more.
    boxes = kept[:, :4].tolist()
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
    patch = ink[y0:y1, x0:x1]
    h, w = patch.shape
    scale = BOX / max(h, w)
    new_w, new_h = max(1, round(w * scale)), max(1, round(h * scale))
    interpolation = cv2.INTER_AREA if scale < 1.0 else cv2.INTER_LINEAR
    fitted = np.asarray(cv2.resize(patch, (new_w, new_h), interpolation=interpolation), np.float32)
    mass = float(fitted.sum())
    if mass <= 0.0:
        return
    rows, cols = _indices(new_h, new_w)
    cy, cx = float((rows * fitted).sum()) / mass, float((cols * fitted).sum()) / mass
    # Put the centre of mass at the frame's centre, but never push ink out of the frame.
    centre = SIZE / 2.0  # MNIST put the centre of mass at pixel (14, 14), measured on its images
    left = min(max(centre - cx, 0.0), float(SIZE - new_w))
    top = min(max(centre - cy, 0.0), float(SIZE - new_h))
    shift = np.array([[1.0, 0.0, left], [0.0, 1.0, top]], np.float64)
    out[...] = cv2.warpAffine(fitted, shift, (SIZE, SIZE), flags=cv2.INTER_LINEAR, borderValue=0.0)


@cache
def _indices(height: int, width: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The row and column index of every pixel of a height × width image (at most 20 × 20: cached)."""
    rows, cols = np.indices((height, width), dtype=np.float64)
    rows.flags.writeable = cols.flags.writeable = False
    return rows, cols
