"""Stage 4, a stretch of a drawn line that the zone stage's mask left out between two of its ends
(`_line_gaps.line_gaps`): it goes with the line, and the digits touching it stay, each a blob of its own.

Small synthetic sheets (600 × 900): the truth is where the test drew each stroke. The line slants 4°, too
steep for the level opening and less than the 8° the slanting-line search starts at (as in
`test_ink_long_line`), and its unmasked stretch, 110 px, is shorter than a long blob (0.2 of 600 px), so no
other step takes it out.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._line_gaps import line_gaps
from sheetscan.vision.ink import find_ink
from tests.vision._handwriting import blank, to_bgr

HEIGHT, WIDTH = 600, 900
START, END = (20, 250), (880, 310)  # the drawn line: 60 px down over 860 px, 4.0°
GAP = (330, 440)  # where the mask leaves it out


def _line_y(x: float) -> float:
    return START[1] + (END[1] - START[1]) * (x - START[0]) / (END[0] - START[0])


def _sheet() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The darkness of a frame and the slanting line across it (5 px), the line mask (8 px, the line's
    stretch over `GAP` left out), and the line's own stroke."""
    darkness = np.zeros((HEIGHT, WIDTH))
    cv2.rectangle(darkness, (20, 20), (WIDTH - 21, HEIGHT - 21), 0.6, 4)
    lines = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.rectangle(lines, (20, 20), (WIDTH - 21, HEIGHT - 21), 255, 8)
    line = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.line(line, START, END, 1, 5)
    darkness[line > 0] = 0.6
    for x0, x1 in ((START[0], GAP[0]), (GAP[1], END[0])):
        cv2.line(lines, (x0, round(_line_y(x0))), (x1, round(_line_y(x1))), 255, 8)
    return darkness, lines, line


def _hanging_digits() -> list[np.ndarray]:
    """A "1" and a "0" hanging from the line's unmasked stretch (their tops run into it)."""
    one = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.line(one, (360, round(_line_y(360))), (360, round(_line_y(360)) + 45), 1, 5)
    zero = np.zeros_like(one)
    cv2.ellipse(zero, (405, round(_line_y(405)) + 24), (14, 22), 0, 0, 360, 1, 4)
    return [one, zero]


def _ink(darkness: np.ndarray, lines: np.ndarray) -> np.ndarray:
    return find_ink(to_bgr(blank(HEIGHT, WIDTH) * (1.0 - darkness)[..., None]), line_mask=lines,
                    grid_length=0.25).mask


def _kept(mask: np.ndarray, digit: np.ndarray, line: np.ndarray, off: int) -> float:
    """The share of the `digit`'s pixels more than `off` px from the `line`'s stroke that `mask` keeps."""
    own = (digit > 0) & (cv2.dilate(line, np.ones((2 * off + 1, 2 * off + 1), np.uint8)) == 0)
    return np.count_nonzero(mask & own) / np.count_nonzero(own)


def test_the_unmasked_stretch_goes_and_the_digits_hanging_from_it_stay_apart() -> None:
    darkness, lines, line = _sheet()
    digits = _hanging_digits()
    for digit in digits:
        darkness[digit > 0] = 0.6
    mask = _ink(darkness, lines) > 0
    for digit, name in zip(digits, ("1", "0"), strict=True):
        kept = _kept(mask, digit, line, 4)
        assert kept >= 0.9, f"only {kept:.0%} of the {name} kept"
    # The 1 keeps its end too: the stretch goes as wide as the line's own ink (5 px), not as its mask.
    kept = _kept(mask, digits[0], line, 2)
    assert kept >= 0.95, f"only {kept:.0%} of the 1 kept more than 2 px off the line"
    # The stretch is gone (nothing more than 4 px from the digits), so the two are not joined through it.
    near_digits = cv2.dilate(digits[0] | digits[1], np.ones((9, 9), np.uint8)) > 0
    assert not (mask & ~near_digits).any()
    _, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    assert len({int(labels[d > 0].max()) for d in digits}) == 2


def test_a_one_standing_between_two_lines_stays() -> None:
    # A "1" touching a masked line at its foot and another at its head meets both across: not a gap.
    darkness = np.zeros((HEIGHT, WIDTH))
    lines = np.zeros((HEIGHT, WIDTH), np.uint8)
    for y in (250, 320):
        cv2.line(darkness, (20, y), (WIDTH - 21, y), 0.6, 5)
        cv2.line(lines, (20, y), (WIDTH - 21, y), 255, 8)
    one = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.line(one, (400, 250), (400, 320), 1, 5)
    darkness[one > 0] = 0.6
    mask = _ink(darkness, lines) > 0
    own = (one > 0) & (cv2.dilate(lines, np.ones((3, 3), np.uint8)) == 0)
    assert np.count_nonzero(mask & own) >= 0.9 * np.count_nonzero(own)


def test_ink_from_a_corner_is_no_gap() -> None:
    # Two mask ends meeting at a right angle, joined by ink round the corner's inside: the mask does not run
    # on in line past either end of a straight stretch between them.
    drawn = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.line(drawn, (100, 300), (300, 300), 1, 8)
    cv2.line(drawn, (360, 100), (360, 240), 1, 8)
    mask = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.line(mask, (300, 300), (360, 300), 255, 5)
    cv2.line(mask, (360, 300), (360, 240), 255, 5)
    near = np.asarray(cv2.dilate(drawn, np.ones((9, 9), np.uint8)), np.uint8)
    assert not line_gaps(np.maximum(mask, drawn * 255), drawn, near, 9).any()


def test_a_digit_in_line_with_a_line_end_stays_where_paper_parts_it_from_the_line() -> None:
    # The line is broken over the gap too (its ink ends at x = 330, where its mask does), and a "2" is written
    # in the gap, its base level in line with the line, touching the line's right end, 8 px of paper off the
    # left. A line's lost stretch is the line's own ink, joined to it at both ends.
    darkness, lines, line = _sheet()
    darkness[:, GAP[0]:GAP[1]][line[:, GAP[0]:GAP[1]] > 0] = 0
    left = GAP[0] + 10
    base = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.line(base, (left, round(_line_y(left))), (GAP[1], round(_line_y(GAP[1]))), 1, 5)
    two = base.copy()
    foot = (left, round(_line_y(left)))
    cv2.line(two, foot, (left + 34, foot[1] - 38), 1, 5)
    cv2.ellipse(two, (left + 20, foot[1] - 46), (16, 13), 0, -200, 40, 1, 5)
    darkness[two > 0] = 0.6
    kept = _kept(_ink(darkness, lines) > 0, base, lines, 2)
    assert kept >= 0.9, f"only {kept:.0%} of the 2's base kept"
