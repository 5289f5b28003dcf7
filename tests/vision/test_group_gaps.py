"""Stage 5, grouping: the spaces that split numbers, on rows of hand-placed boxes (no image needed).

Every row is built here from boxes whose numbers are known by construction; `group_numbers` must
give those numbers back.
"""

from __future__ import annotations

from sheetscan.vision import _group

HEIGHT = 40
STROKE = 4.0
ONE, DIGIT = 8, 26  # a "1" is narrow; other digits about two thirds of the height


def _row(numbers: list[str], inner: list[int], between: list[int | None]) -> list[_group.Blob]:
    """Blobs of `numbers` written left to right on one row: `inner[k]` px between the digits of
    number k, and between number k and k + 1 a dot with 10 px on each side (`between[k]` is None) or,
    when the dot was lost, `between[k]` px of space."""
    blobs: list[_group.Blob] = []
    x = 0

    def add(w: int, h: int, y: int) -> None:
        blobs.append(_group.Blob(label=len(blobs) + 1, x=x, y=y, w=w, h=h, area=max(1, w * h // 3)))

    for k, number in enumerate(numbers):
        for i, digit in enumerate(number):
            if i:
                x += inner[k]
            width = ONE if digit == "1" else DIGIT
            add(width, HEIGHT, 0)
            x += width
        if k + 1 < len(numbers):
            space = between[k]
            if space is None:
                x += 10
                add(6, 6, HEIGHT - 6)
                x += 6 + 10
            else:
                x += space
    return blobs


def _read(blobs: list[_group.Blob]) -> list[int]:
    """Glyph counts of the groups, left to right."""
    groups = _group.group_numbers(blobs, height=HEIGHT, stroke=STROKE)
    return [len(g.glyphs) for g in groups]


def test_wide_spaces_around_narrow_ones_do_not_split_a_number_when_the_dots_are_there() -> None:
    # "11.13.15.17": the spaces between digits are 16, 18, 6 and 8 px (a "1" leaves more room); the
    # spaces around each dot are 26 px (10 + a 6 px dot + 10). The digits' spaces fall in two groups
    # (6–8 and 16–18), but both are well short of the spaces around a dot: four numbers of two digits.
    blobs = _row(["11", "13", "15", "17"], inner=[16, 18, 6, 8], between=[None, None, None])
    assert _read(blobs) == [2, 2, 2, 2]


def test_a_lost_dot_still_splits_at_the_space_around_it() -> None:
    # The same row with one more number, "19", whose dot was lost: the 26 px space the dot would have
    # sat in is as wide as the others around a dot, so "17" and "19" are two numbers.
    blobs = _row(["11", "13", "15", "17", "19"], inner=[16, 18, 6, 8, 7], between=[None, None, None, 26])
    assert _read(blobs) == [2, 2, 2, 2, 2]



def test_a_struck_number_and_its_correction_are_two_numbers_without_a_dot() -> None:
    # A struck "5" and the "1" written after it, no dot between (nobody dots a number they strike
    # out), 26 px (0.65 digit heights) apart: the strike ran through the 5 only. Alone, the pair's
    # space is within the widest space between digits a row of few spaces allows (0.8 heights), and
    # the two were read as one struck number (seed 2011, a pulka's first number read "801").
    def blob(label: int, x: int, w: int, crossed: bool) -> _group.Blob:
        return _group.Blob(label=label, x=x, y=0, w=w, h=HEIGHT, area=w * HEIGHT // 3, crossed=crossed)

    assert _read([blob(1, 0, DIGIT, True), blob(2, DIGIT + 26, ONE, False)]) == [1, 1]
    # Left to the number stage where it asks (short strikes: a 4's bar run long may look struck).
    groups = _group.group_numbers([blob(1, 0, DIGIT, True), blob(2, DIGIT + 26, ONE, False)],
                                  height=HEIGHT, stroke=STROKE, struck_apart=False)
    assert [len(g.glyphs) for g in groups] == [2]
    # Struck digits stay one number across the spaces the strike's erasing left; a struck digit and a
    # live one at a space between digits stay one number; and a struck glyph after a live one stays
    # with it (the correction is written after the struck number, not before).
    assert _read([blob(1, 0, DIGIT, True), blob(2, DIGIT + 26, DIGIT, True)]) == [2]
    assert _read([blob(1, 0, DIGIT, True), blob(2, DIGIT + 6, ONE, False)]) == [2]
    assert _read([blob(1, 0, DIGIT, False), blob(2, DIGIT + 26, DIGIT, True)]) == [2]
