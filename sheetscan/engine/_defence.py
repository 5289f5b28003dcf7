"""Whisting: who speaks after the contract is named, what he may say, and how the defence ends.

Sources (../shared/rules/): 003 «Вистование» and the Code (полвиста, возвратный вист, the dealer's right
when four play); 000 «Питер» («Пас > полвиста > вист», «Пас > пас > вист»); 002 «Сталинград».
"""

from __future__ import annotations

from sheetscan.engine._conventions import Conventions
from sheetscan.rules import Contract, Defence, Suit

__all__ = ["defence_step"]


def defence_step(words: tuple[tuple[int, Defence], ...], defenders: tuple[int, int], dealer: int,
                 contract: Contract, conv: Conventions) -> tuple[int, tuple[Defence, ...], str]:
    """Who speaks next and what he may say: (seat, words, ""); or how the defence ended: (whister, (), end)
    with end `two` (both whist), `lone` (one whister) or `none` (no play). `dealer` is -1 with 3 players."""
    d1, d2 = defenders
    level = contract.level
    said = [word for _, word in words]
    W, P, H = Defence.WHIST, Defence.PASS, Defence.HALF
    both = (W, P)
    dealer = dealer if conv.dealer_whist else -1
    if words and words[-1][0] == dealer:
        return (dealer, (), "lone") if said[-1] is W else (-1, (), "none")
    if conv.stalingrad and contract == Contract(6, Suit.SPADES) and len(said) < 2:
        return (d1 if not said else d2), (W,), ""  # 002: «все остальные автоматически вистуют»
    ask_dealer = (dealer, both, "") if dealer >= 0 else (-1, (), "none")
    if not said:
        return d1, both, ""
    if said == [W]:
        return d2, both, ""
    if said == [P]:
        return d2, ((W, P, H) if conv.half_whist and level in (6, 7) else both), ""
    if said == [W, W]:
        return -1, (), "two"
    if said in ([W, P], [P, H, W], [P, P, W]):
        return d1, (), "lone"
    if said == [P, W]:
        return d2, (), "lone"
    if said == [P, H]:
        # 003: «спасовавший партнёр имеет право вернуть вист»; then the dealer, last (4 players).
        return (d1, both, "") if conv.return_whist else ask_dealer
    if said == [P, P] and conv.pass_pass_whist and level in (8, 9):
        return d1, both, ""  # 000 «Питер»: «Пас > пас > вист на восьмерной и девятерной»
    return ask_dealer
