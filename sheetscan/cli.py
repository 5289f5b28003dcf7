"""The `sheetscan` command: one subcommand per module in `sheetscan._cli`.

Each subcommand module defines `HELP` (one line), `add_arguments(parser)` and `run(args) -> int`.
This dispatcher is the only place that turns library errors into exit codes (FORMATS.md, "Commands"):
0 ok, 2 bad arguments or unreadable input, 3 no sheet found, 4 inconsistent data with `--strict`.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from sheetscan import _cli
from sheetscan.errors import SheetscanError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sheetscan",
        description="Read a photographed Preferans scoresheet, check it and settle the pulka.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(_cli.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"sheetscan._cli.{info.name}")
        sub = commands.add_parser(info.name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default: `sys.argv[1:]`) and return the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except SheetscanError as error:
        print(f"sheetscan {args.command}: {error}", file=sys.stderr)
        return error.exit_code
    except OSError as error:
        print(f"sheetscan {args.command}: {error.strerror or error}: {error.filename or ''}".rstrip(": "),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
