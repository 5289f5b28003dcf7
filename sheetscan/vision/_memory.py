"""How a scan's memory is looked after: the C allocator keeps its big images for the next photo rather than
giving them back (`hold_freed_memory`), and Python's cycle collector waits until the scan is over
(`collector_paused`)."""

from __future__ import annotations

import ctypes
import gc
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

__all__ = ["collector_paused", "hold_freed_memory"]

_M_TRIM_THRESHOLD = -1  # glibc's <malloc.h>
_M_MMAP_THRESHOLD = -3


@cache
def hold_freed_memory() -> bool:
    """Let the C allocator keep what a scan frees for the next big image, once a process; False where it
    cannot be told (not glibc).

    Decision: images up to 64 MB (a 12 MP photo is 36 MB) come from the heap, and up to 128 MB of freed
    memory stays with the process, because glibc by default gives every image over 32 MB (and, after
    trimming, many smaller ones) fresh pages from the system, each page faulted in on first touch: about
    19000 page faults a 12 MP photo, a tenth of the scan's CPU spent in the kernel (bench seed 1000, 8
    photos, sys 0.11 -> 0.05 s and CPU 1.24 -> 1.16 s a photo, loaded machine). The price: the process
    holds ~100 MB more between scans (peak the same, ~410 MB).
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, 64 << 20) == 1 and mallopt(_M_TRIM_THRESHOLD, 128 << 20) == 1)


_paused = 0  # scans running now with the collector paused
_was_enabled = False  # whether the collector ran before the first of them paused it
_pause_lock = threading.Lock()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off while the block runs, on again (if it was on) once the last block
    running in any thread is over.

    Decision: a scan makes tens of thousands of short-lived Python objects (tokens, readings, the beam's
    dictionaries), which set off the collector 5-56 times a photo, while every one of them is freed by
    its count of references, so the collector finds nothing (bench seed 1000, 4 photos: 0 objects
    collected in 78 passes, its third generation too; bench_styles 35000 glare, 5 photos: 0 in 140;
    only a process's first scan leaves some 300, from loading the network and modules once). The passes
    cost about 17 ms of CPU a photo, held the GIL the other thread's Python needed meanwhile, and freed
    nothing: off, every object still goes when its last reference does, and what a scan reads is the
    same. A cycle made during a scan is freed by the first pass after it.
    """
    global _paused, _was_enabled
    with _pause_lock:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _pause_lock:
            _paused -= 1
            if _paused == 0 and _was_enabled:
                gc.enable()
