"""The sheetscan web app: upload a photo, review and correct the reading, settle (Flask app factory)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

__all__ = ["create_app"]


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app; by default its SQLite database lives under the instance folder."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(DATABASE=str(Path(app.instance_path) / "sheetscan.sqlite"))
    if test_config is not None:
        app.config.from_mapping(test_config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return app
