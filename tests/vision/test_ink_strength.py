"""The ink stage's darkness measure and the line stage's "below a level" masks, on tiny arrays whose answers
are worked out by hand."""

from __future__ import annotations

import numpy as np

from sheetscan.vision._lines import below, local_ink
from sheetscan.vision.ink import _strength


def test_strength_is_how_much_darker_than_the_paper() -> None:
    # 255 × (1 − pixel / paper), rounded half to even: black on white paper 255, a pixel half as bright
    # as its paper 127.5 → 128, as bright as the paper 0; a pixel brighter than its "paper" is not ink (0).
    paper = np.array([[200, 200, 200, 100, 255, 50]], np.uint8)
    pixel = np.array([[0, 100, 200, 75, 254, 60]], np.uint8)
    # 100 / 75: 255 × 0.25 = 63.75 → 64; 255 / 254: 255 × (1/255) = 1.0 → 1.
    assert _strength(pixel, paper).tolist() == [[255, 128, 0, 64, 1, 0]]


def test_strength_on_black_paper_does_not_divide_by_zero() -> None:
    # A paper of 0 counts as 1: a pixel of 0 is then 255 × (1 − 0/1) = 255, one of 1 is 255 × (1 − 1/1) = 0.
    paper = np.zeros((1, 2), np.uint8)
    assert _strength(np.array([[0, 1]], np.uint8), paper).tolist() == [[255, 0]]


def test_below_keeps_what_is_strictly_below_the_level_in_single_precision() -> None:
    level = 0.8
    at = np.float32(level)
    under = np.nextafter(at, np.float32(0))
    over = np.nextafter(at, np.float32(1))
    ratio = np.array([[0.1, under, at, over, 1.0]], np.float32)
    assert below(ratio, level).tolist() == [[255, 255, 0, 0, 0]]


def test_local_ink_keeps_faint_pixels_only_next_to_dark_ones() -> None:
    # One dark pixel (0.3 of the paper), faint ones (0.8) at 2 and 5 px from it, and paper; with the
    # defaults (dark <= 0.68, faint <= 0.84, reach 3) the faint pixel 5 px away is dropped.
    ratio = np.ones((1, 9), np.float32)
    ratio[0, 0] = 0.3
    ratio[0, 2] = 0.8
    ratio[0, 5] = 0.8
    ratio[0, 3] = np.float32(0.84)  # exactly at the faint level: kept (at most the level)
    assert local_ink(ratio).tolist() == [[255, 0, 255, 255, 0, 0, 0, 0, 0]]
