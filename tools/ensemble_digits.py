"""Ship digit networks made by the training scripts as the recogniser's pair of model files.

    /work/trainvenv/bin/python tools/ensemble_digits.py FIRST.onnx SECOND.onnx -o sheetscan/vision/models
    /work/trainvenv/bin/python tools/ensemble_digits.py FIRST.onnx --keep-second -o sheetscan/vision/models

writes `digits_first.onnx` and `digits_second.onnx` (and `digits.json`, both networks' records) into
the folder. The runtime (`sheetscan/vision/_cnn.py`) reads every crop with the first network and, for
the crops it is not sure of, with the second too: their reading is the mean of the two networks'
log-probabilities (the normalised geometric mean of their probabilities). Networks of different designs
make different mistakes, so together they misread fewer digits than either alone; the first should be
the faster one.

The weights are stored as 16-bit floats and cast to 32-bit in the graph, which keeps both networks
within the 1 MB the issue allows for the model; the logits move by a few thousandths (printed).
`--keep-second` replaces the first network only: the folder's `digits_second.onnx` and its record in
`digits.json` stay as they are (the product reads with the first alone, `_cnn.MODEL_PATHS`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import cv2
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

MAX_BYTES = 1_000_000  # the ONNX file's limit (issue 5)


def half(path: Path) -> onnx.ModelProto:
    """The network in `path` with its weights stored as 16-bit floats (`NAME_h`), each cast back to
    32-bit under its own name in the graph before the network's nodes, which are kept as they are."""
    model = onnx.load(str(path))
    nodes, initializers = [], []
    for init in model.graph.initializer:
        stored = numpy_helper.from_array(numpy_helper.to_array(init).astype(np.float16), f"{init.name}_h")
        initializers.append(stored)
        nodes.append(helper.make_node("Cast", [stored.name], [init.name], to=TensorProto.FLOAT))
    nodes += list(model.graph.node)
    graph = helper.make_graph(nodes, "digits", list(model.graph.input), list(model.graph.output),
                              initializers)
    stored_model = helper.make_model(graph, opset_imports=list(model.opset_import))
    stored_model.ir_version = model.ir_version
    onnx.checker.check_model(stored_model)
    return stored_model


def _check(path: Path, out: Path) -> float:
    """The largest difference between the 16-bit file's logits in cv2.dnn and the 32-bit network's."""
    blob = np.random.default_rng(0).random((64, 1, 28, 28), dtype=np.float32)
    logits = []
    for model in (path, out):
        net = cv2.dnn.readNetFromONNX(str(model))
        net.setInput(blob)
        logits.append(np.asarray(net.forward(), np.float64))
    return float(np.abs(logits[0] - logits[1]).max())


def _member_record(path: Path) -> dict[str, object]:
    """A member network's training record (the `digits.json` beside it), with its file's checksum."""
    meta = path.parent / "digits.json"
    record: dict[str, object] = json.loads(meta.read_text(encoding="utf-8")) if meta.is_file() else {}
    record["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return record


NAMES = ("digits_first.onnx", "digits_second.onnx")  # the names sheetscan/vision/_cnn.py loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", type=Path, nargs="+", metavar="ONNX",
                        help="the network read for every crop, then the one read for unsure crops")
    parser.add_argument("-o", "--out", type=Path, required=True, metavar="DIR")
    parser.add_argument("--keep-second", action="store_true",
                        help="one network given: it replaces the first; the folder's second stays")
    args = parser.parse_args()
    if len(args.models) != (1 if args.keep_second else 2):
        parser.error("give two networks, or one with --keep-second")
    args.out.mkdir(parents=True, exist_ok=True)
    files = []
    kept: list[dict[str, object]] = []
    command = [str(path) for path in args.models]
    if args.keep_second:
        earlier = json.loads((args.out / "digits.json").read_text(encoding="utf-8"))
        kept = [earlier["models"][1]]
        second = (args.out / NAMES[1]).read_bytes()
        if hashlib.sha256(second).hexdigest() != kept[0]["sha256"]:
            raise SystemExit(f"{args.out / NAMES[1]} is not the file its digits.json records")
        command = [*command, "--keep-second", f"(second: {earlier['command']})"]
    for path, name in zip(args.models, NAMES, strict=False):
        out = args.out / name
        onnx.save(half(path), str(out))
        difference = _check(path, out)
        print(f"{out}: {out.stat().st_size} bytes; cv2.dnn logits within {difference:.2e} of the 32-bit "
              "network's")
        data = out.read_bytes()
        files.append({"model": name, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data),
                      "cv2_max_logit_difference": difference, "network": _member_record(path)})
    files += kept
    size = sum(int(f["bytes"]) for f in files)  # type: ignore[call-overload]
    if size > MAX_BYTES:
        raise SystemExit(f"the two files are {size} bytes, over the {MAX_BYTES} allowed")
    record = {
        "models": files, "bytes": size,
        "classes": [str(d) for d in range(10)] + ["noise"],
        "input": "N×1×28×28 float32, 0 = paper, 1 = ink, from sheetscan.vision._digit_norm.normalise_digit",
        "output": "N×11 logits each, the network's temperature folded in; softmax gives probabilities",
        "combined": "the first network for every crop; for the crops it is not sure of, the mean of both "
                    "networks' log-softmax (the normalised geometric mean of their probabilities)",
        "weights": "float16, cast to float32 in the graph",
        "command": "tools/ensemble_digits.py " + " ".join(command),
    }
    (args.out / "digits.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {', '.join(NAMES)} ({size} bytes together) and digits.json into {args.out}")


if __name__ == "__main__":
    main()
