"""Variants as data: price tables, duties and presets against the documents."""

from __future__ import annotations

import pytest

from sheetscan.rules import (
    MISERE,
    VARIANTS,
    Contract,
    Responsibility,
    UnknownVariantError,
    find_variant,
)

from ._cases import load

LEVELS = [
    Contract(6, None),
    Contract(7, None),
    Contract(8, None),
    Contract(9, None),
    Contract(10, None),
    MISERE,
]


@pytest.mark.parametrize("name", ["sochi", "rostov", "leningrad"])
def test_price_table_is_the_documents(name: str) -> None:
    data = load("prices.case")
    table = data["tables"][name]
    variant = find_variant(name)
    rows = [variant.row(contract) for contract in LEVELS]
    assert [row.pulka for row in rows] == table["pulka"]
    assert [row.whist for row in rows] == table["whist"]
    assert [row.undertrick for row in rows] == table["undertrick"]
    shortfall = [row.whister_shortfall(variant.options.whist_responsibility) for row in rows[:5]]
    assert shortfall == table["whister_shortfall"][:5]
    assert [row.duty for row in rows] == list(data["duties"].values())


def test_piter_is_the_tournament_preset_of_leningrad() -> None:
    data = load("piter.case")
    piter = find_variant("Питер")
    assert piter.based_on == data["based_on"]
    assert piter.prices == find_variant(data["based_on"]).prices
    for key, value in data["options"].items():
        assert piter.options.to_dict()[key] == value, key
    assert piter.exit_needs_made is data["exit_needs_made"]
    assert piter.exit_needs_whist is data["exit_needs_whist"]


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("Сочинка", "sochi"),
        ("СОЧИ", "sochi"),
        ("sochi", "sochi"),
        ("ленинградка", "leningrad"),
        ("Ленинград", "leningrad"),
        ("leningrad", "leningrad"),
        ("Ростовка", "rostov"),
        ("московская пулька", "rostov"),
        ("moscow", "rostov"),
        ("Питер", "piter"),
        ("piter", "piter"),
    ],
)
def test_aliases(alias: str, name: str) -> None:
    assert find_variant(alias).name == name


def test_unknown_variant_names_the_known_ones() -> None:
    with pytest.raises(UnknownVariantError) as caught:
        find_variant("классика")
    assert isinstance(caught.value, ValueError)
    for variant in VARIANTS:
        assert variant.name in str(caught.value)


def test_half_responsibility_halves_the_price() -> None:
    row = find_variant("leningrad").row(Contract(8, None))
    assert row.whister_shortfall(Responsibility.FULL) == 12
    assert row.whister_shortfall(Responsibility.HALF) == 6
