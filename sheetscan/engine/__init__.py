"""The Preferans engine: deal, auction, talon, whisting, play and raspasy, with bots.

`DealState` is one deal as a push/pop state (python-chess `Board` style, STYLE.md §5): legal actions are
generators, illegal ones raise `IllegalMove` (badly written ones `InvalidMove`) showing the position's
text form, and a finished deal returns an `Outcome`. `Bots` play any seat; `play_pulka` plays a whole
pulka and returns its `sheetscan.game/1` record, which `sheetscan.rules` scores; `replay_game` plays such a
record's deals again from their recorded cards, checking every call, card and trick count.

    >>> import random
    >>> state = DealState.shuffled(random.Random(1), dealer=2, conventions=Conventions.for_variant("sochi"))
    >>> [str(call) for call in state.legal_calls()]
    ['pass', 'misere', '6s']
    >>> state.push("6s"); state.push("pass"); state.push("pass")   # the first hand wins the talon
    >>> state.phase
    <Phase.DISCARD: 1>
    >>> play_deal(state, Bots(seed=1)).outcome() is not None   # let the bots finish it
    True
"""

from __future__ import annotations

from sheetscan.engine._bots import Bots, play_deal
from sheetscan.engine._conventions import Conventions
from sheetscan.engine._deal import DealState
from sheetscan.engine._outcome import Call, IllegalMove, InvalidMove, Outcome, Phase
from sheetscan.engine._pulka import DEFAULT_NAMES, deal_json, play_pulka
from sheetscan.engine._record import deal_from_json, replay_game

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
    "deal_from_json",
    "deal_json",
    "play_deal",
    "play_pulka",
    "replay_game",
]
