"""Stage 5: `_group._median`, the plain-Python median `_rows` uses for a row's middle (session 6 speed
work), on values worked out by hand."""

from __future__ import annotations

from sheetscan.vision._group import _median


def test_the_median_is_the_middle_value_or_the_mean_of_the_middle_two() -> None:
    assert _median([7.5]) == 7.5
    assert _median([12.0, 10.5, 11.0]) == 11.0  # sorted 10.5, 11.0, 12.0
    assert _median([10.5, 13.0, 12.0, 11.5]) == 11.75  # (11.5 + 12.0) / 2
    assert _median([3.0, 3.0, 40.0, 2.5]) == 3.0  # (3.0 + 3.0) / 2
    # A float, like np.median, even from whole numbers.
    assert isinstance(_median([4, 9, 1]), float) and _median([4, 9, 1]) == 4.0
