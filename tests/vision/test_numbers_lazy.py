"""Stage 5: a block's numbers at an angle are cut only as far as the reading asks for them.

The digits are MNIST test digits placed by `_handwriting`; `TemplateReader` knows them, so these tests
check which numbers get cut and that the reading is complete, not the trained network.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sheetscan.vision import numbers as numbers_module
from sheetscan.vision.ink import find_ink
from sheetscan.vision.numbers import find_numbers, read_numbers
from tests.vision._handwriting import TemplateReader, Writer, blank, to_bgr, whole, write_line

# Twelve running totals in two rows: more than the ten a block is sampled on to choose its angle.
ROWS = ("2.4.6.10.14.18", "22.26.30.34.40.46")
VALUES = [2, 4, 6, 10, 14, 18, 22, 26, 30, 34, 40, 46]


def _sheet(turns: int) -> tuple[np.ndarray, Writer]:
    writer = Writer(height=30, seed=5)
    canvas = blank(170, 560)
    write_line(canvas, ROWS[0], 12, 22, writer)
    write_line(canvas, ROWS[1], 12, 96, writer)
    return np.ascontiguousarray(np.rot90(to_bgr(canvas), turns)), writer


def test_numbers_at_an_angle_are_cut_only_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    image, _ = _sheet(0)
    made: list[int] = []
    original = numbers_module._number_image

    def counting(*args: Any, **kwargs: Any) -> Any:
        made.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(numbers_module, "_number_image", counting)
    tokens = find_numbers(find_ink(image), whole(image, (0,)))
    assert made == []  # nothing is cut before it is asked for
    at_180 = dict(tokens.blocks[0].candidates)[180]
    first = at_180[:3]
    assert len(made) == 3
    # Asking again gives the same numbers (not cut again); asking for all cuts the rest.
    assert at_180[:3] == first and len(made) == 3
    assert len(at_180) >= 3 and tuple(at_180)[:3] == first


def test_a_block_written_upside_down_is_read_in_full() -> None:
    # Read at 180°, which the reading samples on its first numbers only: every number is still read.
    image, writer = _sheet(2)
    result = read_numbers(find_numbers(find_ink(image), whole(image, (0,))), TemplateReader([writer]))
    (zone,) = result.zones
    assert zone.angles == (180,)
    assert [n.value for n in zone.numbers] == VALUES
