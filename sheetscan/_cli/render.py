"""`sheetscan render GAME.json -o PHOTO.jpg`: a photographed-looking sheet of a game, and its truth file."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from sheetscan._cli._io import read_json
from sheetscan.errors import InvalidInputError
from sheetscan.layouts import LAYOUTS, find_layout
from sheetscan.vision.render import render_sheet, sheet_or_game

HELP = "draw a photographed-looking sheet of a game record (or a sheet) and write its truth file"


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 4000x3000, got {text!r}") from None
    if not (200 <= width <= 10000 and 200 <= height <= 10000):
        raise argparse.ArgumentTypeError("each side of the photo must be 200..10000 pixels")
    return width, height


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """GAME.json (or SHEET.json), -o PHOTO, --layout, --seed, --digits-from, --size, --flat."""
    parser.add_argument("input", metavar="GAME.json",
                        help="a game record (sheetscan.game/1) or a sheet (sheetscan.sheet/1); - reads stdin")
    parser.add_argument("-o", "--output", required=True, metavar="PHOTO",
                        help="the photo (.jpg or .png); its truth goes to PHOTO.truth.json beside it")
    parser.add_argument("--layout", choices=[layout.name for layout in LAYOUTS],
                        help="sheet design (default: hand-drawn standard-N for the game's N players)")
    parser.add_argument("--seed", type=int, default=0, help="same seed, same photo (default 0)")
    parser.add_argument("--digits-from", choices=["test", "validation", "train"], default="test",
                        help="MNIST part of the handwriting; train only for training data (default test)")
    parser.add_argument("--size", type=_size, default=(4000, 3000), metavar="WxH",
                        help="photo size in pixels (default 4000x3000; may come out turned to portrait)")
    parser.add_argument("--flat", action="store_true", help="the flat paper, not a photo of it")
    parser.add_argument("--exif-orientation", type=int, choices=[1, 3, 6, 8], default=1,
                        help="store the JPEG's pixels turned with this EXIF Orientation tag, as phones do "
                             "(the truth is for the photo as shown; default 1: no tag)")


def truth_path(photo: Path) -> Path:
    """Where the truth file of `photo` goes: PHOTO.truth.json beside it."""
    return photo.with_name(photo.stem + ".truth.json")


def run(args: argparse.Namespace) -> int:
    """Render, write the photo and its truth, print both paths."""
    output = Path(args.output)
    if output.suffix.lower() not in (".jpg", ".jpeg", ".png"):
        raise InvalidInputError(f"{output}: the photo is written as .jpg or .png")
    sheet = sheet_or_game(read_json(args.input))
    layout = find_layout(args.layout) if args.layout else None
    rendered = render_sheet(sheet, layout=layout, seed=args.seed, digits_from=args.digits_from,
                            size=args.size, photo=not args.flat)
    if output.suffix.lower() == ".png":
        if args.exif_orientation != 1:
            raise InvalidInputError("--exif-orientation needs a .jpg photo")
        output.write_bytes(rendered.png())
    else:
        output.write_bytes(rendered.jpeg(exif_orientation=args.exif_orientation))
    truth = truth_path(output)
    truth.write_text(json.dumps(rendered.truth, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(output)
    print(truth)
    return 0
