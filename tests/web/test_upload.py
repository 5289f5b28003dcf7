"""The list page, the sample imported on first start, uploading a photo and every way an upload fails."""

from __future__ import annotations

import html
import io
import re
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from webapp import create_app
from webapp._scanning import Scanner

from ._helpers import stored, upload
from .conftest import SAMPLE


def text(response: Any) -> str:
    """The page's text with HTML entities undone (messages quote names with ')."""
    return html.unescape(response.get_data(as_text=True))


def sheet_count(app: Flask) -> int:
    from webapp._store import Store

    store = Store(app.config["DATABASE"])
    try:
        return store.count()
    finally:
        store.close()


def png_declaring(width: int, height: int) -> bytes:
    """A tiny PNG file whose header declares width × height pixels (a decompression bomb's shape)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * (width + 1)))
            + chunk(b"IEND", b""))


def blank_photo() -> bytes:
    """A readable photo of nothing: a plain brown table."""
    buffer = io.BytesIO()
    Image.new("RGB", (640, 480), (150, 110, 70)).save(buffer, "PNG")
    return buffer.getvalue()


def post_photo(client: FlaskClient, data: bytes, name: str = "photo.jpg", **fields: str) -> Any:
    form: dict[str, Any] = {"variant": "leningrad", "players": "3", **fields}
    form["photo"] = (io.BytesIO(data), name)
    return upload(client, form)


def test_first_start_imports_the_sample(app: Flask, client: FlaskClient) -> None:
    sheet = stored(app, 1)
    assert sheet.filename == SAMPLE.name and sheet.version == 1 and sheet.photo_type == "image/jpeg"
    assert sheet.scan["format"] == "sheetscan.scan/1"
    # The sample is a printed 3-player form whose QR code names Leningrad (samples/README.md).
    assert sheet.scan["layout"]["players"] == 3 and sheet.review["variant"] == "leningrad"
    assert sheet.review["players"] == ["P1", "P2", "P3"]
    page = client.get("/")
    assert page.status_code == 200 and SAMPLE.name in text(page) and 'href="/sheets/1"' in text(page)
    # The stored sheet is the scanner's own reading (crossed-out numbers left out), unread numbers aside.
    if all(n["value"] is not None for zone in sheet.scan["zones"] for n in zone["numbers"]):
        assert client.get("/sheets/1/sheet.json").get_json() == sheet.scan["sheet"]


def test_a_second_start_imports_nothing_more(app: Flask, scanner: Scanner) -> None:
    create_app({"DATABASE": app.config["DATABASE"], "SCANNER": scanner, "SAMPLE_PHOTO": str(SAMPLE)})
    assert sheet_count(app) == 1


@pytest.mark.parametrize("sample", [None, "no/such/photo.jpg"])
def test_no_sample_or_a_missing_one_starts_empty(tmp_path: Path, scanner: Scanner,
                                                 sample: str | None) -> None:
    app = create_app({"DATABASE": str(tmp_path / "empty.sqlite"), "SCANNER": scanner,
                      "SAMPLE_PHOTO": sample})
    assert sheet_count(app) == 0
    assert "No sheets yet." in text(app.test_client().get("/"))


def test_health(client: FlaskClient) -> None:
    assert client.get("/health").get_json() == {"status": "ok"}


def test_upload_scans_stores_and_opens_the_review(app: Flask, client: FlaskClient) -> None:
    response = post_photo(client, SAMPLE.read_bytes(), name="C:\\Users\\me\\../pulka.jpg", variant="",
                          players="")
    assert response.status_code == 303 and response.headers["Location"] == "/sheets/2"
    sheet = stored(app, 2)
    # Only the last part of the name the browser sent is kept, and only to show it.
    assert sheet.filename == "pulka.jpg"
    assert sheet.version == 1 and sheet.scan["image"]["width"] == 3000
    assert client.get("/sheets/2/photo").data == SAMPLE.read_bytes()


def test_upload_passes_variant_and_players_to_the_scanner(tmp_path: Path, scanner: Scanner) -> None:
    calls: list[tuple[str | None, int | None]] = []

    def spy(data: bytes, variant: str | None, players: int | None) -> dict[str, Any]:
        calls.append((variant, players))
        return scanner(data, None, None)

    app = create_app({"DATABASE": str(tmp_path / "db.sqlite"), "SCANNER": spy, "SAMPLE_PHOTO": None})
    response = post_photo(app.test_client(), SAMPLE.read_bytes(), variant="rostov", players="4")
    assert response.status_code == 303
    assert calls == [("rostov", 4)]


def assert_refused(app: Flask, response: Any, status: int, *words: str) -> None:
    """Refused with `status`, the message naming `words`, the user's settings still chosen, nothing stored."""
    page = text(response)
    assert response.status_code == status, page
    message = re.search(r'id="upload-error">([^<]*)<', page)
    assert message is not None, page
    for word in words:
        assert word in message.group(1), message.group(1)
    assert re.search(r'value="leningrad"\s+selected', page) and re.search(r'value="3"\s+selected', page)
    assert sheet_count(app) == 1


def test_upload_without_a_photo(app: Flask, client: FlaskClient) -> None:
    response = client.post("/sheets", data={"variant": "leningrad", "players": "3"})
    assert_refused(app, response, 400, "Choose a photo")


def test_upload_of_an_empty_file(app: Flask, client: FlaskClient) -> None:
    assert_refused(app, post_photo(client, b"", "empty.jpg"), 400, "empty.jpg", "empty (0 bytes)")


def test_upload_of_a_text_file(app: Flask, client: FlaskClient) -> None:
    response = post_photo(client, b"Anna 20, Boris 18\n", "notes.txt")
    assert_refused(app, response, 400, "notes.txt", "not a photo", "JPEG, PNG or WebP")


def test_upload_of_a_truncated_jpeg(app: Flask, client: FlaskClient) -> None:
    data = SAMPLE.read_bytes()
    assert_refused(app, post_photo(client, data[: len(data) // 3], "cut.jpg"), 400, "cut.jpg", "truncated")


def test_upload_of_a_decompression_bomb(app: Flask, client: FlaskClient) -> None:
    # 20 000 × 20 000 = 400 MP declared in a file of a few hundred bytes: refused before decoding.
    response = post_photo(client, png_declaring(20_000, 20_000), "bomb.png")
    assert_refused(app, response, 400, "bomb.png", "400,000,000 pixels")


def test_upload_of_an_heic_photo_asks_for_jpeg(app: Flask, client: FlaskClient) -> None:
    heic_start = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"
    assert_refused(app, post_photo(client, heic_start, "IMG_0001.HEIC"), 400, "HEIC", "JPEG")


def test_upload_of_a_photo_without_a_sheet(app: Flask, client: FlaskClient) -> None:
    response = post_photo(client, blank_photo(), "table.png")
    assert_refused(app, response, 422, "table.png", "no scoresheet found")


def test_upload_larger_than_the_limit(app: Flask, client: FlaskClient) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 100_000
    response = post_photo(client, SAMPLE.read_bytes())
    assert response.status_code == 413
    # 100 000 bytes = 97.66 KiB, said as people say it.
    assert "The photo is larger than 98 KB." in text(response) and sheet_count(app) == 1


@pytest.mark.parametrize(("fields", "words"), [
    ({"variant": "bridge"}, ("Unknown variant 'bridge'", "sochi")),
    ({"players": "5"}, ("auto, 3 or 4",)),
])
def test_upload_with_bad_settings(client: FlaskClient, app: Flask, fields: dict[str, str],
                                  words: tuple[str, ...]) -> None:
    response = post_photo(client, SAMPLE.read_bytes(), **fields)
    assert response.status_code == 400
    for word in words:
        assert word in text(response)
    assert sheet_count(app) == 1


def test_unknown_sheets_and_path_tricks_are_not_found(client: FlaskClient) -> None:
    for url in ("/sheets/99", "/sheets/99/photo", "/sheets/99/settlement", "/sheets/abc", "/sheets/-1",
                "/sheets/1/../../pyproject.toml", "/static/../pyproject.toml", "/static/..%2f__init__.py"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "tool.mypy" not in response.get_data(as_text=True)


def test_delete(app: Flask, client: FlaskClient) -> None:
    assert client.post("/sheets/1/delete").status_code == 303
    assert sheet_count(app) == 0 and client.get("/sheets/1").status_code == 404
    assert client.post("/sheets/1/delete").status_code == 404


def test_a_scanner_fault_is_a_500_page_and_does_not_stop_the_start(tmp_path: Path) -> None:
    def broken(data: bytes, variant: str | None, players: int | None) -> dict[str, Any]:
        raise RuntimeError("a bug in the scanner")

    app = create_app({"DATABASE": str(tmp_path / "db.sqlite"), "SCANNER": broken,
                      "SAMPLE_PHOTO": str(SAMPLE)})
    assert sheet_count(app) == 0
    response = post_photo(app.test_client(), SAMPLE.read_bytes())
    assert response.status_code == 500 and "Internal Server Error" in text(response)
    assert "a bug in the scanner" not in text(response) and sheet_count(app) == 0
