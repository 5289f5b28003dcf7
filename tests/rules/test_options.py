"""Options: exactly FORMATS.md's keys, validated values."""

from __future__ import annotations

from typing import Any

import pytest

from sheetscan.rules import OptionError, Options, WhistStyle

FORMATS_KEYS = [
    "whist_style",
    "whist_responsibility",
    "consolation",
    "consolation_to",
    "raspasy_scoring",
    "raspasy_progression",
    "raspasy_whists_per_trick",
    "raspasy_zero",
    "raspasy_exit",
    "half_whist",
    "stalingrad",
    "ten_checked",
    "pulka_close",
    "help",
    "pulka_point_whists",
    "gora_point_whists",
    "amnesty",
]


def test_keys_are_formats_keys() -> None:
    assert list(Options.option_keys()) == FORMATS_KEYS


def test_override_from_json_values() -> None:
    options = Options().replace(
        {"whist_style": "gentleman", "raspasy_progression": [2, 4, 6], "consolation": 15}
    )
    assert options.whist_style is WhistStyle.GENTLEMAN
    assert options.raspasy_progression == (2, 4, 6)
    assert options.consolation == 15
    assert options.differences(Options()) == {
        "whist_style": "gentleman",
        "raspasy_progression": [2, 4, 6],
        "consolation": 15,
    }


def test_unknown_key_names_the_known_ones() -> None:
    with pytest.raises(OptionError) as caught:
        Options().replace({"whist": "greedy"})
    assert "'whist'" in str(caught.value)
    assert all(key in str(caught.value) for key in FORMATS_KEYS)


@pytest.mark.parametrize(
    "overrides",
    [
        {"whist_style": "polite"},
        {"consolation": "lots"},
        {"consolation": -1},
        {"raspasy_progression": []},
        {"raspasy_progression": [1, 0]},
        {"raspasy_exit": [5]},
        {"half_whist": "yes"},
        {"pulka_point_whists": 0},
        {"help": 1},
    ],
)
def test_bad_values(overrides: dict[str, Any]) -> None:
    with pytest.raises(OptionError) as caught:
        Options().replace(overrides)
    assert next(iter(overrides)) in str(caught.value)
