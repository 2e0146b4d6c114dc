"""Where the window was on screen, kept between sessions and brought back onto a screen.

The window's place and size are saved with its splitter sizes (``layouts.json``, see
:mod:`annotator.io.window_layouts`) as ``"geometry": [[x, y, width, height, maximized]]``.
Restored on another machine, or after a monitor was unplugged, a place off every screen is
moved onto the screen nearest to it and a size larger than that screen shrinks to fit it:
a title bar out of reach cannot be dragged back.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QWidget

GEOMETRY_KEY = "geometry"


def geometry_state(window: QWidget) -> list[list[int]]:
    """The window's frame position, size and whether it is maximized (what :func:`restore_geometry` takes)."""
    maximized = window.isMaximized()
    if maximized and not window.normalGeometry().isEmpty():
        normal = window.normalGeometry()
        x, y, width, height = normal.x(), normal.y(), normal.width(), normal.height()
    else:
        x, y, width, height = window.x(), window.y(), window.width(), window.height()
    return [[x, y, width, height, int(maximized)]]


def _screen_for(rect: QRect) -> QScreen | None:
    """The screen showing the window's title bar, else the one nearest to it."""
    screens = QGuiApplication.screens()
    if not screens:
        return None
    title = QPoint(rect.center().x(), rect.top() + 10)
    for screen in screens:
        if screen.availableGeometry().contains(title):
            return screen

    def distance(screen: QScreen) -> int:
        return (screen.availableGeometry().center() - title).manhattanLength()

    return min(screens, key=distance)


def restore_geometry(window: QWidget, saved: object) -> bool:
    """Put the window where :func:`geometry_state` found it, on screen; False when ``saved``
    is not such a record (the window keeps its size)."""
    if not (isinstance(saved, list) and len(saved) == 1 and isinstance(saved[0], list)):
        return False
    values = saved[0]
    if len(values) != 5 or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return False
    x, y, width, height, maximized = values
    if width <= 0 or height <= 0:
        return False
    screen = _screen_for(QRect(x, y, width, height))
    if screen is None:
        return False
    area = screen.availableGeometry()
    width = min(max(width, window.minimumWidth()), area.width())
    height = min(max(height, window.minimumHeight()), area.height())
    x = min(max(x, area.left()), area.right() + 1 - width)
    y = min(max(y, area.top()), area.bottom() + 1 - height)
    window.resize(width, height)
    window.move(x, y)
    if maximized:
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)
    return True
