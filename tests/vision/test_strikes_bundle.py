"""Stage 5, numbers: a digit struck through and run into the number written after it (its strike
bridged the space between them), on hand-made glyph boxes and fixed readings whose answer is evident
by construction: the one number they were before the strike was looked for (`_cut_block._leading`),
and the recogniser's judgement putting it back or not (`_judge.judged_all`).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from sheetscan.vision._cut_block import _cut_at_angle, _leading
from sheetscan.vision._digit_cache import DigitCache
from sheetscan.vision._group import Blob, Glyph, Group
from sheetscan.vision._judge import judged_all
from sheetscan.vision._zone_ink import components
from sheetscan.vision.numbers import NumberToken
from sheetscan.vision.recognise import NumberImage
from tests.vision._fixed_reader import FixedReader

HEIGHT = 30.0  # the digit height of every glyph below


def _glyph(label: int, x: int, width: int = 18, *, crossed: bool = False) -> Glyph:
    """One digit-tall glyph at `x` (y = 10 … 40)."""
    return Glyph(blobs=(Blob(label=label, x=x, y=10, w=width, h=30, area=width * 10, crossed=crossed),))


def test_the_number_a_struck_digit_was_run_into_is_kept_with_its_pieces() -> None:
    # Before the strike was looked for: one number, the "4" with its strike (x = 4 … 34, the strike
    # reaching 6 px past the 4 on either side) and the "8" at x = 40. With the strike erased: the
    # struck "4" (x = 10 … 28) and the "8", two numbers. The struck digits as written are the glyph of
    # the one number that lies in the struck number; the "8" comes after it in that number.
    written4, eight = _glyph(1, 4, width=30), _glyph(2, 40)
    number = Group(glyphs=(written4, eight), row=0)
    struck = Group(glyphs=(_glyph(3, 10, crossed=True),), row=0)
    after = Group(glyphs=(_glyph(4, 40),), row=0)
    found = _leading(struck, [struck, after], [number], HEIGHT)
    assert found is not None
    piece, whole, rest = found
    assert piece.glyphs == (written4,) and whole is number and rest == [after]
    # Struck second, it does not lead the number: not taken apart this way.
    assert _leading(after, [struck, after], [number], HEIGHT) is None


def _token(crossed: bool = False, x: float = 0.0) -> NumberToken:
    gray = np.zeros((30, 20), np.uint8)
    quad = ((x, 0.0), (x + 20.0, 0.0), (x + 20.0, 30.0), (x, 30.0))
    image = NumberImage(gray=gray, digit_boxes=((0, 0, 20, 30),))
    return NumberToken(zone=0, angle=0, row=0, quad=quad, image=image, crossed_out=crossed)


def _bundle(written: tuple[int, float], struck: tuple[int, float]) -> list[NumberToken]:
    """What the reader gets from: a struck "4" cut off the "8" after it (bundle 0), that "8", then a
    "9"; when the struck digit with its stroke reads `written` and without it `struck` (the one
    number "48" reads 48)."""
    piece, whole = _token(), _token()
    four = replace(_token(crossed=True), unstruck=piece, whole=whole, bundle=0)
    eight, nine = replace(_token(x=30.0), bundle=0), _token(x=60.0)
    reader = FixedReader({id(piece.image.gray): written, id(four.image.gray): struck,
                     id(whole.image.gray): (48, 0.99), id(eight.image.gray): (8, 0.99),
                     id(nine.image.gray): (9, 0.99)})
    out = list(judged_all([four, eight, nine], DigitCache(reader), []))  # type: ignore[arg-type]
    assert out[-1] is nine
    if len(out) == 3:
        assert out[0] is four and out[1] is eight
    else:
        assert out[0] is whole
    return out


def test_a_struck_digit_that_reads_the_same_stays_cut_off_the_number_after_it() -> None:
    assert len(_bundle(written=(4, 0.99), struck=(4, 0.9))) == 3


def test_a_bar_the_digit_needs_puts_the_one_number_back() -> None:
    # Without its "strike" the 4 reads 1, surely: it was the 4's bar, and "48" is one number.
    assert len(_bundle(written=(4, 0.99), struck=(1, 0.9))) == 2


def test_a_struck_digit_left_unreadable_by_the_erasing_puts_the_one_number_back() -> None:
    # Taking the stroke out took much of the digit with it: the rest reads nothing surely (5 at 0.01).
    # Nothing then says the stroke carried nothing of the digit (a 4's bar erased leaves as little),
    # so the number stays as it was written: "48".
    assert len(_bundle(written=(4, 0.99), struck=(5, 0.01))) == 2


def test_a_struck_one_run_into_the_one_after_it_is_cut_off_it_for_the_recogniser_to_judge() -> None:
    # A "1" at x = 30 struck through from x = 20 to x = 42 (10 px past it on either side), then a "1" at
    # x = 60, all 2 px strokes 30 px tall. With the strike the space to the second "1" is 17 px, within
    # the 24 px (0.8 digit heights) two digits of one number may stand apart: one number "11". Without
    # it the space is 28 px: two numbers, the first crossed out. The struck token carries both ways.
    mask = np.zeros((60, 100), np.uint8)
    for start, end in [((30, 10), (30, 40)), ((20, 25), (42, 25)), ((60, 10), (60, 40))]:
        cv2.line(mask, start, end, 255, 2)
    labels, stats, _ = components(mask)
    tokens = list(_cut_at_angle(mask, mask, 0, (0, 0), 0, 2.0, 0.8, mask.shape, (labels, stats)))
    assert len(tokens) == 2
    struck, after = tokens
    assert struck.crossed_out and not after.crossed_out
    assert struck.bundle == after.bundle >= 0
    assert struck.whole is not None and struck.unstruck is not None
    assert len(struck.whole.image.digit_boxes) == 2  # the one number "11", strike left in
    assert len(struck.unstruck.image.digit_boxes) == 1  # the struck "1" alone, strike left in
