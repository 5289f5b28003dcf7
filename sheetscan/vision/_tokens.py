"""What stage 5's cutting hands to its reading: the tokens of every zone, one per written number.

A `NumberToken` is one written number cut out, turned to read normally, with its digit boxes and the
other ways its glyphs may be cut; a `ZoneTokens` holds one block of a zone cut at every angle it may
be written at; `Tokens` holds every zone's blocks and the centre circle's. The numbers of a block at
one angle are cut only as far as they are asked for (`Lazily`): the reading tries every angle on a
few numbers and keeps one (`numbers.read_numbers`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from sheetscan.vision import _group
from sheetscan.vision._steps import USUAL_STEP
from sheetscan.vision.recognise import NumberImage

GlyphWays = tuple[tuple[_group.Box, ...], ...]
"""The ways to cut one glyph into digit boxes, the likeliest first."""
Quad = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class NumberToken:
    """One written number, cut out and ready for the recogniser."""

    zone: int
    """Index of the zone (CIRCLE for the pulka target)."""
    angle: int
    """The writing angle it was cut at (clockwise degrees, 0 = reads normally on the upright sheet)."""
    row: int
    """The line of writing it sits on within its block (0 = first)."""
    quad: Quad
    """Its box's corners on the upright sheet (pixels), in reading order: top-left, top-right,
    bottom-right, bottom-left as the writer sees them."""
    image: NumberImage
    """The crop turned to read normally, with its digit boxes, for the recogniser."""
    crossed_out: bool
    """A strike runs through most of its digits."""
    glyph_cuts: Sequence[GlyphWays] = ()
    """For each glyph, the ways to cut it into digit boxes (in `image` coordinates), the one used in
    `image` first: a wide glyph may be one wide digit or two touching ones. (Cut from ink, a
    `GlyphCuts`: the other ways are found only when first asked for.)"""
    digit_size: tuple[float, float] = (0.0, 0.0)
    """The block's typical digit (height, width) in pixels; (0, 0) when unknown."""
    glyph_joins: tuple[tuple[int, _group.Box], ...] = ()
    """Neighbouring glyphs that may be pieces of one digit (a pale or broken stroke leaves a 0 as
    "(" and ")"): the index of the first of the two in `glyph_cuts`, and the box of both."""
    unstruck: NumberToken | None = None
    """When only a short strike marks it crossed out (`_strikes.find_short_strikes`): the number as
    written (with `whole`, the part of it the strike crossed), the strike left in, not crossed out;
    the recogniser judges which it is (`_judge.judged`)."""
    whole: NumberToken | None = None
    """When its short strike also cut it off from the numbers written after it (they were one number
    with the strike left in): that one number, read in place of it and of them (the tokens of the
    same `bundle` that follow it) when the recogniser rejects the strike."""
    bundle: int = -1
    """The numbers cut apart by one short strike share this (>= 0) within their block and angle."""


@dataclass(frozen=True)
class ZoneTokens:
    """One block of a zone (an L-shaped zone has two), cut at every candidate angle."""

    zone: int
    """Index of the zone (CIRCLE for the pulka target)."""
    block: int
    """Which block of the zone, in writing order."""
    candidates: tuple[tuple[int, Sequence[NumberToken]], ...]
    """(angle, the block's numbers in writing order when cut at that angle), usual angle first. The
    numbers are cut as they are asked for (`Lazily`): most angles are tried on a few numbers only."""
    rising: bool = False
    """The zone's totals only ever go up (a mountain or whists zone); a pulka may be counted down."""
    steps: float = USUAL_STEP
    """The largest step between the zone's totals that costs nothing (`_steps.PULKA_STEP` for a pulka)."""


@dataclass(frozen=True)
class Tokens:
    """Every zone's tokens, and the centre circle's."""

    blocks: tuple[ZoneTokens, ...]
    """The blocks of every zone, zone by zone."""
    target: ZoneTokens | None
    """The centre circle, where the pulka target is written; None when the sheet has no circle."""


class Lazily(Sequence[NumberToken]):
    """Numbers cut only as far as they are asked for, each once: the reading tries every angle of a
    block on its first few numbers and keeps one, so the others are mostly never cut in full."""

    def __init__(self, numbers: Iterator[NumberToken]) -> None:
        self._source = numbers
        self._done: list[NumberToken] = []
        self._complete = False

    def _upto(self, count: int | None) -> None:
        while not self._complete and (count is None or len(self._done) < count):
            token = next(self._source, None)
            if token is None:
                self._complete = True
            else:
                self._done.append(token)

    def cut_all(self) -> None:
        """Cut every number now (and keep them), so that later asking costs nothing."""
        self._upto(None)

    def __len__(self) -> int:
        self._upto(None)
        return len(self._done)

    @overload
    def __getitem__(self, index: int) -> NumberToken: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[NumberToken, ...]: ...

    def __getitem__(self, index: int | slice) -> NumberToken | tuple[NumberToken, ...]:
        if isinstance(index, slice):
            ends = (index.start, index.stop)
            whole = index.stop is None or any(end is not None and end < 0 for end in ends)
            self._upto(None if whole else index.stop)
            return tuple(self._done[index])
        self._upto(None if index < 0 else index + 1)
        return self._done[index]

    def __iter__(self) -> Iterator[NumberToken]:
        i = 0
        while True:
            self._upto(i + 1)
            if i >= len(self._done):
                return
            yield self._done[i]
            i += 1


class GlyphCuts(Sequence[GlyphWays]):
    """A number's `NumberToken.glyph_cuts` whose glyphs' other ways are found only when they are asked
    for, glyph by glyph: how many glyphs there are and each one's first way (`firsts`) are known, and
    nothing more is cut for them (`len`, truth, `firsts`).

    Decision: lazily, because the other ways of cutting a glyph are read only for the numbers that are
    unsure or out of step, may have swallowed a "1" (only their wide glyphs) or are the circle's
    (`_totals.choose_cuts`, `_angles.circle_number`), while `_digit_cuts.cut_options` ran for every glyph
    of every number cut, mostly for numbers read surely and in step: on bench 1000 0-11 (read alone in
    one thread) its calls went 169 -> 85 a photo and its CPU 51-61 -> 28-30 ms. The ways are the same:
    every scan's md5 the same on bench 1000 x24, usual, small, thin, motion 45000 x8 and usual, small
    49000 x8.
    """

    def __init__(self, firsts: Sequence[Sequence[_group.Box]], find: Callable[[int], GlyphWays]) -> None:
        self.firsts: tuple[tuple[_group.Box, ...], ...] = tuple(tuple(first) for first in firsts)
        """Each glyph's first way (the likeliest), as `self[g][0]` would give it."""
        self._find = find
        self._ways: list[GlyphWays | None] = [None] * len(self.firsts)

    def _glyph(self, index: int) -> GlyphWays:
        ways = self._ways[index]
        if ways is None:
            ways = self._find(index)
            if not ways or ways[0] != self.firsts[index]:
                raise ValueError(f"glyph {index}'s ways {ways} do not start with its first way")
            self._ways[index] = ways
        return ways

    def _all(self) -> tuple[GlyphWays, ...]:
        return tuple(self._glyph(g) for g in range(len(self.firsts)))

    def __len__(self) -> int:
        return len(self.firsts)

    @overload
    def __getitem__(self, index: int) -> GlyphWays: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[GlyphWays, ...]: ...

    def __getitem__(self, index: int | slice) -> GlyphWays | tuple[GlyphWays, ...]:
        if isinstance(index, slice):
            return tuple(self._glyph(g) for g in range(len(self.firsts))[index])
        if not -len(self.firsts) <= index < len(self.firsts):
            raise IndexError(index)
        return self._glyph(index % len(self.firsts))

    def __iter__(self) -> Iterator[GlyphWays]:
        return (self._glyph(g) for g in range(len(self.firsts)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GlyphCuts):
            other = other._all()
        return isinstance(other, tuple) and self._all() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"GlyphCuts({self._all()!r})"


def first_way(token: NumberToken) -> tuple[tuple[_group.Box, ...], ...]:
    """Each glyph's first way of the token's `glyph_cuts`, no other way found for it (`GlyphCuts.firsts`)."""
    cuts = token.glyph_cuts
    return cuts.firsts if isinstance(cuts, GlyphCuts) else tuple(tuple(ways[0]) for ways in cuts)
