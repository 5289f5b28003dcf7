"""Stage 5, grouping: a "1" whose faint ink broke into dot-sized pieces one above another is a digit,
not dots (`_group._stacked`); boxes placed by hand, whose numbers are known by construction."""

from __future__ import annotations

from sheetscan.vision import _group

HEIGHT = 40
STROKE = 4.0


def _blob(label: int, x: int, y: int, w: int, h: int) -> _group.Blob:
    return _group.Blob(label=label, x=x, y=y, w=w, h=h, area=max(1, w * h // 2))


def _numbers(blobs: list[_group.Blob]) -> list[list[int]]:
    """The labels of each number's blobs, numbers in writing order."""
    groups = _group.group_numbers(blobs, height=HEIGHT, stroke=STROKE)
    return [sorted(group.labels) for group in groups]


# "6", dot, then "14" whose "1" (x 60-66) broke into three pieces 12, 13 and 10 px tall with 3-4 px
# between them: each is dot-sized (under 0.42 digit heights), together they stand 45 px tall.
SIX_DOT = [_blob(1, 0, 0, 26, 40), _blob(2, 36, 34, 6, 6)]
BROKEN_ONE = [_blob(3, 60, 0, 6, 12), _blob(4, 61, 15, 6, 13), _blob(5, 60, 31, 6, 10)]
FOUR = _blob(6, 74, 0, 26, 40)


def test_the_pieces_of_a_broken_one_are_a_digit_of_its_number() -> None:
    assert _numbers([*SIX_DOT, *BROKEN_ONE, FOUR]) == [[1], [3, 4, 5, 6]]


def test_a_dot_alone_is_still_a_dot() -> None:
    # Without the pieces of the "1", "6" and "4" are two numbers split by the dot between them.
    assert _numbers([*SIX_DOT, _blob(6, 60, 0, 26, 40)]) == [[1], [6]]


def test_two_small_marks_far_apart_up_and_down_are_not_a_stroke() -> None:
    # A dot at the foot of the row and a small mark at its top, in one column but 24 px (0.6 digit
    # heights) apart: not one stroke broken (the space is larger than a break in a pen's line).
    assert not _group._stacked([_blob(1, 40, 0, 6, 6), _blob(2, 41, 30, 6, 6)], height=HEIGHT, stroke=STROKE)
    pieces = [_blob(1, 40, 0, 6, 12), _blob(2, 41, 15, 6, 12)]
    assert _group._stacked(pieces, height=HEIGHT, stroke=STROKE) == set(pieces)


def test_the_letters_of_a_word_seen_turned_are_not_a_stroke() -> None:
    # Three small marks 13 px wide stacked in a column (a printed word's letters seen a quarter turned):
    # wider than 1.5 pen strokes (6 px), so not the pieces of one stroke.
    letters = [_blob(1, 40, 0, 13, 12), _blob(2, 40, 15, 13, 13), _blob(3, 40, 31, 13, 10)]
    assert not _group._stacked(letters, height=HEIGHT, stroke=STROKE)
