"""Stage 4, ink beside a drawn line: what lies along the line as close as its fringe is dropped only when it
is the line's own ink (joined to it) or a mere speck; a stroke with paper between it and the line stays.

Small synthetic sheets: the truth is where the test put each stroke.
"""

from __future__ import annotations

import numpy as np

from tests.vision._line_sheet import ink_of, sheet_with_line


def test_a_one_written_level_with_the_line_just_below_it_is_kept() -> None:
    # A "1" written lying level (a rotated zone's writing), 4 px thick and 40 px long, 6 px below the
    # line's ink (rows 609-612): paper (rows 603-608) lies between it and the line, but all of it is
    # within the fringe's reach of the line mask.
    darkness, lines = sheet_with_line()
    darkness[609:613, 400:440] = 0.6
    mask = ink_of(darkness, lines)
    kept = np.count_nonzero(mask[609:613, 400:440]) / (4 * 40)
    assert kept >= 0.9, f"only {kept:.0%} of the stroke kept"


def test_the_lines_own_fringe_is_dropped() -> None:
    # The line drawn thicker for 40 px (rows 603-606 below it, x 600-639): its ink outside the mask is a
    # sliver joined to the line, not writing.
    darkness, lines = sheet_with_line()
    darkness[603:607, 600:640] = 0.6
    mask = ink_of(darkness, lines)
    assert not mask[596:620, 590:650].any()


def test_a_speck_beside_the_line_is_dropped() -> None:
    # A 6 × 6 speck 8 px below the line's ink (where squared paper's ruling crosses beside the line):
    # apart from the line but shorter than twice the line's width.
    darkness, lines = sheet_with_line()
    darkness[611:617, 700:706] = 0.6
    mask = ink_of(darkness, lines)
    assert not mask[605:625, 690:715].any()
