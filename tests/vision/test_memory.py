"""Speed (issue 5), session 9: a scan's freed images stay with the process, so the next photo decoded is
not faulted in page by page again.

Truth: the kernel's own count of the process's page faults (`getrusage`), and a photo's size in pages.
"""

from __future__ import annotations

import platform
import resource

import cv2
import numpy as np
import pytest

from sheetscan.vision._memory import hold_freed_memory


def _faults_to_decode(jpeg: np.ndarray) -> int:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    assert image is not None and image.shape == (3000, 4000, 3)
    del image
    return after - before


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                    reason="the allocator is told only on glibc")
def test_a_second_photo_is_not_faulted_in_again() -> None:
    # A 12 MP photo: OpenCV decodes it into 36 MB of its own (9 216 pages of 4 KB), then hands numpy a
    # copy. Over glibc's own bound for the heap (32 MB), every page of it came fresh from the system.
    ok, jpeg = cv2.imencode(".jpg", np.full((3000, 4000, 3), 200, np.uint8))
    assert ok
    assert hold_freed_memory()
    _faults_to_decode(jpeg)  # the first may have to grow the heap
    assert _faults_to_decode(jpeg) < 1000
