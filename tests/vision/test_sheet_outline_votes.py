"""Stage 2, which outline is the drawn frame: an outline found twice at one ink level counts once
(`_drawn_frame.frame_candidates`), and a sheet found in the paper's region is looked for in the whole photo
too when outlines run off that region where it ends inside the photo (`sheet.find_sheet`).

Small synthetic masks and photos. (The rendered cases behind them: bench_styles seed 24000, motion, photo
0, where a kite of grid lines and spokes found both in a level's ink and in its cut to the paper beat the
frame drawn whole at another level; seed 22000, thin, photo 0, where the paper's region ended inside the
paper and an outline of the grid within it was taken for the sheet.)
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision import sheet as sheet_module
from sheetscan.vision._drawn_frame import frame_candidates
from sheetscan.vision.photo import Photo, load_photo
from sheetscan.vision.sheet import find_sheet


def test_an_outline_found_again_in_the_cut_to_the_paper_counts_once() -> None:
    # A bright paper on a dark table; the biggest outline runs off the photo's left edge (so the ink is
    # also looked at cut to the paper), and a small rectangle drawn whole on the paper is found both in
    # the ink and in its cut: one level, one outline.
    dark = np.full((750, 1000), 70, np.uint8)
    cv2.rectangle(dark, (250, 60), (920, 690), 215, -1)
    mask = np.zeros((750, 1000), np.uint8)
    cv2.rectangle(mask, (400, 200), (700, 450), 255, 3)
    cv2.polylines(mask, [np.array([[0, 100], [850, 100], [850, 650], [0, 650]], np.int32)], False, 255, 3)
    found = frame_candidates(mask, dark)
    small = [c for c, _ in found if not c.touches]
    assert len(small) == 1
    assert np.abs(small[0].quad - [[400, 200], [700, 200], [700, 450], [400, 450]]).max() < 4


# --- a paper's region cut short ------------------------------------------------------------------------

_SIZE = (1500, 2000)  # height, width
_FRAME = (300, 250, 1700, 1250)  # left, top, right, bottom
_INNER = (500, 450, 1100, 1050)  # a faint rectangle inside the frame (a pale ruling's, a faint pencil's)


def _photo() -> Photo:
    """A frame drawn in black on white paper filling most of a grey table's photo, and inside it a rectangle
    drawn so faint (0.87 of the paper) that only the faintest ink levels see it."""
    image = np.full((*_SIZE, 3), 110, np.uint8)
    image[150:1350, 150:1850] = 235
    left, top, right, bottom = _FRAME
    cv2.rectangle(image, (left, top), (right, bottom), (40, 40, 40), 6)
    left, top, right, bottom = _INNER
    cv2.rectangle(image, (left, top), (right, bottom), (205, 205, 205), 6)
    ok, data = cv2.imencode(".png", image)
    assert ok
    return load_photo(bytes(data.tobytes()))


def test_a_frame_running_off_the_papers_region_is_looked_for_in_the_whole_photo(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The paper's region (as the light's fall-off over the paper may leave it) ends at x = 1300, inside the
    # frame, and looks far (0.15 of the photo): it is searched first. There the frame runs off its right
    # edge at the usual ink levels, and the faint rectangle is the only outline drawn whole, at the
    # faintest levels; the sheet is the frame, found in the whole photo.
    monkeypatch.setattr(sheet_module, "paper_box", lambda photo: ((100, 100, 1300, 1400), 0.15))
    found = find_sheet(_photo())
    left, top, right, bottom = _FRAME
    truth = np.array([[left, top], [right, top], [right, bottom], [left, bottom]], np.float64)
    error = min(float(np.hypot(*(np.roll(found.corners, k, 0) - truth).T).max()) for k in range(4))
    assert error < 15
    assert not found.partial


def test_a_frame_within_the_papers_region_is_found_there(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same sheet with the region round the whole paper: nothing runs off it, and the frame is found.
    monkeypatch.setattr(sheet_module, "paper_box", lambda photo: ((100, 100, 1900, 1400), 0.15))
    found = find_sheet(_photo())
    left, top, right, bottom = _FRAME
    truth = np.array([[left, top], [right, top], [right, bottom], [left, bottom]], np.float64)
    error = min(float(np.hypot(*(np.roll(found.corners, k, 0) - truth).T).max()) for k in range(4))
    assert error < 15
