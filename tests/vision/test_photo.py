"""Stage 1: loading photos — formats, EXIF orientation, and every kind of unreadable input."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

from sheetscan.errors import UnreadableImageError
from sheetscan.vision.photo import Photo, load_photo, load_preview


def _test_image(width: int = 64, height: int = 48) -> np.ndarray:
    """An asymmetric BGR picture, so every flip and turn gives a different array."""
    image = np.zeros((height, width, 3), np.uint8)
    image[:, :, 0] = np.linspace(0, 255, width, dtype=np.uint8)[None, :]
    image[:, :, 1] = np.linspace(0, 255, height, dtype=np.uint8)[:, None]
    image[: height // 3, : width // 4, 2] = 255
    return image


def _encode_pil(image_bgr: np.ndarray, fmt: str, **params: object) -> bytes:
    out = io.BytesIO()
    Image.fromarray(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2RGB)).save(out, format=fmt, **params)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
def test_lossless_formats_decode_exactly(fmt: str) -> None:
    image = _test_image()
    params = {"lossless": True} if fmt == "WEBP" else {}
    photo = load_photo(_encode_pil(image, fmt, **params))
    assert (photo.width, photo.height) == (64, 48)
    assert np.array_equal(photo.image, image)


def test_jpeg_decodes_close_to_the_original_and_hashes_the_file_bytes(tmp_path: Path) -> None:
    image = _test_image()
    data = _encode_pil(image, "JPEG", quality=95)
    path = tmp_path / "sheet.jpg"
    path.write_bytes(data)
    photo = load_photo(path)
    assert isinstance(photo, Photo)
    assert photo.name == "sheet.jpg"
    assert photo.sha256 == hashlib.sha256(data).hexdigest()
    assert photo.image.dtype == np.uint8 and photo.image.shape == (48, 64, 3)
    assert np.abs(photo.image.astype(int) - image.astype(int)).mean() < 4


@pytest.mark.parametrize("orientation", range(1, 9))
@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_exif_orientation_matches_pillows_exif_transpose(orientation: int, fmt: str) -> None:
    image = _test_image()
    exif = Image.Exif()
    exif[0x0112] = orientation
    data = _encode_pil(image, fmt, exif=exif.tobytes(), **({"quality": 98} if fmt == "JPEG" else {}))
    # Independent truth: Pillow's own decoder and its exif_transpose.
    expected = cv2.cvtColor(np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB")),
                            cv2.COLOR_RGB2BGR)
    photo = load_photo(data)
    assert photo.image.shape == expected.shape
    assert (photo.width, photo.height) == (expected.shape[1], expected.shape[0])
    assert np.abs(photo.image.astype(int) - expected.astype(int)).max() <= 8


def test_preview_and_reduced_decode_are_smaller_and_alike() -> None:
    image = cv2.resize(_test_image(), (800, 600), interpolation=cv2.INTER_LINEAR)
    data = _encode_pil(image, "JPEG", quality=95)
    photo = load_photo(data)
    small, scale = photo.preview(max_side=200)
    assert small.shape == (150, 200, 3) and scale == pytest.approx(0.25)
    reduced = load_preview(data, reduce=4)
    assert (reduced.width, reduced.height) == (200, 150)
    assert np.abs(reduced.image.astype(int) - small.astype(int)).mean() < 6
    assert photo.preview(max_side=5000)[1] == 1.0
    with pytest.raises(ValueError, match="reduce"):
        load_preview(data, reduce=3)


def test_preview_of_sides_not_a_multiple_of_its_factor_averages_whole_cells() -> None:
    # 803 x 601 to at most 200 px: factor 5, 160 x 120 (a phone's 4032 x 3024 to 1000 px is the same case).
    # Each preview pixel is the mean of the 5 x 5 cell of the photo at 5 times its place, so that the scale
    # (0.2) maps it back where it came from; the last 3 columns and 1 row are in no cell. (Cells of
    # 803 / 160 = 5.019 px lay up to 3 px off theirs at the far edge.)
    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (601, 803, 3), dtype=np.uint8)
    photo = Photo(image=image, width=803, height=601, sha256="", name="<test>")
    small, scale = photo.preview(max_side=200)
    assert small.shape == (120, 160, 3) and scale == pytest.approx(0.2)
    cells = image[:600, :800].reshape(120, 5, 160, 5, 3).mean(axis=(1, 3))
    assert np.abs(small.astype(float) - cells).max() <= 0.5 + 1e-9


def test_heic_when_pillow_heif_is_installed() -> None:
    pytest.importorskip("pillow_heif")
    image = _test_image()
    photo = load_photo(_encode_pil(image, "HEIF", quality=95))
    assert photo.image.shape == image.shape
    assert np.abs(photo.image.astype(int) - image.astype(int)).mean() < 12


# --- unreadable input: one clear message each -------------------------------------------------------

def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.jpg"
    path.write_bytes(b"")
    with pytest.raises(UnreadableImageError, match=r"empty.jpg: the file is empty \(0 bytes\)"):
        load_photo(path)


def test_not_an_image() -> None:
    with pytest.raises(UnreadableImageError, match="not an image"):
        load_photo(b"%PDF-1.4 this is a document, not a photo" * 10)


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_truncated_file(fmt: str) -> None:
    rng = np.random.default_rng(1)
    noisy = rng.integers(0, 255, (120, 160, 3), dtype=np.uint8)  # noise: no codec can make it tiny
    data = _encode_pil(noisy, fmt)
    with pytest.raises(UnreadableImageError, match=r"truncated|corrupt"):
        load_photo(data[: len(data) * 2 // 3])


def test_too_many_pixels_is_refused_from_the_header_with_size_and_limit() -> None:
    data = _encode_pil(_test_image(400, 300), "PNG")
    with pytest.raises(UnreadableImageError, match=r"400×300 = 120,000 pixels.*limit of 100,000"):
        load_photo(data, max_pixels=100_000)


def test_decompression_bomb_header_is_refused_without_decoding() -> None:
    # A PNG header declaring 100000 × 100000 pixels with almost no data behind it: decoding it would
    # need 30 GB. It must be refused from the header, quickly, with the size in the message.
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0)
    idat = chunk(b"IDAT", zlib.compress(b"\0" * 100))
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + idat + chunk(b"IEND", b"")
    with pytest.raises(UnreadableImageError, match="pixels"):
        load_photo(data)


def test_unsupported_format_names_the_supported_ones() -> None:
    data = _encode_pil(_test_image(), "GIF")
    with pytest.raises(UnreadableImageError, match="GIF images are not supported; use JPEG, PNG, WebP"):
        load_photo(data)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(UnreadableImageError, match="no such file"):
        load_photo(tmp_path / "nothing.jpg")
    with pytest.raises(UnreadableImageError, match="is a folder"):
        load_photo(tmp_path)


def test_unreadable_image_error_exits_with_code_2() -> None:
    assert UnreadableImageError.exit_code == 2
