"""Moving a digit between two neighbouring numbers of a zone when their dot was lost (stage 5).

"75.83" whose dot is lost, or drawn touching the 8, is cut where the widest space is: "758" and "3".
No way of cutting either number alone reads the totals in order (70, 758, 3, 98), and splitting
"758" as "75" | "8" still leaves a "3". `regroup` moves the last digit of a number to the front of the
next one (or the first digit of the next to the end of the one before) when the zone's running totals
call for it: the digits keep the readings the recogniser already gave them, so this reads no crop.

Two numbers whose dot was lost may also be one number cut in two where it was not ("70" as "7" and
"0"); they are then read as one (`_merge_gain`), from the chosen ways of the two tokens or from each
token's next likeliest way read (a "7" whose chosen way read a stray bit as noise and the rest as "1").
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from sheetscan.vision import _group
from sheetscan.vision._steps import LONGEST, STEP_BACK, USUAL_STEP, Choice, Part, steps_cost
from sheetscan.vision._totals import choice_score, part_token
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, read_number

if TYPE_CHECKING:
    from sheetscan.vision.numbers import NumberToken

__all__ = ["regroup"]

_REGROUP_COST = 2.0
"""Log-likelihood cost of moving a digit between two numbers: like reading one token as two
(`_totals._SPLIT_COST`), it says a dot was lost or drawn where the cut did not take it."""
_NEAR = 1.5
"""The most space, in digit heights, between two numbers that a digit may move across."""
_MERGE_COST = 2.0
"""Log-likelihood cost of reading two neighbouring numbers as one: the inverse of reading one as two
(`_totals._SPLIT_COST`), it says a space between digits was taken for the space after a dot."""
_MERGE_NEAR = 0.8
"""The most space, in digit heights, between two numbers read as one: the widest space `find_numbers`
ever takes as one between the digits of a number."""
_OTHER_WAYS = 1
"""How many of a token's other ways (besides the chosen one) two numbers may be read as one in."""
_TALL = 0.75
"""A digit that moves stands at least this share of its number's tallest box (not a dot's piece)."""


def regroup(sequences: Sequence[tuple[bool, bool, Sequence[NumberToken]]],
            parts: dict[int, tuple[Part, ...]],
            readings: dict[int, NumberReading],
            steps: Mapping[int, float] | None = None,
            ways: Mapping[int, tuple[list[Choice], int]] | None = None) -> dict[int, tuple[Part, ...]]:
    """`parts` (by the id of the token they replace, as `_totals.choose_cuts` gives them) with digits
    moved between neighbouring numbers where the totals call for it (see the module docstring).

    `sequences` are each zone's tokens in writing order, as given to `choose_cuts` (a sequence whose
    first flag is False, the circle, is left alone; the second flag says the totals only rise);
    `readings` the first reading of every token. Only the numbers whose readings give one digit per
    digit box (the CNN) can move digits. A move is taken when it lowers the cost of the steps from the
    number before into and between the two by more than one step back (`STEP_BACK`) and gains more
    than `_REGROUP_COST` in log-confidence and step costs (the step to the number after included);
    moves are taken best first, as long as any gains. `steps`: by zone index, the largest step between the
    zone's totals that costs nothing (`_steps.USUAL_STEP` for a zone not in it). `ways`: by token id,
    the ways read of the token (part(s), score) and the index of the one chosen, for `_others`."""
    out = dict(parts)
    for splits, rising, sequence in sequences:
        if not splits:
            continue
        flat = [(id(t), part) for t in sequence for part in parts.get(id(t), ((t, readings[id(t)]),))]
        usual = (steps or {}).get(sequence[0].zone, USUAL_STEP) if sequence else USUAL_STEP
        parts_of = Counter(key for key, _ in flat)
        others = {key: (part, *alt) for key, part in flat
                  if parts_of[key] == 1 and (alt := _others(ways, key))}
        if not _moves(flat, rising=rising, usual=usual, others=others):
            continue
        for token in sequence:
            mine = tuple(part for key, part in flat if key == id(token))
            if mine != parts.get(id(token), ((token, readings[id(token)]),)):
                out[id(token)] = mine
    return out


def _others(ways: Mapping[int, tuple[list[Choice], int]] | None, key: int
            ) -> tuple[float, tuple[tuple[Part, float], ...]] | None:
    """When token `key`'s chosen way was read whole (one part): that way's score beyond its
    log-confidence (its prior and noise costs), and the token's next likeliest way read whole with
    its own; None when there is none."""
    if not ways or key not in ways:
        return None
    found, pick = ways[key]
    if len(found[pick][0]) != 1:
        return None
    # Decision: only the next likeliest way, because every way offered is one more chance for a
    # merge that fits the totals by luck, and a token read two ways about as well is the case
    # (1022 z10: a "7" read "1" at -0.09 and "7" at -0.12).
    rest = sorted((choice for k, choice in enumerate(found) if k != pick and len(choice[0]) == 1),
                  key=lambda choice: -choice[1])[:_OTHER_WAYS]
    if not rest:
        return None
    own = _beyond(found[pick][0][0], found[pick][1])
    return own, tuple((p[0], _beyond(p[0], score)) for p, score in rest)


def _beyond(part: Part, score: float) -> float:
    """The part of a way's `score` that is not its reading's log-confidence: its prior and noise costs."""
    return score - choice_score(part[1])


def _moves(flat: list[tuple[int, Part]], *, rising: bool, usual: float = USUAL_STEP,
           others: Mapping[int, tuple[Part, float, tuple[tuple[Part, float], ...]]] | None = None) -> bool:
    """Moves digits within `flat` (each part with the id of its token), best first; whether any moved.
    `others` (`_others`, by token id): the ways two tokens may also be read as one in."""
    moved = False
    for _ in range(len(flat)):
        kept = [i for i, (_, (token, _)) in enumerate(flat) if not token.crossed_out]
        values = [flat[i][1][1].value for i in kept]
        sign = 1 if rising else min((1, -1), key=lambda s: steps_cost(values, s, usual=usual))
        best: tuple[float, int, int, Part, Part | None] | None = None
        for k, (i, j) in enumerate(itertools.pairwise(kept)):
            before = values[k - 1] if k > 0 else None
            after = values[k + 2] if k + 2 < len(values) else None
            now = _score(flat[i][1][1], flat[j][1][1], before, after, sign, usual)
            if flat[i][0] != flat[j][0]:
                for (left, extra_i), (right, extra_j) in itertools.product(
                        _ways_of(flat[i], others), _ways_of(flat[j], others)):
                    # Decision: another way is read as one with its neighbour only between two
                    # numbers, because with no number before or after, nothing but the fall between
                    # the two chosen ways calls for it, and any two numbers misread out of order have
                    # some other ways that read together (small 36004: "22", "30" read 82, 35, and 5
                    # the 35's other way, made 825).
                    other = left is not flat[i][1] or right is not flat[j][1]
                    whole = _merged(left, right)
                    if whole is None or (other and (before is None or after is None)):
                        continue
                    gain = (_merge_gain(left[1], right[1], whole[1], before, after, sign, usual,
                                        chosen=(flat[i][1][1].value, flat[j][1][1].value))
                            + extra_i + extra_j - now)
                    if gain > 0.0 and (best is None or gain > best[0]):
                        best = (gain, i, j, (_merged_token(left[0], right[0]), whole[1]), None)
            for a, b in _options(flat[i][1], flat[j][1]):
                # Decision: only the totals' order calls for a move, and only when the steps it
                # mends from the number before into and between the two cost more than one step back,
                # because one number misread or short of a digit (an 18 read as 1: 11, 1, 19) breaks
                # one step, which moving a digit may mend as well (1, 11, 19), while a digit on the
                # wrong side of a lost dot makes one number too long and the other too short, breaking
                # the steps into and out of the long one (70, 758, 3). The step to the number after
                # counts only in the gain (that number may be misread itself: 70, 758, 3, 8). A digit
                # moved onto a number read badly reads more surely, but that alone is no reason.
                old, new = (flat[i][1][1].value, flat[j][1][1].value), (a[1].value, b[1].value)
                if (steps_cost([before, *old], sign, usual=usual)
                        - steps_cost([before, *new], sign, usual=usual) <= STEP_BACK):
                    continue
                gain = _score(a[1], b[1], before, after, sign, usual) - now - _REGROUP_COST
                if gain > 0.0 and (best is None or gain > best[0]):
                    best = (gain, i, j, *_moved(flat[i][1], flat[j][1], a, b))
        if best is None:
            return moved
        _, i, j, first, second = best
        if second is None:  # the two read as one: the second's token keeps no part
            flat[i] = (flat[i][0], first)
            del flat[j]
        else:
            flat[i], flat[j] = (flat[i][0], first), (flat[j][0], second)
        moved = True
    return moved


def _ways_of(entry: tuple[int, Part], others: Mapping[int, tuple[Part, float, tuple[tuple[Part, float], ...]]]
             | None) -> list[tuple[Part, float]]:
    """The part of `entry` and, while it is still its token's chosen whole part, that token's other
    ways (`_others`), each with its score beyond its log-confidence less the chosen one's."""
    key, part = entry
    known = (others or {}).get(key)
    if known is None or known[0] is not part:
        return [(part, 0.0)]
    _, own, rest = known
    return [(part, 0.0), *((other, extra - own) for other, extra in rest)]


def _merge_gain(first: NumberReading, second: NumberReading, whole: NumberReading, before: int | None,
                after: int | None, sign: int, usual: float = USUAL_STEP, *,
                chosen: tuple[int | None, int | None] | None = None) -> float:
    """The log-likelihood of `first` and `second` read as one, `whole` (`_score` for one number, less
    `_MERGE_COST`); minus infinity when the totals do not call for it. `chosen`: the values the two
    tokens' chosen ways read, when `first` or `second` is another way of its token (`_others`).

    Decision: two numbers are read as one (their space taken for a dot's) only when that mends a step
    back from the number before into or between them and the one number steps on from it and on to the
    number after, because a number cut in two reads as two numbers that fall below the one before
    (44, 4, 5, 48) or between themselves (48, 5, 2); a merge that only reads more surely, or still
    falls (44, 4, 1 -> 41), is no reason, and taking two numbers for one on a misread neighbour loses
    a number. Only the same digits read together (none dropped as noise) are the two read as one.

    Decision: the step back mended is the chosen ways' (`chosen`), not the other ways', because
    numbers read in step call for no merge however their other ways fall (small 36004: "12", "35"
    read in order; their other ways "82" and "5" fall, and read as one made "825" of two numbers).
    """
    if whole.value is None or f"{first.value}{second.value}" != str(whole.value):
        return -math.inf
    into = steps_cost([before, whole.value], sign, usual=usual)
    out = steps_cost([whole.value, after], sign, usual=usual)
    mends = steps_cost([before, *(chosen or (first.value, second.value))], sign, usual=usual) - into
    if mends < STEP_BACK or max(into, out) >= STEP_BACK:
        return -math.inf
    return choice_score(whole) - into - out - _MERGE_COST


def _score(first: NumberReading, second: NumberReading, before: int | None, after: int | None,
           sign: int, usual: float = USUAL_STEP) -> float:
    """The log-likelihood of two neighbouring readings: their log-confidences less the costs of the
    steps from the number before them, between them and to the one after."""
    steps = steps_cost([before, first.value, second.value, after], sign, usual=usual)
    return choice_score(first) + choice_score(second) - steps


def _options(first: Part, second: Part) -> list[tuple[Part, Part]]:
    """The two numbers with the first's last digit moved to the front of the second, and with the
    second's first digit moved to the end of the first: when both are read one digit per box, are
    written on one line and near each other, and the digit moved is a full-height box. The parts'
    tokens are still the two numbers' own (`_moved` makes the moved ones): most moves are never taken,
    and their images are the costly part."""
    (a, ra), (b, rb) = first, second
    if not _neighbours(first, second, most=_NEAR):
        return []
    out = []
    if len(ra.digits) > 1 and _tall(a, -1):
        out.append(((a, read_number(ra.digits[:-1])), (b, read_number((ra.digits[-1], *rb.digits)))))
    if len(rb.digits) > 1 and _tall(b, 0):
        out.append(((a, read_number((*ra.digits, rb.digits[0]))), (b, read_number(rb.digits[1:]))))
    return out


def _moved(first: Part, second: Part, a: Part, b: Part) -> tuple[Part, Part]:
    """The move `_options` read as (`a`, `b`), with the tokens it makes: a digit moved from the first
    to the front of the second when `a` has fewer digits than the first, else from the second to the
    end of the first."""
    (x, rx), (y, _) = first, second
    if len(a[1].digits) < len(rx.digits):
        box = x.image.digit_boxes[-1]
        return (part_token(x, x.image.digit_boxes[:-1]), a[1]), (_with_digit(y, x, box, front=True), b[1])
    box = y.image.digit_boxes[0]
    return (_with_digit(x, y, box, front=False), a[1]), (part_token(y, y.image.digit_boxes[1:]), b[1])


def _merged(first: Part, second: Part) -> Part | None:
    """The two numbers read as one (the first's digits, then the second's): when both are read one
    digit per box, are written on one line no more than `_MERGE_NEAR` digit heights apart, and have no
    more digits together than any written number. The part's token is still the first number's
    (`_merged_token` makes the one number's)."""
    (a, ra), (b, rb) = first, second
    if not (_neighbours(first, second, most=_MERGE_NEAR) and not a.crossed_out and not b.crossed_out
            and len(ra.digits) + len(rb.digits) <= LONGEST):
        return None
    return a, read_number((*ra.digits, *rb.digits))


def _merged_token(a: NumberToken, b: NumberToken) -> NumberToken:
    """The token of two numbers read as one: their images side by side, a quad over both."""
    tl, _, _, bl = a.quad
    _, tr, br, _ = b.quad
    return replace(a, quad=(tl, tr, br, bl), image=_side_by_side(a.image, b.image), glyph_cuts=(),
                   glyph_joins=())


def _neighbours(first: Part, second: Part, *, most: float) -> bool:
    """Whether both numbers are read one digit per box and written at one angle on one line of one
    zone, no more than `most` digit heights apart (`_near`)."""
    (a, ra), (b, rb) = first, second
    return (_by_digit(a, ra) and _by_digit(b, rb) and a.angle == b.angle and a.row == b.row
            and a.zone == b.zone and _near(a, b, most=most))


def _by_digit(token: NumberToken, reading: NumberReading) -> bool:
    return bool(reading.candidates) and len(reading.digits) == len(token.image.digit_boxes) > 0 and all(
        isinstance(d, DigitReading) for d in reading.digits)


def _tall(token: NumberToken, index: int) -> bool:
    boxes = token.image.digit_boxes
    return boxes[index][3] >= _TALL * max(box[3] for box in boxes)


def _near(first: NumberToken, second: NumberToken, *, most: float) -> bool:
    """Whether the space from the end of `first` to the start of `second` (the middles of their quads'
    closing and opening edges) is at most `most` digit heights."""
    end = np.add(first.quad[1], first.quad[2]) / 2.0
    start = np.add(second.quad[0], second.quad[3]) / 2.0
    height = max(first.digit_size[0], second.digit_size[0])
    return height > 0 and float(np.hypot(*(start - end))) <= most * height


def _with_digit(token: NumberToken, donor: NumberToken, box: _group.Box, *, front: bool) -> NumberToken:
    """`token` with the digit in `box` of `donor` set before its digits (`front`) or after them: the
    image is the two side by side (the digit's crop exactly as the recogniser read it), the quad
    reaches over the digit's share of `donor`'s quad."""
    x, y, w, h = box
    piece = donor.image.gray[max(y, 0):y + h, max(x, 0):x + w]
    alone = NumberImage(gray=piece, digit_boxes=((0, 0, piece.shape[1], piece.shape[0]),))
    image = _side_by_side(alone, token.image) if front else _side_by_side(token.image, alone)
    near = part_token(donor, (box,)).quad
    tl, tr, br, bl = token.quad
    quad = (near[0], tr, br, near[3]) if front else (tl, near[1], near[2], bl)
    return replace(token, quad=quad, image=image, glyph_cuts=(), glyph_joins=())


def _side_by_side(left: NumberImage, right: NumberImage, *, space: int = 2) -> NumberImage:
    """The two number images side by side, tops aligned, `space` px apart, with both one's digit boxes."""
    height = max(left.gray.shape[0], right.gray.shape[0])
    shift = left.gray.shape[1] + space
    gray = np.zeros((height, shift + right.gray.shape[1]), dtype=np.uint8)
    gray[:left.gray.shape[0], :left.gray.shape[1]] = left.gray
    gray[:right.gray.shape[0], shift:] = right.gray
    boxes = (*left.digit_boxes, *((bx + shift, by, bw, bh) for bx, by, bw, bh in right.digit_boxes))
    return NumberImage(gray=gray, digit_boxes=boxes)
