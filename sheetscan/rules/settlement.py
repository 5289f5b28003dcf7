"""Settling a sheet (`sheetscan.settlement/1`): balances in whists, the fewest payments, money.

Source: ../shared/rules/004_245209cfcabb2668.txt, «Ленинградка», the end-of-pulka example: the pulka's
difference from the average goes to the gora doubled; the amnesty lowers every gora by the smallest; a
gora point is 10 whists lost to the whole table, the loser included («проигран всему столу (включая себя
самого)»), so each other player writes gora × 10 / n on him; the second method, the average gora, must
agree. Everything is exact (`Fraction`); only the written figures are rounded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sheetscan.rules.game import parse_price
from sheetscan.rules.sheet import Sheet, check_sheet

__all__ = [
    "SETTLEMENT_FORMAT",
    "Payment",
    "Settlement",
    "fewest_payments",
    "fmt_whists",
    "settle",
    "write_settlement",
]

SETTLEMENT_FORMAT = "sheetscan.settlement/1"
"""The format tag of settlements."""


@dataclass(frozen=True)
class Payment:
    """One transfer that settles the balances."""

    payer: str
    """Who pays."""
    payee: str
    """Who receives."""
    whists: Fraction
    """How many whists (exact)."""


@dataclass(frozen=True)
class Settlement:
    """The result of a pulka: each player's balance in whists and the payments that settle it."""

    players: tuple[str, ...]
    """The players in seat order."""
    pulka_gora: Mapping[str, Fraction]
    """Each gora after the pulka's difference from the target was moved into it, in gora points."""
    gora: Mapping[str, Fraction]
    """Each gora after that and the amnesty: what is turned into whists."""
    gora_share: Mapping[str, Fraction]
    """The whists every other player writes on each player for his gora (gora × whists a point / n)."""
    balances: Mapping[str, Fraction]
    """Whists won (positive) or lost (negative); they sum to exactly zero."""
    pairwise: Mapping[tuple[str, str], Fraction]
    """For each pair (a, b) in seat order, the whists a owes b after netting (negative: b owes a)."""
    payments: tuple[Payment, ...]
    """The fewest transfers that settle the balances."""
    per_whist: Fraction
    """Money per whist."""
    currency: str
    """The currency's name or sign (may be empty)."""
    steps: tuple[str, ...]
    """How each figure was reached, in words a player can check on paper."""


def fmt_whists(value: Fraction) -> str:
    """A decimal rounded to 2 places, halves away from zero: `-213.33`, `20.00`."""
    scaled = abs(value) * 100
    cents = (scaled + Fraction(1, 2)).__floor__()
    sign = "-" if value < 0 and cents else ""
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def _num(value: Fraction) -> str:
    """A figure for the steps: whole numbers bare, others to 2 places (≈ when rounded)."""
    if value.denominator == 1:
        return str(value.numerator)
    return fmt_whists(value)


def _exact(value: Fraction) -> str:
    return str(value)


def fewest_payments(balances: Mapping[str, Fraction], order: tuple[str, ...]) -> tuple[Payment, ...]:
    """The fewest transfers that settle `balances` (which sum to zero).

    n players with non-zero balances need n − k transfers, k the largest number of disjoint groups whose
    balances each sum to zero; found by a search over subsets (n is 3 or 4 here, at most a dozen).
    Inside each group the largest debtor pays the largest creditor until the group is settled.
    """
    names = [name for name in order if balances[name]]
    count = len(names)
    sums = [Fraction(0)] * (1 << count)
    for mask in range(1, 1 << count):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + balances[names[low]]
    # best[mask]: most zero-sum groups `mask` splits into; split[mask]: a zero-sum group to take out.
    best = [0] * (1 << count)
    split = [0] * (1 << count)
    for mask in range(1, 1 << count):
        if sums[mask] != 0:
            continue
        best[mask], split[mask] = 1, mask
        sub = (mask - 1) & mask
        while sub:
            if sums[sub] == 0 and best[sub] == 1 and best[mask ^ sub] + 1 > best[mask]:
                best[mask], split[mask] = best[mask ^ sub] + 1, sub
            sub = (sub - 1) & mask
    payments: list[Payment] = []
    mask = (1 << count) - 1
    while mask:
        group = split[mask]
        owed = {names[i]: balances[names[i]] for i in range(count) if group >> i & 1}
        while any(owed.values()):
            debtor = min(owed, key=lambda name: (owed[name], order.index(name)))
            creditor = max(owed, key=lambda name: (owed[name], -order.index(name)))
            amount = min(-owed[debtor], owed[creditor])
            payments.append(Payment(debtor, creditor, amount))
            owed[debtor] += amount
            owed[creditor] -= amount
        mask ^= group
    return tuple(payments)


def settle(sheet: Sheet, *, price: Fraction | int | str | None = None, currency: str = "") -> Settlement:
    """Settle a sheet: its pulkas, goras and whists into balances, payments and money.

    1. Each pulka's difference from the target goes to the gora at `pulka_point_whists / gora_point_whists`
       gora points per pulka point (Leningrad: doubled; Sochi, Rostov: points short of a closed pulka).
    2. With `amnesty`, every gora is lowered by the smallest (no balance changes, the figures get smaller).
    3. Each gora point is `gora_point_whists` whists lost to all n players, the loser included.
    4. Whists written on each other are netted pair by pair; the balances sum to exactly zero.
    Raises `RuleViolationError` if a running total on the sheet goes down.
    """
    check_sheet(sheet)
    per_whist = parse_price(price if price is not None else 1)
    options = sheet.options
    players = sheet.players
    n = len(players)
    steps: list[str] = []
    zones = sheet.zones
    pulka = {name: zones[name].pulka_total for name in players}
    gora = {name: Fraction(zones[name].gora_total) for name in players}
    whists = {(a, b): zones[a].whists_on(b) for a in players for b in players if a != b}

    # The reference is the target itself, not the pulkas' actual mean: in 004's example the pulkas sum to
    # 152 and the average used is 50 («Среднее арифметическое (сумма 150)»).
    ratio = Fraction(options.pulka_point_whists, options.gora_point_whists)
    steps.append(
        "Pulka: " + ", ".join(f"{name} {pulka[name]}" for name in players)
        + f" (target {sheet.pulka} each, total {sum(pulka.values())} of {sheet.pulka * n}). "
        + f"Each point short of the target adds {_num(ratio)} to the gora, each point over it takes "
        + f"{_num(ratio)} off ({options.pulka_point_whists} whists a pulka point, "
        + f"{options.gora_point_whists} a gora point).")
    moved = []
    for name in players:
        difference = sheet.pulka - pulka[name]
        if difference:
            before = gora[name]
            gora[name] += difference * ratio
            sign = "+" if difference > 0 else "−"
            moved.append(f"{name} {_num(before)} {sign} {_num(abs(difference) * ratio)} = {_num(gora[name])}")
        else:
            moved.append(f"{name} {_num(gora[name])} (pulka at the target)")
    steps.append("Gora after the pulka: " + ("; ".join(moved) if moved else "no change, every pulka is at "
                                              "the target") + ".")
    pulka_gora = dict(gora)
    if options.amnesty:
        lowest = min(gora.values())
        gora = {name: value - lowest for name, value in gora.items()}
        change = (f"lowered by the smallest, {_num(lowest)}" if lowest >= 0
                  else f"raised by {_num(-lowest)}, the smallest being below zero")
        steps.append(f"Amnesty: every gora {change}: "
                     + ", ".join(f"{name} {_num(gora[name])}" for name in players) + ".")
    lost = {name: gora[name] * options.gora_point_whists for name in players}
    share = {name: lost[name] / n for name in players}
    steps.append(
        f"Gora into whists: each gora point is {options.gora_point_whists} whists lost to all {n} players "
        "(the loser included), so every other player writes gora × "
        f"{options.gora_point_whists} / {n} on him: "
        + ", ".join(f"{name} {_num(gora[name])} × {options.gora_point_whists} / {n} = {_num(share[name])}"
                    for name in players) + ".")
    average = sum(lost.values(), Fraction(0)) / n
    steps.append(f"Check by the average gora: ({' + '.join(_num(lost[name]) for name in players)}) / {n} = "
                 f"{_num(average)}; " + ", ".join(
                     f"{name} {_num(average)} − {_num(lost[name])} = {_num(average - lost[name])}"
                     for name in players) + ".")
    written = [f"{a} on {b} {whists[(a, b)]}" for a in players for b in players if a != b and whists[(a, b)]]
    steps.append("Whists written: " + (", ".join(written) if written else "none") + ".")
    pairwise: dict[tuple[str, str], Fraction] = {}
    netting = []
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            # What a owes b: b's whists on a and b's gora share written on a, less the other way round.
            owes = whists[(b, a)] - whists[(a, b)] + share[a] - share[b]
            pairwise[(a, b)] = owes
            payer, payee = (a, b) if owes >= 0 else (b, a)
            netting.append(
                f"{a}–{b}: {b} has {whists[(b, a)]} + {_num(share[a])} on {a}, {a} has {whists[(a, b)]} + "
                f"{_num(share[b])} on {b}, so {payer} owes {payee} {_num(abs(owes))}")
    steps.append("Netted pair by pair: " + "; ".join(netting) + ".")
    balances = {
        name: sum(((pairwise[(a, b)] if b == name else -pairwise[(a, b)])
                   for (a, b) in pairwise if name in (a, b)), Fraction(0))
        for name in players
    }
    by_average = {name: average - lost[name]
                  + sum(whists[(name, b)] - whists[(b, name)] for b in players if b != name)
                  for name in players}
    if by_average != balances or sum(balances.values()) != 0:
        raise AssertionError(f"settlement methods disagree: {balances} vs {by_average}")
    steps.append("Balances: " + ", ".join(f"{name} {_num(balances[name])}" for name in players)
                 + "; they sum to 0, and the average-gora method gives the same.")
    payments = fewest_payments(balances, players)
    paid = [f"{p.payer} pays {p.payee} {_num(p.whists)} whists" for p in payments]
    steps.append("Payments: " + ("; ".join(paid) if paid else "none, everyone is even") + ".")
    if per_whist != 1:
        steps.append(f"Money at {_num(per_whist)}{(' ' + currency) if currency else ''} a whist: "
                     + "; ".join(f"{p.payer} pays {p.payee} {fmt_whists(p.whists * per_whist)}"
                                 for p in payments) + ".")
    return Settlement(players, pulka_gora, gora, share, balances, pairwise, payments, per_whist, currency,
                      tuple(steps))


def write_settlement(settlement: Settlement) -> dict[str, Any]:
    """The settlement as `sheetscan.settlement/1` JSON (decimals to 2 places plus exact `p/q` strings)."""
    price = settlement.per_whist
    return {
        "format": SETTLEMENT_FORMAT,
        "balances": {name: fmt_whists(value) for name, value in settlement.balances.items()},
        "exact": {name: _exact(value) for name, value in settlement.balances.items()},
        "payments": [
            {"from": p.payer, "to": p.payee, "whists": fmt_whists(p.whists),
             "money": fmt_whists(p.whists * price)}
            for p in settlement.payments
        ],
        "money": {
            "per_whist": _exact(price) if price.denominator == 1 else _num(price),
            "currency": settlement.currency,
            "balances": {name: fmt_whists(value * price) for name, value in settlement.balances.items()},
        },
        "steps": list(settlement.steps),
    }
