"""Rendering a window to a PNG file: offscreen works, the file is private like every output.

A screenshot shows note text, so it is written like the annotation files: atomically and,
when new, readable by its owner only (0600).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QEventLoop, QIODevice
from PySide6.QtWidgets import QApplication, QWidget

from annotator.core.atomic import atomic_write
from annotator.errors import UsageError


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> ``(1280, 720)``; a one-line error otherwise."""
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit()) or not (
        320 <= int(width) <= 8000 and 240 <= int(height) <= 8000
    ):
        raise UsageError(f"--size wants WIDTHxHEIGHT in pixels (e.g. 1280x720), not {text!r}")
    return int(width), int(height)


def settle(app: QApplication, rounds: int = 5) -> None:
    """Let layouts, resizes and highlighting finish before grabbing."""
    for _ in range(rounds):
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)


def write_screenshot(widget: QWidget, target: Path, size: tuple[int, int] | None = None) -> None:
    """Show ``widget`` (at ``size`` when given), render it and write a PNG to ``target``."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    if size is not None:
        widget.resize(*size)
    widget.show()
    settle(app)
    if size is not None and (widget.width(), widget.height()) != size:
        # The first resize may have been held up by the wide arrangement's minimum width,
        # before the window switched to its narrow arrangement.
        widget.resize(*size)
        settle(app)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not widget.grab().save(buffer, "PNG"):
        raise UsageError("cannot render the screenshot", target)
    buffer.close()
    atomic_write(target, bytes(data.data()))
