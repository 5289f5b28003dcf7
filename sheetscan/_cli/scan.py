"""`sheetscan scan PHOTO [--variant V] [--players N] [--json] [--debug-dir D] [--recognizer R]`."""

from __future__ import annotations

import argparse
from typing import Any

from sheetscan._cli._io import write_json
from sheetscan.errors import InvalidInputError
from sheetscan.vision.scan import scan, scan_to_json

HELP = "read a photo of a pulka sheet: every written number, where it is and how sure we are"

# Numbers read with less confidence than this are flagged in the readable report.
_UNSURE = 0.9


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """PHOTO and the scan's options."""
    parser.add_argument("photo", metavar="PHOTO", help="the photo (JPEG, PNG, WebP; HEIC with pillow-heif)")
    parser.add_argument("--variant", metavar="V",
                        help="the rules the sheet was kept by (sochi, leningrad, rostov, …)")
    parser.add_argument("--players", type=int, choices=(3, 4), help="3 or 4 players (found from the sheet "
                        "when not given)")
    parser.add_argument("--json", action="store_true", help="print the sheetscan.scan/1 JSON")
    parser.add_argument("--debug-dir", metavar="D", help="write one numbered image per stage into D")
    parser.add_argument("--recognizer", choices=("cnn", "tesseract"), default="cnn",
                        help="digit recogniser (default cnn; tesseract is the baseline)")


def run(args: argparse.Namespace) -> int:
    """Scan the photo and print the result."""
    if args.variant is not None:
        _check_variant(args.variant)
    result = scan(args.photo, variant=args.variant, players=args.players, recognizer=args.recognizer,
                  debug_dir=args.debug_dir)
    data = scan_to_json(result)
    if args.json:
        write_json(data)
    else:
        print(report(data))
    return 0


def _check_variant(name: str) -> None:
    """A clear error for an unknown variant before the photo is read (when the rules core is there)."""
    try:
        from sheetscan.rules import find_variant
    except ImportError:  # the rules core is optional for scanning
        return
    try:
        find_variant(name)
    except ValueError as error:
        raise InvalidInputError(str(error)) from None


def report(data: dict[str, Any]) -> str:
    """The scan result as text a player can check against the paper."""
    layout = data["layout"]
    names = data["sheet"]["players"]
    lines = [
        f"sheet: {layout['name']}, {layout['players']} players, turned {layout['rotation']}°, "
        f"pulka target {layout['pulka_written'] if layout['pulka_written'] is not None else '?'}",
    ]
    if data.get("partial"):
        lines.append("PARTIAL: " + "; ".join(data.get("problems", [])))
    for zone in data["zones"]:
        where = f"{names[zone['player']]} {zone['kind']}"
        if zone["kind"] == "whists":
            where += f" on {names[zone['on']]}"
        shown = []
        for number in zone["numbers"]:
            text = "?" if number["value"] is None else str(number["value"])
            if number["crossed_out"]:
                text = f"-{text}-"
            elif number["confidence"] < _UNSURE:
                alternatives = "/".join(str(v) for v, _ in number["alternatives"][:2])
                text = f"{text}({number['confidence']:.0%}{' or ' + alternatives if alternatives else ''})"
            shown.append(text)
        lines.append(f"  {where:<22} {'.'.join(shown) if shown else '—'}")
    settlement = data.get("settlement")
    if settlement:
        lines.append("settlement (whists): " + ", ".join(f"{name} {value}"
                                                         for name, value in settlement["balances"].items()))
    elif not data.get("partial"):
        lines.append("settlement: not computed (the numbers as read do not form a valid sheet; "
                     "check the unsure ones)")
    return "\n".join(lines)
