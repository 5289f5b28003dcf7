"""Speed (issue 5), session 9: the CNN's digit readings taken from the whole batch at once.

Truth: Python's own sort of each row (likeliest first, the lower digit first among equals) and the
row's own numbers.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from sheetscan.vision._cnn import _readings

# Probabilities with ties (a few levels only) and zeros, as a softmax of a sure crop gives.
_ROW = st.lists(st.sampled_from([0.0, 1e-12, 0.01, 0.05, 0.2, 0.25, 0.5, 0.9]), min_size=11, max_size=11)


@given(st.lists(_ROW, min_size=1, max_size=20))
def test_each_reading_is_its_rows_three_likeliest_digits(rows: list[list[float]]) -> None:
    table = np.array(rows, np.float64)
    readings = _readings(table)
    assert len(readings) == len(rows)
    for row, reading in zip(rows, readings, strict=True):
        best = sorted(range(10), key=lambda d: (-row[d], d))[:3]
        assert reading.candidates == tuple((d, row[d]) for d in best)
        assert reading.noise == row[10]
        assert all(type(d) is int and type(p) is float for d, p in reading.candidates)
        assert type(reading.noise) is float


def test_a_tie_goes_to_the_lower_digit() -> None:
    row = [0.0, 0.1, 0.3, 0.0, 0.0, 0.0, 0.0, 0.3, 0.0, 0.2, 0.1]
    (reading,) = _readings(np.array([row]))
    assert reading.candidates == ((2, 0.3), (7, 0.3), (9, 0.2))
    assert reading.noise == 0.1
