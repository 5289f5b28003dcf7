"""Handwritten numbers for the ink and numbers stage tests: real MNIST *test* digits on paper.

Everything a test checks against is decided here (which digits, where, how big, how turned), never
read back from the code under test. `TemplateReader` is a recogniser for those tests that knows the
exact digit images that were written and matches crops against them: it reads well only what is
upright, which is what the orientation tests need, without depending on the trained network.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision.mnist import load_mnist

Float = npt.NDArray[np.float64]

PAPER = (0.93, 0.95, 0.96)  # BGR, slightly warm white
BLUE_PEN = (0.55, 0.25, 0.1)  # BGR: dark blue ballpoint


@dataclass
class Writer:
    """A writer: digits drawn from a slice of MNIST's test part, a size and a pen."""

    height: int = 28
    """Height of a digit's ink in pixels."""
    seed: int = 0
    """Which digits of each class are used (MNIST test images, never training)."""
    pen: tuple[float, float, float] = BLUE_PEN
    """Pen colour, BGR in 0..1."""
    used: list[tuple[int, Float]] = field(default_factory=list)
    """(digit, ink image as written) of every digit written so far."""

    def glyph(self, digit: int) -> Float:
        """The ink (0..1) of one MNIST test digit, cropped to its ink and scaled to `height`."""
        part = load_mnist("test")
        choices = np.flatnonzero(part.labels == digit)
        index = int(choices[(self.seed * 7 + len(self.used) * 13) % len(choices)])
        image = part.images[index].astype(np.float64) / 255.0
        ys, xs = np.nonzero(image > 0.2)
        crop = image[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        scale = self.height / crop.shape[0]
        width = max(2, round(crop.shape[1] * scale))
        ink = cv2.resize(crop, (width, self.height), interpolation=cv2.INTER_LINEAR)
        ink = np.clip(ink, 0.0, 1.0)
        self.used.append((digit, ink))
        return ink


def blank(height: int, width: int) -> Float:
    """A sheet of paper, BGR float 0..1."""
    return np.ones((height, width, 3)) * np.array(PAPER)


def put_ink(canvas: Float, ink: Float, x: int, y: int, pen: Sequence[float]) -> None:
    """Darken the paper with `ink` (0..1) at (x, y) in the pen's colour."""
    h, w = ink.shape
    region = canvas[y:y + h, x:x + w]
    alpha = ink[: region.shape[0], : region.shape[1], None]
    region[:] = region * (1 - alpha) + np.array(pen) * alpha


def write_line(canvas: Float, text: str, x: int, y: int, writer: Writer, *, space: float = 0.15,
               dot_gap: float = 0.35) -> list[tuple[int, int, int, int]]:
    """Write `text` (digits, '.' between numbers) with its top-left at (x, y); the box of each number."""
    h = writer.height
    boxes: list[tuple[int, int, int, int]] = []
    start = x
    for char in text:
        if char == ".":
            boxes.append((start, y, x - start - int(space * h), h))
            x += int(dot_gap * h)
            radius = max(2, h // 12)
            dot = np.zeros((2 * radius + 1, 2 * radius + 1))
            cv2.circle(dot, (radius, radius), radius, 1.0, -1)
            put_ink(canvas, dot, x, y + h - 2 * radius - 1, writer.pen)
            x += 2 * radius + 1 + int(dot_gap * h)
            start = x
            continue
        ink = writer.glyph(int(char))
        put_ink(canvas, ink, x, y, writer.pen)
        x += ink.shape[1] + int(space * h)
    boxes.append((start, y, x - start - int(space * h), h))
    return boxes


def to_bgr(canvas: Float) -> npt.NDArray[np.uint8]:
    """The canvas as an 8-bit BGR image."""
    return np.clip(np.rint(canvas * 255.0), 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class Zone:
    """A zone for the stage tests: the whole image, written at `writing_angles`."""

    index: int
    polygon: tuple[tuple[float, float], ...]
    writing_angles: tuple[int, ...]
    player: int = 0
    kind: str = "pulka"
    on: int | None = None


@dataclass(frozen=True)
class Zones:
    """A set of zones without a circle, as the numbers stage sees them."""

    zones: tuple[Zone, ...]
    circle: tuple[float, float, float] | None = None


def whole(image: npt.NDArray[np.uint8], angles: tuple[int, ...] = (0,)) -> Zones:
    """One zone covering the whole image."""
    h, w = image.shape[:2]
    return Zones(zones=(Zone(0, ((0, 0), (w, 0), (w, h), (0, h)), angles),))


class TemplateReader:
    """Reads digits by matching them with the exact images that were written (for stage tests)."""

    def __init__(self, writers: Sequence[Writer]) -> None:
        self.templates = [(d, self._norm(ink)) for w in writers for d, ink in w.used]

    @staticmethod
    def _norm(ink: npt.NDArray[np.floating] | npt.NDArray[np.uint8]) -> Float:
        small = cv2.resize(ink.astype(np.float64), (16, 20), interpolation=cv2.INTER_AREA)
        small -= small.mean()
        return small / (np.linalg.norm(small) + 1e-9)

    def read_numbers(self, images: Sequence[object]) -> list[object]:
        from sheetscan.vision.recognise import DigitReading, NumberReading

        out: list[object] = []
        for image in images:
            gray = image.gray  # type: ignore[attr-defined]
            digits = []
            value, confidence = 0, 1.0
            for x, y, w, h in image.digit_boxes:  # type: ignore[attr-defined]
                crop = gray[y:y + h, x:x + w].astype(np.float64) / 255.0
                vector = self._norm(crop)
                best = np.full(10, -1.0)
                for digit, template in self.templates:
                    best[digit] = max(best[digit], float((vector * template).sum()))
                p = np.exp(25 * best)
                p /= p.sum()
                order = np.argsort(-p)
                digits.append(DigitReading(candidates=tuple((int(d), float(p[d])) for d in order[:3]),
                                           noise=0.0))
                value = value * 10 + int(order[0])
                confidence *= float(p[order[0]])
            out.append(NumberReading(candidates=((value, confidence),) if digits else (),
                                     digits=tuple(digits)))
        return out
