"""Stage 5: a mountain's or whists' running totals start at 0, so the zone's first number is a step from 0
like every other step (`_totals._from_zero`): a zone's only number is checked by the totals too.

A stand-in recogniser reads a digit box by its width (each box in these tests has its own width), so
the tests check which readings are offered and chosen, not the network.
"""

from __future__ import annotations

from sheetscan.vision._totals import choose_cuts
from sheetscan.vision.numbers import NumberToken
from tests.vision._by_width import ByWidth, cut_token

HEIGHT = 40
TYPICAL = 26.0
"""The writer's typical digit width."""

# A "2" written 70 px wide (2.7 typical digits) is cut first as two boxes by its width: its foot's left
# end, 30 px, read "2" at 0.97, and the rest, 40 px, read "2"; whole it reads "2" surely. A "4" 26 px.
READER = ByWidth({30: (2, 0.97), 40: (2, 1.0), 70: (2, 1.0), 26: (4, 1.0)})
WIDE_TWO = [[(0, 0, 30, HEIGHT), (30, 0, 40, HEIGHT)], [(0, 0, 70, HEIGHT)]]
FOUR = [[(74, 0, 26, HEIGHT)]]


def _read(token: NumberToken, *, rising: bool) -> list[int | None]:
    """The values a zone's only token is read as, its cut chosen by the totals."""
    readings = {id(token): READER.read_numbers([token.image])[0]}
    parts = choose_cuts(READER, [(True, rising, [token])], readings)
    return [reading.value for _, reading in parts.get(id(token), ((token, readings[id(token)]),))]


def test_a_rising_zones_only_number_is_a_step_from_zero() -> None:
    # First way 2 | 2 | 4: "224" at 0.97 (ln -0.03), sure, and with no total beside it, it was kept
    # unread any other way. As a step from 0 in a whists zone (free up to 100): 0.5 + 2 ln(224 / 100) =
    # 2.11, so -2.14; the whole "2" and the 4: "24" at 1.0, less 0.05 for a way after the first: -0.05.
    token = cut_token([WIDE_TWO, FOUR], HEIGHT, TYPICAL)
    assert READER.read_numbers([token.image])[0].value == 224
    assert _read(token, rising=True) == [24]


def test_a_pulka_may_start_anywhere() -> None:
    # A pulka may be counted down from the pulka target: its first number is no step from 0, and the
    # sure first way stays.
    token = cut_token([WIDE_TWO, FOUR], HEIGHT, TYPICAL)
    assert _read(token, rising=False) == [224]
