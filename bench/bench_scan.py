"""Benchmark of reading photos: accuracy and speed of `scan()`, CNN and Tesseract side by side.

    .venv/bin/python bench/bench_scan.py [--photos 12] [--tesseract-photos 3] [--small-photos 0] [--seed 0]

Photos come from `sheetscan.vision.render` (issue 4's renderer) with handwriting from MNIST's
validation and test parts only (never training), over the sample games of samples/, every layout
(hand-drawn standard-3/4, printed form-3/4), and whatever rotation, tilt (up to 35°), light, shadow,
blur, noise and JPEG quality each seed gives; 4000 × 3000 pixels (12 MP).

Figures, each against the renderer's truth file:
- digit accuracy: digits of written (not crossed-out) numbers read right; a number cut into the wrong
  number of digits, or not found, counts all its digits wrong;
- number accuracy: written numbers whose value is read right;
- zone final values: zones whose last (not crossed-out) value is read right — the figure that reaches
  the settlement; an empty zone read as empty counts as right;
- unsure: share of read numbers below the confidence threshold (they would be shown for review);
- in the error counts, read numbers that match no written one: "extra piece of a number" (it overlaps
  a written number another read matched) or "read where nothing is written"; and, counted in no
  accuracy above, a crossed-out number read as written or a written one read as crossed out;
- seconds per photo, and the floor: decoding and rectifying only (`load_photo` + `find_sheet`);
- the pulka target in the centre circle (printed after the table): read right, misread, or not read
  (below the reading's confidence bar: the sheet asks for it).

`--small-photos N` also reads the first N photos scaled to 3 MP (2000 × 1500, JPEG quality 85), as a
messenger or a web form sends them, with the truth scaled alike.

Numbers are matched to the truth by where they are (box overlap in photo pixels), so a standard-4
sheet, whose seat 0 a photo cannot tell (LAYOUT.md: it is symmetric), is scored by what was read where.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


import cv2  # noqa: E402
import numpy as np  # noqa: E402

from sheetscan.errors import SheetscanError  # noqa: E402
from sheetscan.vision._scan_json import _number_json  # noqa: E402
from sheetscan.vision.ink import find_ink  # noqa: E402
from sheetscan.vision.numbers import find_numbers, read_numbers  # noqa: E402
from sheetscan.vision.photo import load_photo  # noqa: E402
from sheetscan.vision.recognise import Recognizer, find_recognizer  # noqa: E402
from sheetscan.vision.render import render_sheet, sheet_or_game  # noqa: E402
from sheetscan.vision.scan import scan, scan_to_json  # noqa: E402
from sheetscan.vision.sheet import find_sheet  # noqa: E402
from tests.vision._boxes import box_of, overlap  # noqa: E402
from tests.vision._truth_zones import truth_zones  # noqa: E402

UNSURE = 0.9
"""Confidence below which a number counts as unsure (shown for review)."""
LAYOUTS = {3: ("standard-3", "form-3"), 4: ("standard-4", "form-4")}


@dataclass
class Tally:
    """Running totals of one recogniser's results."""

    digits: int = 0
    digits_right: int = 0
    numbers: int = 0
    numbers_right: int = 0
    zones: int = 0
    zones_right: int = 0
    read: int = 0
    unsure: int = 0
    seconds: list[float] = field(default_factory=list)
    failures: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    targets: int = 0
    targets_right: int = 0

    def row(self, name: str, floor: float) -> str:
        """One markdown table row."""
        def share(a: int, b: int) -> str:
            return f"{100.0 * a / b:.2f}%" if b else "—"
        mean = statistics.mean(self.seconds) if self.seconds else float("nan")
        return (f"| {name} | {len(self.seconds)} | {share(self.digits_right, self.digits)} | "
                f"{share(self.numbers_right, self.numbers)} | {share(self.zones_right, self.zones)} | "
                f"{share(self.unsure, self.read)} | {mean:.2f} s | {mean / floor:.1f}× |")


def _score_target(truth: dict[str, Any], result: dict[str, Any], tally: Tally) -> None:
    """The pulka target read in the circle (`layout.pulka_written`) against the one written there."""
    written = (truth.get("target") or {}).get("value")
    if written is None or "layout" not in result:
        return
    tally.targets += 1
    got = result["layout"].get("pulka_written")
    if got == written:
        tally.targets_right += 1
    else:
        tally.errors["pulka target misread" if got is not None else "pulka target not read"] += 1


def score(truth: dict[str, Any], result: dict[str, Any], tally: Tally) -> None:
    """Add one photo's reading to `tally`, checked against its truth file."""
    read = [(zi, ni, n) for zi, zone in enumerate(result["zones"]) for ni, n in enumerate(zone["numbers"])]
    boxes = [(n["bbox"][0], n["bbox"][1], n["bbox"][0] + n["bbox"][2], n["bbox"][1] + n["bbox"][3])
             for _, _, n in read]
    tally.read += sum(1 for _, _, n in read if not n["crossed_out"])
    tally.unsure += sum(1 for _, _, n in read if not n["crossed_out"] and n["confidence"] < UNSURE)
    # Greedy matching by overlap, best pairs first.
    pairs = []
    for ti, number in enumerate(truth["numbers"]):
        tb = box_of(number["quad"])
        for ri, rb in enumerate(boxes):
            shared = overlap(tb, rb)
            if shared >= 0.4:
                pairs.append((shared, ti, ri))
    pairs.sort(reverse=True)
    match: dict[int, int] = {}
    used: set[int] = set()
    for _, ti, ri in pairs:
        if ti not in match and ri not in used:
            match[ti] = ri
            used.add(ri)
    # Reads matched to no written number (they cost no accuracy above, but a reviewer must strike them):
    # a second piece of a number read in two, or a number read where nothing is written.
    overlapping = {ri for _, _, ri in pairs}
    for ri, (_, _, n) in enumerate(read):
        if ri not in used and not n["crossed_out"]:
            piece = ri in overlapping
            tally.errors["extra piece of a number" if piece else "read where nothing is written"] += 1
    # Digits and numbers.
    votes: dict[int, Counter[int]] = {}
    for ti, number in enumerate(truth["numbers"]):
        if ti in match:
            votes.setdefault(read[match[ti]][0], Counter())[number["zone"]] += 1
            # Counted apart from the accuracies (a struck number is no value): a reviewer must mend it.
            if number["crossed_out"] != read[match[ti]][2]["crossed_out"]:
                tally.errors["crossed-out number read as written" if number["crossed_out"]
                             else "written number read as crossed out"] += 1
        if number["crossed_out"]:
            continue
        text = str(number["value"])
        tally.numbers += 1
        tally.digits += len(text)
        got = read[match[ti]][2] if ti in match else None
        if got is None or got["value"] is None:
            tally.errors["not found" if got is None else "unreadable"] += 1
            continue
        if got["value"] == number["value"]:
            tally.numbers_right += 1
            tally.digits_right += len(text)
            continue
        seen = str(got["value"])
        if len(seen) == len(text):
            tally.digits_right += sum(a == b for a, b in zip(seen, text, strict=True))
            tally.errors["misread digit"] += 1
        else:
            tally.errors["wrong digit count"] += 1
    _score_target(truth, result, tally)
    # Zone final values: each read zone stands for the truth zone most of its numbers came from.
    stands_for = {zi: counter.most_common(1)[0][0] for zi, counter in votes.items()}
    for zone in truth["zones"]:
        written = [n["value"] for n in truth["numbers"]
                   if n["zone"] == zone["index"] and not n["crossed_out"]]
        mine = [zi for zi, t in stands_for.items() if t == zone["index"]]
        values = [n["value"] for zi in mine for n in result["zones"][zi]["numbers"] if not n["crossed_out"]]
        tally.zones += 1
        if (written[-1] if written else None) == (values[-1] if values else None):
            tally.zones_right += 1


def sample_games() -> tuple[list[Path], list[dict[str, Any]]]:
    """The sample games' files (samples/game-*.json, in name order) and the sheet of each."""
    games = sorted((ROOT / "samples").glob("game-*.json"))
    if not games:
        raise SystemExit("no samples/game-*.json to render")
    return games, [sheet_or_game(json.loads(path.read_text(encoding="utf-8"))) for path in games]


def photo_plan(index: int, sheets: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], str, str]:
    """Photo `index`'s sheet, layout and MNIST part to draw digits from: the sample games' sheets in
    turn, each round of them in the other layout of its player count, test and validation alternately."""
    sheet = sheets[index % len(sheets)]
    layout = LAYOUTS[len(sheet["players"])][(index // len(sheets)) % 2]
    return sheet, layout, "test" if index % 2 == 0 else "validation"


def photos(count: int, seed: int) -> list[tuple[str, bytes, dict[str, Any]]]:
    """`count` rendered photos (name, JPEG bytes, truth) across the sample games and layouts."""
    games, sheets = sample_games()
    out = []
    for i in range(count):
        sheet, layout, digits = photo_plan(i, sheets)
        rendered = render_sheet(sheet, layout=layout, seed=seed + i, digits_from=digits)  # type: ignore[arg-type]
        out.append((f"{games[i % len(games)].stem}/{layout}/seed{seed + i}", rendered.jpeg(), rendered.truth))
    return out


def run_one(recognizer: Recognizer, data: bytes, truth: dict[str, Any], tally: Tally) -> None:
    """Scan one photo with `recognizer`, time it, and score it."""
    start = time.perf_counter()
    try:
        result = scan_to_json(scan(data, recognizer=recognizer))
    except SheetscanError as error:
        tally.failures += 1
        tally.errors[f"no result: {type(error).__name__}"] += 1
        tally.seconds.append(time.perf_counter() - start)
        empty: dict[str, Any] = {"zones": [], "layout": {}}
        score(truth, empty, tally)
        return
    tally.seconds.append(time.perf_counter() - start)
    score(truth, result, tally)


def run_stages(recognizer: Recognizer, data: bytes, truth: dict[str, Any], tally: Tally) -> None:
    """Stages 4–7 only, on the zones where the truth file puts them (the truth-geometry shortcut)."""
    photo = load_photo(data)
    zones = truth_zones(photo.image, truth)
    start = time.perf_counter()
    ink = find_ink(zones.image, line_mask=zones.line_mask)
    numbers = read_numbers(find_numbers(ink, zones), recognizer)
    tally.seconds.append(time.perf_counter() - start)
    read = {z.zone: z.numbers for z in numbers.zones}
    result = {"zones": [{"numbers": [_number_json(n, zones.to_photo) for n in read.get(zone.index, ())]}
                        for zone in zones.zones]}
    score(truth, result, tally)


SMALL_SCALE = 0.5
"""`--small-photos` scale: 12 MP → 3 MP."""


def _scaled_points(value: Any, scale: float) -> Any:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value):
        return [value[0] * scale, value[1] * scale]
    if isinstance(value, list):
        return [_scaled_points(v, scale) for v in value]
    if isinstance(value, dict):
        return {k: _scaled_points(v, scale) if k in ("quad", "polygon", "digits") else v
                for k, v in value.items()}
    return value


def smaller(data: bytes, truth: dict[str, Any], scale: float = SMALL_SCALE) -> tuple[bytes, dict[str, Any]]:
    """The photo scaled by `scale` and saved again as JPEG (quality 85), and its truth scaled alike."""
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert decoded is not None, "a rendered photo must decode"
    image = cv2.resize(decoded, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok, "JPEG encoding failed"
    k = image.shape[1] / truth["image"]["width"]
    small = copy.deepcopy(truth)
    small["image"] = {"width": image.shape[1], "height": image.shape[0]}
    for key in ("numbers", "zones", "corners"):
        small[key] = _scaled_points(truth[key], k)
    small["homography"] = (np.diag([k, k, 1.0]) @ np.asarray(truth["homography"])).tolist()
    return encoded.tobytes(), small


def floor_seconds(data: bytes) -> float:
    """Seconds to decode the photo and find and rectify the sheet (the floor of any reading)."""
    start = time.perf_counter()
    with contextlib.suppress(SheetscanError):
        find_sheet(load_photo(data))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Render, scan, score, print the markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=int, default=12, help="photos for the CNN (default 12)")
    parser.add_argument("--tesseract-photos", type=int, default=3,
                        help="of those, how many also go to Tesseract (slow; default 3)")
    parser.add_argument("--small-photos", type=int, default=0,
                        help="of those, how many are also read scaled to 3 MP (default 0)")
    parser.add_argument("--seed", type=int, default=1000, help="first render seed (default 1000)")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    shots = photos(args.photos, args.seed)
    render_time = time.perf_counter() - started
    cnn, tesseract, tesseract_cnn = find_recognizer("cnn"), None, Tally()
    tallies = {"cnn": Tally(), "tesseract": Tally()}
    stages, small = Tally(), Tally()
    floors, small_floors = [], []
    for i, (name, data, truth) in enumerate(shots):
        floors.append(min(floor_seconds(data) for _ in range(2)))
        run_one(cnn, data, truth, tallies["cnn"])
        run_stages(cnn, data, truth, stages)
        if i < args.tesseract_photos:
            tesseract = tesseract or find_recognizer("tesseract")
            run_one(tesseract, data, truth, tallies["tesseract"])
            run_one(cnn, data, truth, tesseract_cnn)
        if i < args.small_photos:
            small_data, small_truth = smaller(data, truth)
            small_floors.append(min(floor_seconds(small_data) for _ in range(2)))
            run_one(cnn, small_data, small_truth, small)
        print(f"  {name}: cnn {tallies['cnn'].seconds[-1]:.2f} s, floor {floors[-1]:.2f} s", file=sys.stderr)
    floor = statistics.mean(floors)
    print(f"{len(shots)} rendered 12 MP photos (MNIST validation/test digits; rendering took "
          f"{render_time:.0f} s, not counted); floor (decode + find + rectify): {floor:.2f} s per photo\n")
    print("| recogniser | photos | digits | numbers | zone final values | unsure (< 0.9) | s / photo "
          "| × floor |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print(tallies["cnn"].row("CNN (cv2.dnn)", floor))
    print(stages.row("CNN, stages 4–7 on the truth's zones", floor))
    if tallies["tesseract"].seconds:
        print(tesseract_cnn.row(f"CNN, same {args.tesseract_photos} photos", floor))
        print(tallies["tesseract"].row("Tesseract (baseline)", floor))
    if small.seconds:
        print(small.row("CNN, the same photos scaled to 3 MP", statistics.mean(small_floors)))
    print("\nThe stages 4–7 row reads the zones where the truth file puts them (ink, numbers, digits only;"
          " its time excludes finding the sheet).")
    for name, tally in {**tallies, "stages 4-7": stages, "3 MP": small}.items():
        if tally.errors:
            print(f"\n{name} errors: " + ", ".join(f"{k} {v}" for k, v in tally.errors.most_common()))
        if tally.targets:
            print(f"{name} pulka targets read right: {tally.targets_right} of {tally.targets}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
