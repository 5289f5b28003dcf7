"""Hand estimates for the bots, precomputed per suit holding (256 holdings) so a bot decides in a few lookups.

A suit holding is 8 bits (bit 0 = the seven … bit 7 = the ace). The trick estimate plays the suit out
against the two opponents holding every missing card: while they hold a higher card we duck and they take
with it (the other following low); else we win with the cheapest winner and they follow with their
lowest two. Length tricks count fully in the trump suit and less in a side suit, where they are ruffed.
"""

from __future__ import annotations

from sheetscan.engine._bits import SUIT_MASKS

__all__ = ["MISERE_BAD", "calibrated", "estimate_contract", "estimate_defence", "misere_bad"]


def _simulate(holding: int, length_weight: float, late_weight: float) -> float:
    ours = [r for r in range(8) if holding >> r & 1]
    opp = [r for r in range(8) if not holding >> r & 1]
    total = 0.0
    lost = False
    rounds = 0
    while ours:
        rounds += 1
        if opp and opp[-1] > ours[-1]:
            ours.pop(0)
            opp.pop()
            if opp:
                opp.pop(0)
            lost = True
            continue
        if not opp:
            total += length_weight
            ours.pop()
            continue
        winner = next(r for r in ours if r > opp[-1])
        ours.remove(winner)
        del opp[:2]
        total += late_weight if (lost or rounds >= 3) else 1.0
    return total


TRUMP = tuple(_simulate(h, 1.0, 0.8) for h in range(256))
"""Estimated tricks of a holding in the trump suit."""
SIDE = tuple(_simulate(h, 0.2, 0.45) for h in range(256))
"""Estimated tricks of a side suit in a trump contract (length tricks get ruffed)."""
NOTRUMP = tuple(_simulate(h, 0.85, 0.7) for h in range(256))
"""Estimated tricks of a suit in no trump."""
DEFENCE = tuple(min(_simulate(h, 0.0, 0.4), 2.0) for h in range(256))
"""Estimated tricks of a defender's side suit (high cards only; the declarer ruffs the rest)."""
STOPPED = tuple(bool(h & 0x80) or (bool(h & 0x40) and h.bit_count() >= 2) or
                (bool(h & 0x20) and h.bit_count() >= 3) for h in range(256))
"""The suit holds a stopper against no trump (A, Kx, Qxx)."""


def _misere_bad(holding: int) -> int:
    # A misère suit is safe when its i-th lowest card is at most the (2i)-th rank (7, 9, J, K …): every
    # lead in it can be ducked. Each card above that line is a card the opponents can catch.
    ranks = [r for r in range(8) if holding >> r & 1]
    return sum(1 for i, r in enumerate(ranks) if r > 2 * i)


MISERE_BAD = tuple(_misere_bad(h) for h in range(256))
"""Cards of a suit holding that could be caught on a misère."""


def _suits(hand: int) -> tuple[int, int, int, int]:
    return hand & 0xFF, hand >> 8 & 0xFF, hand >> 16 & 0xFF, hand >> 24 & 0xFF


def estimate_contract(hand: int, trump: int) -> float:
    """Tricks a declarer may expect with this hand in `trump` (0…3), or no trump (-1)."""
    suits = _suits(hand)
    if trump < 0:
        total = sum(NOTRUMP[h] for h in suits)
        # An unstopped suit lets the defenders run it: count what they may take there.
        unstopped = sum(1 for h in suits if not STOPPED[h])
        return total - 1.5 * unstopped
    total = TRUMP[suits[trump]]
    trumps = suits[trump].bit_count()
    ruffs = 0
    for s, h in enumerate(suits):
        if s != trump:
            total += SIDE[h]
            ruffs += max(0, 2 - h.bit_count())
    spare = max(0, trumps - 3)
    return total + 0.7 * min(ruffs, spare)


def calibrated(estimate: float) -> float:
    """Tricks the bots actually take for a raw `estimate_contract` (fitted on their own play: the raw
    count is optimistic by about a trick at 8 and two at 10)."""
    return 0.7 * estimate + 1.3


def estimate_defence(hand: int, trump: int) -> float:
    """Tricks a defender may expect against a contract in `trump` (0…3) or no trump (-1)."""
    suits = _suits(hand)
    total = 0.0
    for s, h in enumerate(suits):
        if s == trump:
            total += TRUMP[h] * 0.8
        else:
            total += DEFENCE[h] if trump >= 0 else min(NOTRUMP[h], 2.5) * 0.8
    return total


def misere_bad(hand: int) -> int:
    """How many cards of a hand could be caught on a misère."""
    return sum(MISERE_BAD[h] for h in _suits(hand))


def suit_of(hand: int, suit: int) -> int:
    """The 8-bit holding of one suit."""
    return (hand & SUIT_MASKS[suit]) >> (8 * suit)
