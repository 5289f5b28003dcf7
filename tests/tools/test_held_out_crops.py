"""tools/held_out_crops.py: which rows are held out, and the figures of a network's probabilities."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from held_out_crops import NOISE_CLASS, figures, held_out, held_out_start


def test_the_last_tenth_of_the_rows_is_held_out() -> None:
    assert held_out_start(100) == 90
    assert held_out_start(45) == 40  # 40.5 rounds to even
    assert held_out_start(0) == 0


def test_held_out_takes_digits_and_noise_pieces_alike(tmp_path: Path) -> None:
    """The held-out rows are the file's last ones whatever their label, scaled to 0..1 with a channel."""
    x = np.zeros((20, 28, 28), np.uint8)
    x[:, 0, 0] = np.arange(20) * 10
    y = np.array([NOISE_CLASS if i % 3 == 0 else i % 10 for i in range(20)], np.uint8)
    path = tmp_path / "crops.npz"
    np.savez(path, x=x, y=y)
    hx, hy = held_out(path)
    assert hx.shape == (2, 1, 28, 28) and hx.dtype == np.float32
    assert np.allclose(hx[:, 0, 0, 0], [180 / 255, 190 / 255])
    assert hy.tolist() == [NOISE_CLASS, 9]


def _one_hot_like(reads: list[int], sure: float) -> np.ndarray:
    """Probabilities putting `sure` on each row's read class and the rest evenly on the others."""
    probs = np.full((len(reads), NOISE_CLASS + 1), (1.0 - sure) / NOISE_CLASS)
    probs[np.arange(len(reads)), reads] = sure
    return probs


def test_figures_of_digits_and_noise_pieces() -> None:
    labels = np.array([3, 3, 7, 7, NOISE_CLASS, NOISE_CLASS, NOISE_CLASS, NOISE_CLASS])
    reads = [3, 5, 7, NOISE_CLASS, NOISE_CLASS, 1, NOISE_CLASS, 4]
    f = figures(_one_hot_like(reads, 0.8), labels)
    assert f.digits == 4 and f.noise == 4
    assert math.isclose(f.digit_accuracy, 0.5)
    assert math.isclose(f.digits_as_noise, 0.25)
    assert math.isclose(f.noise_as_noise, 0.5)
    # two noise pieces read as noise (0.8 each), two read as something else (0.02 on noise each)
    assert math.isclose(f.noise_probability, (0.8 + 0.02 + 0.8 + 0.02) / 4)


def test_figures_without_noise_pieces() -> None:
    f = figures(_one_hot_like([2, 2], 0.9), np.array([2, 2]))
    assert f.noise == 0 and math.isnan(f.noise_probability) and f.digit_accuracy == 1.0
