"""Reading a photo of a pulka sheet, start to finish: `scan()` is the whole recipe (STYLE.md §2).

photo → rectified sheet → zones → ink → tokens → number readings → sheet reading → settlement.
Each stage is `verb_noun(input, *, options) -> frozen dataclass`; data moves forward only.
`scan_to_json` writes the result as FORMATS.md "Scan result — sheetscan.scan/1".
"""

from __future__ import annotations

import ctypes
from concurrent.futures import Future
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from sheetscan.vision import _scan_debug
from sheetscan.vision._arrays import U8
from sheetscan.vision._reading import SheetReading, read_sheet_numbers, settle_reading
from sheetscan.vision._scan_json import scan_json
from sheetscan.vision._threads import in_background
from sheetscan.vision.ink import Ink, InkStrength, find_ink, ink_strength
from sheetscan.vision.numbers import CIRCLE, SheetNumbers, Tokens, find_numbers, read_numbers
from sheetscan.vision.photo import Photo, load_photo
from sheetscan.vision.recognise import Recognizer, find_recognizer
from sheetscan.vision.sheet import RectifiedSheet, find_sheet
from sheetscan.vision.zones import SheetZones, locate_zones

__all__ = ["SCAN_FORMAT", "ScanResult", "scan", "scan_to_json"]

SCAN_FORMAT = "sheetscan.scan/1"
"""The format tag of a scan result."""


@dataclass(frozen=True)
class ScanResult:
    """Everything read from one photo, stage by stage."""

    photo: Photo
    """The decoded photo (all coordinates in the JSON refer to its pixels)."""
    sheet: RectifiedSheet
    """The sheet found in it, seen straight on."""
    zones: SheetZones
    """The layout, the rotation and every zone's outline."""
    ink: Ink
    """The handwriting on the upright sheet."""
    numbers: SheetNumbers
    """Every written number with its readings, zone by zone, and the pulka target."""
    reading: SheetReading
    """The sheet as read (`sheetscan.sheet/1`), and whether it is complete."""
    settlement: dict[str, Any] | None
    """The settlement of the read sheet (`sheetscan.settlement/1`) when it is complete, else None."""


def scan(
    source: str | Path | bytes,
    *,
    variant: str | None = None,
    players: int | None = None,
    recognizer: str | Recognizer = "cnn",
    debug_dir: str | Path | None = None,
) -> ScanResult:
    """Read every number on the photographed sheet in `source` (a path or the file's bytes).

    `variant` names the rules the sheet was kept by (for the sheet and its settlement), `players`
    says 3 or 4 when known, `recognizer` is `cnn`, `tesseract` or a `Recognizer`, and `debug_dir`
    receives one numbered image per stage. Raises `UnreadableImageError` (not a photo we can read)
    or `NoSheetError` (no sheet in it).
    """
    reader = find_recognizer(recognizer) if isinstance(recognizer, str) else recognizer
    _hold_freed_memory()
    photo = load_photo(source)
    _scan_debug.photo(debug_dir, photo)
    sheet = find_sheet(photo, debug=debug_dir)
    # Decision: the ink's strength is measured in a second thread as soon as the sheet's rotation is known,
    # while the zone stage traces the lines, because it needs nothing else and OpenCV and numpy let go of
    # the GIL: two cores share the work, and the result is the same.
    early: list[tuple[U8, Future[InkStrength]]] = []

    def start_ink(upright: U8) -> None:
        early.append((upright, in_background(lambda: ink_strength(upright))))

    zones = locate_zones(sheet, players=players, debug=debug_dir, on_upright=start_ink)
    # (Taken only when measured on the very image the zones hold.)
    prepared = next((job.result() for upright, job in early if upright is zones.image), None)
    ink = find_ink(zones.image, line_mask=zones.line_mask, prepared=prepared)
    _scan_debug.ink(debug_dir, ink)
    tokens = find_numbers(ink, zones)
    numbers = _read_in_two(tokens, reader, ink, zones)
    _scan_debug.numbers(debug_dir, zones, numbers)
    reading = read_sheet_numbers(numbers, zones, variant=variant, form=sheet.form,
                                 partial=sheet.partial or zones.partial)
    settlement = settle_reading(reading)
    return ScanResult(photo=photo, sheet=sheet, zones=zones, ink=ink, numbers=numbers, reading=reading,
                      settlement=settlement)


@cache
def _hold_freed_memory() -> bool:
    """Let the C allocator keep what a scan frees for the next big image, once a process; False where it
    cannot be told (not glibc).

    Decision: images up to 64 MB (a 12 MP photo is 36 MB) come from the heap, and up to 128 MB of freed
    memory stays with the process, because glibc by default gives every image over 32 MB (and, after
    trimming, many smaller ones) fresh pages from the system, each page faulted in on first touch: about
    19000 page faults a 12 MP photo, a tenth of the scan's CPU spent in the kernel (bench seed 1000, 8
    photos, sys 0.11 -> 0.05 s and CPU 1.24 -> 1.16 s a photo, loaded machine). The price: the process
    holds ~100 MB more between scans (peak the same, ~410 MB).
    """
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, 64 << 20) == 1 and mallopt(_M_TRIM_THRESHOLD, 128 << 20) == 1)


_M_TRIM_THRESHOLD = -1  # glibc's <malloc.h>
_M_MMAP_THRESHOLD = -3


def _read_in_two(tokens: Tokens, reader: Recognizer, ink: Ink, zones: SheetZones) -> SheetNumbers:
    """`read_numbers(tokens, reader)`, its zones shared between this thread and a second one.

    Decision: the number stage reads each zone apart from the others (its angles, its cuts and its
    running totals are the zone's own; the reads are batched together only to save network calls) and
    a digit crop reads the same in any batch (`DigitCache`), so two halves of the zones are read at
    once: while one thread cuts numbers in Python, the other's network (cv2.dnn lets go of the GIL)
    and cutting run on the second core. The result is the same as reading them all together.
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


def scan_to_json(result: ScanResult) -> dict[str, Any]:
    """The scan result as FORMATS.md "sheetscan.scan/1" (coordinates in the photo's pixels)."""
    return scan_json(result, SCAN_FORMAT)
