"""Where misread digits come from: each one with its crop, the network's reading, and its MNIST image.

    .venv/bin/python tools/misread_census.py --seed 1000 --style bench --photos 24 [--whole] \
        [--model ONNX] [--out census.pkl] [--png PREFIX]

For every written number read with the right digit count but a wrong value (bench_scan's "misread
digit"), and for each of its wrong digits, it records the digit box's crop and the network's 28×28 input
(`_digit_norm`), the reading, where the truth puts the digit in the number's image, and the MNIST image
the renderer drew there, read clean by the same network. Each misread digit gets a class (`classify`):

- `mnist`: MNIST's own image is misread clean too (or read at under one half): the writing is ambiguous;
- `boxes`: the number was cut into another number of boxes than it has digits (a piece left out or
  two digits in one box), so a digit's box holds what is not that digit;
- `neighbour`: more than `OUTSIDE` of the box's ink lies outside the digit's own (padded) box: another
  digit's, a line's or another number's ink;
- `lost`: more than `LOST` of the digit's dark pixels on the sheet (away from the drawn lines) are not
  in the ink mask: the ink stage dropped part of the digit (a stroke taken with a line, too faint);
- `part`: the box covers less than `COVERED` of the digit: part of the digit is cut off;
- `network`: the box holds the whole digit and little else, and MNIST's image reads right clean: what
  the photo and the normalisation made of it is read wrong.

`--style bench` renders bench_scan's photos, any other name bench_styles' style. Without `--whole` the
stages 4–7 run on the truth's zones (`bench_scan.run_stages`' shortcut); with it, the whole scan. The
truth file does not say which MNIST image was drawn, so the census wraps the renderer's private glyph
and paste functions while it renders (`DrawnDigits`): the renderer's output is unchanged (the wrapper
peeks at the random generator's choice and restores its state).
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

from sheetscan.vision.mnist import load_mnist  # noqa: E402

OUTSIDE = 0.12
"""The share of a box's ink outside the digit's own box above which the box holds a neighbour's ink."""
COVERED = 0.85
"""The share of the digit's own box a digit box must cover to hold the whole digit."""
LOST = 0.25
"""The share of a digit's dark pixels missing from the ink mask above which the ink stage lost part of it."""
_PARTS = ("test", "validation")
Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass
class Misread:
    """One wrongly read digit of a number read with the right digit count."""

    photo: str
    """Seed of the photo and its style."""
    value: int
    """The number as written."""
    read: int
    """The number as read."""
    position: int
    """Which digit of the number (0 = first)."""
    truth: int
    """The digit written."""
    got: int
    """The digit read in its place."""
    mnist: tuple[str, int]
    """The MNIST part and index of the image drawn for it."""
    clean: tuple[int, float]
    """The network's top digit and its probability on that MNIST image as it is."""
    boxes: int
    """How many digit boxes the number was cut into."""
    reading: tuple[tuple[tuple[int, float], ...], float] = ((), 0.0)
    """The network's candidates and "not a digit" probability for the box (when boxes = digits)."""
    covered: float = -1.0
    """The share of the digit's own box the digit box covers (-1 when boxes ≠ digits)."""
    outside: float = -1.0
    """The share of the box's ink outside the digit's own (padded) box (-1 when boxes ≠ digits)."""
    lost: float = -1.0
    """The share of the digit's dark pixels not in the ink mask, away from the drawn lines (`ink_lost`;
    -1 when boxes ≠ digits)."""
    on_line: float = -1.0
    """The share of the dark pixels of the digit's box on the drawn lines, not in the ink mask."""
    images: dict[str, npt.NDArray[Any]] = field(default_factory=dict)
    """`gray` (the number's image), `input` (the network's 28×28 input), with the `box` and `own`
    boxes in `gray`'s pixels as 4-element arrays."""


def classify(m: Misread) -> str:
    """The misread's class: `mnist`, `boxes`, `neighbour`, `part` or `network` (module docstring)."""
    if m.clean[0] != m.truth or m.clean[1] < 0.5:
        return "mnist"
    if m.covered < 0.0:
        return "boxes"
    if m.outside > OUTSIDE:
        return "neighbour"
    if m.lost > LOST:
        return "lost"
    if m.covered < COVERED:
        return "part"
    return "network"


def box_in_number(points: npt.NDArray[np.float64], quad: Sequence[Sequence[float]],
                  shape: tuple[int, int]) -> Box:
    """The box, in the number image's pixels, of `points` given on the upright sheet.

    `quad` is the number's box on the upright sheet, corners in reading order (top-left, top-right,
    bottom-right, bottom-left as the writer sees them: `NumberToken.quad`); the number's image (of
    `shape`, rows × columns) is that box turned to read normally, with an even margin around it.
    """
    tl, tr, _, bl = (np.asarray(p, np.float64) for p in quad)
    across, down = tr - tl, bl - tl
    width, height = float(np.linalg.norm(across)), float(np.linalg.norm(down))
    to_box = np.linalg.inv(np.column_stack([across / width, down / height]))
    local = (np.asarray(points, np.float64).reshape(-1, 2) - tl) @ to_box.T
    local += [(shape[1] - width) / 2.0, (shape[0] - height) / 2.0]
    return (float(local[:, 0].min()), float(local[:, 1].min()), float(local[:, 0].max()),
            float(local[:, 1].max()))


def fit(box: Box, own: Box, gray: npt.NDArray[np.uint8]) -> tuple[float, float]:
    """How much of the digit's `own` box the digit `box` covers, and the share of the box's ink (in
    `gray`) lying outside `own` padded by a twelfth of its height (a stroke's antialiased edge)."""
    ix0, iy0 = max(box[0], own[0]), max(box[1], own[1])
    ix1, iy1 = min(box[2], own[2]), min(box[3], own[3])
    area = max(own[2] - own[0], 1.0) * max(own[3] - own[1], 1.0)
    covered = max(0.0, ix1 - ix0) * max(0.0, iy1 - iy0) / area
    ink = np.zeros(gray.shape, np.float64)
    bx0, by0 = max(int(box[0]), 0), max(int(box[1]), 0)
    ink[by0:int(box[3]), bx0:int(box[2])] = gray[by0:int(box[3]), bx0:int(box[2])]
    pad = (own[3] - own[1]) / 12.0 + 1.0
    inside = np.zeros(gray.shape, bool)
    top, left = max(int(own[1] - pad), 0), max(int(own[0] - pad), 0)
    inside[top:int(own[3] + pad) + 1, left:int(own[2] + pad) + 1] = True
    total = float(ink.sum())
    return covered, (float(ink[~inside].sum()) / total if total > 0.0 else 0.0)


def ink_lost(strength: npt.NDArray[np.uint8], mask: npt.NDArray[np.uint8], lines: npt.NDArray[np.uint8],
             own: Box) -> tuple[float, float]:
    """Of the dark pixels in the `own` box of the upright sheet (darker than the paper by at least half
    the box's darkest stroke, `strength` as `Ink.strength`), the share the ink `mask` leaves out away
    from the drawn `lines` (non-zero, and a pixel around them), and the share it leaves out on them (a
    line crossing the box, or the digit's own stroke taken for line)."""
    x0, y0 = max(int(own[0]), 0), max(int(own[1]), 0)
    x1, y1 = int(np.ceil(own[2])) + 1, int(np.ceil(own[3])) + 1
    region = strength[y0:y1, x0:x1]
    if region.size == 0:
        return 0.0, 0.0
    near_line = cv2.dilate((lines[y0:y1, x0:x1] > 0).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    dark = (region >= 0.5 * float(np.percentile(region, 99))) & (region > 0)
    if not dark.any():
        return 0.0, 0.0
    missing = dark & (mask[y0:y1, x0:x1] == 0)
    total = float(dark.sum())
    return float((missing & ~near_line).sum()) / total, float((missing & near_line).sum()) / total


class DrawnDigits:
    """While active (`recording`), the MNIST image of every digit the renderer writes, per number."""

    def __init__(self) -> None:
        self.numbers: list[tuple[str, list[tuple[str, int]]]] = []
        """Per number pasted on the paper, in order: its text and each digit's (MNIST part, index)."""
        self._glyphs: list[tuple[str, int]] = []
        # By the glyphs' id, the glyphs kept too: a freed object's id would be reused by a dot's glyphs.
        self._written: dict[int, tuple[Any, str, list[tuple[str, int]]]] = {}
        self._bases = {name: load_mnist(name).images for name in _PARTS}  # type: ignore[arg-type]

    def _which(self, image: npt.NDArray[np.uint8]) -> tuple[str, int]:
        address = image.__array_interface__["data"][0]
        for name, images in self._bases.items():
            offset = address - images.__array_interface__["data"][0]
            if 0 <= offset < images.nbytes:
                return name, offset // images[0].nbytes
        return "", -1

    @contextmanager
    def recording(self) -> Iterator[DrawnDigits]:
        """Wrap the renderer's glyph, number and paste functions while rendering (restored after)."""
        from sheetscan.vision.render import _hand, _write
        glyph, write_number, put = _hand._glyph, _write.write_number, _write._put
        self.numbers.clear()

        def drawn_glyph(writer: Any, digit: int, rng: np.random.Generator, height: float) -> Any:
            # The glyph's own choice of sample, peeked at: the generator is put back as it was.
            state = rng.bit_generator.state
            options = writer.samples[digit]
            self._glyphs.append(self._which(options[int(rng.integers(len(options)))]))
            rng.bit_generator.state = state
            return glyph(writer, digit, rng, height)

        def drawn_number(writer: Any, text: str, rng: np.random.Generator, *, scale: float = 1.0) -> Any:
            start = len(self._glyphs)
            glyphs = write_number(writer, text, rng, scale=scale)
            self._written[id(glyphs)] = (glyphs, text, self._glyphs[start:])
            return glyphs

        def pasted(paper: Any, glyphs: Any, at: Any, angle: int, writer: Any) -> Any:
            # Numbers are written at a few sizes before one fits: only the pasted one counts.
            if id(glyphs) in self._written:
                self.numbers.append(self._written[id(glyphs)][1:])
            return put(paper, glyphs, at, angle, writer)

        _hand._glyph, _write.write_number, _write._put = drawn_glyph, drawn_number, pasted  # type: ignore[assignment]
        try:
            yield self
        finally:
            _hand._glyph, _write.write_number, _write._put = glyph, write_number, put  # type: ignore[assignment]
            self._glyphs.clear()
            self._written.clear()


def _photo(seed: int, style: str, index: int, drawn: DrawnDigits) -> tuple[bytes, dict[str, Any]]:
    """Photo `index` of `style` from `seed` (bench_scan's or bench_styles' photo of that seed)."""
    from bench_scan import photo_plan, sample_games
    from bench_styles import STYLES, styled

    from sheetscan.vision.render import render_sheet
    sheet, layout, digits = photo_plan(index, sample_games()[1])
    with drawn.recording():
        if style == "bench":
            rendered = render_sheet(sheet, layout=layout, seed=seed + index, digits_from=digits)  # type: ignore[arg-type]
        else:
            rendered = styled(STYLES[style], sheet, layout, seed + index, digits)
    return rendered.jpeg(), rendered.truth


def census(seed: int, style: str, photos: int, recogniser: Any, *,
           whole: bool) -> tuple[list[Misread], Counter[str]]:
    """The misread digits of `photos` photos and the counts of bench_scan's error kinds among them."""
    from sheetscan.errors import SheetscanError
    from sheetscan.vision._digit_norm import normalise_digit
    from sheetscan.vision._scan_json import _number_json
    from sheetscan.vision.ink import find_ink
    from sheetscan.vision.numbers import find_numbers, read_numbers
    from sheetscan.vision.photo import load_photo
    from sheetscan.vision.scan import scan
    from tests.vision._boxes import box_of, overlap
    from tests.vision._truth_zones import truth_zones

    parts = {name: load_mnist(name) for name in _PARTS}  # type: ignore[arg-type]
    drawn, found, counts = DrawnDigits(), [], Counter[str]()
    for index in range(photos):
        data, truth = _photo(seed, style, index, drawn)
        texts = [text for text, _ in drawn.numbers[: len(truth["numbers"])]]
        if texts != [str(n["value"]) for n in truth["numbers"]]:
            raise RuntimeError("the renderer's numbers and the truth file's are not in the same order")
        if whole:
            try:
                result = scan(data, recognizer=recogniser)
            except SheetscanError as error:  # as bench_scan: the photo counts as read wrong, apart
                counts[f"no result: {type(error).__name__}"] += 1
                continue
            zones, ink, sheet = result.zones, result.ink, result.numbers
        else:
            zones = truth_zones(load_photo(data).image, truth)
            ink = find_ink(zones.image, line_mask=zones.line_mask)
            sheet = read_numbers(find_numbers(ink, zones), recogniser)
        read = [number for zone in sheet.zones for number in zone.numbers]
        boxes = [_number_json(n, zones.to_photo)["bbox"] for n in read]
        # bench_scan.score's matching: by overlap, best pairs first.
        pairs = sorted(((overlap(box_of(t["quad"]), (b[0], b[1], b[0] + b[2], b[1] + b[3])), ti, ri)
                        for ti, t in enumerate(truth["numbers"]) for ri, b in enumerate(boxes)), reverse=True)
        match: dict[int, int] = {}
        for shared, ti, ri in pairs:
            if shared >= 0.4 and ti not in match and ri not in match.values():
                match[ti] = ri
        back = np.linalg.inv(np.asarray(zones.to_photo, np.float64))
        for ti, written in enumerate(truth["numbers"]):
            if written["crossed_out"]:
                continue
            text = str(written["value"])
            number = read[match[ti]] if ti in match else None
            if number is None or number.value is None:
                counts["not found" if number is None else "unreadable"] += 1
                continue
            seen = str(number.value)
            if seen == text:
                continue
            if len(seen) != len(text):
                counts["wrong digit count"] += 1
                continue
            counts["misread digit"] += 1
            image = number.token.image
            for k, (a, b) in enumerate(zip(text, seen, strict=True)):
                if a == b:
                    continue
                part, mnist = drawn.numbers[ti][1][k]
                clean = recogniser.read_digits([parts[part].images[mnist]])[0]
                m = Misread(f"{seed + index} {style}", written["value"], number.value, k, int(a), int(b),
                            (part, mnist), clean.candidates[0], len(image.digit_boxes))
                if len(image.digit_boxes) == len(text):
                    x, y, w, h = image.digit_boxes[k]
                    upright = cv2.perspectiveTransform(
                        np.asarray(written["digits"][k]["quad"], np.float64).reshape(1, -1, 2), back)[0]
                    own = box_in_number(upright, number.token.quad, image.gray.shape)
                    box = (float(x), float(y), float(x + w), float(y + h))
                    m.covered, m.outside = fit(box, own, image.gray)
                    (ux0, uy0), (ux1, uy1) = upright.min(axis=0), upright.max(axis=0)
                    m.lost, m.on_line = ink_lost(ink.strength, ink.mask, zones.line_mask,
                                                 (ux0, uy0, ux1, uy1))
                    digit = number.reading.digits[k]
                    m.reading = (digit.candidates, digit.noise)
                    m.images = {"gray": image.gray.copy(), "box": np.array(box), "own": np.array(own),
                                "input": normalise_digit(image.gray[max(y, 0): y + h, max(x, 0): x + w])}
                found.append(m)
        print(f"  {seed + index} {style}: {dict(counts)}", file=sys.stderr, flush=True)
    return found, counts


def montage(misreads: Sequence[Misread], path_prefix: str, per_page: int = 10) -> None:
    """PNG pages, a row per misread: the number (digit box green, the digit's own red), the network's
    input, the MNIST image drawn, and the figures."""
    parts = {name: load_mnist(name) for name in _PARTS}  # type: ignore[arg-type]
    rows = []
    for m in misreads:
        if not m.images:
            continue
        k = 84 / max(m.images["gray"].shape[0], 1)
        number = cv2.cvtColor(cv2.resize(m.images["gray"], None, fx=k, fy=k, interpolation=cv2.INTER_NEAREST),
                              cv2.COLOR_GRAY2BGR)
        for name, colour in (("box", (0, 255, 0)), ("own", (0, 0, 255))):
            x0, y0, x1, y1 = (int(v * k) for v in m.images[name])
            cv2.rectangle(number, (x0, y0), (x1, y1), colour, 1)
        number = np.pad(number[:, :300], ((0, 0), (0, max(0, 300 - number.shape[1])), (0, 0)))
        big = [cv2.cvtColor(cv2.resize(a, (84, 84), interpolation=cv2.INTER_NEAREST), cv2.COLOR_GRAY2BGR)
               for a in ((m.images["input"] * 255).astype(np.uint8), parts[m.mnist[0]].images[m.mnist[1]])]
        label = np.zeros((84, 260, 3), np.uint8)
        shown = " ".join(f"{d}:{p:.2f}" for d, p in m.reading[0][:2])
        for line, text in enumerate((f"{m.photo} {classify(m)}", f"{m.truth}->{m.got} {m.value}->{m.read}",
                                     f"{shown} n{m.reading[1]:.2f}", f"clean {m.clean[0]}:{m.clean[1]:.2f}")):
            cv2.putText(label, text, (2, 18 + 21 * line), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1)
        rows.append(np.hstack([number, big[0], big[1], label]))
    for page in range(0, len(rows), per_page):
        cv2.imwrite(f"{path_prefix}_{page // per_page}.png", np.vstack(rows[page: page + per_page]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, nargs="+", default=[1000])
    parser.add_argument("--style", default="bench",
                        help="bench (bench_scan's photos) or a bench_styles style")
    parser.add_argument("--photos", type=int, default=8, help="photos per seed (default 8)")
    parser.add_argument("--whole", action="store_true", help="the whole scan, not the truth's zones")
    parser.add_argument("--model", type=Path, nargs="+", metavar="ONNX", help="default: the shipped network")
    parser.add_argument("--out", type=Path, help="pickle of the misreads and counts")
    parser.add_argument("--png", help="prefix of montage pages")
    args = parser.parse_args()
    from sheetscan.vision.recognise import MODEL_PATHS, CnnRecognizer
    recogniser = CnnRecognizer(args.model or MODEL_PATHS)
    misreads: list[Misread] = []
    counts: Counter[str] = Counter()
    for seed in args.seed:
        found, seen = census(seed, args.style, args.photos, recogniser, whole=args.whole)
        misreads += found
        counts.update(seen)
    classes = Counter(classify(m) for m in misreads)
    print(f"{dict(counts)}; misread digits {len(misreads)}: {dict(classes)}")
    for m in misreads:
        print(f"  {m.photo} {m.value}->{m.read} digit {m.position} {m.truth}->{m.got} {classify(m):9s} "
              f"clean {m.clean[0]}:{m.clean[1]:.2f} covered {m.covered:.2f} outside {m.outside:.2f} "
              f"lost {m.lost:.2f} on line {m.on_line:.2f} boxes {m.boxes}")
    if args.out:
        args.out.write_bytes(pickle.dumps({"misreads": misreads, "counts": counts}))
    if args.png:
        montage(misreads, args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
