"""`_lines.hanging_pieces` looks the pieces' labels up only beside the lines: a piece reaching past the
reach is still dropped whole, its pixels beside the lines too."""

import numpy as np

from sheetscan.vision._lines import hanging_pieces


def test_a_piece_reaching_past_the_reach_is_dropped_whole() -> None:
    lines = np.zeros((80, 120), np.uint8)
    lines[40:43, 10:110] = 255  # a level line 3 px thick
    ink = lines.copy()
    ink[36:40, 20:22] = 255  # a stub 4 px long above it: within a reach of 5
    ink[43:47, 60:62] = 255  # and one below it
    ink[25:40, 80:82] = 255  # a stroke 15 px long touching it: reaches 10 px past the reach
    hanging = hanging_pieces(lines, ink, reach=5.0)
    expected = np.zeros_like(lines)
    expected[36:40, 20:22] = 255
    expected[43:47, 60:62] = 255
    assert np.array_equal(hanging, expected)
