"""The usage example in the engine package's docstring runs as written."""

from __future__ import annotations

import doctest

import sheetscan.engine


def test_package_docstring_example() -> None:
    result = doctest.testmod(sheetscan.engine, raise_on_error=False)
    assert result.attempted >= 5 and result.failed == 0
