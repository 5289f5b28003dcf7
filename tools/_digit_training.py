"""What both digit-network training scripts share: the augmentation that makes an MNIST digit look like
a pen digit photographed by a phone and cut out by the segmenter, the batches, the epoch loop, the
segmenter's own crops, temperature fitting and the ONNX export. `train_digits.py` and
`train_digits_fast.py` each add their network and their schedule.

Every training image goes through the same `normalise_digit` the runtime uses, after an augmentation:
stroke width, slant, rotation, scale and aspect, neighbour digits touching the crop's edges, ruled lines
crossing it or at its border, dots, blur, low resolution, noise, contrast, gamma and JPEG. An 11th class,
"not a digit" (dots, blobs, dashes, crossings of lines, empty crops, and with `sideways` digits turned a
quarter), feeds `DigitReading.noise`.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import torch
import torch.nn.functional as F
from _shake import shaken
from held_out_crops import HELD_OUT, held_out_start
from torch import nn

from sheetscan.vision._digit_norm import SIZE, normalise_digit
from sheetscan.vision.mnist import load_mnist

BATCH = 128  # MNIST digits per batch (+ their noise crops, + PIPELINE_PER_BATCH pipeline crops)
LEARNING_RATE = 3e-3
WEIGHT_DECAY = 5e-4
DEV_SIZE = 5000  # last digits of `train`, held out to fit the temperature
NOISE_CLASS = 10
NOISE_SHARE = 0.10  # share of each batch's MNIST part that is "not a digit"
CLEAN_SHARE = 0.15  # share of digits that skip the photo augmentation (plain MNIST)
THREADS = 2
# A digit turned a quarter is "not a digit", so that the number stage can tell the right writing angle
# by the confidence. 0 and 8 look alike sideways and are left out; a sideways 1 is a dash, which the
# noise crops already have (and, slanted, it would come close to "1").
SIDEWAYS_SHARE = 0.35  # of the noise crops, when `sideways`
SIDEWAYS_LOOK_ALIKE = (0, 1, 8)
PIPELINE_PER_BATCH = 96  # pipeline crops added to each batch of 128 MNIST digits (+ their noise crops)
PIPELINE_HELD_OUT = HELD_OUT  # last share of the crops: the temperature is fitted on them, never trained on
DISTIL_WEIGHT = 0.7  # with a teacher: share of the loss that is matching its softened probabilities
DISTIL_TEMPERATURE = 2.0  # both sides' logits are divided by it before they are compared
NOISE_PICK_SEED = 11  # with a keep_noise share under 1: the seed that picks the noise pieces trained on
ONE_LIKE = 0.3  # with keep_noise, a "not a digit" piece the model reads as "1" this likely is left out
# With `extra` (--extra of the scripts; off by default, so earlier runs stay bit for bit): what the
# product's misread digits showed the crops have and the augmentation above lacks.
SHAKE_SHARE = 0.2  # hand shake: a linear motion blur 0.08-0.35 of the digit's height long, any direction
DASH_SHARE = 0.12  # a dash (a minus, a separator) beside the digit reaching into its crop
MAX_BYTES = 1_000_000  # the ONNX file's limit (issue 5)
OUT_DIR = Path(__file__).resolve().parent.parent / "sheetscan" / "vision" / "models"
MODEL_NAME = "digits.onnx"

# ---------------------------------------------------------------------------------------------------
# Augmentation: an MNIST digit → what the segmenter would cut out of a phone photo (ink bright, uint8)
# ---------------------------------------------------------------------------------------------------

Rng = np.random.Generator
Image = npt.NDArray[np.float32]

WORK = 2  # digits are drawn at twice MNIST's resolution so that stroke changes are fine-grained
CANVAS = 128


def _place_digit(rng: Rng, digit: npt.NDArray[np.uint8], centre: tuple[float, float]) -> Image:
    """The digit, slanted, rotated, scaled and stroke-changed, drawn on an empty canvas at `centre`."""
    big = cv2.resize(digit.astype(np.float32), (28 * WORK, 28 * WORK), interpolation=cv2.INTER_LINEAR)
    angle = math.radians(rng.uniform(-15.0, 15.0))
    shear = rng.uniform(-0.35, 0.35)  # slant of hand-writing
    scale = rng.uniform(0.8, 1.2)
    aspect = math.exp(rng.uniform(-0.3, 0.25))  # width / height
    sx, sy = scale * math.sqrt(aspect), scale / math.sqrt(aspect)
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    lin = rot @ np.array([[1.0, shear], [0.0, 1.0]]) @ np.diag([sx, sy])
    src_centre = np.array([14.0 * WORK, 14.0 * WORK])
    offset = np.array(centre) - lin @ src_centre
    matrix = np.hstack([lin, offset[:, None]])
    out = cv2.warpAffine(big, matrix, (CANVAS, CANVAS), flags=cv2.INTER_LINEAR, borderValue=0.0)
    stroke = rng.random()
    if stroke < 0.25:
        out = cv2.erode(out, np.ones((2, 2), np.uint8))  # a thin ballpoint
    elif stroke < 0.45:
        out = cv2.dilate(out, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    elif stroke < 0.55:
        out = cv2.dilate(out, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))  # a felt pen
    return out


def _ink_box(image: Image) -> tuple[int, int, int, int] | None:
    ys, xs = np.nonzero(image > 0.3 * float(image.max()) if image.max() > 0 else image > 1)
    if ys.size == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _line(rng: Rng, canvas: Image, p0: tuple[float, float], p1: tuple[float, float], width: int) -> None:
    level = rng.uniform(0.35, 1.0) * 255.0
    cv2.line(canvas, (round(p0[0] * 4), round(p0[1] * 4)), (round(p1[0] * 4), round(p1[1] * 4)),
             level, max(1, width), cv2.LINE_AA, shift=2)


def _ruled_line(rng: Rng, canvas: Image, box: tuple[int, int, int, int]) -> None:
    """A drawn line of the sheet crossing the digit or running along an edge of its crop."""
    x0, y0, x1, y1 = box
    where = rng.integers(0, 4)
    tilt = math.tan(math.radians(rng.uniform(-6.0, 6.0)))
    width = int(rng.integers(1, 6))
    if where < 2:  # horizontal: under the digit (written on a line), through it, or above it
        y = rng.uniform(y0 - 0.15 * (y1 - y0), y1 + 0.15 * (y1 - y0))
        _line(rng, canvas, (0.0, y - tilt * CANVAS / 2), (float(CANVAS), y + tilt * CANVAS / 2), width)
    else:  # vertical: a spoke or a column border next to the digit
        side = x0 if rng.random() < 0.5 else x1
        x = side + rng.uniform(-0.2, 0.2) * (x1 - x0)
        _line(rng, canvas, (x - tilt * CANVAS / 2, 0.0), (x + tilt * CANVAS / 2, float(CANVAS)), width)


def _dots(rng: Rng, canvas: Image, count: int) -> None:
    for _ in range(count):
        centre = (round(rng.uniform(16, CANVAS - 16) * 4), round(rng.uniform(16, CANVAS - 16) * 4))
        radius = rng.uniform(1.0, 5.0)
        # Round-ish only: a long thin speck would be a "1" after normalisation.
        axes = (round(radius * 4), round(radius * rng.uniform(0.5, 1.0) * 4))
        cv2.ellipse(canvas, centre, axes, rng.uniform(0, 180), 0, 360, rng.uniform(0.4, 1.0) * 255.0,
                    -1, cv2.LINE_AA, shift=2)


def _shake(rng: Rng, image: Image, height: float) -> Image:
    """`image` smeared along a straight line, as a moving hand does (a digit `height` px tall)."""
    length = max(2, round(rng.uniform(0.08, 0.35) * height))
    return shaken(image, length, float(rng.uniform(0, 180)))


def _dash(rng: Rng, canvas: Image, box: tuple[int, int, int, int]) -> None:
    """A short, nearly level dash left or right of the digit, its end reaching into the digit's box."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    length = rng.uniform(0.3, 0.9) * w
    inside = rng.uniform(0.0, 0.3) * w
    y = rng.uniform(y0 + 0.2 * h, y1 - 0.2 * h)
    tilt = math.tan(math.radians(rng.uniform(-12.0, 12.0))) * length
    if rng.random() < 0.5:
        start, end = (x0 + inside - length, y - tilt / 2), (x0 + inside, y + tilt / 2)
    else:
        start, end = (x1 - inside, y - tilt / 2), (x1 - inside + length, y + tilt / 2)
    _line(rng, canvas, start, end, int(rng.integers(2, 7)))


def _photograph(rng: Rng, canvas: Image, box: tuple[int, int, int, int], *, extra: bool = False
                ) -> npt.NDArray[np.uint8]:
    """Cut the segmenter's box out of `canvas` as a phone would see it: small, blurred, noisy, JPEG;
    with `extra`, now and then shaken too."""
    x0, y0, x1, y1 = box
    height = max(y1 - y0, 4)
    target = math.exp(rng.uniform(math.log(12.0), math.log(48.0)))  # the digit's height on the photo
    factor = min(target / height, 1.0)
    margin = 6
    region = canvas[max(y0 - margin, 0): y1 + margin, max(x0 - margin, 0): x1 + margin]
    ox, oy = x0 - max(x0 - margin, 0), y0 - max(y0 - margin, 0)
    size = (max(1, round(region.shape[1] * factor)), max(1, round(region.shape[0] * factor)))
    small = cv2.resize(region, size, interpolation=cv2.INTER_AREA)
    if extra and rng.random() < SHAKE_SHARE:
        small = _shake(rng, small, height * factor)
    if rng.random() < 0.6:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 1.1))
    peak = rng.uniform(0.35, 1.0) * 255.0
    gamma = math.exp(rng.uniform(-0.5, 0.5))
    small = peak * np.power(np.clip(small / 255.0, 0.0, 1.0), gamma)
    if rng.random() < 0.3:
        small = small + rng.uniform(0.0, 15.0)  # paper not quite removed by the ink stage
    if rng.random() < 0.5:
        small = small + rng.normal(0.0, rng.uniform(1.0, 8.0), small.shape)
    pixels = np.clip(np.rint(small), 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        ok, data = cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 91))])
        if ok:
            pixels = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
    bx0, by0 = round(ox * factor), round(oy * factor)
    bx1, by1 = round((ox + x1 - x0) * factor), round((oy + y1 - y0) * factor)
    crop: npt.NDArray[np.uint8] = pixels[by0: max(by1, by0 + 1), bx0: max(bx1, bx0 + 1)]
    return crop


def _jitter(rng: Rng, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The segmenter's box: the digit's ink box, a little too big or a little too small on each side."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if rng.random() < 0.4:
        return box
    x0 = round(x0 - rng.uniform(-0.06, 0.2) * w)
    x1 = round(x1 + rng.uniform(-0.06, 0.2) * w)
    y0 = round(y0 - rng.uniform(-0.04, 0.12) * h)
    y1 = round(y1 + rng.uniform(-0.04, 0.12) * h)
    return max(x0, 0), max(y0, 0), min(max(x1, x0 + 2), CANVAS), min(max(y1, y0 + 2), CANVAS)


def augment_digit(rng: Rng, digit: npt.NDArray[np.uint8], pool: npt.NDArray[np.uint8], *,
                  extra: bool = False) -> Image:
    """One photo-like training crop of `digit`, normalised to the network's 28×28 input; `extra`: with
    the shake and dash augmentations too."""
    if rng.random() < CLEAN_SHARE:
        return normalise_digit(digit)
    c = CANVAS / 2
    canvas = _place_digit(rng, digit, (c, c))
    box = _ink_box(canvas)
    if box is None:
        return normalise_digit(digit)
    x0, y0, x1, y1 = box
    if rng.random() < 0.35:  # a neighbour digit touching or overlapping the crop's left or right edge
        other = _place_digit(rng, pool[rng.integers(len(pool))], (c, c))
        obox = _ink_box(other)
        if obox is not None:
            gap = rng.uniform(-0.3, 0.15) * (x1 - x0)
            dx = x0 - gap - obox[2] if rng.random() < 0.5 else x1 + gap - obox[0]  # left or right
            dy = rng.uniform(-0.1, 0.1) * (y1 - y0)
            other = cv2.warpAffine(other, np.array([[1.0, 0, dx], [0, 1.0, dy]]), (CANVAS, CANVAS))
            canvas = np.maximum(canvas, other)
    if rng.random() < 0.3:
        _ruled_line(rng, canvas, box)
    if rng.random() < 0.15:
        _dots(rng, canvas, int(rng.integers(1, 3)))
    if extra and rng.random() < DASH_SHARE:
        _dash(rng, canvas, box)
    return normalise_digit(_photograph(rng, canvas, _jitter(rng, box), extra=extra))


def _sideways_digit(rng: Rng, images: npt.NDArray[np.uint8], labels: npt.NDArray[np.int64]) -> Image:
    """A digit turned a quarter: what a recogniser sees when the segmenter tries the wrong angle."""
    index = int(rng.integers(len(images)))
    while labels[index] in SIDEWAYS_LOOK_ALIKE:
        index = int(rng.integers(len(images)))
    turned = np.ascontiguousarray(np.rot90(images[index], 1 if rng.random() < 0.5 else 3))
    canvas = _place_digit(rng, turned, (CANVAS / 2, CANVAS / 2))
    box = _ink_box(canvas)
    if box is None:
        return np.zeros((SIZE, SIZE), np.float32)
    return normalise_digit(_photograph(rng, canvas, _jitter(rng, box)))


def augment_noise(rng: Rng, sideways: tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]] | None = None
                  ) -> Image:
    """One "not a digit" crop: a dot or blob, a dash, a crossing of lines, or a speck of nothing; with
    `sideways` (digits and labels), also digits turned a quarter."""
    if sideways is not None and rng.random() < SIDEWAYS_SHARE:
        return _sideways_digit(rng, *sideways)
    canvas = np.zeros((CANVAS, CANVAS), np.float32)
    c = CANVAS / 2
    kind = rng.integers(0, 5)
    if kind == 0:  # a dot or a blob of ink
        radius = rng.uniform(2.0, 12.0)
        axes = (round(radius * 4), round(radius * rng.uniform(0.5, 1.0) * 4))
        cv2.ellipse(canvas, (round(c * 4), round(c * 4)), axes, rng.uniform(0, 180), 0, 360,
                    rng.uniform(0.5, 1.0) * 255.0, -1, cv2.LINE_AA, shift=2)
    elif kind == 1:  # a dash or a piece of line; never near vertical, where it would be a "1"
        angle = math.radians(rng.uniform(-35.0, 35.0))
        half = rng.uniform(8.0, 40.0)
        dx, dy = half * math.cos(angle), half * math.sin(angle)
        _line(rng, canvas, (c - dx, c - dy), (c + dx, c + dy), int(rng.integers(2, 9)))
    elif kind == 2:  # two lines crossing (+ or ×)
        base = rng.uniform(0, 90)
        for angle in (base, base + 90 + rng.uniform(-15, 15)):
            half = rng.uniform(15.0, 40.0)
            dx, dy = half * math.cos(math.radians(angle)), half * math.sin(math.radians(angle))
            _line(rng, canvas, (c - dx, c - dy), (c + dx, c + dy), int(rng.integers(2, 7)))
    elif kind == 3:  # a few specks
        _dots(rng, canvas, int(rng.integers(1, 4)))
    else:  # nothing but paper grain
        canvas += np.abs(rng.normal(0.0, rng.uniform(2.0, 10.0), canvas.shape)).astype(np.float32)
        return normalise_digit(np.clip(canvas[40:88, 48:80], 0, 255).astype(np.uint8))
    box = _ink_box(canvas)
    if box is None:
        return np.zeros((SIZE, SIZE), np.float32)
    return normalise_digit(_photograph(rng, canvas, _jitter(rng, box)))


def make_batch(seed: int | tuple[int, ...], images: npt.NDArray[np.uint8], labels: npt.NDArray[np.int64],
               indices: npt.NDArray[np.int64], *, sideways: bool = False, extra: bool = False
               ) -> tuple[torch.Tensor, torch.Tensor]:
    """A batch for `indices` (digits) plus its share of noise crops, fully determined by `seed`;
    `sideways`: some noise crops are digits turned a quarter; `extra`: the digits' shake and dash."""
    rng = np.random.default_rng(seed)
    noise = round(len(indices) * NOISE_SHARE / (1.0 - NOISE_SHARE))
    x = np.zeros((len(indices) + noise, 1, SIZE, SIZE), np.float32)
    y = np.full(len(indices) + noise, NOISE_CLASS, np.int64)
    for row, index in enumerate(indices):
        x[row, 0] = augment_digit(rng, images[index], images, extra=extra)
        y[row] = labels[index]
    for row in range(len(indices), len(indices) + noise):
        x[row, 0] = augment_noise(rng, (images, labels) if sideways else None)
    return torch.from_numpy(x), torch.from_numpy(y)


Pipeline = tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]] | tuple[
    npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[np.float32]]
"""The segmenter's crops and their labels, and optionally a teacher's logits for them."""


class Batches(torch.utils.data.Dataset[tuple[torch.Tensor, ...]]):
    """Epoch `epoch`'s batches; each is made from its own seed, so workers do not change the result."""

    def __init__(self, seed: int, images: npt.NDArray[np.uint8], labels: npt.NDArray[np.int64], epoch: int,
                 limit: int | None, sideways: bool = False,
                 pipeline: Pipeline | None = None, extra: bool = False) -> None:
        self.seed = seed
        self.extra = extra
        self.images, self.labels = images, labels
        self.sideways = sideways
        self.pipeline = pipeline
        self.order = np.random.default_rng((seed, epoch)).permutation(len(labels))
        self.epoch = epoch
        count = math.ceil(len(labels) / BATCH)
        self.count = count if limit is None else min(count, limit)

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int) -> tuple[torch.Tensor, ...]:
        chosen = self.order[index * BATCH: (index + 1) * BATCH]
        x, y = make_batch((self.seed, self.epoch, index), self.images, self.labels, chosen,
                          sideways=self.sideways, extra=self.extra)
        if self.pipeline is None:
            return x, y
        crops, labels, *taught = self.pipeline
        picked = np.random.default_rng((self.seed, self.epoch, index, 3)).integers(
            0, len(labels), PIPELINE_PER_BATCH)
        return (torch.cat([x, torch.from_numpy(crops[picked])]),
                torch.cat([y, torch.from_numpy(labels[picked])]),
                *(torch.from_numpy(t[picked]) for t in taught))


# ---------------------------------------------------------------------------------------------------
# Training, calibration, export
# ---------------------------------------------------------------------------------------------------


def conv_block(cin: int, cout: int, kernel: int = 3) -> list[nn.Module]:
    """Convolution (no bias), batch norm, ReLU: the networks' building block."""
    return [nn.Conv2d(cin, cout, kernel, padding=kernel // 2, bias=False), nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True)]


class DigitNet(nn.Module):
    """A small VGG-like CNN: 28×28 → 11 logits (digits 0–9 and "not a digit"): the script's
    `features` (ending flattened, 64 channels at 7×7), dropout, one linear layer."""

    def __init__(self, features: nn.Sequential) -> None:
        super().__init__()
        self.features = features
        self.dropout = nn.Dropout(0.3)
        self.classify = nn.Linear(64 * 7 * 7, 11)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classify(self.dropout(self.features(x)))


def load_export(model: DigitNet, path: Path, temperature: float) -> None:
    """Put the weights of a model of the same design that a training script exported (`digits.onnx`,
    its fitted `temperature` folded into the last layer) back into `model`.

    The exporter fused each batch norm into its convolution, so the batch norms become plain affine
    layers (mean 0, variance 1, scale 1, shift = the fused bias): a run that starts from an export keeps
    them frozen (any phase but "train"). A shipped file with 16-bit weights loads as well.
    """
    import onnx  # only needed for a warm start
    from onnx import numpy_helper

    # A shipped file (tools/ensemble_digits.py) stores each weight as 16-bit `NAME_h`, cast back to NAME.
    weights = {i.name.removesuffix("_h"): numpy_helper.to_array(i).astype(np.float32)
               for i in onnx.load(str(path)).graph.initializer}
    convs = [m for m in model.features if isinstance(m, nn.Conv2d)]
    norms = [m for m in model.features if isinstance(m, nn.BatchNorm2d)]
    fused = [weights[n] for n in weights if n.startswith("onnx::Conv_")]
    with torch.no_grad():
        for conv, norm, (weight, bias) in zip(convs, norms, zip(fused[::2], fused[1::2], strict=True),
                                              strict=True):
            conv.weight.copy_(torch.from_numpy(np.array(weight)))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(np.array(bias)))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        model.classify.weight.copy_(torch.from_numpy(np.array(weights["classify.weight"])) * temperature)
        model.classify.bias.copy_(torch.from_numpy(np.array(weights["classify.bias"])) * temperature)


def logits_of(model: nn.Module, x: npt.NDArray[np.float32]) -> torch.Tensor:
    model.eval()
    with torch.no_grad():
        return torch.cat([model(torch.from_numpy(x[i: i + 1000])) for i in range(0, len(x), 1000)])


def fixed_set(seed: int, images: npt.NDArray[np.uint8], labels: npt.NDArray[np.int64],
               count: int, *, sideways: bool = False
               ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """A fixed, augmented set (digits and noise crops) to watch and calibrate the model on."""
    xs, ys = [], []
    for start in range(0, count, 500):
        x, y = make_batch(seed + start, images, labels, np.arange(start, min(start + 500, count)),
                          sideways=sideways)
        xs.append(x.numpy())
        ys.append(y.numpy())
    return np.concatenate(xs), np.concatenate(ys)


def clean_inputs(images: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    return np.stack([normalise_digit(image) for image in images])[:, None]


def accuracy(logits: torch.Tensor, labels: npt.NDArray[np.int64]) -> float:
    return float((logits.argmax(1).numpy() == labels).mean())


def fit_temperature(logits: torch.Tensor, labels: npt.NDArray[np.int64]) -> float:
    """The softmax temperature that minimises the negative log-likelihood on held-out crops."""
    target = torch.from_numpy(labels)
    best, best_loss = 1.0, math.inf
    for t in np.exp(np.linspace(math.log(0.5), math.log(4.0), 61)):
        loss = float(F.cross_entropy(logits / float(t), target))
        if loss < best_loss:
            best, best_loss = float(t), loss
    return best


def export(model: DigitNet, temperature: float, path: Path) -> None:
    """Write the model with the temperature folded into its last layer (logits out, softmax at runtime)."""
    model.eval()
    with torch.no_grad():
        model.classify.weight /= temperature
        model.classify.bias /= temperature
    dummy = torch.zeros(4, 1, SIZE, SIZE)
    torch.onnx.export(model, (dummy,), str(path), input_names=["input"], output_names=["logits"],
                      dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}}, opset_version=13,
                      dynamo=False)


def with_held_out(model: nn.Module, dev: tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]],
                  held: tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]], record: dict[str, object]
                  ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """The temperature's `dev` crops with the held-out pipeline crops `held` added, once the model's
    accuracy on those (all 11 classes) is printed and put in the pipeline's `record`."""
    held_x, held_y = held
    held_acc = accuracy(logits_of(model, held_x), held_y)
    record["held_out_accuracy"] = held_acc
    print(f"held-out pipeline crops: accuracy {held_acc:.4f} (all 11 classes)", flush=True)
    return np.concatenate([dev[0], held_x]), np.concatenate([dev[1], held_y])


def calibrate_and_export(model: DigitNet, dev: tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]],
                         out: Path, check: npt.NDArray[np.float32]) -> tuple[float, Path, float]:
    """Fit the temperature on the held-out `dev` crops, export `model` to `out`/MODEL_NAME with it folded
    in, and check that cv2.dnn reproduces torch's logits on `check` (stops if not): the temperature,
    the file and the largest logit difference."""
    temperature = fit_temperature(logits_of(model, dev[0]), dev[1])
    print(f"temperature {temperature:.3f} (fitted on {len(dev[1])} held-out crops)")
    out.mkdir(parents=True, exist_ok=True)
    path = out / MODEL_NAME
    export(model, temperature, path)
    difference = check_with_cv2(model, path, check)
    print(f"cv2.dnn vs torch, largest logit difference: {difference:.2e}")
    if difference > 1e-3:
        raise SystemExit("cv2.dnn does not reproduce the torch model")
    return temperature, path, difference


def check_with_cv2(model: nn.Module, path: Path, x: npt.NDArray[np.float32]) -> float:
    """Largest difference between torch's and cv2.dnn's logits on a batch (must be ~1e-5)."""
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(x)
    ours = net.forward()
    theirs = logits_of(model, x).numpy()
    return float(np.abs(ours - theirs).max())


Watched = tuple[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[np.float32],
                npt.NDArray[np.int64]]  # validation: clean inputs, labels; photo-like inputs, labels


@dataclass(frozen=True)
class Data:
    """What a run learns from and watches: MNIST `train` less its last DEV_SIZE digits, those held out
    to fit the temperature, and the `validation` digits clean and photo-like."""

    images: npt.NDArray[np.uint8]
    labels: npt.NDArray[np.int64]
    dev_images: npt.NDArray[np.uint8]
    dev_labels: npt.NDArray[np.int64]
    watched: Watched


def start_run(seed: int, quick: bool) -> Data:
    """Seed torch, set the threads, and load the run's data (a quick run watches 1,000 validation digits)."""
    torch.manual_seed(seed)
    torch.set_num_threads(THREADS)
    cv2.setNumThreads(1)
    train = load_mnist("train")
    validation = load_mnist("validation")
    watch = 1000 if quick else len(validation)
    val_photo, val_photo_labels = fixed_set(seed + 1, validation.images, validation.labels, watch)
    watched = (clean_inputs(validation.images[:watch]), validation.labels[:watch], val_photo,
               val_photo_labels)
    return Data(train.images[:-DEV_SIZE], train.labels[:-DEV_SIZE], train.images[-DEV_SIZE:],
                train.labels[-DEV_SIZE:], watched)


Schedule = Callable[[torch.optim.Optimizer, int], torch.optim.lr_scheduler.LRScheduler]


class Teacher:
    """A trained model (an exported ONNX file, e.g. the shipped pair) whose logits a new network learns
    to match on the segmenter's crops: it reads them once, in cv2.dnn as the runtime does."""

    def __init__(self, path: Path) -> None:
        self.net = cv2.dnn.readNetFromONNX(str(path))

    def logits(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The teacher's logits for N×1×28×28 inputs."""
        cv2.setNumThreads(THREADS)
        out = []
        for start in range(0, len(x), 1000):
            self.net.setInput(np.ascontiguousarray(x[start: start + 1000]))
            out.append(np.array(self.net.forward(), np.float32))
        cv2.setNumThreads(1)
        return np.concatenate(out)


def distil_loss(out: torch.Tensor, y: torch.Tensor, taught: torch.Tensor) -> torch.Tensor:
    """The batch's loss when its last len(taught) rows (the segmenter's crops) have a teacher's logits:
    cross-entropy for the other rows; for those, knowledge distillation, (1 − DISTIL_WEIGHT) ×
    cross-entropy + DISTIL_WEIGHT × the KL divergence from the teacher at DISTIL_TEMPERATURE (scaled by
    its square so its gradients keep their size)."""
    t = DISTIL_TEMPERATURE
    split = len(y) - len(taught)
    hard = F.cross_entropy(out, y, reduction="none")
    match = F.kl_div(F.log_softmax(out[split:] / t, 1), F.log_softmax(taught / t, 1), log_target=True,
                     reduction="none").sum(1)
    taught_rows = (1.0 - DISTIL_WEIGHT) * hard[split:] + DISTIL_WEIGHT * t * t * match
    return (hard[:split].sum() + taught_rows.sum()) / len(y)


def run_epochs(model: nn.Module, seed: int, phase: str, first: int, count: int, sideways: bool,
               schedule_of: Schedule, learning_rate: float,
               data: tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]], watch: Watched,
               args: argparse.Namespace, started: float, history: list[dict[str, object]],
               pipeline: Pipeline | None = None) -> None:
    """Train `count` epochs (numbered from `first`, which picks their batches' seeds); `sideways`: the
    noise crops include digits turned a quarter; in any phase but "train" the batch norms stay frozen;
    when the `pipeline` crops come with a teacher's logits, the loss is `distil_loss`."""
    images, labels = data
    val_clean, val_labels, val_photo, val_photo_labels = watch
    limit = 8 if args.quick else None
    optimiser = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=WEIGHT_DECAY)
    schedule = schedule_of(optimiser, count * len(Batches(seed, images, labels, 0, limit)))
    for epoch in range(first, first + count):
        model.train()
        if phase != "train":  # batch norms keep their statistics: small batches would only add noise
            for module in model.modules():
                if isinstance(module, nn.BatchNorm2d):
                    module.eval()
        batches = Batches(seed, images, labels, epoch, limit, sideways=sideways, pipeline=pipeline,
                          extra=getattr(args, "extra", False))
        loader = torch.utils.data.DataLoader(batches, batch_size=None,
                                             shuffle=False, num_workers=args.workers)
        total, seen, correct = 0.0, 0, 0
        for x, y, *taught in loader:
            optimiser.zero_grad()
            out = model(x)
            loss = distil_loss(out, y, taught[0]) if taught else F.cross_entropy(out, y)
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(y)
            seen += len(y)
            correct += int((out.argmax(1) == y).sum())
        clean_acc = accuracy(logits_of(model, val_clean)[:, :10], val_labels)
        photo_acc = accuracy(logits_of(model, val_photo), val_photo_labels)
        row = {"phase": phase, "epoch": epoch + 1, "train_loss": total / seen,
               "train_accuracy": correct / seen,
               "validation_clean_accuracy": clean_acc, "validation_photo_accuracy": photo_acc,
               "minutes": (time.perf_counter() - started) / 60}
        history.append(row)
        print(f"{phase} epoch {epoch + 1:2d}  train loss {total / seen:.4f}  train acc {correct / seen:.4f}  "
              f"VALIDATION clean {clean_acc:.4f}  photo-like {photo_acc:.4f}  "
              f"({(time.perf_counter() - started) / 60:.1f} min)", flush=True)


def load_pipeline_crops(model: nn.Module | None, paths: list[Path], keep_noise: float = 0.0) -> tuple[
        npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[np.float32], npt.NDArray[np.int64],
        dict[str, object]]:
    """The segmenter's crops (tools/pipeline_crops.py) to train on, and the held-out last share of each
    file to fit the temperature on. "Not a digit" pieces are left out unless `keep_noise` (the share of
    them trained on, picked by chance with a fixed seed; all of them are held out), and then still
    those the starting model takes for a "1" (a thin stroke cut off a wider digit looks just like a
    written 1).

    Without `keep_noise` the held-out share is the last tenth of each file's digits (as the earlier
    runs had it); with it, the last tenth of the file's rows, digits and noise pieces alike, so that
    `tools/held_out_crops.py` can check any model on the same rows, which no run trained on."""
    train_x, train_y, held_x, held_y = [], [], [], []
    dropped = left_by_share = 0
    for number, path in enumerate(paths):
        data = np.load(path)
        x = data["x"].astype(np.float32)[:, None] / 255.0
        y = data["y"].astype(np.int64)
        dropped_noise = y == NOISE_CLASS
        if keep_noise and model is not None:  # the model is asked only when its answer matters
            dropped_noise &= torch.softmax(logits_of(model, x), 1).numpy()[:, 1] > ONE_LIKE
        keep = ~dropped_noise
        dropped += int((~keep).sum())
        if keep_noise:  # held out by the row's place in the file, whatever was dropped
            held = np.arange(len(y)) >= held_out_start(len(y))
            # All the noise pieces weigh too much: tuned on every one, the network read 2.4 % of the
            # spoiled digits as "not a digit" (tools/README.md); a share of them is trained on.
            by_share = (y == NOISE_CLASS) & (np.random.default_rng((NOISE_PICK_SEED, number)).random(len(y))
                                             >= keep_noise)
            left_by_share += int((keep & ~held & by_share).sum())
            train_x.append(x[keep & ~held & ~by_share])
            train_y.append(y[keep & ~held & ~by_share])
            held_x.append(x[keep & held])
            held_y.append(y[keep & held])
            continue
        x, y = x[keep], y[keep]
        cut = round(len(y) * (1.0 - PIPELINE_HELD_OUT))
        train_x.append(x[:cut])
        train_y.append(y[:cut])
        held_x.append(x[cut:])
        held_y.append(y[cut:])
    crops, labels = np.concatenate(train_x), np.concatenate(train_y)
    record: dict[str, object] = {
        "files": [p.name for p in paths], "train_crops": len(labels), "held_out_crops": sum(map(len, held_y)),
        "per_class": np.bincount(labels, minlength=NOISE_CLASS + 1).tolist(), "noise_dropped": dropped,
        "noise_kept": keep_noise, "noise_left_out_by_share": left_by_share,
        "made_by": "tools/pipeline_crops.py (MNIST train writers only)",
    }
    print(f"pipeline crops: {len(labels)} to train on, {record['held_out_crops']} held out, "
          f"{dropped} noise pieces dropped, {left_by_share} more left out by share; "
          f"per class {record['per_class']}", flush=True)
    return crops, labels, np.concatenate(held_x), np.concatenate(held_y), record
