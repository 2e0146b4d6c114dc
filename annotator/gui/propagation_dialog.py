"""The "annotate all" preview: every occurrence in the chosen scope, ticked or not.

Exact matches are ticked; fuzzy matches are listed separately and never ticked; occurrences
overlapping an existing annotation are listed as conflicts and cannot be applied. Applying
pushes ONE undo step (``annotate all``) whose new tags carry provenance ``propagated``.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.history import AddAnnotation, Command, CompositeCommand, History, ReplaceAnnotation
from annotator.core.propagation import Match, PropagationPreview, Scope, apply_propagation, find_occurrences

ScopeLoader = Callable[[Scope], list[Document]]
MATCH_ROLE = Qt.ItemDataRole.UserRole + 1

SECTIONS = (
    ("matches", "Exact matches"),
    ("fuzzy", "Fuzzy matches (review each; never ticked for you)"),
    ("suggested", "Pending suggestions of this tag (applying accepts them)"),
    ("conflicts", "Conflicts: overlap an existing annotation (left alone)"),
    ("already", "Already annotated the same way"),
)


def context_text(match: Match) -> str:
    return f"…{match.left}«{match.text}»{match.right}…"


class AnnotateAllDialog(QDialog):
    """Preview and apply "annotate all" for one annotation.

    Parameters
    ----------
    source:
        The annotation to propagate.
    current:
        Its document.
    load_scope:
        Returns the documents of a scope (loading them if needed).
    history:
        Where the one undo step goes.
    annotator:
        Recorded on the new tags.
    scope, fuzzy:
        The initial scope and whether fuzzy matches are searched.
    """

    def __init__(
        self,
        source: Annotation,
        current: Document,
        load_scope: ScopeLoader,
        history: History,
        annotator: str,
        parent: QWidget | None = None,
        scope: Scope = "patient",
        fuzzy: bool = True,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Annotate all")
        self.resize(860, 520)
        self.source = source
        self.current = current
        self.load_scope = load_scope
        self.history = history
        self.annotator = annotator
        self.preview = PropagationPreview()
        self.documents: dict[str, Document] = {}
        self.applied: Command | None = None
        layout = QVBoxLayout(self)
        title = QLabel(
            f"Tag every occurrence of <b>{_html(source.text)}</b> as <b>{source.tag} / {source.type}</b>"
        )
        title.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(title)
        scope_row = QHBoxLayout()
        scope_row.addWidget(QLabel("Scope:"))
        self.scope_group = QButtonGroup(self)
        self.scope_buttons: dict[str, QRadioButton] = {}
        for name, label in (
            ("document", "This document"),
            ("patient", f"Patient {current.patient_id}'s records"),
            ("project", "Whole project"),
        ):
            button = QRadioButton(label)
            self.scope_group.addButton(button)
            self.scope_buttons[name] = button
            scope_row.addWidget(button)
        self.scope_buttons[scope].setChecked(True)
        scope_row.addStretch(1)
        layout.addLayout(scope_row)
        options = QHBoxLayout()
        self.case_box = QCheckBox("Case-sensitive")
        self.word_box = QCheckBox("Whole word")
        self.word_box.setChecked(True)
        self.fuzzy_box = QCheckBox("Fuzzy matches, threshold")
        self.fuzzy_box.setChecked(fuzzy)
        self.threshold = QSpinBox()
        self.threshold.setRange(50, 99)
        self.threshold.setValue(85)
        self.threshold.setSuffix(" %")
        for widget in (self.case_box, self.word_box, self.fuzzy_box, self.threshold):
            options.addWidget(widget)
        options.addStretch(1)
        layout.addLayout(options)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(4)
        self.tree.setHeaderLabels(["Document", "Offsets", "Score", "Context"])
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.tree.setColumnWidth(0, 170)
        self.tree.setColumnWidth(1, 90)
        self.tree.setColumnWidth(2, 50)
        layout.addWidget(self.tree, 1)
        self.summary = QLabel("")
        layout.addWidget(self.summary)
        buttons = QDialogButtonBox()
        self.tick_all = QPushButton("Tick all exact")
        self.tick_none = QPushButton("Untick all")
        buttons.addButton(self.tick_all, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.tick_none, QDialogButtonBox.ButtonRole.ActionRole)
        self.apply_button = buttons.addButton("Apply", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        layout.addWidget(buttons)
        self.section_items: dict[str, QTreeWidgetItem] = {}
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(150)
        self._search_timer.timeout.connect(self.search)
        for widget in (self.case_box, self.word_box, self.fuzzy_box):
            widget.toggled.connect(self._on_option_changed)
        self.scope_group.buttonToggled.connect(self._on_option_changed)
        self.threshold.valueChanged.connect(self._on_option_changed)
        self.tree.itemChanged.connect(self._on_tree_item_changed)
        self.tick_all.clicked.connect(lambda: self.set_all_ticked(True))
        self.tick_none.clicked.connect(lambda: self.set_all_ticked(False))
        self.apply_button.clicked.connect(self.apply)
        buttons.rejected.connect(self.reject)
        self.search()

    # -- searching -------------------------------------------------------------------------------
    def scope(self) -> Scope:
        for scope, button in self.scope_buttons.items():
            if button.isChecked():
                return scope  # type: ignore[return-value]
        return "document"

    def set_scope(self, scope: Scope) -> None:
        self.scope_buttons[scope].setChecked(True)
        self._search_timer.stop()
        self.search()

    def _on_option_changed(self, *_args: object) -> None:
        self._search_timer.start()

    def search(self) -> None:
        documents = self.load_scope(self.scope())
        self.documents = {d.doc_id: d for d in documents}
        self.preview = find_occurrences(
            self.source,
            documents,
            origin_doc_id=self.current.doc_id,
            case_sensitive=self.case_box.isChecked(),
            whole_word=self.word_box.isChecked(),
            fuzzy=self.fuzzy_box.isChecked(),
            fuzzy_threshold=float(self.threshold.value()),
        )
        self.fill()

    def fill(self) -> None:
        """Show the preview: one row per occurrence, grouped by kind."""
        self.tree.blockSignals(True)
        self.tree.setUpdatesEnabled(False)
        try:
            self.tree.clear()
            self.section_items.clear()
            bold = QFont(self.tree.font())
            bold.setBold(True)
            grey = QBrush(QColor("#888888"))
            for key, label in SECTIONS:
                matches: list[Match] = getattr(self.preview, key)
                section = QTreeWidgetItem([f"{label} ({len(matches)})", "", "", ""])
                section.setFont(0, bold)
                section.setFlags(Qt.ItemFlag.ItemIsEnabled)
                checkable = key in ("matches", "fuzzy", "suggested")
                children = []
                for match in matches:
                    item = QTreeWidgetItem(
                        [
                            match.doc_id,
                            f"{match.start}–{match.end}",
                            f"{match.score:.0f}",
                            context_text(match),
                        ]
                    )
                    item.setData(0, MATCH_ROLE, match)
                    if checkable:
                        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                        item.setCheckState(
                            0, Qt.CheckState.Checked if match.selected else Qt.CheckState.Unchecked
                        )
                    else:
                        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                        for column in range(4):
                            item.setForeground(column, grey)
                        if key == "conflicts":
                            item.setToolTip(3, "overlaps " + ", ".join(match.overlapping_ids))
                    children.append(item)
                section.addChildren(children)
                self.tree.addTopLevelItem(section)
                section.setFirstColumnSpanned(True)
                section.setExpanded(key != "already")
                self.section_items[key] = section
        finally:
            self.tree.setUpdatesEnabled(True)
            self.tree.blockSignals(False)
        self._update_summary()

    # -- ticking and applying --------------------------------------------------------------------
    def match_items(self, key: str) -> list[QTreeWidgetItem]:
        section = self.section_items.get(key)
        if section is None:
            return []
        items = [section.child(i) for i in range(section.childCount())]
        return [item for item in items if item is not None]

    def set_all_ticked(self, ticked: bool) -> None:
        self.tree.blockSignals(True)
        for key in ("matches", "fuzzy", "suggested"):
            for item in self.match_items(key):
                wanted = ticked and not item.data(0, MATCH_ROLE).is_fuzzy
                item.setCheckState(0, Qt.CheckState.Checked if wanted else Qt.CheckState.Unchecked)
                item.data(0, MATCH_ROLE).selected = wanted
        self.tree.blockSignals(False)
        self._update_summary()

    def _on_tree_item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        match = item.data(0, MATCH_ROLE)
        if isinstance(match, Match) and column == 0:
            match.selected = item.checkState(0) == Qt.CheckState.Checked
            self._update_summary()

    def _update_summary(self) -> None:
        counts = self.preview.counts()
        chosen = len(self.preview.selected)
        documents = len({m.doc_id for m in self.preview.selected})
        self.summary.setText(
            f"{chosen} ticked in {documents} document(s) · {counts['matches']} exact, {counts['fuzzy']} fuzzy, "
            f"{counts['suggested']} pending suggestions, {counts['conflicts']} conflicts, "
            f"{counts['already']} already annotated"
        )
        self.apply_button.setText(f"Apply ({chosen})")
        self.apply_button.setEnabled(chosen > 0)

    def apply(self) -> None:
        """Tag every ticked occurrence as one undo step and close."""
        self.applied = apply_propagation(
            self.history, self.preview, self.documents, self.source, annotator=self.annotator
        )
        self.accept()

    def outcome(self) -> str:
        """What Apply did, in one sentence (for the window's status bar)."""
        commands = self.applied.commands if isinstance(self.applied, CompositeCommand) else []
        added = [c for c in commands if isinstance(c, AddAnnotation)]
        accepted = len(commands) - len(added)
        documents = {c.document.doc_id for c in commands if isinstance(c, AddAnnotation | ReplaceAnnotation)}
        text = (
            f"Annotate all: {len(added)} {self.source.type} tag{'s' if len(added) != 1 else ''} added"
            + (
                f" and {accepted} pending suggestion{'s' if accepted != 1 else ''} accepted"
                if accepted
                else ""
            )
            + f" in {len(documents)} document{'s' if len(documents) != 1 else ''} (Ctrl+Z takes them back)"
        )
        left = len(self.preview.conflicts)
        if left:
            text += f"; {left} overlapping occurrence{'s' if left != 1 else ''} left alone"
        return text + "."


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
