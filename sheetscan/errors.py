"""The errors sheetscan raises, and the exit code the command line gives each.

Library code raises these; only the CLI and the web app translate them (STYLE.md §8). "Badly written"
(`InvalidInputError`) is kept apart from "not allowed by the rules" (`RuleViolationError`).
"""

from __future__ import annotations

__all__ = [
    "InconsistentSheetError",
    "InvalidInputError",
    "NoSheetError",
    "RuleViolationError",
    "SheetscanError",
    "UnreadableImageError",
]


class SheetscanError(Exception):
    """Base of every error sheetscan raises on purpose; `exit_code` is what the CLI exits with."""

    exit_code = 2


class InvalidInputError(SheetscanError, ValueError):
    """Input that is badly written: unknown format, malformed contract, missing field, bad option."""


class RuleViolationError(SheetscanError, ValueError):
    """Input that is well formed but not allowed by the rules (tricks that do not add up to 10 …)."""


class UnreadableImageError(InvalidInputError):
    """A file that is not an image we can decode safely (corrupt, truncated, empty, too large)."""


class NoSheetError(SheetscanError):
    """A readable photo in which no scoresheet could be found."""

    exit_code = 3


class InconsistentSheetError(SheetscanError):
    """The sheet's numbers contradict the rules and the caller asked to be strict."""

    exit_code = 4
