"""Stages 4–7 on the truth's zones with two sets of digit networks, on the same photos in one process.

    .venv/bin/python tools/compare_recognisers.py --model NEW.onnx [NEW2.onnx] \
        [--against OLD.onnx [OLD2.onnx]] [--seeds 1000 2000 3000 4000] [--photos 12]

The photo-level check of a new network (tools/README.md): bench_scan's photos of each seed (MNIST
validation/test writers), the ink and the number tokens found once per photo on the zones where the
truth file puts them (`bench_scan.run_stages`' shortcut), then read by each recogniser in turn, so the
two differ only in their networks. `--model` and `--against` each take one ONNX file, or the file read
for every crop and the one read for the crops it is not sure of (as `bench/bench_digits.py`); without
`--against` the shipped pair is the other side. Prints per photo and per seed: digits, numbers, zone
final values, the error kinds (misread digit, wrong digit count, not found, extra piece) and the number
stage's seconds per photo.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
from bench_scan import Tally, photos, score  # noqa: E402

from sheetscan.vision._scan_json import _number_json  # noqa: E402
from sheetscan.vision.ink import find_ink  # noqa: E402
from sheetscan.vision.numbers import find_numbers, read_numbers  # noqa: E402
from sheetscan.vision.photo import load_photo  # noqa: E402
from sheetscan.vision.recognise import MODEL_PATHS, CnnRecognizer  # noqa: E402
from tests.vision._truth_zones import truth_zones  # noqa: E402

ERRORS = ("misread digit", "wrong digit count", "not found", "extra piece of a number")


def _share(right: int, total: int) -> str:
    return f"{100.0 * right / total:6.2f}" if total else "   -  "


def summary(tally: Tally) -> str:
    """Digits, numbers and zone final values (%), the error counts and seconds per photo of `tally`."""
    errors = " ".join(f"{kind.split()[0]} {tally.errors[kind]}" for kind in ERRORS)
    seconds = sum(tally.seconds) / max(len(tally.seconds), 1)
    return (f"digits {_share(tally.digits_right, tally.digits)} "
            f"numbers {_share(tally.numbers_right, tally.numbers)} "
            f"zones {_share(tally.zones_right, tally.zones)} | {errors} | {seconds:.2f} s")


def compare(seed: int, count: int, recognisers: dict[str, CnnRecognizer]) -> dict[str, Tally]:
    """Each recogniser's tally over `count` bench photos from `seed`, printing a line per photo."""
    tallies = {name: Tally() for name in recognisers}
    for recogniser in recognisers.values():  # the networks load outside the timing
        recogniser.read_digits([np.full((20, 12), 255, np.uint8)] * 2)
    for index, (name, data, truth) in enumerate(photos(count, seed)):
        zones = truth_zones(load_photo(data).image, truth)
        tokens = find_numbers(find_ink(zones.image, line_mask=zones.line_mask), zones)
        # Each side goes first on every other photo: the first reading of a photo warms the caches.
        order = list(recognisers.items())
        for label, recogniser in order if index % 2 == 0 else order[::-1]:
            photo = Tally()
            start = time.perf_counter()
            read = {z.zone: z.numbers for z in read_numbers(tokens, recogniser).zones}
            seconds = time.perf_counter() - start
            result = {"zones": [{"numbers": [_number_json(n, zones.to_photo)
                                             for n in read.get(zone.index, ())]} for zone in zones.zones]}
            for tally in (photo, tallies[label]):
                score(truth, result, tally)
                tally.seconds.append(seconds)
            print(f"  {name} {label}: {summary(photo)}", flush=True)
    return tallies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, nargs="+", required=True, metavar="ONNX")
    parser.add_argument("--against", type=Path, nargs="+", default=list(MODEL_PATHS), metavar="ONNX")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1000, 2000, 3000, 4000])
    parser.add_argument("--photos", type=int, default=12, help="photos per seed (default 12)")
    args = parser.parse_args()
    recognisers = {"model": CnnRecognizer(args.model), "against": CnnRecognizer(args.against)}
    totals = {name: Tally() for name in recognisers}
    for seed in args.seeds:
        for name, tally in compare(seed, args.photos, recognisers).items():
            print(f"seed {seed} {name:7s}: {summary(tally)}", flush=True)
            total = totals[name]
            for field in ("digits", "digits_right", "numbers", "numbers_right", "zones", "zones_right"):
                setattr(total, field, getattr(total, field) + getattr(tally, field))
            total.errors.update(tally.errors)
            total.seconds.extend(tally.seconds)
    for name, total in totals.items():
        print(f"all     {name:7s}: {summary(total)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
