"""`sheetscan replay GAME.json [--json]`: a game record → the sheet it produces and its settlement."""

from __future__ import annotations

import argparse

from sheetscan._cli._io import read_json, write_json
from sheetscan.rules import read_game, replay, settle, write_settlement, write_sheet
from sheetscan.rules.replay import replay_deals
from sheetscan.rules.report import deals_table, settlement_text, sheet_table

HELP = "replay a game record (sheetscan.game/1) into the sheet it produces and settle it"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """GAME (a file or - for standard input) and --json."""
    parser.add_argument("game", metavar="GAME.json", help="the game record; - reads standard input")
    parser.add_argument("--json", action="store_true",
                        help='print {"sheet": sheetscan.sheet/1, "settlement": sheetscan.settlement/1}')


def run(args: argparse.Namespace) -> int:
    """Replay, settle at the record's price per whist, print JSON or readable tables."""
    record = read_game(read_json(args.game))
    sheet = replay(record)
    settlement = settle(sheet, price=record.config.price)
    if args.json:
        write_json({"sheet": write_sheet(sheet), "settlement": write_settlement(settlement)})
        return 0
    print(deals_table(replay_deals(record)))
    print()
    print(sheet_table(sheet))
    print()
    print(settlement_text(settlement))
    return 0
