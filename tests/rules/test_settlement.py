"""Settlement against 004's worked examples and hand-computed cases."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sheetscan.rules import Sheet, read_sheet, settle, write_settlement
from sheetscan.rules.settlement import fewest_payments

from ._cases import fraction, load


@pytest.mark.parametrize("name", ["settlement-leningrad.sheet", "settlement-rostov-common.sheet"])
def test_worked_settlement(name: str) -> None:
    data = load(name)
    expect = data["expect"]
    result = settle(read_sheet(data["sheet"]))
    assert result.pulka_gora == {k: Fraction(v) for k, v in expect["gora_before_amnesty"].items()}
    assert result.gora == {k: Fraction(v) for k, v in expect["gora_after_amnesty"].items()}
    assert result.gora_share == {k: fraction(v) for k, v in expect["gora_share"].items()}
    assert result.balances == {k: fraction(v) for k, v in expect["balances"].items()}
    assert sum(result.balances.values()) == 0
    # 004's first method: «В пишет на А 133 виста, на С – 53 виста. С пишет на А 80 вистов.»
    for creditor, debtor, amount in expect.get("written_by_on", []):
        key = (debtor, creditor) if (debtor, creditor) in result.pairwise else (creditor, debtor)
        sign = 1 if key == (debtor, creditor) else -1
        assert result.pairwise[key] * sign == fraction(amount), (debtor, creditor)
    if "balances_rounded" in expect:
        assert write_settlement(result)["balances"] == expect["balances_rounded"]


def test_leningrad_document_written_form() -> None:
    # 004: «В пишет на А 133 виста, на С – 53 виста. С пишет на А 80 вистов.» and the second method's
    # 213,3 / 186,6 / 26,6: our written figures round the same exact values to 2 places.
    out = write_settlement(settle(read_sheet(load("settlement-leningrad.sheet")["sheet"])))
    assert out["format"] == "sheetscan.settlement/1"
    assert out["exact"] == {"A": "-640/3", "B": "560/3", "C": "80/3"}
    assert {(p["from"], p["to"]): p["whists"] for p in out["payments"]} == {
        ("A", "B"): "186.67",
        ("A", "C"): "26.67",
    }
    assert out["money"]["per_whist"] == "1"
    assert any("133.33" in step and "80" in step for step in out["steps"])


def test_whists_only_sochi_and_money() -> None:
    # Sochi, all pulkas closed at 10, no gora: A wrote 30 on B and 10 on C, B wrote 20 on C, C wrote 40 on A.
    # A: +30 + 10 − 40 = 0; B: +20 − 30 = −10; C: +40 − 10 − 20 = +10. At 0.5 a whist, B pays C 5.
    sheet = Sheet.build(
        "sochi",
        ["A", "B", "C"],
        10,
        {
            "A": {"pulka": [10], "whists": {"B": [30], "C": [10]}},
            "B": {"pulka": [10], "whists": {"C": [20]}},
            "C": {"pulka": [10], "whists": {"A": [40]}},
        },
    )
    result = settle(sheet, price="1/2")
    assert result.balances == {"A": 0, "B": -10, "C": 10}
    out = write_settlement(result)
    assert out["payments"] == [{"from": "B", "to": "C", "whists": "10.00", "money": "5.00"}]
    assert out["money"]["per_whist"] == "0.50"


def test_sochi_unclosed_pulka_goes_to_the_gora() -> None:
    # Decision (settlement.py): a Sochi pulka stopped short of the target adds the missing points to the
    # gora 1:1 (pulka_point_whists 10 / gora_point_whists 10). A 6 short → gora 6 → 60 whists lost to 3:
    # A −60 + 20 = −40, B +20, C +20.
    sheet = Sheet.build(
        "sochi", ["A", "B", "C"], 10, {"A": {"pulka": [4]}, "B": {"pulka": [10]}, "C": {"pulka": [10]}}
    )
    assert settle(sheet).balances == {"A": -40, "B": 20, "C": 20}


@pytest.mark.parametrize(
    ("balances", "count"),
    [
        ({"A": 10, "B": -10, "C": 5, "D": -5}, 2),  # two pairs settle apart: 2, not 3
        ({"A": 30, "B": -10, "C": -20}, 2),
        ({"A": 0, "B": 0, "C": 0}, 0),
        ({"A": 7, "B": -3, "C": -2, "D": -2}, 3),
    ],
)
def test_fewest_payments(balances: dict[str, int], count: int) -> None:
    exact = {k: Fraction(v) for k, v in balances.items()}
    payments = fewest_payments(exact, tuple(exact))
    assert len(payments) == count
    left = dict(exact)
    for p in payments:
        assert p.whists > 0
        left[p.payer] += p.whists
        left[p.payee] -= p.whists
    assert all(v == 0 for v in left.values())
