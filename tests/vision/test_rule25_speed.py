"""rule25's exact speed changes in `_ruling` and `_glare`: each gives what the plain form gives.

- `_glare._no_core` only settles what the full measure would find: with it forced off (the darkest ink
  always measured) `_glare_kept` gives the same answer, on photos' paper with and without a glare patch.
- OpenCV shrinks (INTER_AREA, any factor) and blurs a column along itself as it does the same values laid
  out as a row, which `_ruling._on_lines` relies on to measure the upright direction as rows.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision import _glare
from sheetscan.vision._ruling import _masked_mean, _rows


def _paper(shape: tuple[int, int], seed: int, *, patch: float) -> tuple[np.ndarray, np.ndarray]:
    """A sheet's darkest channel and its paper brightness: paper ~200 with a smooth light gradient, dark
    strokes, and a bright round patch (a glare) of `patch` of the way to white (0: none)."""
    rng = np.random.default_rng(seed)
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    paper = 190.0 + 20.0 * xx / w + rng.normal(0, 1.5, shape).astype(np.float32)
    cx, cy, r = w * rng.uniform(0.3, 0.7), h * rng.uniform(0.3, 0.7), min(h, w) * 0.12
    bump = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)).astype(np.float32)
    paper = paper + patch * bump * (255.0 - paper)
    darkest = paper.copy()
    for _ in range(60):  # strokes: ink at 0.3 of the paper, lifted by the glare as the paper is
        x, y = int(rng.integers(0, w - 40)), int(rng.integers(0, h - 40))
        cv2.line(darkest, (x, y), (x + int(rng.integers(5, 40)), y + int(rng.integers(5, 40))), 0.0, 3)
    ink = darkest == 0.0
    darkest[ink] = (0.3 * (190.0 + 20.0 * xx / w) * (1 - patch * bump) + 255.0 * patch * bump)[ink]
    return (np.clip(np.rint(darkest), 0, 255).astype(np.uint8),
            np.clip(np.rint(paper), 0, 255).astype(np.uint8))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("patch", [0.0, 0.3, 0.6, 0.85])
def test_glare_kept_same_with_and_without_the_early_answer(seed: int, patch: float,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    darkest, paper = _paper((700 + 13 * seed, 900 - 7 * seed), seed, patch=patch)
    quick = _glare._glare_kept(darkest, paper, gate=0.5, least=0.3)
    monkeypatch.setattr(_glare, "_no_core", lambda *a, **k: False)
    full = _glare._glare_kept(darkest, paper, gate=0.5, least=0.3)
    assert (quick is None) == (full is None)
    if quick is not None and full is not None:
        assert quick[1] == full[1]
        assert np.array_equal(quick[0], full[0])


def test_glare_kept_finds_a_strong_patch_and_skips_plain_paper() -> None:
    """The test above compares both ways on patches that are glare and ones that are not (else it proves
    nothing): a strong patch is found, plain paper is not, and plain paper is settled early."""
    strong = _paper((700, 900), 1, patch=0.85)
    plain = _paper((700, 900), 1, patch=0.0)
    assert _glare._glare_kept(*strong, gate=0.5, least=0.3) is not None
    assert _glare._glare_kept(*plain, gate=0.5, least=0.3) is None
    called: list[bool] = []
    original = _glare._no_core

    def spy(*a: object, **k: object) -> bool:
        called.append(original(*a, **k))  # type: ignore[arg-type]
        return called[-1]

    mp = pytest.MonkeyPatch()
    mp.setattr(_glare, "_no_core", spy)
    try:
        assert _glare._glare_kept(*plain, gate=0.5, least=0.3) is None
    finally:
        mp.undo()
    assert called == [True]


@pytest.mark.parametrize("seed", range(8))
def test_column_shrunk_and_blurred_as_a_row(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    h, n = int(rng.integers(64, 2100)), int(rng.integers(1, 400))
    columns = (rng.random((h, n)) < rng.uniform(0.05, 0.6)).astype(np.uint8) * 255
    lines = np.sort(rng.choice(n, size=max(1, n // 2), replace=False)).astype(np.int64)
    rows = _rows(columns, lines, False)
    assert np.array_equal(rows, columns[:, lines].T)
    down = cv2.resize(np.ascontiguousarray(columns[:, lines]), (len(lines), h // 4),
                      interpolation=cv2.INTER_AREA)
    along = cv2.resize(rows, (h // 4, len(lines)), interpolation=cv2.INTER_AREA)
    assert np.array_equal(down.T, along)
    reach = int(rng.integers(1, 80))
    assert np.array_equal(cv2.blur(down, (1, reach)).T, cv2.blur(along, (reach, 1)))


@pytest.mark.parametrize("seed", range(12))
def test_masked_mean_is_opencvs(seed: int) -> None:
    rng = np.random.default_rng(300 + seed)
    shape = (int(rng.integers(1, 1800)), int(rng.integers(1, 2100)))
    image = rng.integers(0, 256, shape, dtype=np.uint8)
    share = [0.0, 1e-5, 0.01, 0.3, 0.9, 1.0][seed % 6]
    mask = ((rng.random(shape) < share) * rng.integers(1, 256, shape)).astype(np.uint8)
    assert _masked_mean(image, mask) == cv2.mean(image, mask=mask)[0]
