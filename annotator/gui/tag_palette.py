"""The tag palette (and legend): one button per PHI type, in the type's colour, with its key.

Signals
-------
type_chosen(str)    a type's button was clicked (the type name)
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from annotator.core.schema import Schema
from annotator.gui.theme import highlight_colour


class TagPalette(QScrollArea):
    """Buttons for every type of the schema, grouped by category.

    Parameters
    ----------
    schema:
        The tag set.
    dark:
        Whether the page is dark (button colours follow the highlights).
    """

    type_chosen = Signal(str)

    def __init__(self, schema: Schema, dark: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.dark = dark
        self.set_schema(schema)

    def set_schema(self, schema: Schema) -> None:
        """(Re)build the buttons: a schema's types, each in its own colour, with its key."""
        self.schema = schema
        self.buttons: dict[str, QPushButton] = {}
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(2)
        for category in schema.categories:
            title = QLabel(f"<b>{category.name}</b>")
            title.setToolTip(category.description)
            layout.addWidget(title)
            grid = QGridLayout()
            grid.setSpacing(2)
            for i, type_def in enumerate(category.types):
                label = f"{type_def.name}  [{type_def.key}]" if type_def.key else type_def.name
                button = QPushButton(label)
                button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
                button.setToolTip(type_def.description or type_def.name)
                button.clicked.connect(lambda _=False, name=type_def.name: self.type_chosen.emit(name))
                grid.addWidget(button, i // 2, i % 2)
                self.buttons[type_def.name] = button
            layout.addLayout(grid)
        layout.addStretch(1)
        self.setWidget(inner)
        self.set_dark(self.dark)

    def set_dark(self, dark: bool) -> None:
        """Colour the buttons like the highlights on a light or dark page."""
        self.dark = dark
        for name, button in self.buttons.items():
            colour = self.schema.color_of(name)
            background = highlight_colour(colour, dark)
            foreground = "#000000" if background.lightness() > 140 else "#ffffff"
            border = QColor(colour).name()
            button.setStyleSheet(
                f"QPushButton {{ background: {background.name()}; color: {foreground};"
                f" border: 1px solid {border}; border-left: 5px solid {border};"
                " padding: 2px 6px; text-align: left; }"
                f"QPushButton:hover {{ border: 2px solid {border}; border-left: 5px solid {border}; }}"
            )
