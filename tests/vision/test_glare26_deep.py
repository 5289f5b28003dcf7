"""The ink stage under a deep specular glare (`_glare.without_glare`), as the glare style renders it: the ink
keeps 15-30 % of its darkness in the patch's middle, and all of it must be given back.

The sheets are drawn by `tests/vision/_glare_rings.py`: rings ("0"s) of a pale pen (brightness 120) on paper
of brightness 210, one every 80 px, so the truth is where the rings were drawn. Under a glare
x -> x (1 - w) + 255 w with w = 0.8, a ring's darkness against the paper, 1 - 120 / 210 = 0.43 of the
paper's brightness, falls to
(210 - 120) x 0.2 / (210 x 0.2 + 255 x 0.8) = 18 / 246 = 0.073, which keeps F (1 - w) / (F (1 - w) + 255 w)
= 42 / 246 = 0.17 of it. Given back at most 1 / 0.3 of it (the earlier bound), it reached 0.24, below the
strong threshold (0.32): every ring in the glare's middle was lost.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision.ink import find_ink
from tests.vision._glare_rings import HEIGHT, STEP, WIDTH, Image, ring_sheet, rings_found


def _glared(sheet: Image, peak: float, radius: float, *, noise: float = 0.0) -> Image:
    """`sheet` under a glare of `peak` flat within `radius` px of the middle, fading out (Gaussian) beyond,
    with Gaussian noise of `noise` grey levels (fixed seed) added after it, as a camera adds."""
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float64)
    r = np.hypot(xx - WIDTH / 2, yy - HEIGHT / 2)
    wash = peak * np.exp(-np.maximum(r - radius, 0.0) ** 2 / (2 * (0.5 * radius) ** 2))
    seen = sheet.astype(np.float64) * (1 - wash) + 255.0 * wash
    seen += np.random.default_rng(26).normal(0.0, noise, seen.shape) if noise else 0.0
    return np.clip(np.rint(seen), 0, 255).astype(np.uint8)


def _off_the_rings(mask: Image) -> int:
    """Ink pixels farther than 8 px from every ring's stroke."""
    rings = np.zeros_like(mask)
    for y in range(STEP // 2, HEIGHT, STEP):
        for x in range(STEP // 2, WIDTH, STEP):
            cv2.circle(rings, (x, y), 14, 255, 4 + 16)
    return int(np.count_nonzero(mask[rings == 0]))


def test_a_pale_pen_in_a_deep_glares_middle_is_found() -> None:
    ink = find_ink(_glared(ring_sheet(120), 0.8, 120.0))
    assert rings_found(ink.mask, 110.0) == 1.0
    assert rings_found(ink.mask, 2000.0) >= 0.95


def test_the_deepest_glare_of_the_style_keeps_its_ink() -> None:
    # w = 0.85, the glare style's deepest: a black-ish pen (60) keeps F (1 - w) / (F (1 - w) + 255 w) =
    # 31.5 / 248 = 0.13 of its darkness, 0.09 of the paper's brightness, below the weak threshold (0.16).
    ink = find_ink(_glared(ring_sheet(60), 0.85, 120.0))
    assert rings_found(ink.mask, 110.0) == 1.0


def test_the_paper_under_a_deep_glare_grows_no_ink() -> None:
    # The camera's noise (2 grey levels) is given back the glare's contrast with the ink, up to 7.8 times in
    # the middle of w = 0.8: it must stay below the thresholds, and the paper between the rings stay empty.
    ink = find_ink(_glared(ring_sheet(120), 0.8, 120.0, noise=2.0))
    assert rings_found(ink.mask, 110.0) == 1.0
    assert _off_the_rings(ink.mask) == 0
