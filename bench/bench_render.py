"""Seconds per rendered photo (`sheetscan render`), against the floor of only encoding a 12 MP JPEG.

    .venv/bin/python bench/bench_render.py [--size 4000x3000] [--count 8]

Renders the sample games on every layout with different seeds (MNIST test digits), times each photo
(drawing, handwriting, photo effects) and its JPEG encoding, and prints the mean, the worst, and the
ratio to the floor: one JPEG encode of an image of the same size, measured in the same run. Goal: under
3 s a photo at 12 MP. The first call also loads MNIST; it is timed apart.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from sheetscan.layouts import LAYOUTS
from sheetscan.rules import read_game, replay, write_sheet
from sheetscan.vision.render import render_sheet

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="4000x3000")
    parser.add_argument("--count", type=int, default=8)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    sheets = {}
    for players in (3, 4):
        record = json.loads((SAMPLES / f"game-sochi-{players}p.json").read_text("utf-8"))
        sheets[players] = write_sheet(replay(read_game(record)))
    start = time.perf_counter()
    render_sheet(sheets[3], size=(400, 300))
    first = time.perf_counter() - start

    times: list[float] = []
    numbers = 0
    for i in range(args.count):
        layout = LAYOUTS[i % len(LAYOUTS)]
        start = time.perf_counter()
        rendered = render_sheet(sheets[layout.players], layout=layout, seed=1000 + i, size=(width, height))
        rendered.jpeg()
        times.append(time.perf_counter() - start)
        numbers += len(rendered.truth["numbers"])

    image = np.random.default_rng(0).integers(0, 256, (height, width, 3), dtype=np.uint8)
    image = cv2.GaussianBlur(image, (0, 0), 3)
    floors = []
    for _ in range(3):
        start = time.perf_counter()
        cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        floors.append(time.perf_counter() - start)
    floor = min(floors)
    mean = statistics.mean(times)
    print(f"photo size            {width} x {height}")
    print(f"first call (MNIST)    {first:.2f} s")
    print(f"photos rendered       {len(times)} ({numbers / len(times):.0f} numbers each on average)")
    print(f"seconds per photo     mean {mean:.2f}, worst {max(times):.2f}  (goal < 3)")
    print(f"floor: JPEG encode    {floor:.3f} s")
    print(f"ratio mean / floor    {mean / floor:.1f}")


if __name__ == "__main__":
    main()
