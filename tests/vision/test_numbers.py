"""Stage 5, numbers: grouping, dots, rows, orientation, crossing out (small synthetic zones).

Every expected value is what `_handwriting` wrote (MNIST test digits placed by the test); the
recogniser is `TemplateReader`, which knows the written digit images, so these tests check the cutting
and the choice of angle, not the trained network.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sheetscan.vision import _group
from sheetscan.vision.ink import find_ink
from sheetscan.vision.numbers import _blocks, _candidate_angles, find_numbers, read_numbers
from tests.vision._handwriting import TemplateReader, Writer, blank, to_bgr, whole, write_line

VALUES = [2, 4, 6, 10, 14, 128, 140]


def _two_rows(seed: int = 1) -> tuple[np.ndarray, Writer, list[tuple[int, int, int, int]]]:
    """'2.4.6.10.14' wrapping to '128.140' on a second line, as running totals are written."""
    writer = Writer(height=30, seed=seed)
    canvas = blank(170, 520)
    boxes = write_line(canvas, "2.4.6.10.14", 12, 22, writer)
    boxes += write_line(canvas, "128.140", 12, 96, writer)
    return to_bgr(canvas), writer, boxes


def test_numbers_are_split_at_dots_and_ordered_by_rows() -> None:
    image, _, boxes = _two_rows()
    tokens = find_numbers(find_ink(image), whole(image, (0,)))
    angle, numbers = tokens.blocks[0].candidates[0]
    assert angle == 0
    assert [len(t.image.digit_boxes) for t in numbers] == [len(str(v)) for v in VALUES]
    assert [t.row for t in numbers] == [0, 0, 0, 0, 0, 1, 1]
    assert not any(t.crossed_out for t in numbers)
    # Each number's box lies on the box it was written in (centres within a few pixels).
    for token, (x, y, w, h) in zip(numbers, boxes, strict=True):
        qx = sum(p[0] for p in token.quad) / 4
        qy = sum(p[1] for p in token.quad) / 4
        assert abs(qx - (x + w / 2)) < 4 and abs(qy - (y + h / 2)) < 4


@pytest.mark.parametrize(("turns", "angle"), [(0, 0), (1, -90), (2, 180), (3, 90)])
def test_the_writing_angle_is_found_and_the_totals_read_in_order(turns: int, angle: int) -> None:
    image, writer, _ = _two_rows(seed=4)
    turned = np.ascontiguousarray(np.rot90(image, turns))  # np.rot90 turns counter-clockwise
    # The zone says only "written from the bottom edge"; 180° is always tried, and the side angles
    # are given as the zone's usual angle, as the layout would.
    usual = angle if turns % 2 else 0
    result = read_numbers(find_numbers(find_ink(turned), whole(turned, (usual,))), TemplateReader([writer]))
    (zone,) = result.zones
    assert zone.angles == (angle,)
    assert [n.value for n in zone.numbers] == VALUES


def test_quads_map_back_onto_the_turned_sheet() -> None:
    image, _, boxes = _two_rows()
    turned = np.ascontiguousarray(np.rot90(image, 1))  # (x, y) → (y, W − x)
    width = image.shape[1]
    tokens = find_numbers(find_ink(turned), whole(turned, (-90,)))
    numbers = dict(tokens.blocks[0].candidates)[-90]
    for token, (x, y, w, h) in zip(numbers, boxes, strict=True):
        qx = sum(p[0] for p in token.quad) / 4
        qy = sum(p[1] for p in token.quad) / 4
        assert abs(qx - (y + h / 2)) < 4 and abs(qy - (width - x - w / 2)) < 4


def test_a_crossed_out_number_is_kept_and_marked() -> None:
    writer = Writer(height=30, seed=3)
    canvas = blank(120, 520)
    boxes = write_line(canvas, "2.4.16.17.20", 12, 30, writer)
    x, y, w, h = boxes[3]
    strike = np.zeros(canvas.shape[:2])
    cv2.line(strike, (x - 5, y + h // 2 + 5), (x + w + 5, y + h // 2 - 3), 1.0, 3)
    canvas = canvas * (1 - 0.9 * strike[..., None])
    image = to_bgr(canvas)
    tokens = find_numbers(find_ink(image, max_extent=1.0), whole(image))
    result = read_numbers(tokens, TemplateReader([writer]))
    numbers = result.zones[0].numbers
    assert [n.token.crossed_out for n in numbers] == [False, False, False, True, False]
    assert [n.value for n in numbers if not n.token.crossed_out] == [2, 4, 16, 20]


def test_touching_digits_are_cut_at_the_thinnest_column() -> None:
    mask = np.zeros((40, 80), np.uint8)
    cv2.rectangle(mask, (5, 5), (30, 35), 255, 3)  # a "0" 26 px wide
    cv2.rectangle(mask, (36, 5), (62, 35), 255, 3)  # another, 6 px to its right
    cv2.line(mask, (30, 20), (36, 20), 255, 2)  # joined by a thin stroke
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    (blob,) = _group.blobs_of(stats)
    boxes = _group.digit_boxes(_group.Glyph((blob,)), mask, height=31, width=26)
    assert len(boxes) == 2
    cut = boxes[1][0]
    assert 30 <= cut <= 37


def test_a_dot_is_told_from_a_speck_and_from_a_digit() -> None:
    dot = _group.Blob(1, 0, 0, 5, 5, 19)
    speck = _group.Blob(2, 0, 0, 1, 1, 1)
    one = _group.Blob(3, 0, 0, 5, 30, 120)
    assert _group.is_dot(dot, height=30, stroke=4)
    assert _group.is_speck(speck, height=30, stroke=4)
    assert not _group.is_dot(one, height=30, stroke=4)


def test_candidate_angles_add_the_half_turns() -> None:
    assert _candidate_angles((90, 0)) == (90, 0, -90, 180)
    assert _candidate_angles((-90,)) == (-90, 90)
    assert _candidate_angles((180,)) == (180, 0)


def test_an_l_shaped_zone_is_read_as_its_two_arms() -> None:
    # The left seat's pulka of standard-3 (LAYOUT.md): down the left side, then along the top.
    polygon = np.array([(500, 40), (40, 40), (40, 600), (120, 600), (120, 120), (500, 120)], float)
    first, second = _blocks(polygon)
    assert {tuple(p) for p in first} == {(40, 40), (40, 600), (120, 600), (120, 120)}
    assert {tuple(p) for p in second} == {(120, 120), (500, 120), (500, 40), (40, 40)}
    square = np.array([(0, 0), (10, 0), (10, 10), (0, 10)], float)
    assert len(_blocks(square)) == 1
