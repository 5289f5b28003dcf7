"""Stage 5: ink where nothing is written (a piece of a drawn line, a scratch) read as a number leaves
the totals when the recogniser reads it likelier as noise than as its value and the totals are better
without it (`_totals._unwritten`, chosen by `_steps.monotone_picks`, which steps over it). Crafted
tokens with known readings (each digit box reads its digit at the given probability, else noise), so
the tests check the totals' choice, not the network."""

from __future__ import annotations

from sheetscan.vision._totals import _unwritten, choose_cuts
from tests.vision._number_reads import Digits, UnusedRecognizer, numbers_in_line


def _chosen(numbers: list[Digits], *, rising: bool = False, zone: bool = True) -> list[int | None]:
    line = numbers_in_line(numbers, zone=5)
    tokens = [t for t, _ in line]
    readings = {id(t): r for t, r in line}
    parts = choose_cuts(UnusedRecognizer(), [(zone, rising, tokens)], readings)
    return [r.value for t in tokens for _, r in parts.get(id(t), ((t, readings[id(t)]),))]


def test_a_mark_read_likelier_as_noise_that_steps_back_is_left_out() -> None:
    # (Zones not only rising are read in their better direction, up or down.)
    # A piece of line between 36 and 48 reads "1" at 0.32, noise at 0.68: 36 -> 1 steps back (4.0);
    # left out (ln 0.68 - 1.0 against ln 0.32 - 4.0), the totals step from 36 to 48 at no cost.
    assert _chosen([[(3, 0.99), (0, 0.99)], [(3, 0.99), (6, 0.99)], [(1, 0.32)],
                    [(4, 0.99), (8, 0.99)], [(5, 0.99), (4, 0.99)]]) == [30, 36, 48, 54]


def test_the_totals_step_over_the_mark_left_out() -> None:
    # 36, a mark read "1" (0.32), 20, in a zone whose totals rise: left out, 36 -> 20 still steps
    # back, so it costs as much as keeping it (36 -> 1 back, 1 -> 20 free) and the odds alone decide:
    # ln 0.68 - 1 < ln 0.32. It stays.
    assert _chosen([[(3, 0.99), (6, 0.99)], [(1, 0.32)], [(2, 0.99), (0, 0.99)]],
                   rising=True) == [36, 1, 20]


def test_a_pale_digit_in_step_stays_though_it_reads_likelier_as_noise() -> None:
    # A pale 4 read at 0.3 (noise 0.7) between 2 and 6: in step, and not e times likelier as noise.
    assert _chosen([[(2, 0.99)], [(4, 0.3)], [(6, 0.99)]]) == [2, 4, 6]


def test_a_number_read_likelier_as_a_number_stays_out_of_step() -> None:
    # A "1" read at 0.9 (noise 0.1) after 36 in a rising zone: the network says it is a digit; the
    # totals alone do not take written ink away.
    assert _chosen([[(3, 0.99), (6, 0.99)], [(1, 0.9)]], rising=True) == [36, 1]


def test_only_in_a_zone() -> None:
    # The circle (a sequence whose first flag is False) has no totals to weigh the mark against.
    numbers = [[(3, 0.99), (6, 0.99)], [(1, 0.32)]]
    assert _chosen(numbers, rising=True) == [36]
    assert _chosen(numbers, rising=True, zone=False) == [36, 1]


def test_not_where_another_cut_reads_as_a_number_likelier() -> None:
    # A "10" whose first cut reads "1" at 0.32 (noise 0.68) and another cut reads 10 at 0.9: the ink
    # is a number, however the totals go.
    (token, first), (_, other) = numbers_in_line([[(1, 0.32)], [(1, 0.95), (0, 0.95)]], zone=5)
    assert _unwritten(token, first, [((((token, first),)), -1.14)], True)
    assert _unwritten(token, first, [((((token, first),)), -1.14), (((token, other),), -0.15)], True) == []
