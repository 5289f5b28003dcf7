"""Shared test settings. Each test package keeps its own fixtures in its own conftest.py."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def repo_root() -> Path:
    """The repository's top folder (samples/, tests/data/ …)."""
    return ROOT
