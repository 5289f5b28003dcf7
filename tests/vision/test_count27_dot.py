"""Stage 5: a dot drawn touching the foot of a number's last digit is no part of the number: the space
after the number is measured from the digit (`_group.ink_end`), the number it ends is not read as a
crossed-out one (`_totals._read_ways`), and the glyph after it leads the next number (`_cut_block`).

The images are drawn here: a digit as a dark upright stroke with a foot, a dot as a dark disc on the
writing line joined to the digit by a faint smear (the blurred edges of the two marks meeting), as a
photo shows a dot written close. The stand-in recogniser reads a digit box by its width.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision import _group
from sheetscan.vision._cut_block import _number_image
from sheetscan.vision._group import ink_end
from sheetscan.vision._totals import choose_cuts
from sheetscan.vision._zone_ink import components
from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import NumberImage, NumberReading
from tests.vision._by_width import ByWidth

HEIGHT = 40
DARK = 220
FAINT = 40


def _digit(image: npt.NDArray[np.uint8], left: int, right: int) -> None:
    """A digit from column `left` to `right`: an upright stroke and a foot along the writing line."""
    cv2.line(image, (left + 3, 4), (left + 3, HEIGHT - 5), DARK, 4)
    cv2.line(image, (left + 3, HEIGHT - 5), (right - 3, HEIGHT - 5), DARK, 4)
    cv2.line(image, (right - 3, 4), (right - 3, HEIGHT - 5), DARK, 4)


def _dot(image: npt.NDArray[np.uint8], after: int, centre: int, *, row: int = HEIGHT - 5) -> None:
    """A dot centred at column `centre` on `row`, joined by a faint smear to the ink ending at `after`."""
    cv2.line(image, (after, row), (centre, row), FAINT, 3)
    cv2.circle(image, (centre, row), 3, DARK, -1)


def test_a_dot_touching_a_digits_foot_is_left_out_of_where_the_number_ends() -> None:
    # A digit in columns 0-22, a dot centred at 29 (7 px across, a sixth of the digit height) joined to
    # the digit's foot by a faint smear: the number's ink ends at the digit, column 22 (the stroke is 4
    # px wide around column 19, so its ink reaches column 21).
    image = np.zeros((HEIGHT, 40), np.uint8)
    _digit(image, 0, 22)
    _dot(image, 21, 29)
    box = (0, 0, 33, HEIGHT)
    assert ink_end(image, (box,), height=HEIGHT) <= 22


def test_a_digits_own_tail_is_no_dot() -> None:
    # The same digit whose foot runs on at full darkness to column 32 (a 2's tail): no mark stands
    # apart from it, so the number ends where its ink does.
    image = np.zeros((HEIGHT, 40), np.uint8)
    _digit(image, 0, 22)
    cv2.line(image, (19, HEIGHT - 5), (32, HEIGHT - 5), DARK, 4)
    box = (0, 0, 35, HEIGHT)
    assert ink_end(image, (box,), height=HEIGHT) == 35


def test_a_mark_high_in_the_row_is_no_dot() -> None:
    # The same small disc joined by a faint smear, but at the digit's top (a flag, a broken stroke's
    # end): a dot stands on the writing line, so the number ends where its ink does.
    image = np.zeros((HEIGHT, 40), np.uint8)
    _digit(image, 0, 22)
    _dot(image, 21, 29, row=6)
    box = (0, 0, 33, HEIGHT)
    assert ink_end(image, (box,), height=HEIGHT) == 33


def _dotted_token() -> NumberToken:
    """A zone's only token: a digit (box 0-33, 33 px wide, its dot touching its foot) and 11 px after
    its box a second digit (box 44-67, 23 px wide)."""
    image = np.zeros((HEIGHT, 70), np.uint8)
    _digit(image, 0, 22)
    _dot(image, 21, 29)
    _digit(image, 44, 67)
    boxes = ((0, 0, 33, HEIGHT), (44, 0, 23, HEIGHT))
    quad = ((0.0, 0.0), (70.0, 0.0), (70.0, float(HEIGHT)), (0.0, float(HEIGHT)))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False,
                       glyph_cuts=tuple(((box,),) for box in boxes),
                       image=NumberImage(gray=image, digit_boxes=boxes), digit_size=(float(HEIGHT), 24.0))


def test_two_numbers_whose_dot_touched_the_first_are_read_as_two() -> None:
    # "5." (read 5 at 0.9: unsure, so its other readings are weighed) and "7": 11 px (0.28 digit heights)
    # from the dot's box to the 7, a space between digits (split cost 2.0: whole 57 at about -0.12
    # beats 5 | 7 at -2.17); from the 5's ink, 22 px (0.55 heights), the space after a number (a gain
    # of 1.0: 5 | 7 at 0.83). A whists zone's only token: 57 and 5, 7 are all free first steps, so the
    # space alone decides.
    reader = ByWidth({33: (5, 0.9), 23: (7, 0.99)})
    token = _dotted_token()
    readings = {id(token): reader.read_numbers([token.image])[0]}
    assert readings[id(token)].value == 57
    parts = choose_cuts(reader, [(True, True, [token])], readings)
    read = parts.get(id(token), ((token, readings[id(token)]),))
    got = [(reading.value, part.crossed_out) for part, reading in read]
    assert got == [(5, False), (7, False)]


def test_a_number_ending_in_its_dot_is_not_read_crossed_out() -> None:
    # A whists zone 30, then "8." and, 17 px (0.43 digit heights) after the dot's box, "34" (one glyph
    # cut in two boxes): wide enough for the 8 to be a crossed-out number run into its correction. Read
    # so (0.37: the split's gain, less 0.6; 30 -> 34 free) it would beat every reading that keeps the 8
    # (30 -> 8 steps back, 834 is a step of 804). But the writer put a dot after the 8: a total he
    # finished, not one he struck out (no one dots a number and then strikes it), so the 8 stays a
    # number, whatever the totals make of it.
    reader = ByWidth({33: (8, 0.99), 11: (3, 0.99), 12: (4, 0.99)})
    image = np.zeros((HEIGHT, 76), np.uint8)
    _digit(image, 0, 22)
    _dot(image, 21, 29)
    _digit(image, 50, 73)
    boxes = ((0, 0, 33, HEIGHT), (50, 0, 11, HEIGHT), (61, 0, 12, HEIGHT))
    quad = ((0.0, 0.0), (76.0, 0.0), (76.0, float(HEIGHT)), (0.0, float(HEIGHT)))
    token = NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False,
                        glyph_cuts=(((boxes[0],),), ((boxes[1], boxes[2]),)),
                        image=NumberImage(gray=image, digit_boxes=boxes), digit_size=(float(HEIGHT), 24.0))
    before = NumberToken(zone=0, angle=0, row=0, quad=quad, crossed_out=False,
                         image=NumberImage(gray=np.zeros((HEIGHT, 76), np.uint8), digit_boxes=()),
                         digit_size=(float(HEIGHT), 24.0))
    readings = {id(before): NumberReading(((30, 0.99),), ()),
                id(token): reader.read_numbers([token.image])[0]}
    assert readings[id(token)].value == 834
    parts = choose_cuts(reader, [(True, True, [before, token])], readings)
    read = parts.get(id(token), ((token, readings[id(token)]),))
    assert [reading.value for _, reading in read] != [34]
    assert all(not part.crossed_out for part, _ in read)


def test_a_mark_under_the_digits_own_stroke_is_no_dot() -> None:
    # The same small disc on the writing line, but the digit's stroke runs on above it, faint (a heavy
    # round stroke whose core stands apart at half its darkness, a fainter stroke of the digit over it):
    # a dot has nothing above it in its columns, so the number ends where its ink does.
    image = np.zeros((HEIGHT, 40), np.uint8)
    _digit(image, 0, 22)
    _dot(image, 21, 29)
    cv2.line(image, (21, 4), (30, 4), FAINT, 3)
    box = (0, 0, 33, HEIGHT)
    assert ink_end(image, (box,), height=HEIGHT) == 33


def _number_after(dotted: bool) -> tuple[list[list[tuple[int, int, int, int]]], int]:
    """The ways `_cut_block` offers the second glyph of a token: a digit (its dot touching its foot when
    `dotted`), then "120" written as one glyph (as in test_digit_cuts_ones), 40 px tall; with the
    second glyph's left edge."""
    strength = np.zeros((50, 120), np.uint8)
    _digit(strength, 0, 22)
    if dotted:
        _dot(strength, 21, 29)
    shift = 40
    cv2.line(strength, (shift + 5, 5), (shift + 5, 44), DARK, 3)  # the "1"
    cv2.line(strength, (shift + 5, 41), (shift + 14, 41), DARK, 2)  # touching the 2's foot
    cv2.ellipse(strength, (shift + 24, 15), (11, 10), 0, 180, 360, DARK, 3)  # the 2's hook
    cv2.line(strength, (shift + 35, 15), (shift + 13, 44), DARK, 3)  # its diagonal
    cv2.line(strength, (shift + 13, 44), (shift + 47, 43), DARK, 3)  # its base, run into the "0"
    cv2.ellipse(strength, (shift + 53, 25), (12, 19), 0, 0, 360, DARK, 3)  # the "0"
    mask = np.where(strength > 0, 255, 0).astype(np.uint8)
    labels, stats, _ = components(mask)
    first, second = sorted(_group.blobs_of(stats), key=lambda b: b.x)
    group = _group.Group(glyphs=(_group.Glyph((first,)), _group.Glyph((second,))), row=0)
    image = _number_image(group, mask, strength, labels, stats.shape[0], float(HEIGHT), 26.0)
    assert image is not None
    crop_x = image[3][0]
    return image[1][1], second.x - crop_x


def test_the_glyph_after_a_dotted_digit_leads_its_number() -> None:
    # "120" written as one glyph is offered its "1" cut off and its rest cut in two only where it leads
    # its number: after a digit of its own number, a "1" and two more digits would make four. After a
    # digit whose dot touches its foot, it leads the next number, and the three-digit way is offered:
    # a first box no wider than 8 px, the next starting by the 2 (within 14 px of the glyph's edge).
    def three(ways: list[list[tuple[int, int, int, int]]], left: int) -> bool:
        return any(len(w) == 3 and w[0][2] <= 8 and w[1][0] - left <= 14 for w in ways)

    assert three(*_number_after(dotted=True))
    assert not three(*_number_after(dotted=False))
