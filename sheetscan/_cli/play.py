"""`sheetscan play`: the engine's bots play a whole pulka; prints its `sheetscan.game/1` record."""

from __future__ import annotations

import argparse

from sheetscan._cli._io import write_json
from sheetscan.engine import play_pulka

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


def run(args: argparse.Namespace) -> int:
    """Play and print the record."""
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    write_json(play_pulka(args.variant, args.players, args.pulka, deals=args.deals, seed=args.seed,
                          names=names))
    return 0
