"""The rules core: variants and conventions, game records, scoring, the sheet and the settlement.

Pure Python (no third-party imports). Everything downstream (engine, reconciliation, web) is checked
against this package, so its numbers come from the rules documents' worked examples.
"""

from __future__ import annotations

from sheetscan.rules._score import DealScore
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
from sheetscan.rules.closing import game_over
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
from sheetscan.rules.raspasy import next_raspasy_run, raspasy_price
from sheetscan.rules.replay import ReplayedDeal, replay, replay_deals
from sheetscan.rules.scoring import score_deal
from sheetscan.rules.settlement import SETTLEMENT_FORMAT, Payment, Settlement, settle, write_settlement
from sheetscan.rules.sheet import (
    SHEET_FORMAT,
    Sheet,
    Zone,
    check_sheet,
    parse_sheet_text,
    read_sheet,
    sheet_problems,
    sheet_to_text,
    write_sheet,
)
from sheetscan.rules.variants import VARIANTS, PriceRow, UnknownVariantError, Variant, find_variant

__all__ = [
    "GAME_FORMAT",
    "LADDER",
    "MISERE",
    "SETTLEMENT_FORMAT",
    "SHEET_FORMAT",
    "VARIANTS",
    "Card",
    "ConsolationTo",
    "Contract",
    "ContractError",
    "Deal",
    "DealKind",
    "DealScore",
    "Defence",
    "GameConfig",
    "GameRecord",
    "OptionError",
    "Options",
    "Payment",
    "Play",
    "PriceRow",
    "PulkaClose",
    "Rank",
    "RaspasyScoring",
    "RaspasyZero",
    "ReplayedDeal",
    "Responsibility",
    "Settlement",
    "Sheet",
    "Suit",
    "UnknownVariantError",
    "Variant",
    "WhistStyle",
    "Zone",
    "check_sheet",
    "deck",
    "find_variant",
    "game_over",
    "next_raspasy_run",
    "parse_card",
    "parse_contract",
    "parse_sheet_text",
    "raspasy_price",
    "read_game",
    "read_sheet",
    "replay",
    "replay_deals",
    "score_deal",
    "settle",
    "sheet_problems",
    "sheet_to_text",
    "write_game",
    "write_settlement",
    "write_sheet",
]
