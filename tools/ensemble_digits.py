"""Join digit networks made by `train_digits.py` into one ONNX file that reads with all of them.

    /work/trainvenv/bin/python tools/ensemble_digits.py A.onnx B.onnx -o sheetscan/vision/models/digits.onnx

Each network's logits (its calibration temperature already folded in) become log-probabilities, and
the file's output is their mean: the normalised geometric mean of the networks' probabilities, which
`_cnn.py` reads exactly as it read one network's logits. Networks trained from different seeds make
different mistakes, so together they misread fewer digits than either alone.

The weights are stored as 16-bit floats and cast to 32-bit in the graph, which keeps two networks within
the 1 MB the issue allows for the model; the logits move by a few thousandths (printed).
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
INPUT, OUTPUT = "input", "logits"


def _member(model: onnx.ModelProto, prefix: str) -> tuple[list[onnx.NodeProto], list[onnx.TensorProto]]:
    """The nodes and 16-bit initializers of one network, every name prefixed; its output is
    `{prefix}logits`, its input the shared `input`."""
    graph = model.graph
    rename = {init.name: f"{prefix}{init.name}" for init in graph.initializer}
    nodes, initializers = [], []
    for init in graph.initializer:
        half = numpy_helper.to_array(init).astype(np.float16)
        stored = numpy_helper.from_array(half, f"{rename[init.name]}_h")
        initializers.append(stored)
        nodes.append(helper.make_node("Cast", [stored.name], [rename[init.name]], to=TensorProto.FLOAT))
    for node in graph.node:
        copy = onnx.NodeProto()
        copy.CopyFrom(node)
        copy.name = f"{prefix}{node.name}"
        for i, name in enumerate(copy.input):
            copy.input[i] = name if name == INPUT else rename.get(name, f"{prefix}{name}")
        for i, name in enumerate(copy.output):
            copy.output[i] = f"{prefix}{name}"
        nodes.append(copy)
    return nodes, initializers


def ensemble(paths: list[Path]) -> onnx.ModelProto:
    """One model whose `logits` are the mean of the networks' log-probabilities."""
    models = [onnx.load(str(path)) for path in paths]
    nodes: list[onnx.NodeProto] = []
    initializers: list[onnx.TensorProto] = []
    outputs = []
    for index, model in enumerate(models):
        prefix = f"m{index}_"
        member_nodes, member_inits = _member(model, prefix)
        nodes += member_nodes
        initializers += member_inits
        nodes.append(helper.make_node("LogSoftmax", [f"{prefix}{OUTPUT}"], [f"{prefix}logp"], axis=1))
        outputs.append(f"{prefix}logp")
    weight = numpy_helper.from_array(np.array([1.0 / len(models)], np.float32), "mean_weight")
    initializers.append(weight)
    nodes.append(helper.make_node("Sum", outputs, ["logp_sum"]))
    nodes.append(helper.make_node("Mul", ["logp_sum", weight.name], [OUTPUT]))
    first = models[0].graph
    graph = helper.make_graph(nodes, "digits_ensemble", list(first.input), list(first.output), initializers)
    model = helper.make_model(graph, opset_imports=list(models[0].opset_import))
    model.ir_version = models[0].ir_version
    onnx.checker.check_model(model)
    return model


def _check(paths: list[Path], out: Path) -> float:
    """The largest difference between the file's logits in cv2.dnn and the 32-bit networks' mean."""
    rng = np.random.default_rng(0)
    blob = rng.random((64, 1, 28, 28), dtype=np.float32)
    means = []
    for path in paths:
        net = cv2.dnn.readNetFromONNX(str(path))
        net.setInput(blob)
        logits = np.asarray(net.forward(), np.float64).reshape(len(blob), -1)
        logits -= logits.max(axis=1, keepdims=True)
        means.append(logits - np.log(np.exp(logits).sum(axis=1, keepdims=True)))
    expected = np.mean(means, axis=0)
    net = cv2.dnn.readNetFromONNX(str(out))
    net.setInput(blob)
    got = np.asarray(net.forward(), np.float64).reshape(len(blob), -1)
    return float(np.abs(got - expected).max())


def _member_record(path: Path) -> dict[str, object]:
    """A member network's training record (the `digits.json` beside it), with its file's checksum."""
    meta = path.parent / "digits.json"
    record: dict[str, object] = json.loads(meta.read_text(encoding="utf-8")) if meta.is_file() else {}
    record["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", type=Path, nargs="+", help="networks exported by train_digits.py")
    parser.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args()
    model = ensemble(args.models)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(args.out))
    size = args.out.stat().st_size
    if size > MAX_BYTES:
        raise SystemExit(f"{args.out} is {size} bytes, over the {MAX_BYTES} allowed")
    difference = _check(args.models, args.out)
    print(f"cv2.dnn: largest logit difference from the 32-bit networks' mean {difference:.2e}")
    data = args.out.read_bytes()
    record = {
        "model": args.out.name, "sha256": hashlib.sha256(data).hexdigest(), "bytes": size,
        "classes": [str(d) for d in range(10)] + ["noise"],
        "input": "N×1×28×28 float32, 0 = paper, 1 = ink, from sheetscan.vision._digit_norm.normalise_digit",
        "output": "N×11 logits: the mean of the members' log-probabilities; softmax gives probabilities",
        "combined": "mean of the members' log-softmax (the normalised geometric mean of their probabilities)",
        "weights": "float16, cast to float32 in the graph",
        "cv2_max_logit_difference": difference,
        "command": "tools/ensemble_digits.py " + " ".join(str(path) for path in args.models),
        "members": [_member_record(path) for path in args.models],
    }
    (args.out.parent / "digits.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({size} bytes) and digits.json")


if __name__ == "__main__":
    main()
