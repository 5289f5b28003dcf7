"""Benchmark of the working resolution: bench_scan's photos read with the sheet rectified to several
long sides, in one process, each photo at every side in turn.

    .venv/bin/python bench/bench_resolution.py [--photos 24] [--seed 1000] [--sides 2000,1600,1400]

The first side is the baseline (the product's `RECTIFIED_LONG_SIDE`): every row gives its accuracy
(bench_scan's scoring) and its CPU seconds a photo (both threads of `scan()`, which wall time on a
shared machine hides) with the ratio to the baseline's. It answers one question: how much of the
reading's work shrinks with the sheet's pixels, and what a smaller sheet costs in accuracy, as long
as the stages' settings stay as they are (many are in pixels).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_scan import Tally, photos, run_one  # noqa: E402

from sheetscan.vision import sheet  # noqa: E402
from sheetscan.vision.recognise import find_recognizer  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Render, scan at each side, score, print the markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=int, default=24, help="photos (default 24)")
    parser.add_argument("--seed", type=int, default=1000, help="first render seed (default 1000)")
    parser.add_argument("--sides", default=f"{sheet.RECTIFIED_LONG_SIDE},1600,1400",
                        help="rectified long sides in pixels, the baseline first (default %(default)s)")
    args = parser.parse_args(argv)
    sides = [int(side) for side in args.sides.split(",")]

    shots = photos(args.photos, args.seed)
    cnn = find_recognizer("cnn")
    tallies = {side: Tally() for side in sides}
    cpu: Counter[int] = Counter()
    shipped = sheet.RECTIFIED_LONG_SIDE
    try:
        for name, data, truth in shots:
            for side in sides:
                # `find_sheet` reads the module's constant when it rectifies: set for this one scan.
                sheet.RECTIFIED_LONG_SIDE = side
                start = time.process_time()
                run_one(cnn, data, truth, tallies[side])
                cpu[side] += time.process_time() - start
            print(f"  {name}: " + ", ".join(f"{side} {tallies[side].seconds[-1]:.2f} s" for side in sides),
                  file=sys.stderr)
    finally:
        sheet.RECTIFIED_LONG_SIDE = shipped

    base = cpu[sides[0]] / len(shots)
    print(f"{len(shots)} rendered 12 MP photos (seed {args.seed}), each read at every side in turn\n")
    print("| long side | digits | numbers | zone final values | unsure (< 0.9) | CPU s / photo "
          "| × baseline |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for side in sides:
        # Tally.row's columns after its photo count, less its wall-time ones.
        columns = tallies[side].row(str(side), 1.0).split(" | ")[2:6]
        seconds = cpu[side] / len(shots)
        print(f"| {side} px | " + " | ".join(columns) + f" | {seconds:.2f} s | {seconds / base:.2f} |")
    for side in sides:
        errors = tallies[side].errors
        print(f"\n{side} px errors: " + ", ".join(f"{k} {v}" for k, v in errors.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
