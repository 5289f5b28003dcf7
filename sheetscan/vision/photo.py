"""Stage 1 — load a photo: decode it safely, turn it upright by its EXIF orientation, fingerprint it.

The header is read first (Pillow opens lazily) so that a decompression bomb is refused from its
declared size before a single pixel is decoded. JPEG — what phones write — is decoded by OpenCV's
libjpeg-turbo, the fastest path; PNG, WebP and HEIC/HEIF (when `pillow-heif` is installed) by Pillow.
"""

from __future__ import annotations

import hashlib
import io
import re
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Final

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from sheetscan.errors import UnreadableImageError
from sheetscan.vision._arrays import U8, u8

__all__ = ["DEFAULT_MAX_PIXELS", "SUPPORTED_FORMATS", "Photo", "load_photo", "load_preview"]

DEFAULT_MAX_PIXELS: Final = 100_000_000
"""Largest image (width × height) we decode: a 108 MP phone sensor fits, a decompression bomb does not."""

# Pillow's names for the formats we accept. MPO is how Pillow names many phone JPEGs (a JPEG with
# extra preview frames appended); only its first frame is the photo.
_JPEG_FORMATS: Final = frozenset({"JPEG", "MPO"})
_PIL_FORMATS: Final = frozenset({"PNG", "WEBP", "HEIF", "AVIF"})
SUPPORTED_FORMATS: Final = ("JPEG", "PNG", "WebP", "HEIC/HEIF")
"""The photo formats `load_photo` reads (HEIC/HEIF only with the optional `pillow-heif` package)."""

_REDUCE_FLAGS: Final = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}

BGRImage = U8


@dataclass(frozen=True, eq=False)  # holds arrays: compared by identity
class Photo:
    """A decoded photo, upright as its EXIF orientation says (all later coordinates refer to it)."""

    image: BGRImage = field(repr=False)
    """The pixels, BGR uint8, height × width × 3, EXIF orientation applied."""
    width: int
    """Width in pixels after the EXIF orientation was applied."""
    height: int
    """Height in pixels after the EXIF orientation was applied."""
    sha256: str
    """Hex SHA-256 of the file's bytes exactly as given (not of the pixels)."""
    name: str
    """The file name, or "<bytes>" for a photo given as bytes; used in messages."""

    @cached_property
    def gray(self) -> U8:
        """The photo in grey levels (computed once, on first use)."""
        return u8(cv2.cvtColor(self.image, cv2.COLOR_BGR2GRAY))

    def preview(self, max_side: int = 1200) -> tuple[BGRImage, float]:
        """A copy reduced by a whole factor to at most `max_side` px, and its scale (preview px / photo px):
        each preview pixel the mean of a factor x factor cell of the photo, from its top left.

        Detection runs on this copy: finding a sheet does not need 12 MP, reading digits does.
        """
        longest = max(self.width, self.height)
        if longest <= max_side:
            return self.image, 1.0
        # A whole factor: OpenCV's area averaging is several times faster on those.
        factor = -(-longest // max_side)
        size = (max(1, self.width // factor), max(1, self.height // factor))
        # Decision: only the whole factor x factor cells are averaged (the last rows and columns short of a
        # cell are left out), because a side that is not a multiple of the factor (a phone's 4032 x 3024,
        # a view of the paper) sent OpenCV down its path for cells of a fractional size: 3-4 times the time
        # (4032 x 3024 to 806 x 604: 67 -> 20 ms of CPU on one thread, to 366 x 274: 59 -> 15 ms), and
        # cells 5.0025 px wide instead of 5, so that the scale returned put the far edge's pixels 2 px off
        # (6 px at 11).
        whole = self.image[:size[1] * factor, :size[0] * factor]
        small = u8(cv2.resize(whole, size, interpolation=cv2.INTER_AREA))
        return small, 1.0 / factor


def load_photo(source: str | Path | bytes, *, max_pixels: int = DEFAULT_MAX_PIXELS) -> Photo:
    """Decode a JPEG, PNG, WebP (or HEIC with `pillow-heif`) photo, upright by its EXIF orientation.

    Raises `UnreadableImageError` for an empty file, something that is not an image, a truncated or
    corrupt image, an unsupported format, or an image of more than `max_pixels` pixels (checked on the
    header, before decoding).
    """
    data, name = _read(source)
    image = _decode(data, name, max_pixels=max_pixels, reduce=1)
    height, width = image.shape[:2]
    return Photo(image=image, width=width, height=height, sha256=hashlib.sha256(data).hexdigest(), name=name)


def load_preview(
    source: str | Path | bytes, *, reduce: int = 4, max_pixels: int = DEFAULT_MAX_PIXELS
) -> Photo:
    """Decode at 1/`reduce` of the size (1, 2, 4 or 8), for a quick look; JPEGs decode much faster so.

    Same checks and errors as `load_photo`; `width`/`height` are those of the reduced image.
    """
    if reduce not in _REDUCE_FLAGS:
        raise ValueError(f"reduce must be one of {sorted(_REDUCE_FLAGS)}, not {reduce}")
    data, name = _read(source)
    image = _decode(data, name, max_pixels=max_pixels, reduce=reduce)
    height, width = image.shape[:2]
    return Photo(image=image, width=width, height=height, sha256=hashlib.sha256(data).hexdigest(), name=name)


def _read(source: str | Path | bytes) -> tuple[bytes, str]:
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source), "<bytes>"
    path = Path(source)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise UnreadableImageError(f"{path}: is a folder, not an image file") from None
    except FileNotFoundError:
        raise UnreadableImageError(f"{path}: no such file") from None
    except OSError as exc:
        raise UnreadableImageError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    return data, path.name


def _register_heif() -> bool:
    """Teach Pillow HEIC/HEIF if the optional `pillow-heif` package is installed."""
    try:
        import pillow_heif  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return False
    pillow_heif.register_heif_opener()
    return True


_HEIF_AVAILABLE: Final = _register_heif()


def _decode(data: bytes, name: str, *, max_pixels: int, reduce: int) -> BGRImage:
    if not data:
        raise UnreadableImageError(f"{name}: the file is empty (0 bytes)")
    header = _open_header(data, name)
    width, height = header.size
    if width <= 0 or height <= 0:
        raise UnreadableImageError(f"{name}: the image declares no pixels ({width}×{height})")
    if width * height > max_pixels:
        raise UnreadableImageError(
            f"{name}: the image is {width}×{height} = {width * height:,} pixels, more than the limit of "
            f"{max_pixels:,}; scale it down first"
        )
    fmt = header.format or "?"
    if fmt in _JPEG_FORMATS:
        orientation = _orientation(header)
        flags = _REDUCE_FLAGS[reduce] | cv2.IMREAD_IGNORE_ORIENTATION
        image = u8(cv2.imdecode(np.frombuffer(data, np.uint8), flags))
        if image is None or image.ndim != 3:
            _raise_pillow_error(header, name)
            raise UnreadableImageError(f"{name}: the JPEG data is corrupt and cannot be decoded")
        return _apply_orientation(image, orientation)
    if fmt in _PIL_FORMATS:
        return _decode_with_pillow(header, name, reduce)
    supported = ", ".join(SUPPORTED_FORMATS)
    hint = "" if _HEIF_AVAILABLE else " (HEIC needs the pillow-heif package)"
    raise UnreadableImageError(f"{name}: {fmt} images are not supported; use {supported}{hint}")


def _open_header(data: bytes, name: str) -> Image.Image:
    """Parse only the header. Pillow's own bomb check may fire here for huge headers; reword it."""
    try:
        with warnings.catch_warnings():
            # Our own limit (`max_pixels`) decides, just after this; Pillow's warning would only
            # duplicate it (and is an error under strict test settings).
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            return Image.open(io.BytesIO(data))
    except Image.DecompressionBombError as exc:
        match = re.search(r"\((\d+) pixels\)", str(exc))
        size = f"{int(match.group(1)):,} pixels" if match else "too many pixels"
        raise UnreadableImageError(
            f"{name}: the image has {size}, far beyond any photo; refusing to decode it"
        ) from None
    except UnidentifiedImageError:
        hint = "" if _HEIF_AVAILABLE or not data[4:12].startswith(b"ftyp") else " (HEIC needs pillow-heif)"
        raise UnreadableImageError(
            f"{name}: not an image we can read ({len(data):,} bytes that are not JPEG, PNG, WebP or HEIC)"
            + hint
        ) from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise UnreadableImageError(f"{name}: the image header is corrupt ({exc})") from None


def _orientation(header: Image.Image) -> int:
    try:
        value = header.getexif().get(0x0112, 1)
    except Exception:  # a broken EXIF block must not make a good photo unreadable
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def _apply_orientation(image: BGRImage, orientation: int) -> BGRImage:
    """Turn raw sensor pixels upright as EXIF tag 0x0112 says (same result as Pillow's exif_transpose)."""
    if orientation == 2:
        return u8(cv2.flip(image, 1))
    if orientation == 3:
        return u8(cv2.rotate(image, cv2.ROTATE_180))
    if orientation == 4:
        return u8(cv2.flip(image, 0))
    if orientation == 5:
        return np.ascontiguousarray(image.transpose(1, 0, 2))
    if orientation == 6:
        return u8(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE))
    if orientation == 7:
        return np.ascontiguousarray(cv2.rotate(image, cv2.ROTATE_180).transpose(1, 0, 2))
    if orientation == 8:
        return u8(cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE))
    return image


def _decode_with_pillow(header: Image.Image, name: str, reduce: int) -> BGRImage:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            header.load()
            upright = ImageOps.exif_transpose(header)
            rgb = upright.convert("RGB")
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise _corrupt(header, name, exc) from None
    image = u8(cv2.cvtColor(np.asarray(rgb), cv2.COLOR_RGB2BGR))
    if reduce > 1:
        size = (max(1, image.shape[1] // reduce), max(1, image.shape[0] // reduce))
        image = u8(cv2.resize(image, size, interpolation=cv2.INTER_AREA))
    return image


def _raise_pillow_error(header: Image.Image, name: str) -> None:
    """OpenCV only says "failed"; Pillow says why (e.g. "image file is truncated")."""
    try:
        header.load()
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise _corrupt(header, name, exc) from None


def _corrupt(header: Image.Image, name: str, exc: BaseException) -> UnreadableImageError:
    return UnreadableImageError(f"{name}: the {header.format} image is truncated or corrupt ({exc})")
