"""Stage 4 of reading a photo: the typical width of a pen stroke in an ink mask (`median_stroke_width`),
from the strokes' middles (`Middles`, kept so that the width less some blobs is measured again cheaply).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["Middles", "median_stroke_width"]

Mask = npt.NDArray[np.uint8]


def median_stroke_width(mask: Mask, *, share: float = 0.9, pulled: float = 0.8) -> float:
    """Median stroke width: twice the distance to the background along the strokes' middles; measured on
    the largest blobs that hold `share` of the ink instead when the rest pulls it below `pulled` of that.

    A dark or noisy photo leaves thousands of specks of one to a few pixels (sensor noise passing the
    thresholds); their middles outnumbered the strokes' and the width measured 1.9 px for strokes of 8.5
    (bench_styles dark seed 6000, photo 2), and the number stage then cut numbers into single digits. The
    writing holds most of the ink, in blobs far larger than a speck.
    """
    if not mask.any():
        return 0.0
    # (Labels alone, and the areas counted from the inked pixels: several times faster than with statistics.)
    count, found_labels = cv2.connectedComponents(mask, connectivity=8)
    return Middles(mask, np.asarray(found_labels, np.int32), count).width(share=share, pulled=pulled)


class Middles:
    """The strokes' middles of a mask, by blob: what `median_stroke_width` measures, kept so that the width
    of the mask less some whole blobs is measured without going over the sheet again (a blob's distances to
    the background are its own: taking other blobs out changes none of them)."""

    def __init__(self, mask: Mask, labels: npt.NDArray[np.int32], count: int,
                 area: npt.NDArray[np.integer] | None = None) -> None:
        """`area`, when given, is the blobs' ink pixels by label (`_line_pieces.blob_stats`' last column),
        already counted by the caller; the background's entry is not read."""
        # (A uint8 mask as it is: the distance transform takes every non-zero pixel for ink.)
        ink = mask if mask.dtype == np.uint8 else (mask > 0).astype(np.uint8)
        distance = np.asarray(cv2.distanceTransform(ink, cv2.DIST_L2, 3), np.float32)
        # A pixel is on a stroke's middle when no 3×3 neighbour is farther from the background (and it is ink:
        # its distance is above 0).
        # Decision: the middle pixels listed by their places (raster order, as a boolean index lists them),
        # the comparisons made by OpenCV, because the middles are a few of the sheet's pixels: the same
        # distances and blobs without two boolean indexes over the whole sheet.
        top = cv2.compare(distance, cv2.dilate(distance, np.ones((3, 3), np.uint8)), cv2.CMP_GE)
        places = cv2.findNonZero(cv2.bitwise_and(top, ink))
        xs, ys = (np.asarray(places, np.intp).reshape(-1, 2).T if places is not None
                  else (np.zeros(0, np.intp), np.zeros(0, np.intp)))
        self.values = distance[ys, xs]
        """Distance to the background of every middle pixel."""
        self.owners = labels[ys, xs]
        """The blob of every middle pixel."""
        self.area = (np.bincount(labels[mask > 0], minlength=count).astype(np.int64) if area is None
                     else np.array(area, np.int64))
        """Ink pixels by blob."""
        self.area[0] = 0

    def width(self, *, share: float = 0.9, pulled: float = 0.8,
              gone: npt.NDArray[np.bool_] | None = None) -> float:
        """`median_stroke_width` of the mask, less the blobs marked in `gone` (by label) when given."""
        values, owners, area = self.values, self.owners, self.area
        if gone is not None:
            kept = ~gone[owners]
            values, owners = values[kept], owners[kept]
            area = np.where(gone, 0, area)
        if not area.any():
            return 0.0
        width = float(2.0 * np.median(values))
        order = np.argsort(-area, kind="stable")
        held = np.cumsum(area[order])
        last = int(np.searchsorted(held, share * held[-1])) + 1
        keep = np.zeros(len(area), dtype=bool)
        keep[order[:last]] = True
        keep[0] = False
        # A blob's distances to the background are its own (other blobs lie beyond the background around
        # it), so the writing's middles are the sheet's middles that lie in its blobs.
        middles = keep[owners]
        writing = float(2.0 * np.median(values[middles])) if middles.any() else width
        # Decision: the writing's own measure replaces the whole ink's only when the specks pull the whole
        # ink's below `pulled` (0.8) of it, because the median of middles moves by steps of a pixel's
        # distance (5.73, 6.56, 7.39, 7.64, 8.22 ... px): on photos in focus the two differ by at most a step
        # (0.87-1.0) and the number stage's cuts there were left as they were (bench_scan seed 1000: 4 of 12
        # photos moved a step, and two numbers changed), while the specks of a dark photo pulled it to
        # 0.25-0.75.
        return writing if width < pulled * writing else width
