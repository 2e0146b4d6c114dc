"""Symbols the windows draw exist in Debian's default font; screenshots are private files."""

from __future__ import annotations

import ast
import stat
from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontInfo, QFontMetrics
from pytestqt.qtbot import QtBot

import annotator.gui
from annotator.gui.main_window import MainWindow
from annotator.gui.screenshot import write_screenshot

GUI_SOURCES = sorted(Path(annotator.gui.__file__).parent.rglob("*.py"))


def _symbols() -> set[str]:
    """Every non-ASCII, non-letter character in the GUI's string literals (docstrings aside)."""
    found: set[str] = set()
    for path in GUI_SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                found.update(c for c in node.value if ord(c) > 127 and c.isprintable() and not c.isalpha())
    return found


def test_every_symbol_the_gui_draws_is_in_dejavu_sans(qtbot: QtBot) -> None:
    font = QFont("DejaVu Sans")
    if QFontInfo(font).family() != "DejaVu Sans":
        pytest.skip("DejaVu Sans (fonts-dejavu-core) is not installed here")
    metrics = QFontMetrics(font)
    symbols = _symbols()
    assert "⚠" in symbols and "✓" in symbols  # the scan sees the status bar's symbols
    missing = sorted(f"U+{ord(c):04X} {c}" for c in symbols if not metrics.inFontUcs4(ord(c)))
    assert missing == []
    # The padlock it used to draw is exactly what DejaVu lacks.
    assert not metrics.inFontUcs4(0x1F512)


def test_screenshot_is_written_readable_by_its_owner_only(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    target = tmp_path / "shots" / "window.png"
    write_screenshot(window, target, (960, 1000))
    assert target.read_bytes().startswith(b"\x89PNG")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
