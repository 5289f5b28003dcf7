"""Reading a photo of a pulka sheet, start to finish: `scan()` is the whole recipe (STYLE.md §2).

photo → rectified sheet → zones → ink → tokens → number readings → sheet reading → settlement.
Each stage is `verb_noun(input, *, options) -> frozen dataclass`; data moves forward only.
`scan_to_json` writes the result as FORMATS.md "Scan result — sheetscan.scan/1".
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sheetscan.vision import _scan_debug
from sheetscan.vision._arrays import U8
from sheetscan.vision._halves import read_in_two
from sheetscan.vision._memory import collector_paused, hold_freed_memory
from sheetscan.vision._reading import SheetReading, read_sheet_numbers, settle_reading
from sheetscan.vision._scan_json import scan_json
from sheetscan.vision._threads import in_background
from sheetscan.vision.ink import Ink, InkStrength, find_ink, ink_strength
from sheetscan.vision.numbers import SheetNumbers, find_numbers
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
    hold_freed_memory()
    with collector_paused():
        return _scan(source, variant=variant, players=players, reader=reader, debug_dir=debug_dir)


def _scan(source: str | Path | bytes, *, variant: str | None, players: int | None, reader: Recognizer,
          debug_dir: str | Path | None) -> ScanResult:
    """`scan()` with the recogniser found."""
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
    # (Taken only when measured on the very image the zones hold; waited for inside, once the drawn lines
    # are measured.)
    prepared = next((job for upright, job in early if upright is zones.image), None)
    ink = find_ink(zones.image, line_mask=zones.line_mask, prepared=prepared)
    _scan_debug.ink(debug_dir, ink)
    tokens = find_numbers(ink, zones)
    numbers = read_in_two(tokens, reader, ink, zones)
    _scan_debug.numbers(debug_dir, zones, numbers)
    reading = read_sheet_numbers(numbers, zones, variant=variant, form=sheet.form,
                                 partial=sheet.partial or zones.partial)
    settlement = settle_reading(reading)
    return ScanResult(photo=photo, sheet=sheet, zones=zones, ink=ink, numbers=numbers, reading=reading,
                      settlement=settlement)


def scan_to_json(result: ScanResult) -> dict[str, Any]:
    """The scan result as FORMATS.md "sheetscan.scan/1" (coordinates in the photo's pixels)."""
    return scan_json(result, SCAN_FORMAT)
