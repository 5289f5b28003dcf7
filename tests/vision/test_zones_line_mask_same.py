"""Speed (issue 5), session 8: the zone stage's line mask made cheaper must give the same pixels.

Truth: numpy's own `nanmedian`, the channel picked by numpy's `min`/`max` over the colour axis, a flat
sheet whose paper is known, and `_line_mask` run without its second thread.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheetscan.vision import _threads
from sheetscan.vision._bend import _row_nanmedian
from sheetscan.vision._lines import dark_ratio
from sheetscan.vision.zones import _line_mask

_ROW = st.lists(st.one_of(st.just(float("nan")), st.integers(-40, 40).map(lambda v: v / 2)),
                min_size=9, max_size=9).filter(lambda row: any(v == v for v in row))


@given(st.lists(_ROW, min_size=1, max_size=30))
def test_row_nanmedian_is_numpys(rows: list[list[float]]) -> None:
    # Half-pixel offsets as the trace's run centres are; odd and even counts of values, ties, NaN gaps.
    table = np.array(rows, np.float64)
    count = np.sum(~np.isnan(table), axis=1)
    assert _row_nanmedian(table, count).tobytes() == np.nanmedian(table, axis=1).tobytes()


@pytest.mark.parametrize("channel", ["min", "max"])
def test_dark_ratio_of_colour_is_that_of_the_picked_channel(channel: str) -> None:
    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (120, 700, 3), dtype=np.uint8)
    image[40:60, 100:300] //= 4  # some dark "ink" on the noise
    picked = image.min(axis=2) if channel == "min" else image.max(axis=2)
    colour = dark_ratio(image, line_width=3.0, channel=channel)
    assert colour.dtype == np.float32
    assert colour.tobytes() == dark_ratio(np.ascontiguousarray(picked), line_width=3.0).tobytes()


@pytest.mark.parametrize(("level", "ratio"), [(200, 1.0), (24, 1.0), (10, np.float32(10) / np.float32(24))])
def test_dark_ratio_of_flat_paper(level: int, ratio: float) -> None:
    # A flat sheet is its own paper: 1 everywhere, except that the paper is never taken darker than 24
    # (a sheet at level 10 reads 10/24 in float32).
    flat = np.full((900, 1200), level, np.uint8)
    out = dark_ratio(flat, line_width=3.0)
    assert out.dtype == np.float32
    assert np.all(out == np.float32(ratio))


def _sheet() -> tuple[np.ndarray, np.ndarray, list[np.ndarray], tuple[float, float, float]]:
    # A 600 × 800 sheet: a freehand frame (wobbling a few px off its model), a spoke to a drawn circle,
    # a line gone over twice, and digits written against the lines.
    mask = np.zeros((600, 800), np.uint8)
    xs = np.arange(40, 761, 20)
    top = np.stack([xs, 60 + 3 * np.sin(xs / 37.0)], axis=1)
    bottom = np.stack([xs, 540 + 4 * np.cos(xs / 29.0)], axis=1)
    cv2.polylines(mask, [np.round(top).astype(np.int32), np.round(bottom).astype(np.int32)], False, 255, 4)
    cv2.line(mask, (40, 60), (40, 540), 255, 3)
    cv2.line(mask, (760, 60), (760, 540), 255, 3)
    cv2.line(mask, (763, 60), (763, 540), 255, 2)  # the right side gone over twice
    cv2.line(mask, (400, 60), (400, 240), 255, 3)  # a spoke down to the circle
    cv2.ellipse(mask, (400, 300), (60, 66), 0, 0, 360, 255, 4)
    lines = mask.copy()
    for x in range(120, 330, 45):  # digits hanging from the top line, and one inside the circle
        cv2.putText(mask, "7", (x, 100), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 255, 3)
    cv2.putText(mask, "35", (370, 315), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 255, 3)
    model = [np.array([[40.0, 60.0], [760.0, 60.0], [760.0, 540.0], [40.0, 540.0], [40.0, 60.0]]),
             np.array([[400.0, 60.0], [400.0, 240.0]])]
    return mask, lines, model, (400.0, 300.0, 60.0)


def test_line_mask_is_the_same_without_its_second_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    mask, lines, model, circle = _sheet()
    threaded, ring = _line_mask(mask, mask, model, None, circle, 4.0, search=30.0)

    def inline(job: Callable[[], object]) -> Future[object]:
        done: Future[object] = Future()
        done.set_result(job())
        return done

    monkeypatch.setattr(_threads, "in_background", inline)
    alone, ring_alone = _line_mask(mask, mask, model, None, circle, 4.0, search=30.0)
    assert threaded.tobytes() == alone.tobytes()
    assert ring == ring_alone
    # Not a vacuous comparison: the frame and the circle are masked, and the digits mostly not.
    assert ring is not None and abs(ring.cx - 400) < 5
    drawn, digits = lines > 0, (mask > 0) & (lines == 0)
    assert np.count_nonzero((threaded > 0) & drawn) > 0.9 * np.count_nonzero(drawn)
    assert np.count_nonzero((threaded > 0) & digits) < 0.2 * np.count_nonzero(digits)


def test_in_background_gives_the_result_or_the_error() -> None:
    assert _threads.in_background(lambda: 6 * 7).result() == 42

    def fails() -> int:
        raise ValueError("no ring")

    with pytest.raises(ValueError, match="no ring"):
        _threads.in_background(fails).result()


# (Python 3.12 warns that forking a process with threads may deadlock: what this test checks does not.)
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_in_background_works_in_a_forked_process() -> None:
    # A child forked after the pool started has the pool's object but none of its threads.
    assert _threads.in_background(lambda: 1).result() == 1
    pid = os.fork()
    if pid == 0:  # the child: exit 0 only when its job ran
        try:
            os._exit(0 if _threads.in_background(lambda: 2).result(timeout=20) == 2 else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
