"""Stage 4, `_ruling.labelled_without_ruling_specks`: which blobs lying on the faint ruling go, at the
limits of its rule (shorter than the runs either way, more than two pixels, no darker than twice the
ruling), with drawn lines lying on the ruling too (boxes are measured only for the blobs that may be
specks). A blob is measured against the bare ruling within a quarter of a run around its middle: here the
second ruling beside it."""

from __future__ import annotations

import numpy as np

from sheetscan.vision._ruling import labelled_without_ruling_specks

_RUN = 60  # the runs' length: no blob this long either way is a speck


def _sheet() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Level rulings at strength 40 (rows 100-101 and 108-109) and upright ones (columns 200-201 and 208-209)
    on a 300 × 400 sheet, found whole (`faint`), with the ink's mask and strength. Returns (mask, strength,
    faint)."""
    strength = np.zeros((300, 400), np.uint8)
    faint = np.zeros_like(strength)
    for at in (100, 108):
        strength[at:at + 2, :] = 40
        strength[:, at + 100:at + 102] = 40
        faint[at:at + 2, :] = 255
        faint[:, at + 100:at + 102] = 255
    return np.zeros_like(strength), strength, faint


def _ink(mask: np.ndarray, strength: np.ndarray, rows: slice, cols: slice, value: int) -> None:
    mask[rows, cols] = 255
    strength[rows, cols] = value


def test_specks_go_by_their_length_size_and_darkness() -> None:
    mask, strength, faint = _sheet()
    _ink(mask, strength, slice(100, 102), slice(10, 10 + _RUN - 1), 60)  # a stretch one short of a run: goes
    _ink(mask, strength, slice(100, 102), slice(80, 80 + _RUN), 60)  # a whole run's length: stays
    _ink(mask, strength, slice(100, 102), slice(160, 161), 60)  # two pixels: left to the number stage
    _ink(mask, strength, slice(20, 23), slice(200, 202), 70)  # a crossing's speck on the upright ruling: goes
    _ink(mask, strength, slice(40, 43), slice(200, 202), 200)  # a written dot, 5 times the ruling: stays
    _ink(mask, strength, slice(100, 102), slice(260, 400), 120)  # a drawn line along the ruling: stays
    _ink(mask, strength, slice(150, 290), slice(200, 202), 120)  # and one down the upright ruling: stays
    out = labelled_without_ruling_specks(mask, strength, level=0.08, length=_RUN, faint=faint)[0]
    assert not out[100:102, 10:10 + _RUN - 1].any()
    assert out[100:102, 80:80 + _RUN].all()
    assert out[100:102, 160].all()
    assert not out[20:23, 200:202].any()
    assert out[40:43, 200:202].all()
    assert out[100:102, 260:400].all() and out[150:290, 200:202].all()
