"""Stage 5 of reading a photo: the written numbers of every zone, in the order they were written.

`find_numbers(ink, zones)` turns each zone's ink into tokens: one image per written number, cut into
digit boxes, for every writing angle the zone may be written at (the zone's own angles and each turned
by 180°, since a sheet is often read from the other side). `read_numbers(tokens, recognizer)` lets
the recogniser decide: for each block of a zone it reads a few numbers at every angle (the other
angles on a peek of three first), keeps the angle whose readings are most confident and run
monotonically (running totals never go back; upside-down totals read backwards and start with zeros;
mountain and whists totals only rise), then reads all the block's numbers at that angle. Last, a
glyph that may be one digit or touching digits, and a number that may be two whose dot was lost, is
read every way where that could change the reading, and each zone's running totals choose
(`_angles`, `_totals`). Every digit crop goes through the recogniser once (`_digit_cache.DigitCache`).

Numbers are grouped along the writing direction (see `_group`): rows, then dots and wide gaps between
numbers, then digits. A long, nearly level stroke through the digits marks a crossed-out number; it
is erased before the digits are cut, and the number is kept with `crossed_out` set. A short level
stroke reaching past a single digit on both sides may be a strike or the digit's own bar (a 4's, a
crossed 7's): it is erased only where its number then stands crossed out, as alone as before, and
the recogniser has the last word (`_judge.judged`): a strike carries nothing of the digit, which reads the
same, surely, with it and without it. A struck digit whose strike bridged the space to the number
written after it was cut as one number with it: it is cut off that number for the recogniser to
judge, and the one number is put back when the stroke was the digit's own (`_judge.judged_all`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import overload

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision import _group, _print, _strikes
from sheetscan.vision._angles import choose_angles, circle_number
from sheetscan.vision._digit_cache import DigitCache
from sheetscan.vision._judge import judged_all
from sheetscan.vision._regroup import regroup
from sheetscan.vision._steps import PULKA_STEP, USUAL_STEP
from sheetscan.vision._threads import in_background
from sheetscan.vision._totals import choose_cuts
from sheetscan.vision._zone_ink import (
    CIRCLE,
    LabelPlace,
    ZonesLike,
    block_members,
    components,
    follow_neighbours,
    label_places,
    line_remnants,
    owners,
    zone_blocks,
)
from sheetscan.vision.ink import Ink
from sheetscan.vision.recognise import NumberImage, NumberReading, Recognizer

__all__ = [
    "CIRCLE",
    "NumberToken",
    "ReadNumber",
    "SheetNumbers",
    "Tokens",
    "ZoneNumbers",
    "ZoneTokens",
    "find_numbers",
    "read_numbers",
]

Mask = npt.NDArray[np.uint8]
Quad = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]

# A glyph wider than this (in digit heights) may be two touching digits: every cut is read.
_AMBIGUOUS_WIDTH = 0.75
# A narrower glyph at least this wide may still be a "1" touching a digit: it is offered the cuts
# that take a "1" off its side.
# Decision: 0.4 digit heights, only the side cuts, because a lone "1" is narrower and the middle cuts
# of narrow single digits read as two digits too often (offering narrow glyphs every cut from 0.6 or
# 0.45 digit heights gave more count errors on the rendered benches), while a "1" run into its digit
# ("11", "14", "17" joined by a serif or a bar) stands out as a stroke at one side.
_EDGE_WIDTH = 0.4
# Two neighbouring glyphs may be pieces of one digit when together they are no wider than this many
# digit heights and their boxes overlap or touch: digits written side by side leave a space, the
# pieces of a broken stroke overlap (a "(" and ")" of a pale 0).
_JOIN_WIDE = 1.0
# A number needs a glyph at least this share of the block's digit height.
_LOWEST_DIGIT = 0.6
# The smallest digit height, as a share of the sheet image's shorter side.
_SMALLEST_DIGIT = 0.008
# Added to the score of a block's usual writing angle (log-confidence units).
_USUAL_BONUS = 0.25
# How many numbers of a block are read at every candidate angle to choose the block's angle.
_SAMPLE = 10
# Zone kinds whose running totals only go up.
_RISING = frozenset({"gora", "whists"})




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
    glyph_cuts: tuple[tuple[tuple[_group.Box, ...], ...], ...] = ()
    """For each glyph, the ways to cut it into digit boxes (in `image` coordinates), the one used in
    `image` first: a wide glyph may be one wide digit or two touching ones."""
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
    numbers are cut as they are asked for (`_Lazily`): most angles are tried on a few numbers only."""
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


@dataclass(frozen=True)
class ReadNumber:
    """A written number with what the recogniser made of it."""

    token: NumberToken
    """Where it is and how it was cut."""
    reading: NumberReading
    """The recogniser's candidates for the whole number and for each digit."""

    @property
    def value(self) -> int | None:
        """The most likely value, or None when the recogniser found nothing it could read."""
        return int(self.reading.candidates[0][0]) if self.reading.candidates else None

    @property
    def confidence(self) -> float:
        """The recogniser's confidence in `value` (0 when there is none)."""
        return float(self.reading.candidates[0][1]) if self.reading.candidates else 0.0


@dataclass(frozen=True)
class ZoneNumbers:
    """The numbers of one zone in the order they were written."""

    zone: int
    """Index of the zone."""
    angles: tuple[int, ...]
    """The writing angle chosen for each block of the zone."""
    numbers: tuple[ReadNumber, ...]
    """Oldest first."""


@dataclass(frozen=True)
class SheetNumbers:
    """Every zone's numbers, and the pulka target from the circle."""

    zones: tuple[ZoneNumbers, ...]
    """In the order of the zones given to `find_numbers`."""
    target: ReadNumber | None
    """The number in the centre circle, if one was found."""


# --- segmentation -------------------------------------------------------------------------------------

def find_numbers(ink: Ink, zones: ZonesLike, *, gap: float = 0.8) -> Tokens:
    """Cut the handwriting of every zone into numbers and digits, at every angle the zone may use.

    Each blob of ink belongs to the zone holding its middle (a digit that strays over a line stays
    whole). `gap` is the widest space, in digit heights, between two digits of one number.
    """
    labels, stats, centroids = components(ink.mask)
    stroke = max(1.0, ink.stroke_width)
    owner = follow_neighbours(owners(labels.shape, centroids[1:], zones), stats[1:], centroids[1:], stroke)
    blocks: list[ZoneTokens] = []
    for zone in zones.zones:
        parts = zone_blocks(zone)
        outline = np.asarray(zone.polygon, dtype=np.float64)
        remnants = line_remnants(labels, stats, np.flatnonzero(owner == zone.index) + 1, outline, stroke)
        owner[remnants - 1] = -2
        split = block_members(owner, zone.index, centroids, [polygon for polygon, _ in parts])
        # Decision: only mountain and whists totals are taken to rise, because LAYOUT.md says some
        # companies count the pulka down; a zone of unknown kind may run either way.
        kind = str(getattr(zone, "kind", ""))
        rising = kind in _RISING
        steps = PULKA_STEP if kind == "pulka" else USUAL_STEP
        for b, ((_, angles), members) in enumerate(zip(parts, split, strict=True)):
            blocks.append(replace(_cut_block(ink, labels, stats, members, zone.index, b,
                                             _candidate_angles(angles), stroke, gap),
                                  rising=rising, steps=steps))
    target = None
    if zones.circle is not None:
        members = np.flatnonzero(owner == CIRCLE) + 1
        target = _cut_block(ink, labels, stats, members, CIRCLE, 0, (0, 180, 90, -90), stroke, gap)
    if str(getattr(zones, "layout", "")).startswith("form"):
        # Decision: the blocks' numbers at their usual angle, which finding the form's printed labels cuts
        # in full, are cut half in a second thread first, because each block is cut from the ink alone (its
        # own `_Lazily`, read-only arrays) and OpenCV and numpy let go of the GIL in much of it: on a form
        # this cutting was the larger part of the stage, serial. The tokens are the same.
        def cut_in_full(some: list[ZoneTokens]) -> None:
            for block in some:
                numbers = block.candidates[0][1] if block.candidates else ()
                if isinstance(numbers, _Lazily):  # any other sequence is already whole
                    numbers.cut_all()

        aside = in_background(lambda: cut_in_full(blocks[1::2]))
        cut_in_full(blocks[::2])
        aside.result()
        blocks = _without_print(blocks, label_places(zones))
    return Tokens(blocks=tuple(blocks), target=target)


def _without_print(blocks: list[ZoneTokens], labels: dict[int, LabelPlace]) -> list[ZoneTokens]:
    """The blocks without the form's printed labels (`_print.printed`)."""
    printed = _print.printed([t for b in blocks for t in b.candidates[0][1]], labels) if blocks else None
    if printed is None:
        return blocks
    return [replace(b, candidates=tuple((a, _Lazily(t for t in numbers if not printed(t)))
                                        for a, numbers in b.candidates)) for b in blocks]


def _candidate_angles(angles: Sequence[float]) -> tuple[int, ...]:
    """The zone's writing angles and each turned by 180°, as multiples of 90, usual first, no repeats:
    its own angles, then the same turned in the same order (`_angles._turned` knows the turned ones
    by that order, to read a sheet's blocks turned together or not at all)."""
    out: list[int] = []
    base = [round(a / 90.0) * 90 for a in angles] or [0]
    for angle in base + [a + 180 for a in base]:
        normal = ((angle + 180) % 360) - 180  # -180 … 179
        normal = 180 if normal == -180 else normal
        if normal not in out:
            out.append(normal)
    return tuple(out)


def _cut_block(ink: Ink, labels: npt.NDArray[np.int32], stats: npt.NDArray[np.int32],
               members: npt.NDArray[np.int64], zone: int, block: int, angles: tuple[int, ...],
               stroke: float, gap: float) -> ZoneTokens:
    """The block's numbers at every candidate angle."""
    if members.size == 0:
        return ZoneTokens(zone=zone, block=block, candidates=tuple((a, ()) for a in angles))
    x0 = int(stats[members, cv2.CC_STAT_LEFT].min())
    y0 = int(stats[members, cv2.CC_STAT_TOP].min())
    x1 = int((stats[members, cv2.CC_STAT_LEFT] + stats[members, cv2.CC_STAT_WIDTH]).max())
    y1 = int((stats[members, cv2.CC_STAT_TOP] + stats[members, cv2.CC_STAT_HEIGHT]).max())
    own = _of_labels(labels[y0:y1, x0:x1], members, len(stats)) > 0
    mask = np.where(own, 255, 0).astype(np.uint8)
    strength = np.where(own, ink.strength[y0:y1, x0:x1], 0).astype(np.uint8)
    # The blobs are found once; each angle turns them (labels and boxes) rather than finding them again.
    blob_labels, blob_stats, _ = components(mask)
    candidates: list[tuple[int, Sequence[NumberToken]]] = []
    for angle in angles:
        numbers = _cut_at_angle(mask, strength, angle, (x0, y0), zone, stroke, gap, ink.mask.shape,
                                (blob_labels, blob_stats))
        candidates.append((angle, _Lazily(numbers)))
    return ZoneTokens(zone=zone, block=block, candidates=tuple(candidates))


class _Lazily(Sequence[NumberToken]):
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


def _cut_at_angle(mask: Mask, strength: Mask, angle: int, origin: tuple[int, int], zone: int,
                  stroke: float, gap: float, shape: tuple[int, ...],
                  found: tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]) -> Iterator[NumberToken]:
    """The numbers of one block's ink turned so that writing at `angle` reads normally, one by one as
    they are asked for; `found`: the labels and statistics of the blobs of `mask` unturned."""
    turns = (angle // 90) % 4
    turned = np.ascontiguousarray(np.rot90(mask, turns))
    turned_strength = np.ascontiguousarray(np.rot90(strength, turns))
    labels = np.ascontiguousarray(np.rot90(found[0], turns))
    stats = _turn_stats(found[1], turns, mask.shape)
    blobs = _group.blobs_of(stats)
    # Nothing smaller than this is a digit: a few pen widths, and a little of the sheet.
    least = max(2.5 * stroke, _SMALLEST_DIGIT * min(shape[:2]))
    height = _group.digit_height(blobs, least=least)
    lines = _two_lines(turned, labels, blobs, height)
    if lines is not None:
        turned, labels, stats, blobs = lines
        height = _group.digit_height(blobs, least=least)
    strikes = _strikes.find_strikes(turned, blobs, height=height, stroke=stroke)
    short = _strikes.find_short_strikes(turned, blobs, height=height, stroke=stroke)
    unstruck = turned
    if strikes:
        turned, labels, stats, blobs = _erased(turned, strikes, stroke)
    groups = _group.group_numbers(blobs, height=height, stroke=stroke, gap=gap)
    width = _group.typical_width(groups, height=height)
    base = (groups, turned, labels, len(stats))
    if short:
        # The spaces between digits stay the writer's as measured on the unstruck ink: erasing a strike
        # narrows its digit and would move them for the whole zone.
        space = _group.digit_space(blobs, height=height, stroke=stroke, gap=gap)
        kept = short
        for _ in range(3):
            tried = _erased(unstruck, strikes + [s for each in kept for s in each], stroke)
            # (Not split after a struck digit, as after a long strike: a short one may be the digit's own
            # bar, and its number must stay whole for `_alone` and `_leading` to judge it.)
            tried_groups = _group.group_numbers(tried[3], height=height, stroke=stroke, gap=gap, widest=space,
                                                struck_apart=False)
            # A short strike stays only where the number it falls in is crossed out; elsewhere it was a
            # digit's own bar (a 4's, a crossed 7's) and the digit keeps it. Leaving one out may regroup
            # the others: again until every one left crosses its number out.
            # And only where the number stood alone before, or first in the number it was run into (its
            # strike bridged the space to the number written after it): the recogniser judges the
            # struck digits alone and, when the stroke was a digit's own (a 4's bar that cut it off
            # from its 0), puts the one number back (`_judge.judged_all`).
            crossing = [each for each in kept if any(
                g.crossed and _inside(each[0], g.box)
                and (_alone(g, tried_groups, groups, height) or _leading(g, tried_groups, groups, height))
                for g in tried_groups)]
            if len(crossing) == len(kept):
                break
            kept = crossing
        if kept and len(crossing) == len(kept):
            (turned, labels, stats, blobs), groups = tried, tried_groups

    def token_of(group: _group.Group, ink: Mask, labels: npt.NDArray[np.int32],
                 count: int) -> NumberToken | None:
        image = _number_image(group, ink, turned_strength, labels, count, height, width)
        if image is None:
            return None
        crop, options, joins, (bx, by, bw, bh) = image
        corners = [(bx, by), (bx + bw, by), (bx + bw, by + bh), (bx, by + bh)]
        quad = tuple(_unturn(p, turns, mask.shape, origin) for p in corners)
        boxes = tuple(box for glyph in options for box in glyph[0])
        cuts = tuple(tuple(tuple(option) for option in glyph) for glyph in options)
        return NumberToken(zone=zone, angle=angle, row=group.row, quad=quad,  # type: ignore[arg-type]
                           image=NumberImage(gray=crop, digit_boxes=boxes), glyph_cuts=cuts,
                           crossed_out=group.crossed, digit_size=(height, width), glyph_joins=joins)

    bundles: dict[int, int] = {}  # id of a group cut off by a short strike -> its bundle
    for group in groups:
        if not _tall(group, height) and not group.crossed:
            continue  # no digit in it stands as tall as a digit: a bit of line, a smudge
        plain = whole = None
        bundle = bundles.get(id(group), -1)
        if group.crossed and groups is not base[0] and not any(_inside(s, group.box) for s in strikes):
            # Crossed out by short strikes only: the number as it was cut before they were looked for
            # is kept for the recogniser to judge (`_judge.judged`).
            written = _alone(group, groups, base[0], height)
            plain = token_of(written, *base[1:]) if written is not None else None
            lead = _leading(group, groups, base[0], height) if written is None else None
            if lead is not None:
                # Judged on the struck digits alone, the strike left in; the one number is kept.
                piece, number, after = lead
                plain, whole = token_of(piece, *base[1:]), token_of(number, *base[1:])
                bundle = len(bundles)
                bundles.update((id(g), bundle) for g in after)
        token = token_of(group, turned, labels, len(stats))
        if token is not None:
            if plain is not None:
                token = replace(token, unstruck=plain, whole=whole)
            yield token if bundle < 0 else replace(token, bundle=bundle)


def _two_lines(mask: Mask, labels: npt.NDArray[np.int32], blobs: list[_group.Blob], height: float
               ) -> tuple[Mask, npt.NDArray[np.int32], npt.NDArray[np.int32], list[_group.Blob]] | None:
    """`mask` with every blob that is two lines of writing joined (`_group.line_cut`) cut apart along
    the writing, its labels, statistics and blobs; None when no blob is (the usual case: nothing is
    found again)."""
    cuts = []
    for blob in blobs:
        if blob.h < 1.5 * height:
            continue
        piece = labels[blob.y:blob.bottom, blob.x:blob.right] == blob.label
        row = _group.line_cut(piece, height=height)
        if row is not None:
            cuts.append((blob, row, piece[row]))
    if not cuts:
        return None
    cut = mask.copy()
    for blob, row, ink in cuts:
        cut[blob.y + row, blob.x:blob.right][ink] = 0
    cut_labels, stats, _ = components(cut)
    return cut, cut_labels, stats, _group.blobs_of(stats)


def _erased(mask: Mask, strikes: list[_group.Box], stroke: float
            ) -> tuple[Mask, npt.NDArray[np.int32], npt.NDArray[np.int32], list[_group.Blob]]:
    """`mask` with the strikes taken out, its labels and statistics, and its blobs (those a strike ran
    through marked crossed)."""
    erased = _strikes.erase_strikes(mask, strikes, stroke=stroke)
    labels, stats, _ = components(erased)
    blobs = _group.blobs_of(stats)
    crossed = frozenset(b.label for b in blobs if _strikes.crossed_by(b, strikes, stroke=stroke))
    return erased, labels, stats, _group.blobs_of(stats, crossed=crossed)


def _alone(group: _group.Group, groups: list[_group.Group], before: list[_group.Group],
           height: float) -> _group.Group | None:
    """The number of `before` that holds the middle of `group` (one of `groups`) and all its glyphs,
    when it holds no other number of `groups` that stands as tall as a digit: the same number, cut
    both ways."""
    holding = _holding(group, before)
    if holding is None:
        return None
    others = (g for g in groups if g is not group and _tall(g, height))
    return None if any(_inside(_middle(g.box), holding.box) for g in others) else holding


def _leading(group: _group.Group, groups: list[_group.Group], before: list[_group.Group],
             height: float) -> tuple[_group.Group, _group.Group, list[_group.Group]] | None:
    """When `group` (one of `groups`) is the first of several numbers of `groups` that were one number
    of `before` (a struck digit run into the number written after it): the glyphs of that number
    that lie in `group` (the struck digits, the strike left in), the number, and the numbers of
    `groups` after `group` in it. Every glyph of the number lies in one of them."""
    number = _holding(group, before)
    if number is None:
        return None
    inside = [g for g in groups if _inside(_middle(g.box), number.box)]
    if len(inside) < 2 or inside[0] is not group or not all(_tall(g, height) for g in inside[1:]):
        return None
    piece = tuple(glyph for glyph in number.glyphs if _inside(_middle(glyph.box), group.box))
    rest = [glyph for glyph in number.glyphs if glyph not in piece]
    if not piece or not rest or not all(any(_inside(_middle(glyph.box), g.box) for g in inside[1:])
                                        for glyph in rest):
        return None
    return _group.Group(glyphs=piece, row=number.row), number, inside[1:]


def _holding(group: _group.Group, before: list[_group.Group]) -> _group.Group | None:
    """The first number of `before` that holds the middle of `group` and of all its glyphs, or None."""
    holding = [g for g in before if _inside(_middle(group.box), g.box)]
    if not holding or not all(_inside(_middle(glyph.box), holding[0].box) for glyph in group.glyphs):
        return None
    return holding[0]


def _tall(group: _group.Group, height: float) -> bool:
    """Whether a glyph of the group stands as tall as a digit."""
    return any(g.box[3] >= _LOWEST_DIGIT * height for g in group.glyphs)


def _middle(thing: _group.Box | _group.Blob) -> _group.Box:
    """The middle of a box (x, y, w, h) or a blob, as a segment of no length."""
    x, y, w, h = (thing.x, thing.y, thing.w, thing.h) if isinstance(thing, _group.Blob) else thing
    return x + w // 2, y + h // 2, x + w // 2, y + h // 2


def _inside(segment: _group.Box, box: _group.Box) -> bool:
    """Whether the middle of a segment (x0, y0, x1, y1) lies in a box (x, y, w, h)."""
    mx, my = (segment[0] + segment[2]) / 2, (segment[1] + segment[3]) / 2
    return box[0] <= mx <= box[0] + box[2] and box[1] <= my <= box[1] + box[3]


Cuts = list[list[list[_group.Box]]]
Joins = tuple[tuple[int, _group.Box], ...]


def _number_image(group: _group.Group, mask: Mask, strength: Mask, labels: npt.NDArray[np.int32], count: int,
                  height: float, width: float) -> tuple[Mask, Cuts, Joins, _group.Box] | None:
    """The number's own ink (other numbers' ink blanked) with a margin; for each glyph its ways to
    be cut into digits: the likeliest first, then the other when the glyph could be one wide digit or
    two touching ones (the recogniser decides between them); and the neighbouring glyphs that could be
    pieces of one digit (`NumberToken.glyph_joins`). `count`: how many labels `labels` has (the
    background's included)."""
    x, y, w, h = group.box
    margin = max(2, round(0.15 * height))
    cx0, cy0 = max(0, x - margin), max(0, y - margin)
    cx1, cy1 = min(mask.shape[1], x + w + margin), min(mask.shape[0], y + h + margin)
    own = _of_labels(labels[cy0:cy1, cx0:cx1], list(group.labels), count)
    # Keep the soft edge of the strokes (below the ink threshold) for a natural grey digit.
    own = np.asarray(cv2.dilate(own, np.ones((3, 3), np.uint8)), dtype=np.uint8)
    crop = np.where(own > 0, strength[cy0:cy1, cx0:cx1], 0).astype(np.uint8)

    def shifted(boxes: list[_group.Box]) -> list[_group.Box]:
        return [(bx - cx0, by - cy0, bw, bh) for bx, by, bw, bh in boxes]

    options: list[list[list[_group.Box]]] = []
    for g, glyph in enumerate(group.glyphs):
        cuts = _group.cut_options(glyph, mask, height=height, width=width, narrowest=_AMBIGUOUS_WIDTH,
                                    edges=_EDGE_WIDTH, leading=g == 0)
        options.append([shifted(cut) for cut in cuts])
    if not options:
        return None
    joins: list[tuple[int, _group.Box]] = []
    for g, (a, b) in enumerate(itertools.pairwise(group.glyphs)):
        (ax, ay, aw, ah), (bx, by, bw, bh) = a.box, b.box
        left, right = min(ax, bx), max(ax + aw, bx + bw)
        if bx <= ax + aw and right - left <= _JOIN_WIDE * height:
            top, bottom = min(ay, by), max(ay + ah, by + bh)
            joins.append((g, shifted([(left, top, right - left, bottom - top)])[0]))
    return crop, options, tuple(joins), (x, y, w, h)


def _of_labels(labels: npt.NDArray[np.int32], chosen: Sequence[int] | npt.NDArray[np.int64],
               count: int) -> Mask:
    """1 where `labels` is one of the `chosen` labels, else 0 (`count`: labels in all, background
    included); a table lookup, much faster than `np.isin` on a label image."""
    lookup = np.zeros(count, dtype=np.uint8)
    lookup[chosen] = 1
    return lookup[labels]


def _turn_stats(stats: npt.NDArray[np.int32], turns: int, shape: tuple[int, ...]) -> npt.NDArray[np.int32]:
    """Blob statistics (x, y, w, h, area) of an image of `shape` after `np.rot90(image, turns)`: each
    turn takes a box (x, y, w, h) of an image W wide to (y, W − x − w, h, w)."""
    out = stats.copy()
    width = shape[1]
    for turn in range(turns):
        x, y, w, h = (out[:, i].copy() for i in range(4))
        out[:, 0], out[:, 1], out[:, 2], out[:, 3] = y, width - x - w, h, w
        width = shape[0] if turn % 2 == 0 else shape[1]
    return out


def _unturn(point: tuple[float, float], turns: int, shape: tuple[int, ...],
            origin: tuple[int, int]) -> tuple[float, float]:
    """A point of the turned block image back on the upright sheet.

    `np.rot90(a, 1)` takes pixel edge (x, y) of an image W wide to (y, W − x); undoing it gives
    (W − y, x). The turns are undone last first, each with the width the image had before it.
    """
    height, width = shape[:2]
    x, y = point
    for done in range(turns - 1, -1, -1):
        before = width if done % 2 == 0 else height
        x, y = before - y, x
    return (x + origin[0], y + origin[1])


# --- recognition and the choice of angle -------------------------------------------------------------

def read_numbers(tokens: Tokens, recognizer: Recognizer) -> SheetNumbers:
    """Read every zone's numbers, choosing each block's writing angle by what reads best."""
    blocks = list(tokens.blocks)
    if tokens.target is not None:
        blocks.append(tokens.target)
    # First the angle of every block, then the rest of its numbers at that angle.
    cache = DigitCache(recognizer)
    judged: list[NumberToken] = []
    blocks = [replace(b, candidates=tuple((a, _Lazily(judged_all(numbers, cache, judged)))
                                          for a, numbers in b.candidates)) for b in blocks]
    chosen = choose_angles([(b.candidates, b.rising) for b in blocks], cache, sample=_SAMPLE,
                           bonus=_USUAL_BONUS)
    if tokens.target is not None:
        chosen[-1] = circle_number(tokens.target.candidates, chosen[-1], cache)
    every = [t for _, numbers in chosen for t in numbers]
    readings = dict(zip(map(id, every), cache.read(every), strict=True))
    # Third pass: numbers with glyphs that could be cut more than one way are read every way, and
    # each zone's running totals choose among the ways and the readings' candidates (`choose_cuts`).
    sequences: dict[int, list[NumberToken]] = {}
    rises: dict[int, bool] = {}
    for block, (_, numbers) in zip(blocks, chosen, strict=True):
        key = block.zone if block.zone != CIRCLE else -10 - len(sequences)
        sequences.setdefault(key, []).extend(numbers)
        rises[key] = block.rising
    zone_sequences = [(key >= 0, rises[key], numbers) for key, numbers in sequences.items()]
    # A digit that landed in the neighbouring number (their dot lost) moves back (`regroup`).
    parts = choose_cuts(recognizer, zone_sequences, readings, cache=cache, moves=regroup,
                        steps={block.zone: block.steps for block in blocks if block.zone != CIRCLE})
    by_zone: dict[int, tuple[list[int], list[ReadNumber]]] = {}
    target: ReadNumber | None = None
    for block, (angle, numbers) in zip(blocks, chosen, strict=True):
        read = [ReadNumber(token=token, reading=reading) for t in numbers
                for token, reading in parts.get(id(t), ((t, readings[id(t)]),))]
        if block.zone == CIRCLE:
            target = max(read, key=lambda r: r.confidence * r.token.image.gray.size, default=None)
            continue
        angles, zone_numbers = by_zone.setdefault(block.zone, ([], []))
        angles.append(angle)
        zone_numbers.extend(read)
    zones = tuple(ZoneNumbers(zone=z, angles=tuple(a), numbers=tuple(n)) for z, (a, n) in by_zone.items())
    return SheetNumbers(zones=zones, target=target)
