"""The adjudication window: documents, the colour-coded note, the current unit, one key per decision.

The window composes; the decisions, undo and the log live in
:class:`~annotator.adjudication.decisions.AdjudicationSession` (one per document), which the
views subscribe to.
"""

from __future__ import annotations

from itertools import pairwise

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QCloseEvent, QColor, QKeySequence, QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QProgressBar,
    QStackedWidget,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from annotator.adjudication.corpus import PreparedCorpus
from annotator.adjudication.decisions import AdjudicationSession, AutoAccept
from annotator.adjudication.units import Unit, UnitKind
from annotator.core.schema import load_schema
from annotator.errors import AnnotatorError, printable_path
from annotator.gui.adaptive_layout import AdaptiveBody, Panel, note_min_width
from annotator.gui.adjudication.edit_dialog import EditUnitDialog
from annotator.gui.adjudication.highlighter import STATE_COLOURS, STATE_LABELS, UnitHighlighter, unit_state
from annotator.gui.adjudication.side_by_side import SideBySideView
from annotator.gui.adjudication.unit_panel import UnitPanel
from annotator.gui.offsets import OffsetMap
from annotator.gui.status_bar import MessageStatusBar
from annotator.gui.theme import note_font
from annotator.io.journal import JournalWriter, journal_failure_message
from annotator.io.preferences import load_preferences, save_preferences
from annotator.io.window_layouts import load_window_layout, save_window_layout

_LINKS_LEFT_OUT = "link(s) of the versions not in the gold (not made by every annotator)"


class AdjudicationWindow(QMainWindow):
    """Adjudicate a prepared corpus document by document.

    Parameters
    ----------
    prepared:
        The aligned corpus (see :func:`~annotator.adjudication.corpus.prepare_corpus`).
    adjudicator:
        Name recorded on gold tags and in the decision logs.
    auto:
        Auto-accept rule for agreements.
    schema_name:
        Types offered by the edit dialog (and their colours in the side-by-side view).
    dark:
        Whether the theme is dark.
    """

    def __init__(
        self,
        prepared: PreparedCorpus,
        adjudicator: str = "adjudicator",
        auto: AutoAccept | str = AutoAccept.UNANIMOUS,
        schema_name: str = "i2b2-2014",
        parent: QWidget | None = None,
        dark: bool = False,
    ) -> None:
        super().__init__(parent)
        self.prepared = prepared
        self.adjudicator = adjudicator
        self.dark = dark
        self.preferences = load_preferences()
        self.schema = self.preferences.apply(load_schema(schema_name))
        # Each decision is appended to its document's decision log and fsynced as it is made.
        self.journal = JournalWriter()
        self.sessions: dict[str, AdjudicationSession] = {
            doc_id: prepared.open_session(doc_id, adjudicator, auto, journal=self.journal)
            for doc_id in prepared.doc_ids
        }
        # A document whose logged decisions were not replayed (the versions changed since) has
        # a gold file that holds them: it is written again, even if nothing else is decided.
        self._dirty: set[str] = {doc_id for doc_id, session in self.sessions.items() if session.stale}
        self._session: AdjudicationSession | None = None
        self._highlighter: UnitHighlighter | None = None
        self._offsets = OffsetMap("")
        self.current_unit: Unit | None = None
        self.setWindowTitle(
            f"Adjudication — {printable_path(', '.join(prepared.versions.names))} → {printable_path(prepared.gold_dir)}"
        )
        self.resize(1500, 900)
        self._build_widgets()
        self._build_actions()
        for doc_id, session in self.sessions.items():
            session.resolution_changed.connect(
                lambda unit_id, d=doc_id: self._on_session_resolution_changed(d, unit_id)
            )
            session.finalised_changed.connect(lambda _value, d=doc_id: self._on_session_finalised_changed(d))
        self._refresh_corpus_progress()
        if self.sessions:
            self.document_list.setCurrentRow(0)

    # -- layout ----------------------------------------------------------------------------
    def _build_widgets(self) -> None:
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(4, 4, 4, 4)
        self.corpus_label = QLabel()
        self.corpus_progress = QProgressBar()
        self.document_list = QListWidget()
        self.document_list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for doc_id in self.sessions:
            item = QListWidgetItem(doc_id)
            item.setData(Qt.ItemDataRole.UserRole, doc_id)
            self.document_list.addItem(item)
            self._refresh_document_item(doc_id, item)
        self.corpus_label.setWordWrap(True)
        left_layout.addWidget(self.document_list, 1)
        left_layout.addWidget(self.corpus_label)
        left_layout.addWidget(self.corpus_progress)
        self.document_list.currentItemChanged.connect(self._on_document_list_current_item_changed)

        self.note_view = QPlainTextEdit()
        self.note_view.setReadOnly(True)
        self.note_view.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.note_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.note_view.cursorPositionChanged.connect(self._on_note_view_cursor_position_changed)
        self.side_by_side = SideBySideView(self.schema, self.dark)
        # The merged note and the versions side by side share one place; V switches.
        self.views = QStackedWidget()
        self.views.addWidget(self.note_view)
        self.views.addWidget(self.side_by_side)

        self.unit_panel = UnitPanel()
        self.unit_panel.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        legend = QLabel(
            " ".join(
                f"<span style='background:{STATE_COLOURS[state]}; color:#1a1a1a'>&nbsp;{label}&nbsp;</span>"
                for state, label in STATE_LABELS.items()
            )
        )
        legend.setWordWrap(True)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(4, 4, 4, 4)
        right_layout.addWidget(legend)
        right_layout.addWidget(self.unit_panel, 1)
        self.body = AdaptiveBody(
            self.views,
            [Panel("Documents", left)],
            [Panel("Current unit", right)],
            ([220, 820, 420], []),
        )
        self.body.restore(load_window_layout("adjudication"))
        self.setCentralWidget(self.body)
        status = MessageStatusBar()
        self.setStatusBar(status)
        self.adjudicator_label = status.add_field(8)
        self.adjudicator_label.setText(f"Adjudicator: {self.adjudicator}")
        status.showMessage("Ready")
        self.set_monospace(self.preferences.monospace)

    def _action(
        self, menu: QMenu, text: str, keys: list[str], slot: object, checkable: bool = False
    ) -> QAction:
        action = QAction(text, self)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        self.addAction(action)
        menu.addAction(action)
        self.actions_by_text[text] = action
        return action

    def _build_actions(self) -> None:
        self.actions_by_text: dict[str, QAction] = {}
        file_menu = self.menuBar().addMenu("&File")
        self._action(file_menu, "Save", ["Ctrl+S"], self.save)
        file_menu.addSeparator()
        self._action(file_menu, "Quit", ["Ctrl+Q"], self.close)
        menu = self.menuBar().addMenu("&Adjudicate")
        self._action(menu, "Next unresolved unit", ["J", "N"], self.next_unit)
        self._action(menu, "Previous unresolved unit", ["K", "P"], self.previous_unit)
        # Only the versions there are: "Take version 3" with two versions would do nothing.
        for number, name in enumerate(self.prepared.versions.names[:9], 1):
            self._action(
                menu,
                f"Take version {number} ({name})",
                [str(number)],
                lambda _=False, n=number - 1: self.take(n),
            )
        self._action(menu, "Both / all versions", ["B"], self.take_all)
        self._action(menu, "Neither / dismiss", ["X"], self.neither)
        self._action(menu, "Accept candidate", ["A"], self.accept_candidate)
        self._action(menu, "Edit gold tag…", ["E"], self.edit_unit)
        self._action(menu, "Undo", ["U", "Ctrl+Z"], self.undo)
        self._action(menu, "Redo", ["Ctrl+Shift+Z", "Ctrl+Y"], self.redo)
        self._action(menu, "Finalise document", ["F"], self.finalise)
        menu.addSeparator()
        self._action(menu, "Next document", ["Alt+Down", "Ctrl+PgDown"], lambda: self._step_document(1))
        self._action(menu, "Previous document", ["Alt+Up", "Ctrl+PgUp"], lambda: self._step_document(-1))
        view = self.menuBar().addMenu("&View")
        self._action(view, "Versions side by side", ["V"], lambda: self.set_side_by_side(None), True)
        self._action(view, "Monospace font", ["Ctrl+Shift+M"], self._on_monospace_toggled, True)
        self.actions_by_text["Monospace font"].setChecked(self.preferences.monospace)
        view.addSeparator()
        self._action(view, "Reset layout", [], lambda: self.body.reset())

    # -- views -----------------------------------------------------------------------------
    def set_side_by_side(self, on: bool | None) -> None:
        """Show the versions side by side (``True``), the merged note (``False``) or switch (``None``)."""
        if on is None:
            on = self.views.currentWidget() is not self.side_by_side
        self.actions_by_text["Versions side by side"].setChecked(on)
        self.views.setCurrentWidget(self.side_by_side if on else self.note_view)
        self.go_to(self.current_unit)

    def _on_monospace_toggled(self) -> None:
        on = self.actions_by_text["Monospace font"].isChecked()
        self.set_monospace(on)
        self.preferences.monospace = on
        save_preferences(self.preferences)

    def set_monospace(self, on: bool) -> None:
        """A fixed-width font (tables keep their columns) or the proportional one, in both views."""
        font = note_font(on)
        self.note_view.setFont(font)
        self.side_by_side.set_note_font(font)
        self.note_view.setMinimumWidth(note_min_width(font, self.note_view))

    # -- documents -------------------------------------------------------------------------
    @property
    def session(self) -> AdjudicationSession | None:
        return self._session

    def open_document(self, doc_id: str) -> None:
        """Show a document (by id) and go to its first unresolved unit."""
        for row in range(self.document_list.count()):
            if self.document_list.item(row).data(Qt.ItemDataRole.UserRole) == doc_id:
                self.document_list.setCurrentRow(row)
                return
        raise AnnotatorError(f"no document {doc_id!r} in the adjudication")

    def _on_document_list_current_item_changed(
        self, current: QListWidgetItem | None, _previous: object
    ) -> None:
        if current is None:
            return
        doc_id = str(current.data(Qt.ItemDataRole.UserRole))
        session = self.sessions[doc_id]
        if session is self._session:
            return
        self._session = session
        self._offsets = OffsetMap(session.alignment.text)
        self.note_view.blockSignals(True)
        if self._highlighter is not None:
            self._highlighter.setDocument(None)
        self.note_view.setPlainText(session.alignment.text)
        self._highlighter = UnitHighlighter(self.note_view.document(), session)
        self.note_view.blockSignals(False)
        self.side_by_side.set_session(session)
        self.current_unit = None
        self.go_to(session.next_unresolved())
        message = f"{printable_path(doc_id)}: {self._progress_text(session)}"
        if session.stale:
            # An annotator changed their copy after these decisions: they were not replayed.
            message += (
                f"; the versions changed since {len(session.stale)} decision(s) were made, "
                f"open again: {', '.join(session.stale)}"
            )
        self.statusBar().showMessage(message)

    def _step_document(self, step: int) -> None:
        row = self.document_list.currentRow() + step
        if 0 <= row < self.document_list.count():
            self.document_list.setCurrentRow(row)

    @staticmethod
    def _progress_text(session: AdjudicationSession) -> str:
        done, total = session.progress()
        return "finalised" if session.finalised else f"{done}/{total} decided"

    def _refresh_document_item(self, doc_id: str, item: QListWidgetItem | None = None) -> None:
        if item is None:
            matches = [
                self.document_list.item(r)
                for r in range(self.document_list.count())
                if self.document_list.item(r).data(Qt.ItemDataRole.UserRole) == doc_id
            ]
            if not matches:
                return
            item = matches[0]
        session = self.sessions[doc_id]
        if self.prepared.has_foreign_gold(doc_id):
            mark = "⚠ "
        else:
            mark = "✔ " if session.finalised else ("● " if doc_id in self._dirty else "  ")
        item.setText(f"{mark}{printable_path(doc_id)}   {self._progress_text(session)}")
        # The list elides long ids when narrow; the tooltip keeps them readable.
        item.setToolTip(f"{printable_path(doc_id)}: {self._progress_text(session)}")

    def _refresh_corpus_progress(self) -> None:
        done = sum(s.progress()[0] for s in self.sessions.values())
        total = sum(s.progress()[1] for s in self.sessions.values())
        finalised = sum(s.finalised for s in self.sessions.values())
        self.corpus_progress.setRange(0, max(total, 1))
        self.corpus_progress.setValue(done)
        self.corpus_label.setText(
            f"Corpus: {done}/{total} units decided, {finalised}/{len(self.sessions)} documents finalised"
        )

    # -- units -----------------------------------------------------------------------------
    def go_to(self, unit: Unit | None) -> None:
        """Make ``unit`` current: select it in the note and describe it in the panel."""
        session = self._session
        if session is None:
            return
        self.current_unit = unit
        selections = []
        if unit is not None:
            start, end = self._offsets.to_qt(unit.start), self._offsets.to_qt(unit.end)
            cursor = QTextCursor(self.note_view.document())
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor  # type: ignore[misc]
            # Same hue as the unit's colour, darker, so the current unit stands out.
            selection.format.setBackground(QColor(STATE_COLOURS[unit_state(session, unit)]).darker(135))
            selection.format.setFontWeight(700)
            selections.append(selection)
            self.note_view.blockSignals(True)
            caret = QTextCursor(self.note_view.document())
            caret.setPosition(start)
            self.note_view.setTextCursor(caret)
            self.note_view.blockSignals(False)
            self.note_view.centerCursor()
        self.note_view.setExtraSelections(selections)
        if self.views.currentWidget() is self.side_by_side:
            colour = STATE_COLOURS[unit_state(session, unit)] if unit is not None else "#000000"
            self.side_by_side.show_unit(unit, QColor(colour).darker(160).name())
        self.unit_panel.show_unit(session, unit)

    def _on_note_view_cursor_position_changed(self) -> None:
        session = self._session
        if session is None:
            return
        position = self._offsets.from_qt(self.note_view.textCursor().position())
        for unit in session.units:
            if unit.start <= position < unit.end:
                if unit is not self.current_unit:
                    self.go_to(unit)
                return

    def next_unit(self) -> None:
        """J: the next unit to decide, in this document, then in the next one that has any."""
        self._step_unit(+1)

    def previous_unit(self) -> None:
        """K: the previous unit to decide, in this document, then in the previous one."""
        self._step_unit(-1)

    def _step_unit(self, direction: int) -> None:
        session = self._session
        if session is None:
            return
        unresolved = session.unresolved()
        current = self.current_unit
        if direction > 0:
            after = current.start if current is not None else -1
            found = next((u for u in unresolved if u.start > after), None)
        else:
            before = current.start if current is not None else 1 << 62
            found = next((u for u in reversed(unresolved) if u.start < before), None)
        if found is None and self._go_to_document_to_decide(direction):
            return
        if found is None:
            # No other document has anything left: wrap around this one, if it has.
            found = unresolved[0 if direction > 0 else -1] if unresolved else None
            if found is None:
                self.statusBar().showMessage("Every unit of every document is decided")
                return
        self.go_to(found)

    def _go_to_document_to_decide(self, direction: int) -> bool:
        """Open the next (or previous) document with units left to decide, at its first (last) one."""
        count = self.document_list.count()
        here = self.document_list.currentRow()
        for step in range(1, count):
            row = (here + direction * step) % count
            doc_id = str(self.document_list.item(row).data(Qt.ItemDataRole.UserRole))
            session = self.sessions[doc_id]
            left = session.unresolved()
            if left and not session.finalised:
                self.document_list.setCurrentRow(row)
                self.go_to(left[0] if direction > 0 else left[-1])
                self.statusBar().showMessage(
                    f"{printable_path(doc_id)}: {len(left)} unit{'s' if len(left) != 1 else ''} to decide"
                )
                return True
        return False

    def _refused_foreign_gold(self, doc_id: str) -> bool:
        """A gold file no adjudication wrote (⚠) is never overwritten: refuse the decisions
        that could never be saved, rather than take them and lose them at the close."""
        if not self.prepared.has_foreign_gold(doc_id):
            return False
        self.statusBar().showMessage(
            f"{printable_path(doc_id)}: its gold file was not written by an adjudication (no decision "
            "log) and is never overwritten, so no decision can be made here; adjudicate into an empty "
            "folder, or let annotator adjudicate --force replace it"
        )
        return True

    def _decide(self, action: str, *args: object) -> None:
        session, unit = self._session, self.current_unit
        if session is None or unit is None:
            self.statusBar().showMessage("No unit selected")
            return
        if self._refused_foreign_gold(session.doc_id):
            return
        try:
            getattr(session, action)(unit.id, *args)
        except AnnotatorError as error:
            self.statusBar().showMessage(error.one_line())
            return
        self.go_to(session.next_unresolved(unit.start))

    def take(self, version: int) -> None:
        """Take version ``version`` (0-based, the folders' order: the key is ``version + 1``)
        of the current unit."""
        unit, session = self.current_unit, self._session
        if unit is not None and unit.kind is UnitKind.MISSED_CANDIDATE:
            self.statusBar().showMessage("A candidate is accepted (A) or dismissed (X)")
            return
        if session is None:
            self._decide("take", version)
            return
        here = session.version_of_key(version + 1)
        if here is None:
            names = self.prepared.versions.names
            name = names[version] if version < len(names) else f"version {version + 1}"
            self.statusBar().showMessage(
                f"{printable_path(name)} has no version of {printable_path(session.doc_id)}"
            )
            return
        self._decide("take", here)

    def take_all(self) -> None:
        unit, session = self.current_unit, self._session
        if unit is not None and unit.kind is UnitKind.MISSED_CANDIDATE:
            self._decide("accept")
            return
        self._decide("take_all")
        resolution = session.resolutions.get(unit.id) if session is not None and unit is not None else None
        if session is None or resolution is None:
            return
        spans = sorted((g.start, g.end) for g in session.gold.annotations if g.id in resolution.gold_ids)
        overlapping = [(a, b) for a, b in pairwise(spans) if b[0] < a[1]]
        if overlapping:
            # Allowed (nested tags can be meant), but on a boundary or type conflict it is
            # mostly a slip: the gold would hold one phrase twice, counted twice by every score.
            (start, end), (other_start, other_end) = overlapping[0]
            self.statusBar().showMessage(
                f"Took every version: the gold now holds overlapping tags ({start}-{end} and "
                f"{other_start}-{other_end}), one phrase counted twice by every score; U undoes, "
                "1 or 2 takes one version"
            )

    def neither(self) -> None:
        unit = self.current_unit
        self._decide("dismiss" if unit is not None and unit.kind is UnitKind.MISSED_CANDIDATE else "neither")

    def accept_candidate(self) -> None:
        unit = self.current_unit
        if unit is None or unit.kind is not UnitKind.MISSED_CANDIDATE:
            self.statusBar().showMessage("Not a missed-PHI candidate")
            return
        self._decide("accept")

    def edit_unit(self) -> None:
        session, unit = self._session, self.current_unit
        if session is None or unit is None:
            return
        cursor = self.note_view.textCursor()
        if cursor.hasSelection():
            start = self._offsets.from_qt(cursor.selectionStart())
            end = self._offsets.from_qt(cursor.selectionEnd())
        else:
            start, end = unit.start, unit.end
        template = unit.suggestion or next((a for annotations in unit.versions for a in annotations), None)
        type_name = template.type if template is not None else ""
        dialog = EditUnitDialog(self.schema, session.alignment.text, start, end, type_name, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self._decide("edit", [dialog.key()])

    def undo(self) -> None:
        if self._session is not None:
            unit = self._session.undo()
            if unit is not None:
                self.go_to(unit)

    def redo(self) -> None:
        if self._session is not None:
            unit = self._session.redo()
            if unit is not None:
                self.go_to(self._session.next_unresolved(unit.start))

    def finalise(self) -> None:
        session = self._session
        if session is None or self._refused_foreign_gold(session.doc_id):
            return
        try:
            session.finalise()
        except AnnotatorError as error:
            self.statusBar().showMessage(error.one_line())
            return
        self.save()
        message = f"{printable_path(session.doc_id)} finalised and saved"
        if session.links_left_out:
            message += f"; {session.links_left_out} {_LINKS_LEFT_OUT}"
        self.statusBar().showMessage(message)

    def save(self) -> None:
        """Write the gold file and decision log of every changed document.

        A gold file that no adjudication session wrote (no decision log) may hold hand-made
        work and is left alone.
        """
        kept = [doc_id for doc_id in self._dirty if self.prepared.has_foreign_gold(doc_id)]
        self._dirty.difference_update(kept)
        for doc_id in sorted(self._dirty):
            try:
                self.sessions[doc_id].save(self.prepared.gold_dir)
            except AnnotatorError as error:
                self.statusBar().showMessage(error.one_line())
                return
        saved = len(self._dirty)
        links_left_out = sum(self.sessions[doc_id].links_left_out for doc_id in self._dirty)
        self._dirty.clear()
        for doc_id in self.sessions:
            self._refresh_document_item(doc_id)
        message = f"Saved {saved} document{'s' if saved != 1 else ''} to {self.prepared.gold_dir}"
        if links_left_out:
            message += f"; {links_left_out} {_LINKS_LEFT_OUT}"
        if kept:
            message += (
                f"; not overwritten (gold without decision log): {', '.join(sorted(kept))} "
                "(annotator adjudicate --force replaces them)"
            )
        self.statusBar().showMessage(message)

    # -- session signals -------------------------------------------------------------------
    def _on_session_resolution_changed(self, doc_id: str, unit_id: str) -> None:
        self._dirty.add(doc_id)
        session = self.sessions[doc_id]
        if session is self._session and self._highlighter is not None:
            self._highlighter.refresh_unit(session.unit(unit_id))
            self.statusBar().showMessage(f"{printable_path(doc_id)}: {self._progress_text(session)}")
        self._refresh_document_item(doc_id)
        self._refresh_corpus_progress()
        failures = self.journal.take_failures()
        if failures:
            self.statusBar().showMessage(journal_failure_message(failures))

    def _on_session_finalised_changed(self, doc_id: str) -> None:
        self._dirty.add(doc_id)
        self._refresh_document_item(doc_id)
        self._refresh_corpus_progress()

    def closeEvent(self, event: QCloseEvent) -> None:
        # Never lose a decision: whatever changed is written before the window goes.
        if self._dirty:
            self.save()
        self.journal.close()
        save_window_layout("adjudication", self.body.state())
        super().closeEvent(event)
