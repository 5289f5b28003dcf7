"""Readable plain-text tables of a replay, a sheet and a settlement (for the command line)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sheetscan.rules.replay import ReplayedDeal
from sheetscan.rules.settlement import Settlement, fmt_whists
from sheetscan.rules.sheet import Sheet

__all__ = ["deals_table", "settlement_text", "sheet_table"]


def _table(rows: Sequence[Sequence[str]], right: Iterable[int] = ()) -> list[str]:
    """Rows aligned in columns; columns in `right` are right-aligned (numbers)."""
    right = set(right)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
    return lines


def deals_table(deals: Iterable[ReplayedDeal]) -> str:
    """One line per deal: its number, what happened and what it wrote; a mark where the pulka closed."""
    rows = [["#", "deal", "written"]]
    closed = False
    for step in deals:
        note = str(step.written)
        if step.closed and not closed:
            note += "  ← pulka closed"
            closed = True
        rows.append([str(step.number), str(step.deal), note])
    return "\n".join(_table(rows, right=[0]))


def sheet_table(sheet: Sheet) -> str:
    """The sheet's totals: pulka, gora and whists on each player, one column per player."""
    players = sheet.players
    rows = [["", *players]]
    rows.append(["pulka", *(str(sheet.zones[p].pulka_total) for p in players)])
    rows.append(["gora", *(str(sheet.zones[p].gora_total) for p in players)])
    for on in players:
        rows.append([f"whists on {on}",
                     *("" if p == on else str(sheet.zones[p].whists_on(on)) for p in players)])
    title = (f"{sheet.variant.title} ({sheet.variant.name}), pulka to {sheet.pulka}; "
             "whists on X = what each column's player wrote on X")
    return "\n".join([title, *_table(rows, right=range(1, len(players) + 1))])


def settlement_text(settlement: Settlement) -> str:
    """Balances, payments (and money at the price per whist) and the steps to check them on paper."""
    players = settlement.players
    price = settlement.per_whist
    rows = [["", *players], ["balance, whists", *(fmt_whists(settlement.balances[p]) for p in players)]]
    if price != 1:
        currency = f" {settlement.currency}" if settlement.currency else ""
        rows.append([f"money at {fmt_whists(price)}{currency}",
                     *(fmt_whists(settlement.balances[p] * price) for p in players)])
    lines = ["Settlement", *_table(rows, right=range(1, len(players) + 1)), ""]
    if settlement.payments:
        lines.append("Payments:")
        for payment in settlement.payments:
            money = f" = {fmt_whists(payment.whists * price)} money" if price != 1 else ""
            lines.append(f"  {payment.payer} → {payment.payee}: {fmt_whists(payment.whists)} whists{money}")
    else:
        lines.append("Payments: none, everyone is even.")
    lines.append("")
    lines.append("How it was reached:")
    lines.extend(f"  {number}. {step}" for number, step in enumerate(settlement.steps, start=1))
    return "\n".join(lines)
