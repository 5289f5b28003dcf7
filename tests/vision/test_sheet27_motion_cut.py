"""Stage 3: the cut the drawn lines are taken at keeps both ways' lines where a motion blur leaves one
way's pale (`_frame_lines.line_contrast`).

Small synthetic ratio images (600 × 600: 1 = paper, as `dark_ratio` gives them) of a frame drawn 3 px wide
at 0.25 of the paper; a horizontal motion blur spreads its left and right sides into bands 11 px wide
that keep 0.2 of their darkness at most (0.8 of the paper), while the top and bottom keep theirs. (The
rendered case behind it: bench_styles seed 38000, photo 6, motion: the sides at 0.25 and 0.69, the cut at
0.66, no vertical line seen and "no sheet".)
"""

from __future__ import annotations

import numpy as np

from sheetscan.vision._frame_lines import line_contrast

_FRAME = (100.0, 100.0, 500.0, 500.0)  # left, top, right, bottom
_BAND = 4


def _ratio(side_darkness: float) -> np.ndarray:
    """The frame's top and bottom at 0.25, its left and right sides at `side_darkness`, 11 px wide."""
    ratio = np.ones((600, 600), np.float32)
    ratio[99:102, 100:501] = 0.25
    ratio[499:502, 100:501] = 0.25
    ratio[100:501, 95:106] = side_darkness
    ratio[100:501, 495:506] = side_darkness
    return ratio


def test_both_ways_lines_are_kept_where_a_blur_leaves_one_way_pale() -> None:
    cut = line_contrast(_ratio(0.8), _FRAME, band=_BAND)
    assert cut > 0.8  # the pale sides are darker than the cut: in the lines' mask


def test_the_cut_is_halfway_to_the_paper_where_both_ways_are_alike() -> None:
    # Both pairs drawn alike (a photo blurred every way, or not at all): halfway from the frame's darkness.
    assert abs(line_contrast(_ratio(0.25), _FRAME, band=_BAND) - (1.0 + 0.25) / 2) < 0.01
