"""Settings > Tag colours and keys: each user picks their own colour and key per type.

The choice is saved per user (see :mod:`annotator.io.preferences`), not in the project:
the gold standard does not depend on anyone's colours. A key two types share, or a colour
that cannot be told from another type of the same category (CIEDE2000 below
:data:`MIN_DISTANCE` on the light or the dark page), is reported before it is saved.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QColorDialog,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from annotator.core.colours import colour_distance, highlight
from annotator.core.schema import Schema
from annotator.io.preferences import Preferences

# The smallest CIEDE2000 distance between two types of one category (the bundled palette
# keeps at least this; see tests/core/test_colours.py).
MIN_DISTANCE = 5.0


class TypeSettingsDialog(QDialog):
    """A table of types with a colour button and a key field each.

    Parameters
    ----------
    schema:
        The project's tag set, as shipped (the defaults "Reset" goes back to).
    preferences:
        The user's current preferences (updated by :meth:`updated_preferences`).
    """

    def __init__(self, schema: Schema, preferences: Preferences, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Tag colours and keys")
        self.schema = schema
        self.preferences = preferences
        chosen = preferences.apply(schema)
        self.colours = {t.name: chosen.color_of(t.name) for t in schema.types}
        self.keys = {t.name: chosen.type_def(t.name).key for t in schema.types}
        layout = QVBoxLayout(self)
        note = QLabel(
            "Your own colour and key for each type. Saved for you on this computer, for every project."
        )
        note.setWordWrap(True)
        layout.addWidget(note)
        self.table = QTableWidget(len(schema.types), 4)
        self.table.setHorizontalHeaderLabels(["Category", "Type", "Colour", "Key"])
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.colour_buttons: dict[str, QPushButton] = {}
        self.key_edits: dict[str, QLineEdit] = {}
        for row, type_def in enumerate(schema.types):
            self.table.setItem(row, 0, QTableWidgetItem(type_def.category))
            self.table.setItem(row, 1, QTableWidgetItem(type_def.name))
            button = QPushButton()
            button.setToolTip(f"Choose the colour of {type_def.name}")
            button.clicked.connect(lambda _=False, name=type_def.name: self._pick_colour(name))
            self.table.setCellWidget(row, 2, button)
            self.colour_buttons[type_def.name] = button
            edit = QLineEdit(self.keys[type_def.name])
            edit.setMaxLength(1)
            edit.setToolTip(f"The key that tags a selection as {type_def.name}")
            edit.textChanged.connect(lambda text, name=type_def.name: self.set_key(name, text))
            self.table.setCellWidget(row, 3, edit)
            self.key_edits[type_def.name] = edit
        layout.addWidget(self.table, 1)
        self.problems_label = QLabel()
        self.problems_label.setWordWrap(True)
        self.problems_label.setStyleSheet("color: #b00020")
        layout.addWidget(self.problems_label)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        restore = self.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults)
        restore.clicked.connect(self.restore_defaults)
        layout.addWidget(self.buttons)
        self.resize(560, 640)
        for name in self.colours:
            self._show_colour(name)
        self._check()

    # -- editing --------------------------------------------------------------------------------
    def _pick_colour(self, name: str) -> None:
        colour = QColorDialog.getColor(QColor(self.colours[name]), self, f"Colour of {name}")
        if colour.isValid():
            self.set_colour(name, colour.name())

    def set_colour(self, name: str, colour: str) -> None:
        self.colours[name] = QColor(colour).name()
        self._show_colour(name)
        self._check()

    def set_key(self, name: str, key: str) -> None:
        self.keys[name] = key.lower()
        if self.key_edits[name].text() != key:
            self.key_edits[name].setText(key)
        self._check()

    def restore_defaults(self) -> None:
        for type_def in self.schema.types:
            self.set_colour(type_def.name, type_def.color)
            self.set_key(type_def.name, type_def.key)

    def _show_colour(self, name: str) -> None:
        colour = QColor(self.colours[name])
        text = "#000000" if colour.lightness() > 140 else "#ffffff"
        self.colour_buttons[name].setText(colour.name())
        self.colour_buttons[name].setStyleSheet(f"background: {colour.name()}; color: {text};")

    # -- checks ---------------------------------------------------------------------------------
    def problems(self) -> list[str]:
        """Shared keys and colours too close to another type of the same category."""
        found = []
        by_key: dict[str, list[str]] = {}
        for name, key in self.keys.items():
            if key:
                by_key.setdefault(key, []).append(name)
        for key, names in sorted(by_key.items()):
            if len(names) > 1:
                found.append(f"key {key!r} is used by {' and '.join(names)}")
        for category in self.schema.categories:
            names = [t.name for t in category.types]
            for i, first in enumerate(names):
                for second in names[i + 1 :]:
                    closest = min(
                        colour_distance(
                            highlight(self.colours[first], theme), highlight(self.colours[second], theme)
                        )
                        for theme in ("light", "dark")
                    )
                    if closest < MIN_DISTANCE:
                        found.append(f"{first} and {second} look alike (colour difference {closest:.1f})")
        return found

    def _check(self) -> None:
        problems = self.problems()
        self.problems_label.setText("\n".join(problems))
        # Look-alike colours are a warning; a shared key would make one type untaggable.
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(not any(p.startswith("key ") for p in problems))
        ok.setToolTip("Two types share a key" if not ok.isEnabled() else "")

    def updated_preferences(self) -> Preferences:
        """The user's preferences with this dialog's colours and keys (only those that differ)."""
        colours = {n: c for n, c in self.colours.items() if c.lower() != self.schema.color_of(n).lower()}
        keys = {n: k for n, k in self.keys.items() if k != self.schema.type_def(n).key}
        return replace(self.preferences, colours=colours, keys=keys)
