"""tools/misread_census.py: a misread digit's class, where the truth's digit lies in the number's image,
how a box fits it, and which MNIST image the renderer drew for each digit."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from misread_census import (
    COVERED,
    LOST,
    OUTSIDE,
    DrawnDigits,
    Misread,
    box_in_number,
    classify,
    fit,
    ink_lost,
)


def _misread(clean: tuple[int, float] = (5, 0.99), covered: float = 1.0, outside: float = 0.0) -> Misread:
    return Misread("1 usual", 5, 6, 0, 5, 6, ("test", 0), clean, 1, covered=covered, outside=outside)


def test_a_digit_misread_clean_too_is_mnists_own_ambiguity() -> None:
    assert classify(_misread(clean=(6, 0.99))) == "mnist"
    assert classify(_misread(clean=(5, 0.4))) == "mnist"  # read right clean, but not even half sure


def test_the_classes_of_a_digit_mnist_reads_right() -> None:
    assert classify(_misread(covered=-1.0, outside=-1.0)) == "boxes"  # boxes ≠ digits: no fit measured
    assert classify(_misread(outside=OUTSIDE + 0.01)) == "neighbour"
    assert classify(_misread(covered=COVERED - 0.01)) == "part"
    assert classify(_misread()) == "network"


def test_box_in_number_for_a_number_written_upright() -> None:
    """An upright number's image is its box with an even margin: points move by the box's corner."""
    quad = ((100.0, 50.0), (160.0, 50.0), (160.0, 80.0), (100.0, 80.0))
    points = np.array([[110.0, 55.0], [130.0, 75.0]])
    assert box_in_number(points, quad, (40, 70)) == pytest.approx((15.0, 10.0, 35.0, 30.0))


def test_box_in_number_for_a_number_written_upside_down() -> None:
    """Read from the other side, the box's reading-order top-left is the sheet's bottom-right."""
    quad = ((160.0, 80.0), (100.0, 80.0), (100.0, 50.0), (160.0, 50.0))
    points = np.array([[150.0, 75.0], [140.0, 55.0]])  # near the writer's top-left
    assert box_in_number(points, quad, (30, 60)) == pytest.approx((10.0, 5.0, 20.0, 25.0))


def test_fit_of_a_box_half_over_the_digit_with_a_neighbours_stroke() -> None:
    gray = np.zeros((30, 60), np.uint8)
    gray[5:25, 10:12] = 200  # the digit's stroke, inside its own box
    gray[5:25, 40:42] = 200  # a neighbour's stroke, far outside it
    covered, outside = fit((0.0, 0.0, 60.0, 15.0), (10.0, 5.0, 30.0, 25.0), gray)
    assert covered == pytest.approx(0.5)
    assert outside == pytest.approx(0.5)


@pytest.mark.slow
def test_drawn_digits_names_the_mnist_image_of_every_digit_and_leaves_the_photo_as_it_was() -> None:
    from sheetscan.vision.mnist import load_mnist
    from sheetscan.vision.render import render_sheet, sheet_or_game

    root = Path(__file__).resolve().parents[2]
    game = sorted((root / "samples").glob("game-*.json"))[0]
    sheet = sheet_or_game(json.loads(game.read_text(encoding="utf-8")))
    drawn = DrawnDigits()
    with drawn.recording():
        rendered = render_sheet(sheet, layout="standard-3", seed=3, digits_from="test")
    written = rendered.truth["numbers"]
    assert [text for text, _ in drawn.numbers[: len(written)]] == [str(n["value"]) for n in written]
    labels = load_mnist("test").labels
    for text, images in drawn.numbers:
        assert [name for name, _ in images] == ["test"] * len(text)
        assert [int(labels[index]) for _, index in images] == [int(ch) for ch in text]
    # The renderer's random choices are the same with the recording as without it.
    again = render_sheet(sheet, layout="standard-3", seed=3, digits_from="test")
    assert np.array_equal(rendered.image, again.image)


def test_ink_lost_off_and_on_the_drawn_lines() -> None:
    """A digit of two strokes: one kept as ink, one dropped; then the dropped one under a drawn line."""
    strength = np.zeros((20, 20), np.uint8)
    strength[2:18, 4:6] = 200
    strength[2:18, 12:14] = 200
    mask = np.zeros_like(strength)
    mask[2:18, 4:6] = 255
    lines = np.zeros_like(strength)
    own = (0.0, 0.0, 19.0, 19.0)
    assert ink_lost(strength, mask, lines, own) == pytest.approx((0.5, 0.0))
    lines[:, 12:14] = 255
    assert ink_lost(strength, mask, lines, own) == pytest.approx((0.0, 0.5))


def test_a_digit_whose_ink_was_dropped_is_lost() -> None:
    m = _misread(covered=0.7)
    m.lost = LOST + 0.01
    assert classify(m) == "lost"
    m.lost = 0.0
    assert classify(m) == "part"
