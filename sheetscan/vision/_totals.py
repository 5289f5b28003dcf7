"""Choosing how to cut each written number by the running totals of its zone (stage 5, with the
recogniser): every way of cutting a number's glyphs into digits, and of reading it as two numbers
whose dot was lost, is read in one batch; along each zone the ways are chosen together (Viterbi) for
the most likely readings whose totals move the zone's way, in steps no bigger than totals move.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from sheetscan.vision import _group
from sheetscan.vision._recog_types import crop_digits
from sheetscan.vision.recognise import DigitReading, NumberImage, NumberReading, Recognizer, read_number

if TYPE_CHECKING:
    from sheetscan.vision.numbers import NumberToken

__all__ = ["choose_cuts", "monotone_picks", "part_token", "read_tokens"]

# No written number has more than three digits (see `_group.group_numbers`).
_LONGEST = 3

Part = tuple["NumberToken", NumberReading]
"""A number as read: its token (its quad and digit boxes) and the recogniser's reading."""
Choice = tuple[tuple[Part, ...], float]
"""One way of reading a token: its parts (one, or two when its dot was lost) and their log-likelihood."""
_SPLIT_COST = 2.0
"""Log-likelihood cost of reading one token as two numbers (their dot lost or run into a digit)."""


def choose_cuts(recognizer: Recognizer, sequences: list[tuple[bool, bool, list[NumberToken]]],
                 readings: dict[int, NumberReading]) -> dict[int, tuple[Part, ...]]:
    """For each number whose glyphs can be cut more than one way, the cut to keep: every way of
    cutting it is read (all in one batch), and along each zone's sequence of numbers the ways are
    chosen together (Viterbi) for the most likely readings with running totals that never go back.
    In a sequence whose first flag is True (a zone, not the circle), a token of two or more glyphs may
    also be read as two numbers whose dot was lost, when the totals call for it; the second flag says
    the totals only rise.

    Returns, by the id of the token they replace, the parts of the tokens whose cut changed.
    """
    jobs: list[tuple[int, int, NumberToken]] = []
    split_ok = {id(t) for splits, _, sequence in sequences if splits for t in sequence}
    for token in (t for _, _, sequence in sequences for t in sequence):
        ways = _ways(token)
        splittable = id(token) in split_ok and not token.crossed_out and len(token.glyph_cuts) > 1
        if len(ways) == 1 and not splittable:
            continue
        for w, way in enumerate(ways):
            boxes = tuple(box for glyph in way for box in glyph)
            jobs.append((id(token), 2 * w, replace(token, image=NumberImage(gray=token.image.gray,
                                                                             digit_boxes=boxes))))
            if splittable and w < 3:
                for k in range(1, len(way)):
                    for side in (way[:k], way[k:]):
                        part = tuple(box for glyph in side for box in glyph)
                        jobs.append((id(token), 2 * w + 1, part_token(token, part)))
    if not jobs:
        return {}
    options: dict[int, list[Choice]] = {}
    pending: list[Part] = []
    shared = _read_shared(recognizer, [t for _, _, t in jobs])
    for (key, kind, token), reading in zip(jobs, shared, strict=True):
        found = options.setdefault(key, [])
        # The likeliest cut by width is the first way: among equals it stays.
        prior = 0.0 if not found else -0.05
        if len(token.image.digit_boxes) > _LONGEST:
            prior -= 3.0
        score = math.log(max(_confidence(reading), 1e-6))
        if kind % 2 == 0:
            found.append((((token, reading),), score + prior))
        elif pending:
            (first, first_reading), pending = pending[0], []
            found.append((((first, first_reading), (token, reading)),
                          _choice_score(first_reading) + score + prior - _SPLIT_COST))
        else:
            pending = [(token, reading)]
    out: dict[int, tuple[Part, ...]] = {}
    for _, rising, sequence in sequences:
        choices = [options.get(id(t)) or [(((t, readings[id(t)]),), 0.0)] for t in sequence]
        picks = monotone_picks(choices, rising=rising)
        for token, found, pick in zip(sequence, choices, picks, strict=True):
            if pick > 0:
                out[id(token)] = found[pick][0]
    return out


def _choice_score(reading: NumberReading) -> float:
    return math.log(max(_confidence(reading), 1e-6)) - (3.0 if len(reading.digits) > _LONGEST else 0.0)


def part_token(token: NumberToken, boxes: tuple[_group.Box, ...]) -> NumberToken:
    """The part of a token holding `boxes`: its quad is the token's, cut across the writing at the
    share of the number's width where the part starts and ends."""
    every = token.image.digit_boxes
    left = min(b[0] for b in every)
    width = max(max(b[0] + b[2] for b in every) - left, 1)
    start = (min(b[0] for b in boxes) - left) / width
    end = (max(b[0] + b[2] for b in boxes) - left) / width
    tl, tr, br, bl = token.quad

    def along(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
        return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))

    quad = (along(tl, tr, start), along(tl, tr, end), along(bl, br, end), along(bl, br, start))
    return replace(token, quad=quad, image=NumberImage(gray=token.image.gray, digit_boxes=boxes),
                   glyph_cuts=())


def _ways(token: NumberToken, *, most: int = 12) -> list[tuple[tuple[_group.Box, ...], ...]]:
    """Every way of cutting the token's glyphs (at most `most`), as each glyph's digit boxes, the way
    in `token.image` first."""
    ways: list[tuple[tuple[_group.Box, ...], ...]] = []
    for picks in itertools.product(*token.glyph_cuts):
        way = tuple(tuple(option) for option in picks)
        if way not in ways:
            ways.append(way)
        if len(ways) == most:
            break
    return ways or [(tuple(token.image.digit_boxes),)]


def monotone_picks(choices: list[list[Choice]], *, rising: bool = False, penalty: float = 4.0) -> list[int]:
    """Which choice to take for each number of a zone's sequence: the most likely readings (sum of
    log-confidences) less the cost of each step between neighbouring totals (`_step_cost`) in the
    better direction of the two (strictly up, or strictly down for a pulka counted down; only up
    when `rising`).
    Crossed-out numbers are left out of the steps."""
    best_total, best_picks = -math.inf, [0] * len(choices)
    for sign in (1,) if rising else (1, -1):
        total, picks = _viterbi(choices, sign=sign, penalty=penalty)
        if total > best_total:
            best_total, best_picks = total, picks
    return best_picks


def _values(choice: Choice) -> list[int | None]:
    return [reading.value for _, reading in choice[0]]


def _steps_cost(values: list[int | None], sign: int, penalty: float) -> float:
    return sum(_step_cost(sign * (v - u), penalty) for u, v in itertools.pairwise(values)
               if u is not None and v is not None)


def _viterbi(choices: list[list[Choice]], *, sign: int, penalty: float) -> tuple[float, list[int]]:
    """The best choices (Viterbi) along the numbers not crossed out, for one direction `sign`;
    a crossed-out number takes its own likeliest choice."""
    picks = [0] * len(choices)
    steps = []
    for i, c in enumerate(choices):
        if c[0][0][0][0].crossed_out:
            picks[i] = max(range(len(c)), key=lambda k: c[k][1])
        else:
            steps.append(i)
    if not steps:
        return 0.0, picks
    values = [[_values(choice) for choice in c] for c in choices]
    scores = [c[1] - _steps_cost(v, sign, penalty)
              for c, v in zip(choices[steps[0]], values[steps[0]], strict=True)]
    back: list[list[int]] = []
    for previous, current in itertools.pairwise(steps):
        new_scores, pointers = [], []
        for option, mine in zip(choices[current], values[current], strict=True):
            best, arg = -math.inf, 0
            for k, before in enumerate(values[previous]):
                candidate = scores[k] - _steps_cost([before[-1], mine[0]], sign, penalty)
                if candidate > best:
                    best, arg = candidate, k
            new_scores.append(best + option[1] - _steps_cost(mine, sign, penalty))
            pointers.append(arg)
        scores = new_scores
        back.append(pointers)
    k = max(range(len(scores)), key=lambda i: scores[i])
    total = scores[k]
    for position in range(len(steps) - 1, -1, -1):
        picks[steps[position]] = k
        if position > 0:
            k = back[position - 1][k]
    return total, picks


def _step_cost(step: int, penalty: float, *, usual: float = 40.0) -> float:
    """The cost of one step between running totals: `penalty` when it goes back or stands still; a
    growing cost past `usual` (a jump of hundreds is a digit too many).

    Decision: steps up to 40 cost nothing, because in the sample games' truth files 99% of the steps
    of a zone's totals are at most 38 (largest 60); cost grows with the log of the step beyond that.
    """
    if step <= 0:
        return penalty
    if step <= usual:
        return 0.0
    return min(penalty, 0.5 + 2.0 * math.log(step / usual))


def _read_shared(recognizer: Recognizer, tokens: list[NumberToken]) -> list[NumberReading]:
    """`_read`, but each distinct digit crop read once: the ways of cutting a number share most of
    their digit boxes. Only for a recogniser that reads single digits (`read_digits`)."""
    read_digits = getattr(recognizer, "read_digits", None)
    if read_digits is None:
        return read_tokens(recognizer, tokens)
    index: dict[tuple[int, _group.Box], int] = {}
    crops: list[npt.NDArray[np.uint8]] = []
    for token in tokens:
        for box in token.image.digit_boxes:
            key = (id(token.image.gray), box)
            if key not in index:
                index[key] = len(crops)
                crops.append(crop_digits(NumberImage(gray=token.image.gray, digit_boxes=(box,)))[0])
    digits: list[DigitReading] = list(read_digits(crops)) if crops else []
    return [read_number([digits[index[(id(t.image.gray), box)]] for box in t.image.digit_boxes])
            for t in tokens]


def _confidence(reading: NumberReading) -> float:
    return float(reading.candidates[0][1]) if reading.candidates else 0.0


def read_tokens(recognizer: Recognizer, tokens: list[NumberToken]) -> list[NumberReading]:
    """The recogniser's reading of each token's image, in one batch."""
    if not tokens:
        return []
    return list(recognizer.read_numbers([t.image for t in tokens]))
