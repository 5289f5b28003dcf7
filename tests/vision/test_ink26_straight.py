"""Stage 4, `_straight.straight_lines`: the slanting lines are looked for in the mask less the level and
upright runs, but for the runs' pixels where other ink crosses them, so a slanting line crossing drawn lines
or squared paper's ruling is found whole, and nothing of the runs far from it is taken for it. And the
writing on the ruling (`written_on_ruling`, asked only where the ink is dark enough) and the specks' labels
(`labelled_without_ruling_specks`, handed to the line removal)."""

import cv2
import numpy as np
import pytest

from sheetscan.vision._ruling import labelled_without_ruling_specks, written_on_ruling
from sheetscan.vision._straight import straight_lines


def _sheet(step: int, thickness: int, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """An 800 px square mask: level and upright runs `thickness` px thick every `step` px, and a slanting line
    3 px wide, 600 px long at `angle` degrees across them; returned with the slanting line alone."""
    runs = np.zeros((800, 800), np.uint8)
    for k in range(50, 800, step):
        cv2.line(runs, (0, k), (799, k), 255, thickness)
        cv2.line(runs, (k, 0), (k, 799), 255, thickness)
    line = np.zeros_like(runs)
    a = np.radians(angle)
    cv2.line(line, (100, 700), (int(100 + 600 * np.cos(a)), int(700 - 600 * np.sin(a))), 255, 3)
    return np.maximum(runs, line), line


@pytest.mark.parametrize(("step", "thickness", "angle"),
                         [(150, 3, 30), (200, 4, 45), (150, 3, 60), (250, 3, 20), (40, 2, 30), (60, 2, 45)])
def test_a_slanting_line_crossing_runs_is_found_whole_and_alone(step: int, thickness: int, angle: float
                                                                ) -> None:
    mask, line = _sheet(step, thickness, angle)
    level, upright, slanting = straight_lines(mask, length=120)
    found = np.count_nonzero((slanting > 0) & (line > 0)) / np.count_nonzero(line)
    assert found >= 0.9
    # Nothing more than 12 px off the slanting line (the 5 px band it is drawn with, past its ends by a few px
    # along a run where Hough's segment overshoots).
    far = cv2.dilate(line, np.ones((25, 25), np.uint8)) == 0
    assert not np.any((slanting > 0) & far)
    # The runs themselves are the level and upright ones, all along the sheet.
    assert np.count_nonzero(level[50, :]) > 700 and np.count_nonzero(upright[:, 50]) > 700


def test_level_and_upright_runs_alone_give_no_slanting_line() -> None:
    mask, _ = _sheet(40, 2, 30)
    runs = np.zeros_like(mask)
    for k in range(50, 800, 40):
        cv2.line(runs, (0, k), (799, k), 255, 2)
        cv2.line(runs, (k, 0), (k, 799), 255, 2)
    _, _, slanting = straight_lines(runs, length=120)
    assert not slanting.any()


def test_writing_on_the_ruling_found_where_only_the_dark_pixels_are_asked_about() -> None:
    # A level ruling 40 % dark; a pencil stroke lying along it 40 px long, 80 % dark; and a drawn line lying
    # along another ruling all its length (ink all along: a line, not writing). Only the stroke is writing.
    strength = np.zeros((200, 400), np.uint8)
    strength[50, :] = 102
    strength[150, :] = 102
    strength[50, 100:140] = 204
    strength[150, :] = 230
    mask = np.where(strength >= 200, 255, 0).astype(np.uint8)
    level = np.zeros_like(mask)
    level[50, :] = 255
    level[150, :] = 255
    upright = np.zeros_like(mask)
    strong = np.full_like(mask, 80)
    written = written_on_ruling(strength, mask, level, upright, strong=strong, length=120)
    assert np.count_nonzero(written[50, 100:140]) == 40
    assert not written[150].any()
    assert np.count_nonzero(written) == 40
    # Nothing darker than the ruling on it: nothing written.
    blank = np.zeros_like(mask)
    assert not written_on_ruling(strength, blank, level, upright, strong=strong, length=120).any()


def test_the_specks_labels_hold_for_every_pixel_of_ink_left() -> None:
    # Faint level ruling with two specks on it (its crossings' darkness) and a digit-sized blob off it.
    strength = np.zeros((300, 300), np.uint8)
    strength[100, :] = 30
    strength[99:102, 60:64] = 60
    strength[99:102, 200:204] = 60
    strength[180:230, 140:146] = 200
    mask = np.where(strength >= 50, 255, 0).astype(np.uint8)
    out, blobs = labelled_without_ruling_specks(mask, strength, level=0.08, length=120)
    assert blobs is not None
    count, labels = blobs
    assert not out[99:102, 60:64].any() and not out[99:102, 200:204].any()
    assert np.all(out[180:230, 140:146] == 255)
    # The blob left has one label of its own, and labels tell it from the paper and from the specks gone.
    own = labels[180:230, 140:146]
    assert len(np.unique(own)) == 1 and own[0, 0] != 0
    assert count >= 4 and not np.any(labels[out > 0] == 0)
