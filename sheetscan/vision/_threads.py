"""Work that needs nothing from what the caller does next, run in a second thread meanwhile.

OpenCV and numpy let go of the GIL inside their loops, so two such pieces of a scan share the two cores
of a small server. One pool for the process: a thread is started once, not once a photo. Where the pool
keeps both cores busy, OpenCV's own worker threads are only in the way (`opencv_unthreaded`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

import cv2

__all__ = ["in_background", "opencv_unthreaded"]

T = TypeVar("T")

_WORKERS = 2
_pool: ThreadPoolExecutor | None = None
_owner = 0  # the process the pool was started in
_lock = threading.Lock()


_here = threading.local()  # `inside` is True in the pool's own threads

_unthreaded = 0  # how many callers are inside `opencv_unthreaded`
_opencv_threads = 0  # OpenCV's thread count when the first of them came in


def in_background(job: Callable[[], T]) -> Future[T]:
    """Start `job` in the process's background pool; its `result()` gives what it returned (or raises what
    it raised).

    Called from a job already running in the pool, `job` is run at once in that thread instead: a job
    waiting for another job queued behind it in a small pool could wait for ever.
    """
    global _pool, _owner
    if getattr(_here, "inside", False):
        done: Future[T] = Future()
        try:
            done.set_result(job())
        except BaseException as exc:  # handed to the caller through `result()`, as from the pool
            done.set_exception(exc)
        return done
    with _lock:
        # A process forked from one that had the pool has its object but not its threads: a new pool.
        if _pool is None or _owner != os.getpid():
            _pool = ThreadPoolExecutor(max_workers=_WORKERS, thread_name_prefix="sheetscan",
                                       initializer=_mark_inside)
            _owner = os.getpid()
        return _pool.submit(job)


def _mark_inside() -> None:
    """Run first in each of the pool's threads."""
    _here.inside = True


@contextmanager
def opencv_unthreaded() -> Iterator[None]:
    """Inside, OpenCV runs each call in its caller's thread (`cv2.setNumThreads(0)`); on leaving, its
    thread count is put back (by the last of several callers inside at once). The results are the same:
    OpenCV splits a call's rows between its threads, it does not compute them otherwise.

    Decision: for the stages after the sheet is found, because there this pool already keeps both cores
    busy, and OpenCV's own worker threads, started and waited for on every call with a parallel loop
    (its waits spin), took CPU from it: on bench seed 1000 (8 photos, each read both ways in turn in one
    process, process CPU on a loaded machine; six rounds in three runs) a photo took 1.532 s of CPU with
    them off after `find_sheet` against 1.627 s with them on (the runs: 1.428 / 1.434, 1.571 / 1.663,
    1.540 / 1.657 s), and on its photos 8-15 (two rounds) 1.297 s against 1.387 s, every reading the
    same. Decoding and finding the sheet, the floor of any reading, keep OpenCV's threads: there one
    thread of ours does most of the work.
    """
    global _unthreaded, _opencv_threads
    with _lock:
        if _unthreaded == 0:
            _opencv_threads = cv2.getNumThreads()
            cv2.setNumThreads(0)
        _unthreaded += 1
    try:
        yield
    finally:
        with _lock:
            _unthreaded -= 1
            if _unthreaded == 0:
                cv2.setNumThreads(_opencv_threads)
