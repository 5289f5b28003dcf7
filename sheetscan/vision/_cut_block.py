"""Cutting one block of a zone's ink into number tokens, at each angle it may be written at.

`cut_block` turns the block's ink so that writing at each candidate angle reads normally and cuts it,
number by number as they are asked for (`_tokens.Lazily`): blobs that are two lines of writing joined
are cut apart (`_group.line_cut`); long strikes are erased and their numbers kept crossed out; short
strikes are erased only where their number then stands crossed out (`_strikes`), the number as
written kept beside it for the recogniser to judge (`_judge`); the blobs are grouped into numbers and
glyphs (`_group`), and each glyph is offered its ways to be cut into digits (`_digit_cuts`). Each
token's box is mapped back onto the upright sheet.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.vision import _digit_cuts, _group, _strikes
from sheetscan.vision._tokens import GlyphCuts, Lazily, NumberToken, ZoneTokens
from sheetscan.vision._zone_ink import components
from sheetscan.vision.ink import Ink
from sheetscan.vision.recognise import NumberImage

Mask = npt.NDArray[np.uint8]

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
# digit heights and their boxes overlap, touch or stand at most `_JOIN_GAP` apart: digits written side
# by side leave a space, the pieces of a broken stroke overlap (a "(" and ")" of a pale 0).
_JOIN_WIDE = 1.0
# Decision: two glyphs up to 0.1 digit heights apart (about a stroke's width) may be pieces of one
# digit too, because a digit drawn in two strokes (a 4's arm and its stem, a 5's flag, a 7's bar) or
# a stroke the ink lost a sliver of is split by a hair's space, not overlapping ("14" whose 4's arm and
# stem stand 2 px apart at 49 px digits read "1", "11": motion 21001); the joined way competes like any
# other (`_totals.cut_ways`) and is read only for numbers that are unsure or out of step.
_JOIN_GAP = 0.1
# Two glyphs apart (not overlapping or touching) are joined only when one of them stands lower than this
# share of the digit height. Decision: because a piece of a broken digit (a 4's arm, a 5's flag) stands
# lower than a whole digit, while two digits written a hair apart each stand as tall as one: the two
# "1"s of an "11" 2 px apart (bench 1004, 36 and 29 px at 36 px digits) were read joined as one digit.
_JOIN_PIECE = 0.7
# A number needs a glyph at least this share of the block's digit height.
_LOWEST_DIGIT = 0.6
# The smallest digit height, as a share of the sheet image's shorter side.
_SMALLEST_DIGIT = 0.008


def cut_block(ink: Ink, labels: npt.NDArray[np.int32], stats: npt.NDArray[np.int32],
               members: npt.NDArray[np.int64], zone: int, block: int, angles: tuple[int, ...],
               stroke: float, gap: float) -> ZoneTokens:
    """The block's numbers (its blobs: `members` of `labels`) at every candidate angle, each cut as
    it is asked for; `gap`: the widest space, in digit heights, between two digits of one number."""
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
        candidates.append((angle, Lazily(numbers)))
    return ZoneTokens(zone=zone, block=block, candidates=tuple(candidates))


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
        crop, cuts, joins, (bx, by, bw, bh) = image
        corners = [(bx, by), (bx + bw, by), (bx + bw, by + bh), (bx, by + bh)]
        quad = tuple(_unturn(p, turns, mask.shape, origin) for p in corners)
        boxes = tuple(box for first in cuts.firsts for box in first)
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


Joins = tuple[tuple[int, _group.Box], ...]


def _number_image(group: _group.Group, mask: Mask, strength: Mask, labels: npt.NDArray[np.int32], count: int,
                  height: float, width: float
                  ) -> tuple[Mask, GlyphCuts, Joins, _group.Box] | None:
    """The number's own ink (other numbers' ink blanked) with a margin; for each glyph its ways to be
    cut into digits (`GlyphCuts`: its first known, the others found when asked for): the likeliest first,
    then the other when the glyph could be one wide digit or two touching ones (the recogniser decides
    between them); and the neighbouring glyphs that could be pieces of one digit
    (`NumberToken.glyph_joins`). `count`: how many labels `labels` has (the background's included)."""
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

    if not group.glyphs:
        return None
    # (`cut_options`' first way is `digit_boxes`' cut, found alone here.)
    firsts = [shifted(_digit_cuts.digit_boxes(glyph, mask, height=height, width=width))
              for glyph in group.glyphs]

    def ways_of(g: int) -> tuple[tuple[_group.Box, ...], ...]:
        glyph = group.glyphs[g]
        # Decision: a glyph after one that ends in a dot touching its foot leads a number too
        # (`_group.ink_end`), and is offered a "1" and two more digits, because the dot ends the number
        # before it (bench 1003: "128.153" one token, the 1 of 153 leaning into the 5).
        leading = g == 0 or _group.ends_in_dot(crop, (shifted([group.glyphs[g - 1].box])[0],), height=height)
        cuts = _digit_cuts.cut_options(glyph, mask, height=height, width=width, narrowest=_AMBIGUOUS_WIDTH,
                                       edges=_EDGE_WIDTH, leading=leading)
        return tuple(tuple(shifted(cut)) for cut in cuts)

    joins: list[tuple[int, _group.Box]] = []
    for g, (a, b) in enumerate(itertools.pairwise(group.glyphs)):
        (ax, ay, aw, ah), (bx, by, bw, bh) = a.box, b.box
        left, right = min(ax, bx), max(ax + aw, bx + bw)
        apart = bx > ax + aw
        if (bx - (ax + aw) <= _JOIN_GAP * height and right - left <= _JOIN_WIDE * height
                and (not apart or min(ah, bh) < _JOIN_PIECE * height)):
            top, bottom = min(ay, by), max(ay + ah, by + bh)
            joins.append((g, shifted([(left, top, right - left, bottom - top)])[0]))
    return crop, GlyphCuts(firsts, ways_of), tuple(joins), (x, y, w, h)


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
