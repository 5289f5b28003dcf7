"""sheetscan: turn a photo of a hand-written Preferans scoresheet into checked numbers and a settlement.

The public API is what `__all__` names; everything else may change. The rules core and the engine are
imported eagerly (pure Python, quick); the photo side (OpenCV) only when one of its names is first used,
so `import sheetscan` stays light for code that only scores and settles.
"""

from __future__ import annotations

import importlib
from typing import Any

from sheetscan.engine import Bots, DealState, play_pulka
from sheetscan.errors import (
    InconsistentSheetError,
    InvalidInputError,
    NoSheetError,
    RuleViolationError,
    SheetscanError,
    UnreadableImageError,
)
from sheetscan.layouts import find_layout
from sheetscan.rules import (
    Contract,
    GameConfig,
    GameRecord,
    Options,
    Settlement,
    Sheet,
    Variant,
    find_variant,
    parse_contract,
    read_game,
    read_sheet,
    replay,
    settle,
    sheet_problems,
    write_game,
    write_settlement,
    write_sheet,
)

__version__ = "0.1.0"

_VISION = {
    "load_photo": "sheetscan.vision.photo",
    "scan": "sheetscan.vision.scan",
    "scan_to_json": "sheetscan.vision.scan",
    "ScanResult": "sheetscan.vision.scan",
    "find_recognizer": "sheetscan.vision.recognise",
    "render_sheet": "sheetscan.vision.render",
    "render_game": "sheetscan.vision.render",
    "save_form": "sheetscan.vision.render",
}

__all__ = [
    "Bots",
    "Contract",
    "DealState",
    "GameConfig",
    "GameRecord",
    "InconsistentSheetError",
    "InvalidInputError",
    "NoSheetError",
    "Options",
    "RuleViolationError",
    "ScanResult",
    "Settlement",
    "Sheet",
    "SheetscanError",
    "UnreadableImageError",
    "Variant",
    "__version__",
    "find_layout",
    "find_recognizer",
    "find_variant",
    "load_photo",
    "parse_contract",
    "play_pulka",
    "read_game",
    "read_sheet",
    "render_game",
    "render_sheet",
    "replay",
    "save_form",
    "scan",
    "scan_to_json",
    "settle",
    "sheet_problems",
    "write_game",
    "write_settlement",
    "write_sheet",
]


def __getattr__(name: str) -> Any:
    """Import the photo side on first use of one of its names (it loads OpenCV)."""
    if name in _VISION:
        return getattr(importlib.import_module(_VISION[name]), name)
    raise AttributeError(f"module 'sheetscan' has no attribute {name!r}")
