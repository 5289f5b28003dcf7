"""Reading an uploaded photo: check what it is, scan it, and say clearly what is wrong when it fails.

The scanner (`sheetscan.scan`) is called as `sheetscan scan --json` calls it. The app keeps the function
it uses in its config (`SCANNER`) so that tests can wrap the real one with a cache: scanning takes about
a second a photo.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sheetscan import NoSheetError, UnreadableImageError, scan, scan_to_json

__all__ = ["PHOTO_TYPES", "Scanner", "UploadError", "photo_type", "scan_photo"]

Scanner = Callable[[bytes, "str | None", "int | None"], dict[str, Any]]
"""(photo bytes, variant or None, players or None) → the `sheetscan.scan/1` JSON."""

PHOTO_TYPES = {"image/jpeg": "JPEG", "image/png": "PNG", "image/webp": "WebP"}
"""The photo formats the app takes: what the scanner reads and every browser shows."""
# Decision: HEIC is left out although the scanner reads it, because browsers do not display it and the
# review page must show the photo; phones' browsers send HEIC photos as JPEG when uploading anyway.


@dataclass(frozen=True)
class UploadError(Exception):
    """A photo that cannot be taken, with the sentence the page shows and the HTTP status."""

    message: str
    """What is wrong and what to do, for the user."""
    status: int = 400
    """400 unreadable input, 413 too large, 422 a readable photo without a sheet."""

    def __str__(self) -> str:
        return self.message


def photo_type(data: bytes) -> str | None:
    """The media type of a JPEG, PNG or WebP file from its first bytes; None for anything else."""
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


_ONE_AT_A_TIME = threading.Lock()
# Decision: the server reads one photo at a time, because a scan takes about a second of full CPU and a
# few hundred MB for a 12 MP photo; on a small machine two at once are not faster, only heavier.


def default_scanner(data: bytes, variant: str | None, players: int | None) -> dict[str, Any]:
    """The real scanner: the photo's bytes → `sheetscan.scan/1`."""
    with _ONE_AT_A_TIME:
        result: dict[str, Any] = scan_to_json(scan(data, variant=variant, players=players))
    return result


def scan_photo(scanner: Scanner, data: bytes, filename: str, *, variant: str | None,
               players: int | None) -> tuple[str, dict[str, Any]]:
    """The photo's media type and its scan; raises `UploadError` with a message for the user."""
    if not data:
        raise UploadError(f"{filename}: the file is empty (0 bytes). Choose the photo again.")
    kind = photo_type(data)
    if kind is None:
        formats = "JPEG, PNG or WebP"
        what = ("an HEIC/HEIF photo, which browsers cannot show" if data[4:8] == b"ftyp"
                else "not a photo this app reads")
        raise UploadError(f"{filename}: {what}. Upload the photo as {formats}.")
    try:
        result = scanner(data, variant, players)
    except UnreadableImageError as error:
        reason = str(error).removeprefix("<bytes>: ")
        raise UploadError(f"{filename}: {reason}. Upload a JPEG, PNG or WebP photo of the sheet.") from None
    except NoSheetError as error:
        reason = str(error).removeprefix("<bytes>: ")
        raise UploadError(f"{filename}: {reason}.", status=422) from None
    return kind, result
