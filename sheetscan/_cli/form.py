"""`sheetscan form --players 3|4 -o FILE.pdf|png`: the printable scoresheet with markers and a QR code."""

from __future__ import annotations

import argparse

from sheetscan.errors import InvalidInputError
from sheetscan.rules import find_variant
from sheetscan.vision.render import save_form

HELP = "write a printable pulka form (A4 PDF or PNG, 300 dpi) with ArUco markers and a QR code"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--players, --variant, --pulka, -o, --dpi."""
    parser.add_argument("--players", type=int, choices=[3, 4], default=3, help="3 or 4 players (default 3)")
    parser.add_argument("--variant", help="printed in the QR code, e.g. sochi, leningrad, rostov")
    parser.add_argument("--pulka", type=int, metavar="T",
                        help="the pulka target: printed in the circle and the QR code")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.pdf or FILE.png")
    parser.add_argument("--dpi", type=int, default=300, help="resolution (default 300; 150..600)")


def run(args: argparse.Namespace) -> int:
    """Write the form and print its path."""
    variant = args.variant
    if variant is not None:
        # The canonical name, so that the QR code says what the reader will look up.
        variant = find_variant(variant).name
    if args.pulka is not None and not 1 <= args.pulka <= 1000:
        raise InvalidInputError(f"--pulka must be 1..1000, not {args.pulka}")
    if not 150 <= args.dpi <= 600:
        raise InvalidInputError(f"--dpi must be 150..600, not {args.dpi}")
    save_form(args.output, players=args.players, variant=variant, pulka=args.pulka, dpi=args.dpi)
    print(args.output)
    return 0
