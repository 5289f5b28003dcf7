"""How the C allocator treats a scan's big images: kept for the next photo rather than given back."""

from __future__ import annotations

import ctypes
import sys
from functools import cache

__all__ = ["hold_freed_memory"]

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

