"""The number stage's zones read in two threads at once (`read_in_two`), the same as read together."""

from __future__ import annotations

import cv2
import numpy as np

from sheetscan.vision._threads import in_background
from sheetscan.vision.ink import Ink
from sheetscan.vision.numbers import CIRCLE, SheetNumbers, Tokens, read_numbers
from sheetscan.vision.recognise import Recognizer
from sheetscan.vision.zones import SheetZones

__all__ = ["read_in_two"]


def read_in_two(tokens: Tokens, reader: Recognizer, ink: Ink, zones: SheetZones) -> SheetNumbers:
    """`read_numbers(tokens, reader)`, its zones shared between this thread and a second one.

    Decision: the number stage reads each zone apart from the others (its cuts and its running totals
    are the zone's own; the reads are batched together only to save network calls) and a digit crop
    reads the same in any batch (`DigitCache`), so two halves of the zones are read at once: while one
    thread cuts numbers in Python, the other's network (cv2.dnn lets go of the GIL) and cutting run on
    the second core. The one thing the zones share is whether the sheet reads the usual way up
    (`_angles._upright`, a vote of its blocks): each half takes it over its own zones, which is the
    same vote unless the zones disagree (of 64 cached bench photos, one differed: jpeg 11005, whose
    zones the zone stage had mislabelled). Otherwise the result is the same as reading them together.
    Only a recogniser that reads digit by digit is shared so: any other (a scripted one) reads whole
    numbers in the order it is given them.
    """
    order = list(dict.fromkeys(block.zone for block in tokens.blocks))
    if not getattr(reader, "reads_by_digit", False) or len(order) < 2:
        return read_numbers(tokens, reader)
    weight = _zone_weights(ink, zones)
    halves: tuple[set[int], set[int]] = (set(), set())
    # The circle's number is read with this thread's half; then the heaviest zone first, each to the
    # lighter half.
    loads = [weight.get(CIRCLE, 0) if tokens.target is not None else 0, 0]
    for zone in sorted(order, key=lambda z: (-weight.get(z, 0), z)):
        lighter = 0 if loads[0] <= loads[1] else 1
        halves[lighter].add(zone)
        loads[lighter] += weight.get(zone, 0)
    aside = Tokens(blocks=tuple(b for b in tokens.blocks if b.zone in halves[1]), target=None)
    job = in_background(lambda: read_numbers(aside, reader))
    mine = read_numbers(Tokens(blocks=tuple(b for b in tokens.blocks if b.zone in halves[0]),
                               target=tokens.target), reader)
    found = {z.zone: z for z in mine.zones + job.result().zones}
    return SheetNumbers(zones=tuple(found[z] for z in order if z in found), target=mine.target)


def _zone_weights(ink: Ink, zones: SheetZones) -> dict[int, int]:
    """How much handwriting each zone holds (pixels), and the circle (`CIRCLE`): how long its numbers take
    to read, near enough to share the zones between two threads."""
    height, width = ink.mask.shape[:2]
    out = {}
    for zone in zones.zones:
        points = np.round(np.asarray(zone.polygon, dtype=np.float64).reshape(-1, 2)).astype(np.int32)
        x0, y0 = np.clip(points.min(axis=0), 0, (width, height))
        x1, y1 = np.clip(points.max(axis=0) + 1, 0, (width, height))
        if x1 <= x0 or y1 <= y0:
            out[zone.index] = 0
            continue
        # (Only the zone's box is drawn and counted: a zone is a small part of the sheet.)
        inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(inside, [points - np.array([x0, y0], np.int32)], 255)
        out[zone.index] = cv2.countNonZero(cv2.bitwise_and(inside, ink.mask[y0:y1, x0:x1]))
    if zones.circle is not None:
        cx, cy, r = zones.circle
        x0, y0 = max(0, int(cx - r)), max(0, int(cy - r))
        x1, y1 = min(width, int(cx + r) + 1), min(height, int(cy + r) + 1)
        out[CIRCLE] = cv2.countNonZero(ink.mask[y0:y1, x0:x1]) if x1 > x0 and y1 > y0 else 0
    return out
