"""Stage 4, `_motion`: a shaken photo's smear is found (its direction and length) and taken back out of the
ink's strength; a photo held still, sharp or out of focus, is left as it is."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision._motion import (
    SMEAR_KEPT,
    Motion,
    dips,
    motion_from,
    motion_of,
    smear_kernel,
    steadied,
    unsmeared,
)


def _writing() -> np.ndarray:
    """A strength image (ink bright) of hand-like digits, dots and ruled lines, as a rectified sheet."""
    rng = np.random.default_rng(15)
    image = np.zeros((700, 1000), np.uint8)
    for y in range(40, 700, 60):
        cv2.line(image, (0, y), (999, y), 90, 2)
    for _ in range(70):
        x, y = int(rng.integers(20, 900)), int(rng.integers(50, 690))
        text = "".join(str(d) for d in rng.integers(0, 10, int(rng.integers(1, 4))))
        cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 1.4, 210, 4, cv2.LINE_AA)
        cv2.circle(image, (x - 8, y), 3, 210, -1)
    return image


def _smeared(image: np.ndarray, motion: Motion) -> np.ndarray:
    return np.asarray(np.clip(cv2.filter2D(image.astype(np.float32), -1, smear_kernel(motion)), 0, 255),
                      np.uint8)


def test_a_sharp_or_round_blurred_sheet_is_not_taken_for_shaken() -> None:
    image = _writing()
    assert motion_of(image) is None
    assert motion_of(np.asarray(cv2.GaussianBlur(image, (0, 0), 2.0), np.uint8)) is None


@pytest.mark.parametrize("angle", [20.0, 100.0, 160.0])
def test_a_shaken_sheets_smear_is_found(angle: float) -> None:
    found = motion_of(_smeared(_writing(), Motion(angle=angle, length=13.0)))
    assert found is not None
    # Directions are the same half a turn apart.
    off = abs((found.angle - angle + 90.0) % 180.0 - 90.0)
    assert off < 12.0
    assert 9.0 <= found.length <= 17.0


def test_the_smear_taken_out_gives_a_dot_its_darkness_and_shape_back() -> None:
    dot = np.zeros((120, 120), np.uint8)
    cv2.circle(dot, (60, 60), 3, 220, -1)
    smear = Motion(angle=30.0, length=12.0)
    smeared = _smeared(dot, smear)
    restored = unsmeared(smeared, smear)
    # Smeared, the dot is a faint dash; restored, nearly as dark and as small as it was.
    assert smeared.max() < 0.6 * dot.max()
    assert restored.max() > 0.8 * dot.max()
    assert np.count_nonzero(restored > 110) < 1.5 * np.count_nonzero(dot > 110)
    # Drawn at half of its own darkness (as `_focus.within_half_peak` draws a blurred stroke), the smeared
    # dot is a dash, the restored one a dot again.
    dash = np.count_nonzero(smeared >= smeared.max() / 2)
    assert dash > 1.5 * np.count_nonzero(restored >= restored.max() / 2)


def test_a_lone_stroke_is_not_taken_for_a_smear_across_it() -> None:
    # One upright stroke: its edges dip at its width across it, as a smear across it would make them.
    image = np.zeros((240, 300), np.uint8)
    cv2.line(image, (100, 100), (100, 130), 200, 3)
    assert motion_of(image) is None


def test_a_thick_pen_wider_one_way_held_still_is_not_taken_for_shaken() -> None:
    """A felt tip whose stroke is 1.4 times as wide one way as the other spreads the dips by about 3 px,
    past `SMEAR_GATE` alone; as a share of the stroke's own width (about 12 px) it is small."""
    image = cv2.dilate(_writing(), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (14, 10)))
    assert motion_of(image, share=0.0) is not None  # the spread alone would pass the gate
    assert motion_of(image) is None


@pytest.mark.parametrize("angle", [0.0, 30.0, 90.0])
def test_a_shaken_sheet_is_steadied_and_keeps_its_strokes_width(angle: float) -> None:
    image = _smeared(_writing(), Motion(angle=angle, length=13.0))
    motion = motion_of(image)
    assert motion is not None
    restored = steadied(image)
    assert restored is not image
    assert motion_from(dips(restored))[2] >= SMEAR_KEPT * motion.width


def test_a_smear_that_was_not_the_photos_narrows_the_strokes() -> None:
    """What `steadied` checks: a thick pen held still, taken for shaken when the spread alone decides, comes
    out of the filter with its strokes measured about half as wide (ringing), under `SMEAR_KEPT`."""
    image = cv2.dilate(_writing(), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (14, 10)))
    motion = motion_of(image, share=0.0)
    assert motion is not None
    assert motion_from(dips(unsmeared(image, motion)))[2] < SMEAR_KEPT * motion.width
    assert steadied(image) is image
