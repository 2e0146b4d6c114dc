"""Light and dark themes, and the highlight colours derived from the schema's colours.

``auto`` follows the system: Qt's style hints report the colour scheme (Qt 6.5+); when they
say nothing, the window colour's lightness decides.
"""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontMetrics, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from annotator.core.colours import highlight

ThemeName = Literal["light", "dark", "auto"]


def system_is_dark() -> bool:
    hints = QGuiApplication.styleHints()
    scheme = hints.colorScheme()
    if scheme == Qt.ColorScheme.Dark:
        return True
    if scheme == Qt.ColorScheme.Light:
        return False
    return QGuiApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def dark_palette() -> QPalette:
    palette = QPalette()
    role = QPalette.ColorRole
    colours = {
        role.Window: "#2b2d30",
        role.WindowText: "#dfe1e5",
        role.Base: "#1e1f22",
        role.AlternateBase: "#26282b",
        role.ToolTipBase: "#3c3f41",
        role.ToolTipText: "#dfe1e5",
        role.Text: "#dfe1e5",
        role.Button: "#3c3f41",
        role.ButtonText: "#dfe1e5",
        role.BrightText: "#ff6b68",
        role.Highlight: "#2f65ca",
        role.HighlightedText: "#ffffff",
        role.Link: "#589df6",
        role.PlaceholderText: "#8c8f94",
    }
    for key, value in colours.items():
        palette.setColor(key, QColor(value))
    disabled = QPalette.ColorGroup.Disabled
    for key in (role.Text, role.ButtonText, role.WindowText):
        palette.setColor(disabled, key, QColor("#6f737a"))
    return palette


def light_palette() -> QPalette:
    palette = QPalette()
    role = QPalette.ColorRole
    colours = {
        role.Window: "#f3f3f3",
        role.WindowText: "#1f1f1f",
        role.Base: "#ffffff",
        role.AlternateBase: "#f6f8fa",
        role.Text: "#1f1f1f",
        role.Button: "#e9e9e9",
        role.ButtonText: "#1f1f1f",
        role.Highlight: "#3874d8",
        role.HighlightedText: "#ffffff",
        role.PlaceholderText: "#8a8a8a",
    }
    for key, value in colours.items():
        palette.setColor(key, QColor(value))
    return palette


def apply_theme(app: QApplication, name: ThemeName = "auto") -> bool:
    """Apply a theme to the application; returns True when the result is dark."""
    dark = system_is_dark() if name == "auto" else name == "dark"
    app.setStyle("Fusion")
    app.setPalette(dark_palette() if dark else light_palette())
    return dark


def highlight_colour(colour: str, dark: bool, pending: bool = False) -> QColor:
    """The background of a highlight: the type's colour blended into the page colour.

    Pending pre-annotations are paler, so reviewed and unreviewed tags differ at a glance
    (together with their dashed underline). The weights live in
    :mod:`annotator.core.colours`, where the palette checks use them too.
    """
    return QColor(highlight(QColor(colour).name(), "dark" if dark else "light", pending))


def text_on(colour: QColor) -> QColor:
    """Black or white, whichever reads better on ``colour``."""
    return QColor("#000000") if colour.lightness() > 140 else QColor("#ffffff")


# Tried in turn when the desktop's "monospace" font does not keep columns.
FIXED_WIDTH_FAMILIES = ("DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", "Cascadia Mono",
                        "Consolas", "Menlo", "Courier New")  # fmt: skip
# What a note's columns are made of: every printable ASCII character.
_COLUMN_CHARACTERS = "".join(chr(code) for code in range(32, 127))


def keeps_columns(font: QFont) -> bool:
    """Every printable ASCII character of ``font`` is drawn equally wide, so text in columns
    stays in columns. (Qt's ``fixedPitch()`` says False for fonts such as Noto Sans Mono,
    whose few wide symbols do not matter to a note.)"""
    metrics = QFontMetrics(font)
    return len({metrics.horizontalAdvance(c) for c in _COLUMN_CHARACTERS}) == 1


def note_font(monospace: bool = True) -> QFont:
    """The font of note text: fixed-width (medication tables keep their columns) or the UI's.

    Fixed-width is the desktop's monospace font when it keeps columns, else the first family
    of :data:`FIXED_WIDTH_FAMILIES` installed that does.
    """
    if monospace:
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSize(max(font.pointSize(), 10))
        if not keeps_columns(font):
            installed = set(QFontDatabase.families())
            for family in (f for f in FIXED_WIDTH_FAMILIES if f in installed):
                candidate = QFont(family, font.pointSize())
                if keeps_columns(candidate):
                    return candidate
        return font
    font = QFont(QGuiApplication.font())
    font.setPointSize(max(font.pointSize(), 10))
    return font
