"""`sheetscan play`: the engine's bots play a whole pulka; prints its `sheetscan.game/1` record."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sheetscan._cli._io import write_json
from sheetscan.engine import play_pulka
from sheetscan.errors import InvalidInputError

HELP = "the bots play a whole pulka and print its game record (JSON)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: variant, players, pulka target, a deal limit and the seed."""
    parser.add_argument("--variant", default="sochi",
                        help="sochi, leningrad, rostov, piter or a Russian name (default: sochi)")
    parser.add_argument("--players", type=int, default=3, choices=(3, 4),
                        help="3 or 4 (with 4 the dealer sits out); default 3")
    parser.add_argument("--pulka", type=int, default=20, metavar="T",
                        help="the pulka target per player (default 20)")
    parser.add_argument("--deals", type=int, default=None, metavar="K",
                        help="stop after K deals even if the pulka is not closed")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    parser.add_argument("--names", default=None, metavar="A,B,C",
                        help="player names in seat order, comma-separated (default Anna,Boris,Vera[,Gleb])")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="override a house convention of the variant (FORMATS.md «Options»), the value "
                             "as JSON: --option stalingrad=true --option raspasy_progression=[2,4,6]")


def _options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise InvalidInputError(f"--option {pair!r}: expected KEY=VALUE, e.g. stalingrad=true")
        try:
            options[key.strip()] = json.loads(text)
        except json.JSONDecodeError:
            options[key.strip()] = text  # a bare word such as gentleman
    return options


def run(args: argparse.Namespace) -> int:
    """Play and print the record."""
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    write_json(play_pulka(args.variant, args.players, args.pulka, deals=args.deals, seed=args.seed,
                          names=names, options=_options(args.option)))
    return 0
