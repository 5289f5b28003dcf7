"""Benchmark of reading photos in styles beyond the renderer's usual ranges, beside the usual style.

    .venv/bin/python bench/bench_styles.py [--photos 8] [--seed 5000] [--styles usual small far ...]

The issue's reading is also measured on sheets drawn in styles we do not see, so each style here takes
one thing past what `bench_scan.py`'s photos (and everything the code was tuned on) ever show, on the
same sheets, seeds and writers, and the table prints how much of the usual style's accuracy it keeps:

- small / big writing: everyone writes 0.65× / 1.4× as tall (`render_sheet(writing_scale=)`);
- thick / thin lines: the sheet drawn with a felt-tip 2.5× as wide / a fine pen 0.4× as wide
  (`line_scale=`; hand-drawn layouts only, printed forms are as printed);
- far: the photo taken 1.67× farther away, so the paper fills 43–58 % of the photo's side (`distance=`);
- steep: tilted up to 50° (the usual photos: up to 35°);
- dark: an underexposed photo, 0.4 of the light, with sensor noise (σ 6 grey levels);
- blur: out of focus, a Gaussian blur of σ 2.2 px on the 12 MP photo;
- jpeg: saved at JPEG quality 35.

Light and hand, as real phone photos of a paper sheet have them and the renderer's photos do not (each is
laid over the usual photo after rendering, seeded by the photo's seed, placed by where the sheet lies):

- shadow: a hand's or the phone's cast shadow with a soft straight edge (a penumbra of 1.5–3 % of the
  sheet's side) over 25–40 % of the sheet, 0.4–0.5 of the light under it (the renderer's own shadows are
  blurry blobs at 0.55–0.8 of the light);
- glare: a specular patch on glossy paper, an ellipse 15–30 % of the sheet's side across, near white in
  its middle (the ink keeps 15–30 % of its contrast there) and fading out over its own size;
- motion: hand shake, a linear motion blur 9–13 px long at a random angle (the renderer's: 3–7 px, now
  and then);
- warm: a tungsten lamp, dim: blue at 0.55, green at 0.8 of red, 0.7 of the contrast (blacks lifted),
  sensor noise σ 5.

Handwriting comes from MNIST's validation and test parts only, as in `bench_scan.py`; 12 MP photos,
full pipeline (`scan`), the CNN recogniser; figures as `bench_scan.py` defines them, plus the photos
that gave no result at all (exit 3: no sheet, or no pulka sheet's lines inside the rectangle found).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scan import Tally, photo_plan, run_one, sample_games

from sheetscan.vision.recognise import find_recognizer
from sheetscan.vision.render import Rendered, render_sheet

Image = np.ndarray[Any, np.dtype[np.uint8]]


def _dark(image: Image) -> Image:
    noise = np.random.default_rng(1).normal(0.0, 6.0, image.shape)
    return np.clip(image.astype(np.float64) * 0.4 + noise, 0, 255).astype(np.uint8)


def _blur(image: Image) -> Image:
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 2.2), np.uint8)


def _sheet_frame(corners: Any) -> tuple[np.ndarray[Any, np.dtype[np.float64]], float]:
    """The sheet's centre in the photo and its side (the mean of its four sides), photo pixels."""
    quad = np.asarray(corners, np.float64)
    side = float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))
    return quad.mean(axis=0), side


def _shadow(image: Image, corners: Any, rng: np.random.Generator) -> Image:
    h, w = image.shape[:2]
    _, side = _sheet_frame(corners)
    theta = rng.uniform(0, 2 * np.pi)
    normal = np.array([np.cos(theta), np.sin(theta)])
    quad = np.asarray(corners, np.float64)
    # The edge is a line across the sheet, placed so that 25-40 % of the sheet's extent along the normal
    # lies on the shadow's side.
    along = quad @ normal
    lo, hi = float(along.min()), float(along.max())
    edge = hi - rng.uniform(0.25, 0.4) * (hi - lo)
    yy, xx = np.mgrid[0:h:4, 0:w:4].astype(np.float64)
    depth = (xx * normal[0] + yy * normal[1] - edge) / (rng.uniform(0.015, 0.03) * side)
    cover = 1.0 / (1.0 + np.exp(-4.0 * np.clip(depth, -10, 10)))
    gain = 1.0 - (1.0 - rng.uniform(0.4, 0.5)) * cover
    full = cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return np.asarray(np.clip(image * full[:, :, None], 0, 255), np.uint8)


def _glare(image: Image, corners: Any, rng: np.random.Generator) -> Image:
    h, w = image.shape[:2]
    centre, side = _sheet_frame(corners)
    spot = centre + rng.uniform(-0.3, 0.3, 2) * side
    axes = rng.uniform(0.075, 0.15, 2) * side
    yy, xx = np.mgrid[0:h:4, 0:w:4].astype(np.float64)
    turn = rng.uniform(0, np.pi)
    dx, dy = xx - spot[0], yy - spot[1]
    u = (dx * np.cos(turn) + dy * np.sin(turn)) / axes[0]
    v = (-dx * np.sin(turn) + dy * np.cos(turn)) / axes[1]
    # Flat-topped inside the ellipse, fading out (Gaussian) over about the ellipse's own size beyond it.
    r = np.sqrt(u * u + v * v)
    wash = rng.uniform(0.7, 0.85) * np.exp(-np.maximum(r - 1.0, 0.0) ** 2 * 2.0)
    full = cv2.resize(wash.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)[:, :, None]
    return np.asarray(np.clip(image + (255.0 - image) * full, 0, 255), np.uint8)


def _motion(image: Image, corners: Any, rng: np.random.Generator) -> Image:
    length = int(rng.integers(9, 14))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
    kernel = np.asarray(cv2.warpAffine(kernel, turn, (length, length)), np.float32)
    return np.asarray(cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6)), np.uint8)


def _warm(image: Image, corners: Any, rng: np.random.Generator) -> Image:
    cast = np.array([0.55, 0.8, 1.0], np.float32)
    lifted = 40.0 + image.astype(np.float32) * np.float32(0.7)
    noise = rng.standard_normal(image.shape, np.float32) * np.float32(5.0)
    return np.asarray(np.clip(lifted * cast + noise, 0, 255), np.uint8)


@dataclass(frozen=True)
class Style:
    """How one style departs from the usual: renderer options, and what happens to the photo after."""

    options: dict[str, Any] = field(default_factory=dict)
    """Extra `render_sheet` keyword arguments."""
    after: Callable[[Image], Image] | None = None
    """A change to the photo's pixels (exposure, focus)."""
    placed: Callable[[Image, Any, np.random.Generator], Image] | None = None
    """A change to the photo's pixels that depends on where the sheet lies (the truth's `corners`) and on
    chance (a generator seeded by the photo's seed): shadows, glare, shake."""
    quality: int | None = None
    """The JPEG quality the photo is saved at, instead of the renderer's."""


STYLES = {
    "usual": Style(),
    "small": Style({"writing_scale": 0.65}),
    "big": Style({"writing_scale": 1.4}),
    "thick": Style({"line_scale": 2.5}),
    "thin": Style({"line_scale": 0.4}),
    "far": Style({"distance": 1.0 / 0.6}),
    "steep": Style({"max_tilt": 50.0}),
    "dark": Style(after=_dark),
    "blur": Style(after=_blur),
    "jpeg": Style(quality=35),
    "shadow": Style(placed=_shadow),
    "glare": Style(placed=_glare),
    "motion": Style(placed=_motion),
    "warm": Style(placed=_warm),
}


def styled(style: Style, sheet: dict[str, Any], layout: str, seed: int, digits: str) -> Rendered:
    """One photo of `sheet` in `style`."""
    rendered = render_sheet(sheet, layout=layout, seed=seed, digits_from=digits,  # type: ignore[arg-type]
                            **style.options)
    if style.after is not None:
        rendered = replace(rendered, image=style.after(rendered.image))
    if style.placed is not None:
        chance = np.random.default_rng([seed, 11])
        rendered = replace(rendered, image=style.placed(rendered.image, rendered.truth["corners"], chance))
    if style.quality is not None:
        rendered = replace(rendered, jpeg_quality=style.quality)
    return rendered


def main(argv: list[str] | None = None) -> int:
    """Render each style's photos, scan and score them, print the markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=int, default=8, help="photos per style (default 8)")
    parser.add_argument("--seed", type=int, default=5000, help="first render seed (default 5000)")
    parser.add_argument("--styles", nargs="+", choices=sorted(STYLES), default=list(STYLES),
                        help="styles to read (default: all; 'usual' is always read first)")
    args = parser.parse_args(argv)
    _, sheets = sample_games()
    cnn = find_recognizer("cnn")
    tallies: dict[str, Tally] = {}
    for name in ["usual", *(s for s in args.styles if s != "usual")]:
        tally = tallies[name] = Tally()
        for i in range(args.photos):
            sheet, layout, digits = photo_plan(i, sheets)
            rendered = styled(STYLES[name], sheet, layout, args.seed + i, digits)
            run_one(cnn, rendered.jpeg(), rendered.truth, tally)
        print(f"  {name}: {tally.row(name, 1.0)}", file=sys.stderr)
    usual = tallies["usual"]

    def kept(tally: Tally, right: str, total: str) -> str:
        mine = getattr(tally, right) / max(1, getattr(tally, total))
        base = getattr(usual, right) / max(1, getattr(usual, total))
        return f"{100.0 * mine:.2f}% ({mine / base:.2f})" if base else f"{100.0 * mine:.2f}%"

    print(f"{args.photos} rendered 12 MP photos per style, seeds {args.seed}–{args.seed + args.photos - 1}, "
          "full pipeline, CNN; in brackets the share of the usual style's figure kept\n")
    print("| style | digits | numbers | zone final values | pulka target | no result | s / photo |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, tally in tallies.items():
        seconds = sum(tally.seconds) / max(1, len(tally.seconds))
        print(f"| {name} | {kept(tally, 'digits_right', 'digits')} | "
              f"{kept(tally, 'numbers_right', 'numbers')} | {kept(tally, 'zones_right', 'zones')} | "
              f"{tally.targets_right}/{tally.targets} | {tally.failures} | {seconds:.2f} s |")
    for name, tally in tallies.items():
        if tally.errors:
            print(f"\n{name} errors: " + ", ".join(f"{k} {v}" for k, v in tally.errors.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
