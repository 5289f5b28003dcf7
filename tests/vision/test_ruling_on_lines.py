"""`_ruling._on_lines` measured on the rows and columns its pixels lie on alone gives what the plain form,
over the whole sheet, gives."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from sheetscan.vision._ruling import _SHRINK, _on_lines

Mask = npt.NDArray[np.uint8]


def _plain(inked: Mask, level: Mask, upright: Mask, xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64],
           size: int, line_share: float) -> npt.NDArray[np.bool_]:
    """The rule over the whole sheet: each mask shrunk along the band, dilated across, blurred along."""
    height, width = inked.shape
    reach = max(1, size // _SHRINK)
    line = np.zeros(len(xs), dtype=bool)
    for along_x, run in ((True, level), (False, upright)):
        if along_x:
            shrunk, kernel, across = (max(1, width // _SHRINK), height), (reach, 1), (1, 5)
            at = (ys, np.minimum(xs // _SHRINK, shrunk[0] - 1))
        else:
            shrunk, kernel, across = (width, max(1, height // _SHRINK)), (1, reach), (5, 1)
            at = (np.minimum(ys // _SHRINK, shrunk[1] - 1), xs)
        thin = cv2.resize(inked, shrunk, interpolation=cv2.INTER_AREA)
        band = cv2.dilate(thin, cv2.getStructuringElement(cv2.MORPH_RECT, across))
        line |= cv2.blur(band, kernel)[at] > line_share * 255
        own = cv2.blur(cv2.resize(run, shrunk, interpolation=cv2.INTER_AREA), kernel)[at].astype(np.float64)
        own_inked = cv2.blur(cv2.resize(cv2.bitwise_and(run, inked), shrunk, interpolation=cv2.INTER_AREA),
                             kernel)[at].astype(np.float64)
        line |= (run[ys, xs] > 0) & (own_inked > line_share * np.maximum(own, 1e-6))
    return line


def _streaks(rng: np.random.Generator, shape: tuple[int, int], count: int, level: bool) -> Mask:
    """Random level (or upright) streaks, 1-3 px across and up to 80 px long, 255 on 0."""
    out = np.zeros(shape, np.uint8)
    h, w = shape
    for _ in range(count):
        y, x = int(rng.integers(0, h)), int(rng.integers(0, w))
        n, t = int(rng.integers(3, 80)), int(rng.integers(1, 4))
        if level:
            out[y:y + t, x:x + n] = 255
        else:
            out[y:y + n, x:x + t] = 255
    return out


@pytest.mark.parametrize("shape", [(120, 160), (123, 157), (97, 201), (64, 66)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_on_lines_equals_the_whole_sheet_form(shape: tuple[int, int], seed: int) -> None:
    # Sides not divisible by the shrink take cv2's fractional area path; pixels on the first and last rows
    # and columns reach past the edge with the band.
    rng = np.random.default_rng(seed)
    inked = _streaks(rng, shape, 40, True) | _streaks(rng, shape, 40, False)
    inked |= np.asarray(rng.random(shape) < 0.05, np.uint8) * 255
    level, upright = _streaks(rng, shape, 15, True), _streaks(rng, shape, 15, False)
    h, w = shape
    count = 60
    ys = np.concatenate([rng.integers(0, h, count), [0, h - 1, 1, h - 2]]).astype(np.int64)
    xs = np.concatenate([rng.integers(0, w, count), [0, w - 1, w - 2, 1]]).astype(np.int64)
    seen = set()
    for size, share in [(60, 0.1), (61, 0.3), (90, 0.5), (200, 0.9)]:
        fast = _on_lines(inked, level, upright, xs, ys, size, share)
        plain = _plain(inked, level, upright, xs, ys, size, share)
        assert np.array_equal(fast, plain)
        seen |= set(plain.tolist())
    assert seen == {True, False}  # both answers were compared


def test_on_lines_of_one_pixel_on_one_row_and_column() -> None:
    inked = np.zeros((40, 52), np.uint8)
    inked[20, 3:40] = 255
    level = inked.copy()
    upright = np.zeros_like(inked)
    xs, ys = np.array([10], np.int64), np.array([20], np.int64)
    for share in (0.1, 0.9):
        assert np.array_equal(_on_lines(inked, level, upright, xs, ys, 60, share),
                              _plain(inked, level, upright, xs, ys, 60, share))
