"""How a scan's memory is looked after (issue 5, speed): its freed images stay with the process, so the
next photo decoded is not faulted in page by page again; and the cycle collector waits until the last scan
running is over.

Truth: the kernel's own count of the process's page faults (`getrusage`), and a photo's size in pages;
`gc.isenabled()`.
"""

from __future__ import annotations

import gc
import platform
import resource
from collections.abc import Iterator

import cv2
import numpy as np
import pytest

from sheetscan.errors import UnreadableImageError
from sheetscan.vision import scan as scan_module
from sheetscan.vision._memory import collector_paused, hold_freed_memory


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


@pytest.fixture
def collector_on() -> Iterator[None]:
    """The collector on before the test, and as it was after it."""
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_off_within_and_on_again_after(collector_on: None) -> None:
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_is_on_again_after_a_block_that_raised(collector_on: None) -> None:
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("a photo that could not be read")
    assert gc.isenabled()


def test_the_collector_stays_off_until_the_last_of_overlapping_blocks_ends(collector_on: None) -> None:
    # Two scans in two threads: the first to finish must not turn it on under the other.
    first, second = collector_paused(), collector_paused()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    assert gc.isenabled()


def test_a_collector_turned_off_before_stays_off(collector_on: None) -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_a_scan_runs_with_the_collector_off(collector_on: None, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def load_photo(source: object) -> None:
        seen.append(gc.isenabled())
        raise UnreadableImageError("not a photo")

    monkeypatch.setattr(scan_module, "load_photo", load_photo)
    with pytest.raises(UnreadableImageError):
        scan_module.scan(b"...", recognizer=object())  # type: ignore[arg-type]
    assert seen == [False]
    assert gc.isenabled()
