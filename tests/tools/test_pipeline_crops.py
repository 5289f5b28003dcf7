"""tools/pipeline_crops.py: the photo effects of `--vary` (the harvest itself needs minutes of rendering)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from pipeline_crops import photo_effects


def _page() -> np.ndarray:
    """White paper with one dark pen dot, as BGR."""
    image = np.full((120, 160, 3), 230, np.uint8)
    image[58:62, 78:82] = 20
    return image


def test_same_seed_same_pixels_and_shape() -> None:
    a = photo_effects(_page(), np.random.default_rng(5))
    b = photo_effects(_page(), np.random.default_rng(5))
    assert a.dtype == np.uint8 and a.shape == (120, 160, 3)
    assert np.array_equal(a, b)


def test_effects_are_by_chance() -> None:
    """Some photos come out untouched, and most do not: each effect is drawn on its own."""
    page = _page()
    changed = [not np.array_equal(photo_effects(page, np.random.default_rng(s)), page) for s in range(40)]
    assert 0 < changed.count(False) < 20


def test_shake_or_blur_spreads_the_ink() -> None:
    """Over many photos the dot's ink spreads: more pixels than the 4x4 dot are darkened."""
    page = _page()
    spread = 0
    for s in range(40):
        out = photo_effects(page, np.random.default_rng(s)).astype(np.int32)
        dark = (out.mean(axis=2) < out.mean() - 15).sum()
        spread += dark > 16
    assert spread >= 5
