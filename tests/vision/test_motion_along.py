"""Stage 4, `_motion.steadied`: a smear taken out where the photo had none over-corrects, leaving the
strokes narrower along it than the pen's width, and the sheet is then kept as it was."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision import _motion
from sheetscan.vision._motion import Motion, dips, lag_at, motion_from, steadied, unsmeared
from tests.vision.test_motion import _smeared, _writing


def _held_still() -> np.ndarray:
    """A round pen held still: its strokes as wide every way."""
    return cv2.dilate(_writing(), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))


def test_a_smear_taken_out_where_none_was_leaves_the_strokes_narrower_along_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Taken for shaken by 11 px at 17° (as a thick pen on squared paper was: bench_styles 45000 photo 0),
    the sheet held still keeps over `SMEAR_KEPT` of its strokes' width across them, so that test alone
    would take the smear out; along the smear they come out under `SMEAR_ALONG` of it, and it is kept."""
    image = _held_still()
    width = motion_from(dips(image))[2]
    false = Motion(angle=17.0, length=11.0, width=width)
    found = dips(unsmeared(image, false))
    assert motion_from(found)[2] >= _motion.SMEAR_KEPT * width
    assert lag_at(found, false.angle) < _motion.SMEAR_ALONG * width
    monkeypatch.setattr(_motion, "motion_of", lambda strength: false)
    assert steadied(image, along=0.0) is not image
    assert steadied(image) is image


@pytest.mark.parametrize(("angle", "length"), [(17.0, 9.0), (120.0, 13.0)])
def test_a_smear_that_was_there_leaves_the_strokes_as_wide_along_it(angle: float, length: float) -> None:
    image = _smeared(_writing(), Motion(angle=angle, length=length))
    motion = _motion.motion_of(image)
    assert motion is not None
    assert lag_at(dips(unsmeared(image, motion)), motion.angle) >= _motion.SMEAR_ALONG * motion.width
    assert steadied(image) is not image
