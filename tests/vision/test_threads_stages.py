"""Speed (issue 5), session 11: work of the line and ink stages moved to a second thread gives what one
thread gives (`_frame_lines.lines_mask`: the brightest channel; `ink.find_ink`: the writing on the ruling,
and the ink's strength handed over while still being found), and `_frame_lines._window` cuts its windows
as by hand."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

import numpy as np
import pytest

from sheetscan.vision import _frame_lines, ink
from tests.vision._handwriting import blank, to_bgr

T = TypeVar("T")


def _inline(job: Callable[[], T]) -> Future[T]:
    """`_threads.in_background` done at once in the caller's thread."""
    done: Future[T] = Future()
    done.set_result(job())
    return done


def _ruled_sheet() -> tuple[np.ndarray, np.ndarray]:
    """A 600 × 600 sheet of squared paper (rulings every 30 px, 0.25 darker than the paper, across the
    whole sheet), a drawn frame (rows and columns 100-104 and 495-499, 0.7 dark) with its line mask, pen
    strokes lying along two rulings (0.5 dark over them, 24 and 20 px) and crossing one (upright, 40 px),
    and a blue ruling-coloured tint: what `written_on_ruling` and `labelled_without_ruling_specks` both look
    at."""
    darkness = np.zeros((600, 600))
    darkness[15::30, :] = 0.25
    darkness[:, 15::30] = 0.25
    lines = np.zeros((600, 600), np.uint8)
    for a, b in ((100, 105), (495, 500)):
        darkness[a:b, 100:500] = darkness[100:500, a:b] = 0.7
        lines[a - 1:b + 1, 99:501] = lines[99:501, a - 1:b + 1] = 255
    darkness[225, 200:224] = darkness[345, 320:340] = 1 - 0.75 * 0.5  # (1 - r)(1 - d) of the paper left
    darkness[250:290, 262:264] = 0.6
    darkness[400:403, 400:403] = 0.45  # a speck on a crossing's neighbourhood
    return to_bgr(blank(600, 600) * (1.0 - darkness)[..., None]), lines


def test_window_cut_by_hand() -> None:
    # An 11 × 21 image: x runs 0..20, y 0..10. Each end is clamped to the image and cut down to a pixel.
    assert _frame_lines._window((11, 21), (-3.0, 25.0, 2.7, 10.0)) == (slice(2, 11), slice(0, 21))
    assert _frame_lines._window((11, 21, 3), (np.float64(4.9), np.float64(5.0), -0.5, 0.5)) == (
        slice(0, 1), slice(4, 6))
    # An end past the last pixel is the last pixel; so is a NaN (min and max keep their first argument).
    assert _frame_lines._window((11, 21), (20.0, math.inf, math.nan, 3.999)) == (slice(10, 4), slice(20, 21))
    assert _frame_lines._window((11, 21), (-math.inf, 0.0, 11.0, 10.5)) == (slice(10, 11), slice(0, 1))


def test_lines_mask_the_same_in_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    image, _ = _ruled_sheet()
    frame, band = (102.0, 102.0, 497.0, 497.0), 4
    threads: list[str] = []
    measure = _frame_lines.dark_ratio

    def dark_ratio(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return measure(*args, **kwargs)

    monkeypatch.setattr(_frame_lines, "dark_ratio", dark_ratio)
    apart = _frame_lines.lines_mask(image, frame, 3.0, band=band)
    assert any(name.startswith("sheetscan") for name in threads)  # one channel in the pool
    monkeypatch.setattr(_frame_lines, "in_background", _inline)
    together = _frame_lines.lines_mask(image, frame, 3.0, band=band)
    assert apart[0].tobytes() == together[0].tobytes() and apart[1].tobytes() == together[1].tobytes()
    assert apart[2:3] == together[2:3] and apart[4] == together[4]
    assert apart[3].tobytes() == together[3].tobytes()
    assert np.count_nonzero(apart[0][100:105, 100:500]) > 0.9 * 5 * 400  # the frame's top side is in it


def test_find_ink_the_same_in_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    image, lines = _ruled_sheet()
    seen: list[tuple[str, int]] = []
    find_written = ink.written_on_ruling

    def written_on_ruling(*args: Any, **kwargs: Any) -> Any:
        out = find_written(*args, **kwargs)
        seen.append((threading.current_thread().name, int(np.count_nonzero(out))))
        return out

    monkeypatch.setattr(ink, "written_on_ruling", written_on_ruling)
    apart = ink.find_ink(image, line_mask=lines)
    strength = ink.ink_strength(image)
    handed = ink.find_ink(image, line_mask=lines, prepared=_inline(lambda: strength))
    monkeypatch.setattr(ink, "in_background", _inline)
    together = ink.find_ink(image, line_mask=lines)
    assert seen[0][0].startswith("sheetscan") and seen[2][0] == threading.current_thread().name
    assert seen[0][1] > 0  # there was writing on the ruling to find: the comparison is not of nothing
    for other in (handed, together):
        assert apart.mask.tobytes() == other.mask.tobytes()
        assert apart.strength.tobytes() == other.strength.tobytes()
        assert apart.stroke_width == other.stroke_width
    # The strokes along the rulings are ink, the rulings between them are not.
    assert apart.mask[225, 205:219].all() and apart.mask[345, 322:338].all()
    assert not apart.mask[75, 120:480].any()
