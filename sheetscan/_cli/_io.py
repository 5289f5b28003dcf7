"""Reading and writing the JSON files the commands take, with clear errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from sheetscan.errors import InvalidInputError

__all__ = ["read_json", "write_json"]


def read_json(path: str) -> Any:
    """Read JSON from a file, or from standard input when `path` is `-`."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidInputError(f"no such file: {path}") from None
    except UnicodeDecodeError:
        raise InvalidInputError(f"{path} is not UTF-8 text; expected a JSON file") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        where = "standard input" if path == "-" else path
        raise InvalidInputError(
            f"{where} is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None


def write_json(data: Any) -> None:
    """Print `data` as indented JSON, keeping Cyrillic names readable."""
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
