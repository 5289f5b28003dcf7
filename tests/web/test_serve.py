"""`sheetscan serve`: starts, answers, stores where --db says; refuses a --db it cannot use."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from sheetscan.cli import main


def test_serve_starts_and_answers(tmp_path: Path) -> None:
    database = tmp_path / "served.sqlite"
    process = subprocess.Popen(
        [sys.executable, "-m", "sheetscan", "serve", "--port", "0", "--db", str(database), "--no-sample"],
        stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert "serving http://127.0.0.1:" in line, line
        url = line.split("serving ")[1].split()[0]
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(url + "health", timeout=5) as response:
                    assert response.read() == b'{"status":"ok"}\n'
                    break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
        with urllib.request.urlopen(url, timeout=5) as response:
            assert b"No sheets yet." in response.read()
        assert database.is_file()
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stderr is not None:
            process.stderr.close()


def test_serve_refuses_a_database_it_cannot_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", str(tmp_path / "no" / "such.sqlite")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["serve", "--db", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
