"""The sheetscan web app: upload a photo, review and correct the reading, settle (Flask app factory).

Server-rendered pages (Jinja, autoescaped) with a little plain JavaScript; nothing is fetched from
the internet. Sheets live in one SQLite file, by default `instance/sheetscan.sqlite`. On first start
with an empty database a sample photo is scanned and stored, so there is a sheet to look at at once.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from flask import Flask

from webapp._scanning import UploadError, default_scanner
from webapp._store import Store
from webapp._views import blueprint, import_photo

__all__ = ["DEFAULT_SAMPLE", "create_app"]

DEFAULT_SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "photo-leningrad-3p-form.jpg"
"""The photo imported into an empty database: a printed 3-player form, read well (its QR code names
the variant and the target), with a few unsure numbers to show what the review is for."""

_log = logging.getLogger(__name__)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app; by default its SQLite database lives under the instance folder.

    Settings (Flask config keys): `DATABASE` (the SQLite file), `MAX_CONTENT_LENGTH` (largest upload,
    bytes), `SAMPLE_PHOTO` (imported into an empty database; None for none), `SCANNER` (the function
    that reads a photo; tests wrap the real one with a cache).
    """
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        DATABASE=str(Path(app.instance_path) / "sheetscan.sqlite"),
        # Phone photos are 3-8 MB; the photo loader also refuses images beyond its pixel limit.
        MAX_CONTENT_LENGTH=32 * 1024 * 1024,
        SAMPLE_PHOTO=str(DEFAULT_SAMPLE),
        SCANNER=default_scanner,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
    app.register_blueprint(blueprint)
    app.add_template_filter(_when, "when")
    with app.app_context():
        _prepare_database(app)
    return app


def _when(stamp: str) -> str:
    """`2026-11-30T02:17:10+00:00` as `2026-11-30 02:17 UTC`."""
    return stamp[:16].replace("T", " ") + " UTC" if len(stamp) >= 16 else stamp


def _prepare_database(app: Flask) -> None:
    """Make the schema; scan the sample into an empty database."""
    store = Store(app.config["DATABASE"])
    try:
        store.create_schema()
        sample = app.config.get("SAMPLE_PHOTO")
        if sample and store.count() == 0:
            path = Path(sample)
            if not path.is_file():
                _log.warning("sample photo %s not found; starting with no sheets", path)
                return
            try:
                import_photo(store, path.read_bytes(), path.name)
            except UploadError as error:
                _log.warning("sample photo not imported: %s", error)
            except Exception:
                # Decision: the sample is a convenience; a scanner fault must not keep the app from starting.
                _log.exception("sample photo not imported: the scanner failed")
    finally:
        store.close()
