"""Web app fixtures (Flask's `flaskr` pattern): an app per test on its own SQLite file, the test client.

Scanning a photo takes about a second, so the real scanner is wrapped with a cache shared by the whole
session, and the database with the sample photo imported (a real scan of a real sample) is made once
and copied for each test.
"""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from sheetscan import read_game, replay, settle, write_settlement, write_sheet
from webapp import create_app
from webapp._scanning import Scanner, default_scanner

ROOT = Path(__file__).resolve().parent.parent.parent
SAMPLE = ROOT / "samples" / "photo-leningrad-3p-form.jpg"
"""The photo the app imports on first start (webapp.DEFAULT_SAMPLE)."""
SAMPLE_TRUTH = ROOT / "samples" / "photo-leningrad-3p-form.truth.json"
"""What is written on it (the renderer's truth)."""
SAMPLE_GAME = ROOT / "samples" / "game-leningrad-3p.json"
"""The game record the sample sheet was drawn from (samples/README.md)."""


@pytest.fixture(scope="session")
def scanner() -> Scanner:
    """The real scanner, each photo read once per session (a photo's bytes, variant and players key it)."""
    cache: dict[tuple[str, str | None, int | None], dict[str, Any]] = {}

    def cached(data: bytes, variant: str | None, players: int | None) -> dict[str, Any]:
        key = (hashlib.sha256(data).hexdigest(), variant, players)
        if key not in cache:
            cache[key] = default_scanner(data, variant, players)
        return copy.deepcopy(cache[key])

    return cached


@pytest.fixture(scope="session")
def sample_db(tmp_path_factory: pytest.TempPathFactory, scanner: Scanner) -> Path:
    """A database as the app leaves it on first start: the sample photo scanned and stored."""
    path = tmp_path_factory.mktemp("web") / "sample.sqlite"
    create_app({"DATABASE": str(path), "SCANNER": scanner, "SAMPLE_PHOTO": str(SAMPLE)})
    return path


@pytest.fixture
def app(tmp_path: Path, sample_db: Path, scanner: Scanner) -> Flask:
    """An app on a fresh copy of the sample database."""
    database = tmp_path / "sheetscan.sqlite"
    shutil.copy(sample_db, database)
    return create_app({"TESTING": True, "DATABASE": str(database), "SCANNER": scanner, "SAMPLE_PHOTO": None})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """The test client of `app`."""
    return app.test_client()


@pytest.fixture(scope="session")
def truth() -> dict[str, Any]:
    """The sample's truth: the sheet written on it (`sheetscan.sheet/1`, players in seat order)."""
    data: dict[str, Any] = json.loads(SAMPLE_TRUTH.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="session")
def replayed() -> dict[str, Any]:
    """`sheetscan replay samples/game-leningrad-3p.json --json`: the sheet and settlement of the game
    the sample was drawn from, and its price per whist (the independent truth for settlements)."""
    record = read_game(json.loads(SAMPLE_GAME.read_text(encoding="utf-8")))
    sheet = replay(record)
    settlement = write_settlement(settle(sheet, price=record.config.price))
    return {"sheet": write_sheet(sheet), "settlement": settlement, "price": str(record.config.price)}


@pytest.fixture
def live_server(app: Flask) -> Iterator[str]:
    """The app served over HTTP from a thread (for the browser); yields its base URL."""
    import threading

    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
