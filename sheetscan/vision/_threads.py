"""Work that needs nothing from what the caller does next, run in a second thread meanwhile.

OpenCV and numpy let go of the GIL inside their loops, so two such pieces of a scan share the two cores
of a small server. One pool for the process: a thread is started once, not once a photo.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

__all__ = ["in_background"]

T = TypeVar("T")

_WORKERS = 2
_pool: ThreadPoolExecutor | None = None
_owner = 0  # the process the pool was started in
_lock = threading.Lock()


_here = threading.local()  # `inside` is True in the pool's own threads


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
