"""Stage 4: the pieces of a pale line no mask took out go, the strokes of digits stay
(`_line_pieces.without_line_pieces`).

Synthetic strength images (0 = paper, 255 = black) of 400 × 400 px (one of 800) with strokes drawn by
cv2.line, and the ink mask drawn by hand where each test says a stroke "passed the thresholds". The stroke
width given is 6 px. The truth is the geometry each test draws: which blob is a piece of a longer ridge
and which ends on paper.
"""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._line_pieces import blob_stats, without_line_pieces

STROKE = 6.0


def _sheet(size: int = 400) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros((size, size), np.uint8), np.zeros((size, size), np.uint8)


def test_a_piece_of_a_pale_slanting_line_goes() -> None:
    # A freehand spoke from (20, 380) to (380, 20), strength 70, 5 px wide. Only a stretch of 50 px of it,
    # (180, 220) to (215, 185), is a bit darker (90) and passed the thresholds: a blob 6 px thick and
    # ~50 px long, read "1" before. Past both ends the spoke runs on at 70 >= 0.5 x 90 for far more
    # than 0.8 of the blob's length: a line piece.
    strength, mask = _sheet()
    cv2.line(strength, (20, 380), (380, 20), 70, 5)
    cv2.line(strength, (180, 220), (215, 185), 90, 5)
    cv2.line(mask, (180, 220), (215, 185), 255, 6)
    out = without_line_pieces(mask, strength, stroke=STROKE)
    assert not out.any(), f"{int(np.count_nonzero(out))} px of the line piece left"


def test_a_piece_of_a_pale_curving_line_goes() -> None:
    # A freehand arc: a circle of radius 60 px (10 strokes) about (200, 200), strength 70, 5 px wide, of
    # which the stretch from 250 to 290 degrees (about 42 px) is a bit darker (90) and passed the thresholds.
    # Past its ends the arc bends away from the blob's own axis: 8 strokes on, a straight band along that
    # axis lies 19 px off the arc, so no straight ridge runs on; the arc's own course, followed from each
    # end, is dark (70 >= 0.5 x 90) for all 6 strokes: a line piece.
    strength, mask = _sheet()
    cv2.ellipse(strength, (200, 200), (60, 60), 0, 0, 360, 70, 5)
    cv2.ellipse(strength, (200, 200), (60, 60), 0, 250, 290, 90, 5)
    cv2.ellipse(mask, (200, 200), (60, 60), 0, 250, 290, 255, 6)
    out = without_line_pieces(mask, strength, stroke=STROKE)
    assert not out.any(), f"{int(np.count_nonzero(out))} px of the arc's piece left"


def test_a_one_whose_top_meets_a_pale_line_at_an_angle_stays() -> None:
    # A "1" from (200, 150) to (200, 200), strength 120, 6 px, whose top meets a pale line (strength 70, not
    # ink, 5 px wide) crossing its course 4 px above its top end, at 20, 30 and 45 degrees: a course followed
    # from its top turns by at most 1 / (8 strokes) a pixel, so it leaves that line within a few strokes and
    # meets paper: the "1" stays. (A course free to turn towards any darkness followed such a line off.)
    for degrees in (20, 30, 45):
        strength, mask = _sheet()
        way = np.array([np.sin(np.radians(degrees)), -np.cos(np.radians(degrees))])
        a, b = np.array([200.0, 146.0]) - 200 * way, np.array([200.0, 146.0]) + 200 * way
        cv2.line(strength, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 70, 5)
        cv2.line(strength, (200, 150), (200, 200), 120, 6)
        cv2.line(mask, (200, 150), (200, 200), 255, 6)
        out = without_line_pieces(mask, strength, stroke=STROKE)
        assert np.array_equal(out, mask), f"the 1 went with a line at {degrees} degrees"


def test_a_one_on_paper_and_a_one_standing_on_a_dark_line_stay() -> None:
    # A "1" from (100, 100) to (108, 150), strength 120, 6 px: past its ends lies paper (0). Another "1"
    # from (250, 150) to (250, 199) standing on a dark level line (row 200-205, strength 200, not in the
    # mask): past its foot its course crosses the line for 6 of its 50 samples, then paper: 12 % < 80 %.
    strength, mask = _sheet()
    for a, b in (((100, 100), (108, 150)), ((250, 150), (250, 199))):
        cv2.line(strength, a, b, 120, 6)
        cv2.line(mask, a, b, 255, 6)
    strength[200:206, 20:380] = 200
    out = without_line_pieces(mask, strength, stroke=STROKE)
    assert np.array_equal(out, mask)


def test_a_foot_pointing_at_the_next_digit_stays() -> None:
    # A "2"'s foot, a level stroke (100, 200) to (150, 200), strength 100, and right after it, 4 px on, the
    # "0" beside it: an ellipse outline centred (185, 185), 30 × 20 px radii, strength 100, also ink. Past
    # the foot's right end its course runs along the 0's lower arc: ink, which says nothing; what is left
    # of that stretch is paper. Past its left end: paper. The foot stays.
    strength, mask = _sheet()
    cv2.line(strength, (100, 200), (150, 200), 100, 6)
    cv2.line(mask, (100, 200), (150, 200), 255, 6)
    cv2.ellipse(strength, (185, 185), (30, 20), 0, 0, 360, 100, 6)
    cv2.ellipse(mask, (185, 185), (30, 20), 0, 0, 360, 255, 6)
    out = without_line_pieces(mask, strength, stroke=STROKE)
    assert np.array_equal(out, mask)


def test_a_stroke_lying_on_the_ruling_stays() -> None:
    # A pencil "1" lying along an upright ruling line (x 200-202, strength 60, marked silent), the "1"
    # (x 199-204, rows 150-200, strength 100) over it. Past its ends the ridge is the ruling: silent pixels
    # say nothing, the paper beside them is 0: the stroke stays. Without the ruling marked silent, the
    # ruling (60 >= 0.5 x 100) would run on past both ends and the "1" would go: checked too.
    strength, mask = _sheet()
    strength[:, 200:203] = 60
    strength[150:201, 199:205] = 100
    mask[150:201, 199:205] = 255
    silent = np.zeros_like(mask)
    silent[:, 199:204] = 255
    assert np.array_equal(without_line_pieces(mask, strength, stroke=STROKE, silent=silent), mask)
    assert not without_line_pieces(mask, strength, stroke=STROKE).any()


def test_a_single_stroke_longer_than_any_digit_goes() -> None:
    # A slanting stroke 150 px long (25 strokes), strength 100, fading to paper at both ends (a line across
    # a glare): no "1" is 20 strokes tall. A "1" 60 px long (10 strokes) beside it stays. (An 800 px sheet:
    # blobs longer than 0.2 of the sheet, 160 px, are `_long_blobs.cut_long_blobs`' to judge.)
    strength, mask = _sheet(800)
    cv2.line(strength, (50, 300), (170, 210), 100, 6)
    cv2.line(mask, (50, 300), (170, 210), 255, 6)
    cv2.line(strength, (300, 100), (300, 160), 100, 6)
    cv2.line(mask, (300, 100), (300, 160), 255, 6)
    out = without_line_pieces(mask, strength, stroke=STROKE)
    assert not out[200:310, 40:180].any()
    assert np.array_equal(out[90:170, 290:310], mask[90:170, 290:310])


def test_a_wavy_line_longer_than_any_digit_goes_a_long_number_stays() -> None:
    # A freehand divider drawn upright with a wobble: x = 200 + 9 sin(y / 12) from y 40 to y 190 (150 px,
    # 25 strokes), strength 100, 6 px wide, ending on paper. Across its course it spreads 9 px either way,
    # thicker than two strokes by its pixels' scatter, but it holds one stroke of ink along its length: a
    # line. A number of the same length joined into one blob (five rings of 30 px side by side, touching:
    # "00000", 150 px long) holds far more ink along its length (each ring's path is 3 times its width)
    # and stays. (An 800 px sheet: blobs longer than 160 px are `cut_long_blobs`' to judge.)
    strength, mask = _sheet(800)
    ys = np.arange(40, 191)
    wave = np.stack([200 + 9 * np.sin(ys / 12.0), ys], axis=1).round().astype(np.int32)
    for image, value in ((strength, 100), (mask, 255)):
        cv2.polylines(image, [wave], False, value, 6)
        for k in range(5):
            cv2.circle(image, (415 + 30 * k, 400), 15, value, 6)
    out = without_line_pieces(mask, strength, stroke=STROKE)
    left = int(np.count_nonzero(out[30:200, 180:220]))
    assert not left, f"{left} px of the line left"
    assert np.array_equal(out[370:430, 390:570], mask[370:430, 390:570])


def test_the_edge_of_a_wide_line_that_went_goes_a_thin_one_beside_it_stays() -> None:
    # A thick line (x 200-215, strength 150) was taken out, but its right edge (x 216-218, rows 100-139,
    # 3 px < the 6 px stroke) was left as ink: on its left a stroke-wide band of not-ink as dark as itself
    # along all of it: the line's edge. A thin "1" (x 300-303, rows 100-139, strength 150) 3 px right of
    # another such line (x 280-296): the band beside it starts on the paper gap: it stays. Past their ends
    # lies paper (no ridge), so only the edge rule can drop the first.
    strength, mask = _sheet()
    strength[100:140, 200:219] = 150
    mask[100:140, 216:219] = 255
    strength[100:140, 280:297] = 150
    strength[100:140, 300:304] = 150
    mask[100:140, 300:304] = 255
    out = without_line_pieces(mask, strength, stroke=STROKE)
    assert not out[:, 210:230].any()
    assert np.array_equal(out[:, 290:310], mask[:, 290:310])


def test_a_pale_one_under_a_dark_crossing_stays() -> None:
    # A pale "1" (x 198-202, strength 60) from row 110 to 160, of which the thresholds kept only rows
    # 140-160 (a blob 21 px long, its own stroke above it below them). 4 px of paper above its top (rows
    # 106-109), a dark crossing of lines (rows 70-105, x 150-250, strength 120), not ink. From the blob up
    # (48 samples, 8 strokes: rows 139-92): its own stroke 30 dark, the paper 4, the crossing 14: 44 of 48
    # dark (0.92 >= 0.8), but 4 px of paper (> half a stroke) break the ridge: no line runs on there.
    strength, mask = _sheet()
    strength[70:106, 150:251] = 120
    strength[110:161, 198:203] = 60
    mask[140:161, 198:203] = 255
    out = without_line_pieces(mask, strength, stroke=STROKE)
    assert np.array_equal(out, mask)


def test_blob_stats_are_the_boxes_and_areas_drawn() -> None:
    # Two blobs drawn by hand: a 5 × 3 block at x 10-14, y 20-22 (area 15) and an "L" of a 1 × 4 column at
    # x 30, y 5-8 with a 3 × 1 foot at x 31-33, y 8 (box x 30-33, y 5-8: 4 × 4, area 7). The background:
    # the whole 50 × 40 image, 2000 - 22 px. Labels are cv2's (raster order: the L's top comes first).
    mask = np.zeros((40, 50), np.uint8)
    mask[20:23, 10:15] = 255
    mask[5:9, 30] = 255
    mask[8, 31:34] = 255
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    stats = blob_stats(mask, np.asarray(labels, np.int32), count)
    assert stats.tolist() == [[0, 0, 50, 40, 1978], [30, 5, 4, 4, 7], [10, 20, 5, 3, 15]]
    # The same from the inked places listed by the caller (as `_ruling.labelled_without_ruling_specks` has
    # them).
    xs, ys = np.asarray(cv2.findNonZero(mask), np.int64).reshape(-1, 2).T
    given = blob_stats(mask, np.asarray(labels, np.int32), count, (xs, ys))
    assert given.tolist() == stats.tolist()


def _drawn(size: int = 400) -> np.ndarray:
    return np.zeros((size, size), np.uint8)


def _wavy_stretch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A freehand level line at strength 120, 8 px wide, from x 20 to 380 with a wave between x 150 and
    220 (the trace lost it there): the drawn mask holds the line from 20 to 146 and from 224 to 380, the
    wavy stretch between passed for ink (6 px); the silent band around the drawn mask. Returns
    (strength, mask, drawn, silent)."""
    strength, mask = _sheet()
    drawn = _drawn()
    wave = np.array([(150, 200), (165, 194), (185, 206), (205, 194), (220, 200)], np.int32)
    cv2.line(strength, (20, 200), (380, 200), 120, 8)
    cv2.polylines(strength, [wave], False, 120, 8)
    cv2.line(drawn, (20, 200), (146, 200), 1, 8)
    cv2.line(drawn, (224, 200), (380, 200), 1, 8)
    cv2.polylines(mask, [wave], False, 255, 6)
    silent = cv2.dilate(drawn, np.ones((23, 23), np.uint8))
    return strength, mask, drawn, silent


def test_a_stretch_of_line_the_drawn_mask_missed_goes() -> None:
    # `_wavy_stretch`: the wavy stretch's ends lie 2 px from the drawn mask's ends. Both run on into
    # the mask in line with it: a piece of the line, gone. Without the drawn mask it says nothing (its ends'
    # ridges lie in the silent band around the lines) and stays.
    strength, mask, drawn, silent = _wavy_stretch()
    assert np.array_equal(without_line_pieces(mask, strength, stroke=STROKE, silent=silent), mask)
    out = without_line_pieces(mask, strength, stroke=STROKE, silent=silent, drawn=drawn)
    assert not out.any(), f"{int(np.count_nonzero(out))} px of the stretch left"


def test_ones_touching_drawn_lines_stay() -> None:
    # Three "1"s (strength 120, 6 px) against drawn lines (8 px, in the drawn mask):
    # - upright between two level lines (rows 100 and 160), each end 2 px from a line: the lines lie across
    #   its ends, not ahead of them;
    # - level, 3 px under a level line (row 250) from x 100 to 150: the line lies beside it, level with its
    #   ends;
    # - level, in line with a level line ending at x 296 (row 330), from x 300 to 350: one end runs on into
    #   the line, the other ends on paper.
    strength, mask = _sheet()
    drawn = _drawn()
    for row in (100, 160, 250):
        cv2.line(drawn, (20, row), (380, row), 1, 8)
    cv2.line(drawn, (150, 330), (296, 330), 1, 8)
    strength[drawn > 0] = 120
    for a, b in (((200, 108), (200, 152)), ((100, 260), (150, 260)), ((302, 330), (350, 330))):
        cv2.line(strength, a, b, 120, 6)
        cv2.line(mask, a, b, 255, 6)
    silent = cv2.dilate(drawn, np.ones((23, 23), np.uint8))
    out = without_line_pieces(mask, strength, stroke=STROKE, silent=silent, drawn=drawn)
    assert np.array_equal(out, mask)


def test_a_stretch_of_line_goes_when_the_strokes_are_measured_thin() -> None:
    # The wavy stretch of `test_a_stretch_of_line_the_drawn_mask_missed_goes` (6 px wide), on a dark noisy
    # photo whose specks pulled the sheet's measured stroke width down to 3 px: against that width the
    # stretch holds 2 strokes of ink along its length, not one, but its own width is 6 px. It goes.
    strength, mask, drawn, silent = _wavy_stretch()
    out = without_line_pieces(mask, strength, stroke=3.0, silent=silent, drawn=drawn)
    assert not out.any(), f"{int(np.count_nonzero(out))} px of the stretch left"


def test_the_second_stroke_of_a_line_drawn_twice_goes_a_one_under_a_line_stays() -> None:
    # A level line at row 200 (8 px, strength 120, in the drawn mask) gone over a second time: a flat arc
    # from (120, 200) down to row 211 at x 150 and back up to (180, 200), 6 px, ink where it is off the
    # mask. Both its ends touch the mask where the strokes meet, and all of it lies within 2 strokes of it:
    # a second stroke, gone (kept without the drawn mask). A level "1" 3 px under a line at row 300 (from x
    # 100 to 150, row 310) lies as close along it but touches it at neither end: it stays.
    strength, mask = _sheet()
    drawn = _drawn()
    cv2.line(drawn, (20, 200), (380, 200), 1, 8)
    cv2.line(drawn, (20, 300), (380, 300), 1, 8)
    strength[drawn > 0] = 120
    arc = np.array([(120, 200), (135, 208), (150, 211), (165, 208), (180, 200)], np.int32)
    cv2.polylines(strength, [arc], False, 120, 6)
    cv2.polylines(mask, [arc], False, 255, 6)
    cv2.line(strength, (100, 310), (150, 310), 120, 6)
    cv2.line(mask, (100, 310), (150, 310), 255, 6)
    mask[drawn > 0] = 0
    one = np.zeros_like(mask)
    one[300:, :] = mask[300:, :]
    silent = cv2.dilate(drawn, np.ones((23, 23), np.uint8))
    assert np.array_equal(without_line_pieces(mask, strength, stroke=STROKE, silent=silent), mask)
    out = without_line_pieces(mask, strength, stroke=STROKE, silent=silent, drawn=drawn)
    assert np.array_equal(out, one), f"{int(np.count_nonzero(out != one))} px differ"


def _paled_stretch(pale: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A freehand level line at strength 120, 8 px wide, along row 200 from x 20 to 380, that paled to
    `pale` between x 190 and 200 (a glare, the pen running dry): the drawn mask holds it from 20 to 146 and
    from 264 to 380; between, the two stretches 150-190 and 200-260 passed for ink (6 px), the pale one did
    not. Each piece touches the mask at one end only. Returns (strength, mask, drawn, silent)."""
    strength, mask = _sheet()
    drawn = _drawn()
    cv2.line(strength, (20, 200), (380, 200), 120, 8)
    cv2.line(strength, (192, 200), (198, 200), pale, 8)
    cv2.line(drawn, (20, 200), (146, 200), 1, 8)
    cv2.line(drawn, (264, 200), (380, 200), 1, 8)
    cv2.line(mask, (150, 200), (188, 200), 255, 6)
    cv2.line(mask, (202, 200), (260, 200), 255, 6)
    silent = cv2.dilate(drawn, np.ones((23, 23), np.uint8))
    return strength, mask, drawn, silent


def test_the_pieces_of_a_paled_stretch_between_the_drawn_mask_go() -> None:
    # `_paled_stretch` at 70 (>= half the pieces' 120): joined through the pale stretch, the two pieces make
    # one stroke whose ends run on into the drawn mask, in line with it: both go. Neither piece alone
    # reaches the mask at both ends, and past its free end the ridge is counted for 10 px only (then the
    # other piece's ink, then the silent band): without the pale course both stay.
    strength, mask, drawn, silent = _paled_stretch(70)
    out = without_line_pieces(mask, strength, stroke=STROKE, silent=silent, drawn=drawn)
    assert not out.any(), f"{int(np.count_nonzero(out))} px of the pieces left"


def test_strokes_in_line_with_drawn_lines_across_paper_stay() -> None:
    # `_paled_stretch` with paper (0) between the two strokes: each touches a line's end at one end and ends
    # on paper at the other, as a level "1" written in line with a line's stub does. Both stay.
    strength, mask, drawn, silent = _paled_stretch(0)
    out = without_line_pieces(mask, strength, stroke=STROKE, silent=silent, drawn=drawn)
    assert np.array_equal(out, mask)


def test_the_pieces_of_an_untraced_line_broken_at_each_crossing_go() -> None:
    # An upright freehand line at strength 120, 6 px wide, along columns 197-202 from row 40 to 360, traced
    # by no mask, that passed for ink in three pieces 50 px long (rows 100-149, 152-201, 204-253): the ruling
    # crossing it cut it at rows 150-151 and 202-203. Past each piece's end the next piece's ink lies on its
    # course; without it counted as the line running on, the paper either side of that ink reads as paper,
    # and the middle piece (ink past both its ends) stays.
    strength, mask = _sheet()
    strength[40:360, 197:203] = 120
    for top in (100, 152, 204):
        mask[top:top + 50, 197:203] = 255
    out = without_line_pieces(mask, strength, stroke=STROKE)
    assert not out.any(), f"{int(np.count_nonzero(out))} px of the pieces left"


def test_a_one_over_a_one_stays() -> None:
    # Two "1"s (strength 120, 6 px, 40 px tall) one over the other in a column of numbers, 4 px of paper
    # between: past each one's end lies paper before the other's ink. Both stay.
    strength, mask = _sheet()
    for top in (100, 144):
        strength[top:top + 40, 197:203] = 120
        mask[top:top + 40, 197:203] = 255
    assert np.array_equal(without_line_pieces(mask, strength, stroke=STROKE), mask)


def test_ones_in_line_across_a_drawn_line_stay() -> None:
    # A drawn level line (rows 196-203, in the drawn mask, with its silent band) and two "1"s (strength 120,
    # 6 px) in line with each other across it: rows 150-191 above, 208-257 below. Past the upper one's foot,
    # the band crosses the drawn line and then lies on the lower one's ink: other writing, not the line's next
    # piece (counted as that, the upper "1" went). Both stay.
    strength, mask = _sheet()
    drawn = _drawn()
    drawn[196:204, 20:380] = 1
    strength[drawn > 0] = 120
    for top, bottom in ((150, 192), (208, 258)):
        strength[top:bottom, 197:203] = 120
        mask[top:bottom, 197:203] = 255
    silent = cv2.dilate(drawn, np.ones((23, 23), np.uint8))
    out = without_line_pieces(mask, strength, stroke=STROKE, silent=silent, drawn=drawn)
    assert np.array_equal(out, mask)
