"""Speed (issue 5), session 11: a background job may start background jobs of its own (they run in its
thread), and `seeded` keeps exactly the seeded blobs whether its mask is dense or sparse."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

from sheetscan.vision import _threads
from sheetscan.vision._lines import _DENSE, seeded


def test_a_job_may_wait_for_a_job_it_started() -> None:
    # Every worker of the pool runs a job that starts another and waits for it: queued behind them in
    # the pool, the inner jobs would never start.
    started = threading.Barrier(2, timeout=20)

    def outer(n: int) -> tuple[int, str]:
        started.wait()  # both workers busy at once
        inner = _threads.in_background(lambda: (n * 10, threading.current_thread().name))
        return inner.result(timeout=20)

    jobs = [_threads.in_background(lambda n=n: outer(n)) for n in (1, 2)]  # type: ignore[misc]
    results = [job.result(timeout=30) for job in jobs]
    assert [value for value, _ in results] == [10, 20]
    assert all(name.startswith("sheetscan") for _, name in results)  # run in the outer job's thread


def test_an_inner_job_hands_its_error_to_the_caller() -> None:
    def inner() -> int:
        raise ValueError("no ring")

    def outer() -> str:
        with pytest.raises(ValueError, match="no ring"):
            _threads.in_background(inner).result()
        return "raised"

    assert _threads.in_background(outer).result(timeout=20) == "raised"


def _blobs(size: int, radius: int, spacing: int) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Separate discs on a grid: the mask and the discs' centres."""
    mask = np.zeros((size, size), np.uint8)
    centres = [(x, y) for y in range(spacing, size - radius, spacing) for x in range(spacing, size - radius,
                                                                                      spacing)]
    for x, y in centres:
        cv2.circle(mask, (x, y), radius, 255, -1)
    return mask, centres


@pytest.mark.parametrize(("radius", "spacing"), [(12, 30), (3, 40)])
def test_seeded_keeps_the_discs_with_a_seed(radius: int, spacing: int) -> None:
    mask, centres = _blobs(600, radius, spacing)
    share = np.count_nonzero(mask) / mask.size
    # Both ways of looking labels up are exercised: the dense discs cover ~0.5 of the image (pi 12^2 / 30^2),
    # the sparse ones ~0.02 (pi 3.5^2 / 40^2, the drawn disc a little over its radius).
    assert (share > _DENSE) if radius == 12 else (share < _DENSE)
    seeds = np.zeros_like(mask)
    expected = np.zeros_like(mask)
    for i, (x, y) in enumerate(centres):
        if i % 3 == 0:  # a seed pixel on the disc's edge: the whole disc is kept
            seeds[y, x + radius - 1] = 255
            cv2.circle(expected, (x, y), radius, 255, -1)
    seeds[5, 5] = 255  # a seed on the paper keeps nothing
    out = seeded(mask, seeds)
    assert out.dtype == np.uint8 and out.shape == mask.shape
    assert np.array_equal(out, expected)
