"""The sample evening samples/game-leningrad-3.json, replayed and settled, against hand computation."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from sheetscan.rules import read_game, read_sheet, replay, settle, sheet_to_text

SAMPLES = Path(__file__).resolve().parent.parent.parent / "samples"


def test_sample_evening() -> None:
    record = read_game(json.loads((SAMPLES / "game-leningrad-3.json").read_text(encoding="utf-8")))
    sheet = replay(record)
    zones = sheet.zones
    # Leningrad table (004): 6→2/4 a whist, 7→4/8, 8→6, misère 10 / 20 a trick; raspasy 2, 4 (2-4-6).
    # Anna: 6s made 2; raspasy #2 no tricks 4 to the pulka; 8d unwhisted 6; 6c with half-whist 2.
    assert zones["Anna"].pulka == (2, 6, 12, 14)
    assert zones["Anna"].gora == (4,)  # raspasy #1: 2 tricks × 2
    assert zones["Anna"].whists["Boris"] == (24, 32)  # 7h down (gentleman 48/2), 6nt 2 tricks × 4
    assert zones["Boris"].pulka == (2, 6)  # 6nt, then 7s
    assert zones["Boris"].gora == (10, 26, 34)  # raspasy 5×2, 4×4, 7h down one: 8
    assert zones["Boris"].whists["Anna"] == (16,)  # 6s: the defence's 4 tricks × 4
    assert zones["Vera"].pulka == (10,)  # misère made
    assert zones["Vera"].gora == (6, 30, 50)  # raspasy 3×2, 6×4, misère caught once: 20
    assert zones["Vera"].whists["Boris"] == (24, 32, 56)  # 7h down 24, 6nt 2×4, 7s 3 tricks × 8
    assert zones["Vera"].whists["Anna"] == (8,)  # half-whist on 6: 2 tricks × 4
    # Settlement: pulka 14/6/10 to 10, doubled: gora 4−8 = −4, 34+8 = 42, 50; amnesty +4: 0, 46, 54;
    # ×10 = 0, 460, 540, average 1000/3. Whists: Anna 32 − 16 − 8 = +8, Boris 16 − 32 − 56 = −72,
    # Vera 8 + 56 = +64. Anna 1000/3 + 8 = 1024/3; Boris 1000/3 − 460 − 72 = −596/3; Vera 1000/3 − 540 + 64.
    result = settle(sheet)
    assert result.balances == {
        "Anna": Fraction(1024, 3),
        "Boris": Fraction(-596, 3),
        "Vera": Fraction(-428, 3),
    }, sheet_to_text(sheet)


def test_sample_sheet_is_the_leningrad_example() -> None:
    sheet = read_sheet(json.loads((SAMPLES / "sheet-leningrad-3.json").read_text(encoding="utf-8")))
    assert settle(sheet).balances == {"A": Fraction(-640, 3), "B": Fraction(560, 3), "C": Fraction(80, 3)}
