"""`_threads.opencv_unthreaded`: OpenCV runs each call in its caller's thread inside it, and gets its own
thread count back when the last caller inside leaves, whatever order several callers leave in."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import cv2
import pytest

from sheetscan.vision._threads import opencv_unthreaded


@pytest.fixture()
def two_threads() -> Iterator[None]:
    """OpenCV with two threads of its own for the test, and whatever it had afterwards."""
    before = cv2.getNumThreads()
    cv2.setNumThreads(2)
    yield
    cv2.setNumThreads(before)


@pytest.mark.usefixtures("two_threads")
def test_inside_opencv_runs_in_one_thread_and_gets_its_threads_back_after() -> None:
    with opencv_unthreaded():
        assert cv2.getNumThreads() == 1
    assert cv2.getNumThreads() == 2


@pytest.mark.usefixtures("two_threads")
def test_the_threads_come_back_when_the_last_of_two_overlapping_callers_leaves() -> None:
    # The first caller leaves while the second is still inside (two scans at once): OpenCV stays in one
    # thread until the second leaves too.
    inside, leave = threading.Event(), threading.Event()
    seen: list[int] = []

    def second() -> None:
        with opencv_unthreaded():
            inside.set()
            leave.wait(5.0)
            seen.append(cv2.getNumThreads())

    with opencv_unthreaded():
        other = threading.Thread(target=second)
        other.start()
        assert inside.wait(5.0)
    assert cv2.getNumThreads() == 1
    leave.set()
    other.join(5.0)
    assert seen == [1]
    assert cv2.getNumThreads() == 2


@pytest.mark.usefixtures("two_threads")
def test_the_threads_come_back_after_an_error_inside() -> None:
    with pytest.raises(ValueError), opencv_unthreaded():
        raise ValueError("a stage failed")
    assert cv2.getNumThreads() == 2
