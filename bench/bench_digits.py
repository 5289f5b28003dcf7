"""Benchmark of the digit recognisers: the CNN against the Tesseract baseline, in one run.

    python bench/bench_digits.py [--tesseract 500] [--numbers 2000] [--seed 7] [--against OLD.onnx ...]

Digits come only from MNIST's `validation` and `test` parts (never `train`). Each is measured
- clean: the 28×28 MNIST image as it is;
- photo-like: drawn with a pen colour on shaded paper (sometimes ruled), slanted and rotated a little,
  at 14–44 px tall, blurred, noised and JPEG-compressed, then the ink separated again from the paper
  the way an ink stage would and cut out by its ink box. This degradation is written here, apart from
  the training augmentation, so the benchmark does not simply replay what the network was trained on.
Numbers: 2–3 digits pasted side by side (gaps from slightly overlapping to wide), degraded the same way.

Tesseract is slow (one process per image), so it reads a seeded subset (`--tesseract`).
`--against OLD.onnx ...` also reads every CNN row with earlier networks (one file, or the file read for
every crop and the one read for unsure crops, like `--model`) and times both recognisers' networks back
to back in this process (milliseconds per crop in batches of 600, as a photo's).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision._digit_norm import normalise_digits
from sheetscan.vision.mnist import load_mnist
from sheetscan.vision.recognise import (
    MODEL_PATHS,
    CnnRecognizer,
    DigitReading,
    NumberImage,
    NumberReading,
    TesseractRecognizer,
)

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
Rng = np.random.Generator


# ------------------------------------------------------------------------------------------------
# A phone photo of pen digits, and the ink stage's view of it
# ------------------------------------------------------------------------------------------------


def _glyph(rng: Rng, digit: U8, height: float) -> F32:
    """Ink coverage (0–1) of one pen digit about `height` px tall: slanted, turned, stroke varied."""
    scale = height / 20.0  # MNIST digits fill a 20 px box
    angle = math.radians(rng.uniform(-8.0, 8.0))
    shear = rng.uniform(-0.25, 0.25)
    a = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    lin = a @ np.array([[1.0, shear], [0.0, 1.0]]) * scale
    size = math.ceil(28 * scale * 1.5)
    offset = np.array([size / 2, size / 2]) - lin @ np.array([14.0, 14.0])
    alpha = cv2.warpAffine(digit.astype(np.float32) / 255.0, np.hstack([lin, offset[:, None]]),
                           (size, size), flags=cv2.INTER_CUBIC)
    pen = rng.random()
    k = max(1, round(height / 20.0))
    if pen < 0.25:
        alpha = cv2.erode(alpha, np.ones((k, k), np.uint8))
    elif pen < 0.45:
        alpha = cv2.dilate(alpha, np.ones((k + 1, k + 1), np.uint8))
    alpha = np.clip(alpha * 1.3, 0.0, 1.0)
    ys, xs = np.nonzero(alpha > 0.05)
    if ys.size == 0:
        return alpha
    return alpha[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


Box = tuple[int, int, int, int]


def _photo_of(rng: Rng, glyphs: Sequence[F32], gaps: Sequence[float]) -> tuple[U8, list[Box]]:
    """The ink image (ink bright, as the ink stage gives it) of `glyphs` written side by side, and
    each glyph's true box in it."""
    height = max(g.shape[0] for g in glyphs)
    margin = round(height * 0.6)
    positions, x = [], margin
    for index, glyph in enumerate(glyphs):
        baseline_jitter = round(rng.uniform(-0.06, 0.06) * height)
        positions.append((x, margin + height - glyph.shape[0] + baseline_jitter))
        x += glyph.shape[1] + (round(gaps[index] * height) if index < len(gaps) else 0)
    width = x + margin
    canvas_h = height + 2 * margin
    alpha = np.zeros((canvas_h, width), np.float32)
    boxes = []
    for (px, py), glyph in zip(positions, glyphs, strict=True):
        h, w = glyph.shape
        alpha[py: py + h, px: px + w] = np.maximum(alpha[py: py + h, px: px + w], glyph)
        boxes.append((px, py, w, h))
    # Paper: a tint, a shadow gradient across the frame, grain.
    yy, xx = np.mgrid[0:canvas_h, 0:width].astype(np.float32)
    direction = rng.uniform(0, 2 * math.pi)
    ramp = (np.cos(direction) * xx + np.sin(direction) * yy) / max(width, canvas_h)
    paper = rng.uniform(170, 240) + rng.uniform(-40, 40) * ramp
    if rng.random() < 0.35:  # a printed or ruled line under the digits or a column line beside them
        line = np.zeros_like(alpha)
        thick = max(1, round(height * rng.uniform(0.03, 0.08)))
        if rng.random() < 0.6:
            y = margin + height + round(rng.uniform(-0.15, 0.1) * height)
            cv2.line(line, (0, y), (width, y + round(rng.uniform(-2, 2))), 1.0, thick, cv2.LINE_AA)
        else:
            xl = margin + round(rng.uniform(-0.3, 0.0) * height) if rng.random() < 0.5 else x + round(
                rng.uniform(0.0, 0.3) * height)
            cv2.line(line, (xl, 0), (xl + round(rng.uniform(-2, 2)), canvas_h), 1.0, thick, cv2.LINE_AA)
        paper = paper - line * rng.uniform(40, 110)
    ink = rng.uniform(20, 110)
    photo = paper * (1 - alpha) + ink * alpha
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.3, 1.2))
    photo = photo + rng.normal(0, rng.uniform(2, 8), photo.shape)
    pixels = np.clip(photo, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 91))])
    if ok:
        pixels = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
    # Ink stage: paper estimated by a closing larger than a stroke, ink = how much darker than paper.
    k = max(5, round(height * 0.5)) | 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    background = cv2.morphologyEx(pixels, cv2.MORPH_CLOSE, disc)
    darker = cv2.subtract(background, pixels).astype(np.float32)
    level = np.percentile(darker, 99.5)
    gray = np.clip(darker * (255.0 / max(level, 1.0)), 0, 255).astype(np.uint8)
    return gray, boxes


def _segment(gray: U8, truth: Sequence[Box]) -> tuple[Box, ...]:
    """Each digit's box as a simple segmenter finds it: the ink box inside a window a little larger
    than the digit's true box (so neighbour strokes and lines inside it count)."""
    threshold, _ = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    mask = gray > max(threshold, 40)
    boxes = []
    for x, y, w, h in truth:
        pad_x, pad_y = round(0.08 * w), round(0.08 * h)
        x0, y0 = max(x - pad_x, 0), max(y - pad_y, 0)
        window = mask[y0: y + h + pad_y, x0: x + w + pad_x]
        ys, xs = np.nonzero(window)
        if ys.size == 0:
            boxes.append((x, y, w, h))
            continue
        boxes.append((x0 + int(xs.min()), y0 + int(ys.min()), int(xs.max() - xs.min()) + 1,
                      int(ys.max() - ys.min()) + 1))
    return tuple(boxes)


def photo_digit(rng: Rng, digit: U8) -> U8:
    """One MNIST digit as the ink stage would cut it out of a phone photo."""
    height = math.exp(rng.uniform(math.log(14.0), math.log(44.0)))
    gray, truth = _photo_of(rng, [_glyph(rng, digit, height)], [])
    (x, y, w, h), = _segment(gray, truth)
    return gray[y: y + h, x: x + w]


def photo_number(rng: Rng, digits: Sequence[U8]) -> NumberImage:
    """A number written with these MNIST digits, as the segmenter would hand it to a recogniser."""
    height = math.exp(rng.uniform(math.log(16.0), math.log(44.0)))
    glyphs = [_glyph(rng, d, height * rng.uniform(0.9, 1.1)) for d in digits]
    gaps = [rng.uniform(-0.08, 0.35) for _ in digits[1:]]
    gray, truth = _photo_of(rng, glyphs, gaps)
    boxes = _segment(gray, truth)
    x0 = max(min(b[0] for b in boxes) - 4, 0)
    y0 = max(min(b[1] for b in boxes) - 4, 0)
    x1 = max(b[0] + b[2] for b in boxes) + 4
    y1 = max(b[1] + b[3] for b in boxes) + 4
    return NumberImage(np.ascontiguousarray(gray[y0:y1, x0:x1]),
                       tuple((x - x0, y - y0, w, h) for x, y, w, h in boxes))


def clean_number(rng: Rng, digits: Sequence[U8]) -> NumberImage:
    """MNIST digits pasted side by side at 28 px, gaps from touching to wide (no photo)."""
    gaps = [int(rng.integers(-2, 8)) for _ in digits[1:]]
    width = 28 * len(digits) + sum(gaps) + 8
    gray = np.zeros((36, width), np.uint8)
    boxes, x = [], 4
    for index, digit in enumerate(digits):
        gray[4:32, x: x + 28] = np.maximum(gray[4:32, x: x + 28], digit)
        ys, xs = np.nonzero(digit > 40)
        boxes.append((x + int(xs.min()), 4 + int(ys.min()), int(np.ptp(xs)) + 1, int(np.ptp(ys)) + 1))
        x += 28 + (gaps[index] if index < len(gaps) else 0)
    return NumberImage(gray, tuple(boxes))


# ------------------------------------------------------------------------------------------------
# Measuring
# ------------------------------------------------------------------------------------------------


@dataclass
class Row:
    """One line of the table."""

    recognizer: str
    task: str
    count: int
    accuracy: float
    top3: float
    per_second: float
    mean_confidence: float
    confident_share: float
    """Share of items read with confidence ≥ CONFIDENT."""
    confident_accuracy: float
    """Accuracy on those items alone."""


CONFIDENT = 0.9
# Decision: the table splits at confidence 0.9 because that is where a reading is worth trusting
# without a look from reconciliation; the scan pipeline may choose its own threshold.


def _split(hits: npt.NDArray[np.bool_], confidences: npt.NDArray[np.float64]) -> tuple[float, float]:
    sure = confidences >= CONFIDENT
    return float(sure.mean()), float(hits[sure].mean()) if sure.any() else float("nan")


def _digit_row(name: str, task: str, read: Callable[[list[U8]], list[DigitReading]], crops: list[U8],
               labels: npt.NDArray[np.int64]) -> Row:
    started = time.perf_counter()
    readings = read(crops)
    seconds = time.perf_counter() - started
    best = np.array([r.digit if r.digit is not None else -1 for r in readings])
    top3 = np.mean([int(label) in [d for d, _ in r.candidates]
                    for r, label in zip(readings, labels, strict=True)])
    confidence = np.array([r.candidates[0][1] if r.candidates else 0.0 for r in readings])
    hits = best == labels
    return Row(name, task, len(crops), float(np.mean(hits)), float(top3), len(crops) / seconds,
               float(confidence.mean()), *_split(hits, confidence))


def _number_row(name: str, task: str, read: Callable[[list[NumberImage]], list[NumberReading]],
                numbers: list[NumberImage], values: list[int]) -> Row:
    started = time.perf_counter()
    readings = read(numbers)
    seconds = time.perf_counter() - started
    hits = np.array([r.value == v for r, v in zip(readings, values, strict=True)])
    top = np.mean([v in [c for c, _ in r.candidates[:3]] for r, v in zip(readings, values, strict=True)])
    confidence = np.array([r.confidence for r in readings])
    return Row(name, task, len(numbers), float(hits.mean()), float(top), len(numbers) / seconds,
               float(confidence.mean()), *_split(hits, confidence))


def _time_networks(model: CnnRecognizer, against: CnnRecognizer, crops: list[U8], batch: int = 600,
                   rounds: int = 15) -> None:
    """Milliseconds per crop of each recogniser's networks alone (the normalised input made once, every
    network it reads a crop with), the two run in turn on the same batches so that the machine's load
    hits both alike."""
    blob = normalise_digits(crops[:batch])
    recognisers = {"--model": model, "--against": against}
    times: dict[str, list[float]] = {name: [] for name in recognisers}
    for _ in range(rounds):
        for name, recogniser in recognisers.items():
            started = time.perf_counter()
            recogniser.probabilities(blob)
            times[name].append(time.perf_counter() - started)
    per_crop = {name: 1000 * statistics.median(t) / len(blob) for name, t in times.items()}
    print(f"networks, median of {rounds} batches of {len(blob)}: --model {per_crop['--model']:.3f} "
          f"ms/crop, --against {per_crop['--against']:.3f} ms/crop "
          f"(×{per_crop['--model'] / per_crop['--against']:.2f})")


def _percent(value: float) -> str:
    return "–" if math.isnan(value) else f"{100 * value:.2f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tesseract", type=int, default=400,
                        help="digits and numbers Tesseract reads (each)")
    parser.add_argument("--numbers", type=int, default=2000, help="numbers the CNN reads")
    parser.add_argument("--digits", type=int, default=20000, help="validation+test digits the CNN reads")
    parser.add_argument("--model", type=Path, nargs="+", default=list(MODEL_PATHS), metavar="ONNX",
                        help="the networks to measure: one file, or the one read for every crop and the "
                             "one read for unsure crops (default: the product's, MODEL_PATHS)")
    parser.add_argument("--against", type=Path, nargs="+", default=None, metavar="ONNX",
                        help="earlier networks: their rows and their time next to --model's")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    parts = [load_mnist("validation"), load_mnist("test")]
    images = np.concatenate([p.images for p in parts])[: args.digits]
    labels = np.concatenate([p.labels for p in parts])[: args.digits]
    clean = list(images)
    started = time.perf_counter()
    photo = [photo_digit(rng, image) for image in images]
    print(f"made {len(photo)} photo-like digits in {time.perf_counter() - started:.1f} s")
    numbers_photo, numbers_clean, values = [], [], []
    for _ in range(args.numbers):
        chosen = rng.integers(len(images), size=int(rng.integers(2, 4)))
        while labels[chosen[0]] == 0:  # nobody writes a leading zero
            chosen[0] = rng.integers(len(images))
        values.append(int("".join(str(labels[i]) for i in chosen)))
        numbers_photo.append(photo_number(rng, [images[i] for i in chosen]))
        numbers_clean.append(clean_number(rng, [images[i] for i in chosen]))
    subset = rng.choice(len(images), size=min(args.tesseract, len(images)), replace=False)
    few = slice(0, args.tesseract)

    cnn, tess = CnnRecognizer(args.model), TesseractRecognizer()
    cnn.read_digits(clean[:8])  # load the model outside the timing
    baseline = args.tesseract > 0  # --tesseract 0: the CNN alone, without the baseline's rows
    rows = [
        _digit_row("cnn", "digit, clean", cnn.read_digits, clean, labels),
        _digit_row("cnn", "digit, photo-like", cnn.read_digits, photo, labels),
    ]
    if baseline:
        rows += [
            _digit_row("cnn", "digit, clean (subset)", cnn.read_digits, [clean[i] for i in subset],
                       labels[subset]),
            _digit_row("cnn", "digit, photo-like (subset)", cnn.read_digits, [photo[i] for i in subset],
                       labels[subset]),
            _digit_row("tesseract", "digit, clean (subset)", tess.read_digits, [clean[i] for i in subset],
                       labels[subset]),
            _digit_row("tesseract", "digit, photo-like (subset)", tess.read_digits,
                       [photo[i] for i in subset], labels[subset]),
        ]
    rows += [
        _number_row("cnn", "number, clean", cnn.read_numbers, numbers_clean, values),
        _number_row("cnn", "number, photo-like", cnn.read_numbers, numbers_photo, values),
    ]
    if baseline:
        rows += [
            _number_row("tesseract", "number, clean (subset)", tess.read_numbers, numbers_clean[few],
                        values[few]),
            _number_row("tesseract", "number, photo-like (subset)", tess.read_numbers, numbers_photo[few],
                        values[few]),
        ]
    if args.against is not None:
        old = CnnRecognizer(args.against)
        rows += [
            _digit_row("cnn (against)", "digit, clean", old.read_digits, clean, labels),
            _digit_row("cnn (against)", "digit, photo-like", old.read_digits, photo, labels),
            _number_row("cnn (against)", "number, clean", old.read_numbers, numbers_clean, values),
            _number_row("cnn (against)", "number, photo-like", old.read_numbers, numbers_photo, values),
        ]
    print()
    print(f"| recognizer | task | n | accuracy | top-3 | mean conf. | conf ≥ {CONFIDENT}: share | "
          "its accuracy | items/s |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r.recognizer} | {r.task} | {r.count} | {100 * r.accuracy:.2f}% | {100 * r.top3:.2f}% | "
              f"{r.mean_confidence:.3f} | {100 * r.confident_share:.1f}% | "
              f"{_percent(r.confident_accuracy)} | {r.per_second:,.0f} |")
    print()
    # Wrong angles: the number stage picks the writing angle by confidence, so digits seen sideways or
    # upside down should not read as confidently as upright ones (0, 1 and 8 look alike turned).
    turnable = np.flatnonzero(~np.isin(labels, (0, 1, 8)))[:5000]
    for turn, label in ((0, "upright"), (1, "sideways (90°)"), (2, "upside down (180°)")):
        crops = [np.ascontiguousarray(np.rot90(images[i], turn)) for i in turnable]
        readings = cnn.read_digits(crops)
        sure = np.mean([r.candidates[0][1] >= CONFIDENT for r in readings])
        noise = np.mean([r.noise for r in readings])
        print(f"cnn, {len(crops)} digits 2–7 and 9 {label}: read with confidence ≥ {CONFIDENT}: "
              f"{100 * sure:.1f}%, mean noise probability {noise:.3f}")
    if args.against is not None:
        _time_networks(cnn, old, photo)
    by = {(r.recognizer, r.task.replace(" (subset)", "")): r for r in rows if "subset" in r.task or
          r.recognizer == "tesseract"}
    print()
    for task in ("digit, clean", "digit, photo-like", "number, clean", "number, photo-like"):
        c, t = by.get(("cnn", task)), by.get(("tesseract", task))
        if task.startswith("number"):
            c = next(r for r in rows if r.recognizer == "cnn" and r.task == task)
        if c and t and t.per_second > 0:  # --tesseract 0: no baseline to compare with
            errors = (1 - c.accuracy) / max(1 - t.accuracy, 1e-9)
            print(f"{task}: CNN/Tesseract speed ×{c.per_second / t.per_second:,.0f}, "
                  f"error rate ×{errors:.3f} of Tesseract's")


if __name__ == "__main__":
    main()
