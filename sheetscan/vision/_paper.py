"""Stage 2, a far sheet: where the paper lies in the photo (`paper_box`), its part in a cast shadow
included, so that a small sheet's region can be searched for its frame first (`sheet.find_sheet`)."""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.vision._arrays import U8, u8
from sheetscan.vision.photo import Photo

__all__ = ["FAR_PAPER", "paper_box"]

_PAPER_PREVIEW_SIDE = 400  # the paper of a far sheet is looked for on a copy this big
FAR_PAPER = 0.45
"""A sheet is looked for in its paper's region too when that is under this share of the photo."""


def paper_box(photo: Photo) -> tuple[tuple[int, int, int, int], float] | None:
    """Where to look for a sheet photographed from afar: the box (left, top, right, bottom, photo px)
    round the biggest bright region, the paper, with a margin of a tenth of its size (out to its shadowed
    part's, `_shadowed_paper`, on a side where that reaches past it), and the share of the photo the
    paper's own box covers, its shadowed part included; None when there is no such region or it already
    covers `FAR_PAPER` of the photo (looking there would change little)."""
    small, scale = photo.preview(_PAPER_PREVIEW_SIDE)
    smooth = u8(cv2.GaussianBlur(small, (0, 0), 1.5))
    gray = u8(cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY))
    _, bright = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # The drawn lines (a felt-tip's are a few pixels wide even here) would cut the paper into pieces.
    reach = max(3, round(0.02 * max(gray.shape)) | 1)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((reach, reach), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(bright, connectivity=8)
    if count < 2:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h, area = (int(v) for v in stats[biggest])
    if area < 0.02 * gray.size or w * h > FAR_PAPER * gray.size:
        return None
    share = w * h / gray.size
    margin = 0.1 * max(w, h)
    box = [x - margin, y - margin, x + w + margin, y + h + margin]
    whole, grown = _shadowed_paper(smooth, gray, u8((labels == biggest).astype(np.uint8)), reach)
    shadowed = (whole[2] - whole[0]) * (whole[3] - whole[1]) / gray.size
    grown_w, grown_h = grown[2] - grown[0], grown[3] - grown[1]
    if share < shadowed <= FAR_PAPER:
        share = shadowed
        # Decision: a side of the box moves out to the shadowed paper's, with its own margin, where that
        # paper reaches past the lit part's box, because a hard shadow across a far sheet leaves the
        # frame's shaded side outside the lit part's box: that part was searched alone, and the
        # shadow's edge closed a false outline with the frame (bench_styles seed 30001, shadow: the lit
        # part 0.16 of the photo, 0.23 with its shadowed part; 583 px off). Only there, because the
        # paper's box grown by a pixel or two (the paper's rim, a shade at its edge) moved the box a
        # few pixels on most photos, and with it the corners found.
        reach_out = 0.1 * max(grown_w, grown_h)
        box = [grown[0] - reach_out if grown[0] < box[0] else box[0],
               grown[1] - reach_out if grown[1] < box[1] else box[1],
               grown[2] + reach_out if grown[2] > box[2] else box[2],
               grown[3] + reach_out if grown[3] > box[3] else box[3]]
    left, top = max(0.0, box[0] / scale), max(0.0, box[1] / scale)
    right, bottom = min(float(photo.width), box[2] / scale), min(float(photo.height), box[3] / scale)
    return (int(left), int(top), math.ceil(right), math.ceil(bottom)), share


def _shadowed_paper(image: U8, gray: U8, paper: U8, reach: int
                    ) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """The box (left, top, right, bottom: past the last column and row, px of `image`) of the bright paper
    region `paper` (non-zero on it) of `image` (`gray` its grey) grown into its shadowed part, and the box
    of its solid part (the grown region opened by `reach`, the paper itself kept): the pixels
    joined to it at least `_SHADOWED` of the paper's grey and of the paper's colour (each channel's share
    of the pixel's sum within `_SHADOW_TINT` of the paper's). `reach`: the closing that joins the paper
    across its drawn lines."""
    # Decision: the paper's share of the photo, which decides whether its region is searched first (a
    # far sheet), counts its part in a cast shadow too, because a hard shadow over part of the sheet
    # leaves only the lit part bright: a near sheet then looked far, and its lit part, cut off at the
    # shadow's edge, was searched first, where the shadow's edge closed a false outline with the
    # frame (bench_styles seed 17000, shadow, photos 4 and 6: lit part 0.245 and 0.211 of the photo,
    # with the shadowed part 0.355 and 0.288, the usual photos' 0.31 and more). A shadow dims the paper
    # without changing its colour; the table beside it (wood, felt) mostly has a colour of its own, and
    # where it has not (a grey table), the region grown runs over the table and is not used.
    pixels = image.astype(np.float32)
    tint = pixels / (pixels.sum(axis=2, keepdims=True) + 1.0)
    on_paper = paper > 0
    level = float(np.median(gray[on_paper]))
    off = np.abs(tint - np.median(tint[on_paper], axis=0)).max(axis=2)
    alike = u8(((gray >= _SHADOWED * level) & (off < _SHADOW_TINT)).astype(np.uint8))
    alike = u8(cv2.morphologyEx(alike, cv2.MORPH_CLOSE, np.ones((reach, reach), np.uint8)))
    _, labels = cv2.connectedComponents(alike, connectivity=8)
    found = np.asarray(labels, np.int32)
    joined = np.unique(found[on_paper & (alike > 0)])
    grown = np.isin(found, joined[joined > 0]) | on_paper
    # Decision: the box searched reaches only over the grown region's solid part (what an opening as
    # wide as `reach` keeps), because on a dark table a few specks of its grain pass for shadowed paper
    # and join the paper along its edge: the box taken over them held more table, and a far sheet's
    # layout was measured worse there (confirmation seed 36000, far, photo 0: zones IoU 0.957 -> 0.750).
    opened = cv2.morphologyEx(u8(grown.astype(np.uint8)), cv2.MORPH_OPEN, np.ones((reach, reach), np.uint8))
    solid = opened > 0
    return _box(grown), _box(solid | on_paper)


def _box(region: NDArray[np.bool_]) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom: past the last column and row) of the pixels set in `region`."""
    ys, xs = np.nonzero(region)
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


_SHADOWED = 0.3
"""A cast shadow keeps at least this share of the light on the paper (a hand's or a phone's: 0.4-0.5)."""
_SHADOW_TINT = 0.03
"""How far (in each channel's share of the pixel's sum) paper in a shadow may be off the lit paper's
colour."""
