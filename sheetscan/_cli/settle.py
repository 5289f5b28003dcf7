"""`sheetscan settle SHEET.json [--price P] [--json]`: a sheet → its settlement."""

from __future__ import annotations

import argparse

from sheetscan._cli._io import read_json, write_json
from sheetscan.rules import read_sheet, settle, write_settlement
from sheetscan.rules.report import settlement_text, sheet_table

HELP = "settle a sheet (sheetscan.sheet/1): balances, the fewest payments, money at a price per whist"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """SHEET (a file or - for standard input), --price and --json."""
    parser.add_argument("sheet", metavar="SHEET.json", help="the sheet; - reads standard input")
    parser.add_argument("--price", metavar="P", default="1",
                        help="money per whist, e.g. 1, 0.5 or 1/3 (default 1)")
    parser.add_argument("--json", action="store_true", help="print sheetscan.settlement/1 JSON")


def run(args: argparse.Namespace) -> int:
    """Read, check and settle the sheet; print JSON or readable tables."""
    sheet = read_sheet(read_json(args.sheet))
    settlement = settle(sheet, price=args.price)
    if args.json:
        write_json(write_settlement(settlement))
        return 0
    print(sheet_table(sheet))
    print()
    print(settlement_text(settlement))
    return 0
