"""A photo of squared paper seen from above, drawn for the tests: a 12 px printed grid in a colour, turned as
the paper, and a pencil frame (with an inner rectangle and its spokes) turned 6 degrees off the grid
(`pencil_frame`, drawn so on other paper too)."""
from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._arrays import F64, U8, f64, u8

PAPER = np.array([[150, 150], [760, 220], [700, 1080], [90, 1010]], np.float32)
"""The paper's corners in the 900 × 1200 px photo."""


def squared_photo(*, grid: bool = True, pencil: float = 0.86, kept: float = 0.8) -> tuple[U8, F64]:
    """The photo (BGR, 900 × 1200 px) and its frame's corners. The grid's lines are 0.85, 0.88 and 0.78 of
    the paper in blue, green and red (`grid`: drawn at all); the pencil `pencil` of it in every channel,
    each of its pixels drawn with a chance of `kept` (the grain of a pencil line)."""
    rng = np.random.default_rng(0)
    h, w = 1200, 900
    image = np.full((h, w, 3), 70.0)
    cv2.fillPoly(image, [PAPER.astype(np.int32)], (185, 200, 205))
    turn = float(np.arctan2(PAPER[1, 1] - PAPER[0, 1], PAPER[1, 0] - PAPER[0, 0]))
    along, across = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    if grid:
        lines = np.zeros((h, w), np.uint8)
        for k in range(-5, 80):
            for step, run in ((along, across), (across, along)):
                start, end = PAPER[0] + 12 * k * step - 200 * run, PAPER[0] + 12 * k * step + 1400 * run
                cv2.line(lines, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])), 255, 1)
        paper = np.zeros((h, w), np.uint8)
        cv2.fillPoly(paper, [PAPER.astype(np.int32)], 255)
        printed = (lines > 0) & (paper > 0)
        image[printed] *= np.array([0.85, 0.88, 0.78])
    frame, drawn = pencil_frame((h, w), turn + 0.1)
    drawn[rng.random(drawn.shape) > kept] = 0
    image[drawn > 0] *= pencil
    image += rng.normal(0.0, 2.0, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8), frame


def pencil_frame(shape: tuple[int, int], angle: float) -> tuple[F64, U8]:
    """A frame 440 × 600 px (with an inner rectangle 240 × 360 px and the spokes joining their corners)
    about (430, 620) in an image of `shape` (height, width), turned by `angle` radians: its corners, and
    255 where it is drawn (2 px lines)."""
    cos, sin = np.cos(angle), np.sin(angle)
    turned = np.array([[cos, -sin], [sin, cos]])
    frame = np.array([[-220, -300], [220, -300], [220, 300], [-220, 300]]) @ turned.T + [430, 620]
    inner = np.array([[-120, -180], [120, -180], [120, 180], [-120, 180]]) @ turned.T + [430, 620]
    drawn = np.zeros(shape, np.uint8)
    cv2.polylines(drawn, [frame.astype(np.int32), inner.astype(np.int32)], True, 255, 2)
    for (x0, y0), (x1, y1) in zip(frame.astype(int), inner.astype(int), strict=True):
        cv2.line(drawn, (int(x0), int(y0)), (int(x1), int(y1)), 255, 2)
    return f64(frame), u8(drawn)
