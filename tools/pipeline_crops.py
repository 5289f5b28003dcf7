"""Harvest digit crops the way the product cuts them, for fine-tuning the digit network.

    .venv/bin/python tools/pipeline_crops.py --sheets 400 --out /tmp/crops.npz [--seed 0] [--vary]

Augmenting MNIST by hand (tools/train_digits.py) guesses what the segmenter hands the network; this
asks the segmenter. Each sheet is a pulka the engine's bots play (`sheetscan.engine.play_pulka`, every
variant, 3 and 4 players), written by MNIST **train** writers only (`render_sheet(digits_from="train")`)
on a random layout, paper, light and tilt, and photographed at 12 MP. The ink and number stages then
run on the zones where the truth file puts them (tests/vision/_truth_zones.py), and every digit box of
every way a glyph may be cut (`NumberToken.glyph_cuts`, at the number's true writing angle) is
labelled from the truth's digit boxes:

- a box that matches one written digit (IoU ≥ 0.7 on the upright sheet) is that digit;
- a box that covers two digits at once, no digit (dots, bits of line) or only a part of one digit
  (IoU < 0.35, inside it) is "not a digit" (10): the cut choice should not like such pieces; but a
  thin upright part is left out, for it looks like a "1" whatever it was cut from;
- anything in between is left out, as is every crossed-out number.

The result is an .npz with `x` (N×28×28 uint8, `normalise_digit` output × 255) and `y` (N labels),
which `train_digits.py --pipeline-crops` mixes into its fine-tuning. Validation and test digits are
never rendered here, so the benchmarks (bench/bench_scan.py) still measure on writers never seen.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from _shake import shaken

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sheetscan.engine import play_pulka  # noqa: E402
from sheetscan.errors import SheetscanError  # noqa: E402
from sheetscan.vision._digit_norm import normalise_digit  # noqa: E402
from sheetscan.vision._scan_json import to_photo  # noqa: E402
from sheetscan.vision.ink import find_ink  # noqa: E402
from sheetscan.vision.numbers import NumberToken, find_numbers  # noqa: E402
from sheetscan.vision.photo import load_photo  # noqa: E402
from sheetscan.vision.render import render_sheet, sheet_or_game  # noqa: E402
from tests.vision._boxes import Box, area, box_of, intersection  # noqa: E402
from tests.vision._truth_zones import truth_zones  # noqa: E402

NOISE = 10
MATCH = 0.7
PART = 0.35
VARIANTS = ("sochi", "leningrad", "rostov", "piter")
LAYOUTS = {3: ("standard-3", "form-3"), 4: ("standard-4", "form-4")}


def _digit_box_upright(token: NumberToken, box: tuple[int, int, int, int]) -> Box:
    """A digit box of `token.image` carried onto the upright sheet through the token's quad.

    The image is the number's box with an equal margin on each side (unless clipped at the block's
    edge, rare enough to ignore here), turned so the writing reads normally."""
    quad = np.asarray(token.quad, dtype=np.float64)
    across, down = quad[1] - quad[0], quad[3] - quad[0]
    width, height = float(np.hypot(*across)), float(np.hypot(*down))
    gh, gw = token.image.gray.shape
    mx, my = (gw - width) / 2.0, (gh - height) / 2.0
    x, y, w, h = box
    corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    points = [quad[0] + (cx - mx) / max(width, 1.0) * across + (cy - my) / max(height, 1.0) * down
              for cx, cy in corners]
    return box_of(points)


def _label(piece: Box, digits: list[tuple[int, Box]], *, narrow: bool) -> int | None:
    """The label of one cut piece against the truth digits of its number (None: leave it out);
    `narrow`: the piece is a thin upright stroke, which may be a "1" whatever it was cut from."""
    best, best_iou = None, 0.0
    covered = 0
    for digit, truth in digits:
        inter = intersection(piece, truth)
        iou = inter / max(area(piece) + area(truth) - inter, 1e-9)
        if iou > best_iou:
            best, best_iou = digit, iou
        covered += inter > 0.7 * area(truth)
    if covered >= 2:
        return NOISE  # two digits taken for one
    if best_iou >= MATCH:
        return best
    if narrow:
        return None
    inside = max((intersection(piece, truth) / max(area(piece), 1e-9) for _, truth in digits), default=0.0)
    if best_iou < PART and (inside > 0.9 or best_iou == 0.0):
        return NOISE  # a part of one digit, or no digit at all
    return None


def harvest(sheet_index: int, seed: int, *, vary: bool = False
            ) -> tuple[list[npt.NDArray[np.uint8]], list[int]]:
    """The labelled crops of one rendered sheet; with `vary`, in styles past the renderer's usual ranges
    (`styles`)."""
    rng = np.random.default_rng((seed, sheet_index))
    players = 3 if rng.random() < 0.6 else 4
    variant = VARIANTS[int(rng.integers(len(VARIANTS)))]
    target = int(rng.choice([10, 20, 30, 50]))
    game = play_pulka(variant, players, target, seed=int(rng.integers(1 << 30)))
    sheet = sheet_or_game(game)
    layout = LAYOUTS[players][int(rng.integers(2))]
    rendered = render_sheet(sheet, layout=layout, seed=int(rng.integers(1 << 30)), digits_from="train",
                            **(styles(np.random.default_rng((seed, sheet_index, 1))) if vary else {}))
    if vary:
        chance = np.random.default_rng((seed, sheet_index, 2))
        rendered = replace(rendered, image=photo_effects(rendered.image, chance),
                           jpeg_quality=int(chance.integers(30, 96)))
    truth = rendered.truth
    photo = load_photo(rendered.jpeg())
    zones = truth_zones(photo.image, truth)
    ink = find_ink(zones.image, line_mask=zones.line_mask)
    tokens = find_numbers(ink, zones)
    back = np.linalg.inv(zones.to_photo)
    written = []
    for number in truth["numbers"]:
        digits = [(int(d["digit"]), box_of(to_photo(d["quad"], back))) for d in number["digits"]]
        written.append((number, box_of(to_photo(number["quad"], back)), digits))
    crops: list[npt.NDArray[np.uint8]] = []
    labels: list[int] = []
    for block in tokens.blocks:
        for angle, numbers in block.candidates:
            for token in numbers:
                where = box_of(token.quad)
                mine = [(n, d) for n, box, d in written if n["angle"] % 360 == angle % 360
                        and intersection(where, box) > 0.3 * min(area(where), area(box))]
                if len(mine) != 1 or mine[0][0]["crossed_out"] or token.crossed_out:
                    continue
                digits = mine[0][1]
                seen: set[tuple[int, int, int, int]] = set()
                for glyph in token.glyph_cuts:
                    for option in glyph:
                        for box in option:
                            if box in seen:
                                continue
                            seen.add(box)
                            x, y, w, h = box
                            label = _label(_digit_box_upright(token, box), digits, narrow=w < 0.5 * h)
                            if label is None:
                                continue
                            crop = token.image.gray[max(y, 0): y + h, max(x, 0): x + w]
                            crops.append(np.rint(normalise_digit(crop) * 255).astype(np.uint8))
                            labels.append(label)
    return crops, labels


def styles(rng: np.random.Generator) -> dict[str, float]:
    """Renderer options for a sheet drawn and photographed past the usual ranges (the issue: "vary your
    own renderer widely"): writing 0.6-1.4x as tall, lines 0.4-2.5x as wide (log-uniform), the photo
    taken up to 1.7x farther away and tilted up to 50 degrees."""
    return {"writing_scale": float(np.exp(rng.uniform(np.log(0.6), np.log(1.4)))),
            "line_scale": float(np.exp(rng.uniform(np.log(0.4), np.log(2.5)))),
            "distance": float(rng.uniform(1.0, 1.7)), "max_tilt": float(rng.uniform(35.0, 50.0))}


def photo_effects(image: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """The photo as a phone in a hand and a room's light may spoil it, each effect by chance and of a random
    strength: hand shake (a linear motion blur 3-15 px long at any angle, 40 %), focus (a Gaussian blur
    of sigma 0.8-2.6 px, 20 %), a glossy patch washing the ink out (25 %), a dim or coloured light with
    sensor noise (30 %). Ranges on both sides of `bench/bench_styles.py`'s fixed values, not them."""
    out = image.astype(np.float32)
    h, w = image.shape[:2]
    if rng.random() < 0.4:
        length = int(rng.integers(3, 16))
        out = shaken(out, length, float(rng.uniform(0, 180)))
    if rng.random() < 0.2:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.8, 2.6)))
    if rng.random() < 0.25:
        # An ellipse of near-white somewhere on the middle of the photo, fading out over its own size.
        yy, xx = np.mgrid[0:h:4, 0:w:4].astype(np.float64)
        cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
        ax, ay = rng.uniform(0.05, 0.2, 2) * min(h, w)
        r = np.hypot((xx - cx) / ax, (yy - cy) / ay)
        wash = rng.uniform(0.5, 0.85) * np.exp(-np.maximum(r - 1.0, 0.0) ** 2 * 2.0)
        full = cv2.resize(wash.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)[:, :, None]
        out = out + (255.0 - out) * full
    if rng.random() < 0.3:
        cast = rng.uniform([0.5, 0.75, 0.9], [1.0, 1.0, 1.0]).astype(np.float32)
        gain = float(rng.uniform(0.4, 0.9))
        lift = float(rng.uniform(0.0, 40.0))
        noise = rng.standard_normal(out.shape).astype(np.float32)
        out = lift + out * gain * cast + noise * float(rng.uniform(2, 7))
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sheets", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, default=0, help="index of the first sheet (to split a run)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--vary", action="store_true", help="draw and photograph each sheet in styles past "
                        "the renderer's usual ranges (writing size, line width, distance, tilt; shake, "
                        "focus, glare, dim or coloured light, JPEG quality)")
    args = parser.parse_args()
    xs: list[npt.NDArray[np.uint8]] = []
    ys: list[int] = []
    started = time.perf_counter()
    for i in range(args.first, args.first + args.sheets):
        try:
            crops, labels = harvest(i, args.seed, vary=args.vary)
        except SheetscanError as error:
            print(f"sheet {i}: skipped ({error})", flush=True)
            continue
        xs.extend(crops)
        ys.extend(labels)
        if (i + 1) % 10 == 0:
            counts = np.bincount(np.asarray(ys, np.int64), minlength=11)
            print(f"{i + 1} sheets, {len(ys)} crops ({counts.tolist()}), "
                  f"{time.perf_counter() - started:.0f} s", flush=True)
    np.savez_compressed(args.out, x=np.stack(xs), y=np.asarray(ys, np.int64))
    print(f"wrote {len(ys)} crops to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
