"""Dependencies point one way (STYLE.md §1), checked by reading every module's imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE = ("sheetscan/rules", "sheetscan/engine")
THIRD_PARTY_IN_PURE = {"numpy", "cv2", "flask", "PIL", "pytesseract", "segno"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("folder", PURE)
def test_rules_and_engine_are_pure_python(folder: str) -> None:
    for path in _modules(folder):
        roots = {name.split(".")[0] for name in _imports(path)}
        bad = roots & THIRD_PARTY_IN_PURE
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"
        assert not any(n.startswith(("sheetscan.vision", "webapp")) for n in _imports(path)), path


def test_rules_do_not_depend_on_the_engine() -> None:
    for path in _modules("sheetscan/rules"):
        assert not any(n.startswith("sheetscan.engine") for n in _imports(path)), path


def test_only_vision_imports_cv2() -> None:
    for folder in ("sheetscan", "webapp"):
        for path in _modules(folder):
            if "sheetscan/vision" in path.as_posix():
                continue
            assert "cv2" not in {n.split(".")[0] for n in _imports(path)}, path


def test_webapp_uses_only_the_public_api() -> None:
    for path in _modules("webapp"):
        for name in _imports(path):
            if name.startswith("sheetscan"):
                private = [part for part in name.split(".") if part.startswith("_")]
                assert not private, f"{path.relative_to(ROOT)} imports private {name}"


def test_the_command_line_lists_its_commands() -> None:
    from sheetscan.cli import _parser

    help_text = _parser().format_help()
    assert "COMMAND" in help_text


def test_the_public_api_resolves_and_the_rules_side_does_not_load_opencv() -> None:
    import subprocess
    import sys

    code = (
        "import sys, sheetscan\n"
        "assert 'cv2' not in sys.modules, 'import sheetscan loaded cv2'\n"
        "missing = [n for n in sheetscan.__all__ if not hasattr(sheetscan, n)]\n"
        "assert not missing, missing\n"
        "assert 'cv2' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
