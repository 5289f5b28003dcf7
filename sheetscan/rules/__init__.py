"""The rules core: variants and conventions, game records, scoring, the sheet and the settlement.

Pure Python (no third-party imports). Everything downstream (engine, reconciliation, web) is checked
against this package, so its numbers come from the rules documents' worked examples.
"""

from __future__ import annotations

from sheetscan.rules.cards import (
    LADDER,
    MISERE,
    Card,
    Contract,
    ContractError,
    Rank,
    Suit,
    deck,
    parse_card,
    parse_contract,
)
from sheetscan.rules.game import (
    GAME_FORMAT,
    Deal,
    DealKind,
    Defence,
    GameConfig,
    GameRecord,
    Play,
    read_game,
    write_game,
)
from sheetscan.rules.options import (
    ConsolationTo,
    OptionError,
    Options,
    PulkaClose,
    RaspasyScoring,
    RaspasyZero,
    Responsibility,
    WhistStyle,
)
from sheetscan.rules.variants import VARIANTS, PriceRow, UnknownVariantError, Variant, find_variant

__all__ = [
    "GAME_FORMAT",
    "LADDER",
    "MISERE",
    "VARIANTS",
    "Card",
    "ConsolationTo",
    "Contract",
    "ContractError",
    "Deal",
    "DealKind",
    "Defence",
    "GameConfig",
    "GameRecord",
    "OptionError",
    "Options",
    "Play",
    "PriceRow",
    "PulkaClose",
    "Rank",
    "RaspasyScoring",
    "RaspasyZero",
    "Responsibility",
    "Suit",
    "UnknownVariantError",
    "Variant",
    "WhistStyle",
    "deck",
    "find_variant",
    "parse_card",
    "parse_contract",
    "read_game",
    "write_game",
]
