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

Each block is cut by `_cut_block` into the tokens of `_tokens`. Numbers are grouped along the writing
direction (see `_group`): rows, then dots and wide gaps between numbers, then digits (`_digit_cuts`). A
long, nearly level stroke through the digits marks a crossed-out number; it is erased before the digits
are cut, and the number is kept with `crossed_out` set. A short level stroke reaching past a single
digit on both sides may be a strike or the digit's own bar (a 4's, a crossed 7's): it is erased only
where its number then stands crossed out, as alone as before, and the recogniser has the last word
(`_judge.judged`): a strike carries nothing of the digit, which reads the same, surely, with it and
without it. A struck digit whose strike bridged the space to the number written after it was cut as one
number with it: it is cut off that number for the recogniser to judge, and the one number is put back
when the stroke was the digit's own (`_judge.judged_all`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from sheetscan.vision import _print
from sheetscan.vision._angles import choose_angles, circle_number
from sheetscan.vision._cut_block import cut_block
from sheetscan.vision._digit_cache import DigitCache
from sheetscan.vision._judge import judged_all
from sheetscan.vision._regroup import regroup
from sheetscan.vision._steps import PULKA_STEP, USUAL_STEP
from sheetscan.vision._threads import in_background
from sheetscan.vision._tokens import Lazily, NumberToken, Tokens, ZoneTokens
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
from sheetscan.vision.recognise import NumberReading, Recognizer

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

# Added to the score of a block's usual writing angle (log-confidence units).
_USUAL_BONUS = 0.25
# How many numbers of a block are read at every candidate angle to choose the block's angle.
_SAMPLE = 10
# Zone kinds whose running totals only go up.
_RISING = frozenset({"gora", "whists"})


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
            blocks.append(replace(cut_block(ink, labels, stats, members, zone.index, b,
                                             _candidate_angles(angles), stroke, gap),
                                  rising=rising, steps=steps))
    target = None
    if zones.circle is not None:
        members = np.flatnonzero(owner == CIRCLE) + 1
        target = cut_block(ink, labels, stats, members, CIRCLE, 0, (0, 180, 90, -90), stroke, gap)
    if str(getattr(zones, "layout", "")).startswith("form"):
        # Decision: the blocks' numbers at their usual angle, which finding the form's printed labels cuts
        # in full, are cut half in a second thread first, because each block is cut from the ink alone (its
        # own `Lazily`, read-only arrays) and OpenCV and numpy let go of the GIL in much of it: on a form
        # this cutting was the larger part of the stage, serial. The tokens are the same.
        def cut_in_full(some: list[ZoneTokens]) -> None:
            for block in some:
                numbers = block.candidates[0][1] if block.candidates else ()
                if isinstance(numbers, Lazily):  # any other sequence is already whole
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
    return [replace(b, candidates=tuple((a, Lazily(t for t in numbers if not printed(t)))
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


# --- recognition and the choice of angle -------------------------------------------------------------

def read_numbers(tokens: Tokens, recognizer: Recognizer) -> SheetNumbers:
    """Read every zone's numbers, choosing each block's writing angle by what reads best."""
    blocks = list(tokens.blocks)
    if tokens.target is not None:
        blocks.append(tokens.target)
    # First the angle of every block, then the rest of its numbers at that angle.
    cache = DigitCache(recognizer)
    judged: list[NumberToken] = []
    blocks = [replace(b, candidates=tuple((a, Lazily(judged_all(numbers, cache, judged)))
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
