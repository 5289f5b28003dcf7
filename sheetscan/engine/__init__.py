"""The Preferans engine: deal, auction, talon, whisting, play and raspasy, with bots.

`DealState` is one deal as a push/pop state (python-chess `Board` style, STYLE.md §5): legal actions are
generators, illegal ones raise `IllegalMove` (badly written ones `InvalidMove`) showing the position's
text form, and a finished deal returns an `Outcome`. `Bots` play any seat; `play_pulka` plays a whole
pulka and returns its `sheetscan.game/1` record, which `sheetscan.rules` scores.
"""

from __future__ import annotations

from sheetscan.engine._bots import Bots, play_deal
from sheetscan.engine._conventions import Conventions
from sheetscan.engine._deal import DealState
from sheetscan.engine._outcome import Call, IllegalMove, InvalidMove, Outcome, Phase
from sheetscan.engine._pulka import DEFAULT_NAMES, deal_json, play_pulka

__all__ = [
    "DEFAULT_NAMES",
    "Bots",
    "Call",
    "Conventions",
    "DealState",
    "IllegalMove",
    "InvalidMove",
    "Outcome",
    "Phase",
    "deal_json",
    "play_deal",
    "play_pulka",
]
