"""Stage 2: a printed form found in the paper's region by fewer than its four markers is looked for in the
whole photo too, and the form found there by more markers is the sheet (`sheet.find_sheet`; the views'
searches stubbed). The rendered case behind it: bench_styles seed 33000, photo 7, a tilted form whose
far, shaded end (two markers) lay outside the paper's bright region: 125 px off in twelve styles.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pytest

import sheetscan.vision.sheet as sheet_module
from sheetscan.vision.photo import Photo, load_photo
from sheetscan.vision.sheet import find_sheet


@dataclass(frozen=True)
class _Found:
    """What `find_sheet` asks of a sheet found in a view."""

    source: str
    partial: bool
    markers: int


def _photo() -> Photo:
    ok, data = cv2.imencode(".png", np.full((300, 400, 3), 200, np.uint8))
    assert ok
    return load_photo(bytes(data.tobytes()))


def _search(in_region: int, in_photo: int) -> object:
    """A stand-in for `_find_in`: a form seen by `in_region` markers in the paper's region (a view offset
    into the photo) and by `in_photo` in the whole photo."""
    def find_in(view: Photo, photo: Photo, offset: tuple[int, int]) -> tuple[_Found, int, bool]:
        seen = in_photo if offset == (0, 0) and view is photo else in_region
        return _Found("form", False, seen), seen, False
    return find_in


@pytest.mark.parametrize(("in_region", "in_photo", "taken"), [(2, 4, 4), (4, 4, 4), (3, 3, 3), (2, 1, 2)])
def test_a_form_short_of_markers_in_the_region_is_looked_for_in_the_whole_photo(
        monkeypatch: pytest.MonkeyPatch, in_region: int, in_photo: int, taken: int) -> None:
    # The region looks far (0.15 of the photo), so it is searched first; a form pinned there by two
    # markers gives way to the one the whole photo shows by four, never to one seen by as few or fewer.
    monkeypatch.setattr(sheet_module, "paper_box", lambda photo: ((50, 50, 300, 250), 0.15))
    monkeypatch.setattr(sheet_module, "_find_in", _search(in_region, in_photo))
    found = find_sheet(_photo())
    assert isinstance(found, _Found) and found.markers == taken
