"""The main window: composes the widgets around an :class:`AnnotationSession`.

It computes nothing: widgets show core objects and the session, user input goes to the
session or the document's editor, and the views follow the core's signals.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.propagation import Scope, prepare_indexes
from annotator.errors import AnnotatorError, printable_path
from annotator.gui.adaptive_layout import AdaptiveBody, Panel, note_min_width
from annotator.gui.annotation_panel import AnnotationPanel
from annotator.gui.attribute_editor import AttributeEditor
from annotator.gui.document_list import FILTERS, DocumentList
from annotator.gui.elided_label import ElidedLabel
from annotator.gui.find_bar import FindBar
from annotator.gui.main_menus import build_main_menus
from annotator.gui.memory import opening_a_record
from annotator.gui.note_view import NoteView
from annotator.gui.priority_queue import PriorityQueue
from annotator.gui.propagation_dialog import AnnotateAllDialog
from annotator.gui.relation_panel import RelationPanel
from annotator.gui.retrain_as_you_go import RetrainAsYouGo
from annotator.gui.status_bar import LockBanner, SessionStatusBar
from annotator.gui.tag_palette import TagPalette
from annotator.gui.task_attributes import TaskAttributeEditor
from annotator.gui.theme import ThemeName, apply_theme
from annotator.gui.type_settings_dialog import TypeSettingsDialog
from annotator.gui.window_dialogs import (
    ask_outside_change,
    ask_recovery,
    close_unsaved,
    confirm_close,
    confirm_override,
    tell_edits_not_recovered,
)
from annotator.gui.window_geometry import GEOMETRY_KEY, geometry_state, restore_geometry
from annotator.gui.workers import run_with_progress
from annotator.io.places import Place, load_places, save_places
from annotator.io.preferences import MAX_ZOOM, MIN_ZOOM, Preferences, load_preferences, save_preferences
from annotator.io.window_layouts import load_window_layout, save_window_layout
from annotator.session.annotation_session import AnnotationSession

# Opens a project, folder or file in a new window: (path, annotator, theme) -> window.
# Injected by the app module, which builds windows (so this module need not import it).
OpenProject = Callable[[Path, str, ThemeName], QMainWindow]


class MainWindow(QMainWindow):
    """Document list | note view | palette, attributes and annotation table.

    Parameters
    ----------
    session:
        The annotation session (workspace, history, autosave, time).
    dark:
        Whether the theme is dark (highlight colours follow it).
    open_project:
        Builds the window for another project (File > Open); without it the action is off.
    """

    def __init__(
        self, session: AnnotationSession, dark: bool = False, open_project: OpenProject | None = None
    ) -> None:
        super().__init__()
        self.session = session
        self.dark = dark
        self.open_project = open_project
        # The user's own type colours and keys (per user, not per project) over the schema's.
        self.preferences = load_preferences()
        schema = self.preferences.apply(session.schema)
        project = session.workspace.project
        self.setWindowTitle(f"PHI Annotator — {printable_path(project.name)}")
        self.resize(1400, 860)
        # Opened from the menus (window_dialogs): the shortcuts sheet, File > Open's successor.
        self.keys_dialog: QDialog | None = None
        self.successor: QMainWindow | None = None
        # Questions the window asks; replaced in tests.
        self.ask_recovery: Callable[[str], bool | None] = lambda doc_id: ask_recovery(self, doc_id)
        self.confirm_close: Callable[[], str] = lambda: confirm_close(self)
        self.confirm_override: Callable[[str], bool] = lambda holder: confirm_override(self, holder)
        self.ask_outside_change: Callable[[str], str] = lambda doc_id: ask_outside_change(self, doc_id)
        self.close_unsaved: Callable[[list[str]], bool] = lambda reasons: close_unsaved(self, reasons)
        self.tell_edits_not_recovered: Callable[[str], None] = lambda line: tell_edits_not_recovered(
            self, line
        )
        self._checking_outside = False
        # Where the user was in each note (selection, scroll), this session and the last ones.
        self.places: dict[str, Place] = load_places(project.root, session.annotator) if session.track else {}
        self._place_shown = False
        self.documents = DocumentList()
        self.priority = PriorityQueue(self, session, self.open_document)
        self.next_priority_button = QPushButton("Next by priority")
        self.next_priority_button.setToolTip(
            "Open the note not started yet that the model is least sure of (Ctrl+Shift+N)"
        )
        self.next_priority_button.setEnabled(not project.plain_folder)
        documents_box = QWidget()
        documents_layout = QVBoxLayout(documents_box)
        documents_layout.setContentsMargins(0, 0, 0, 0)
        documents_layout.addWidget(self.next_priority_button)
        # The tenth day: how much is done, and only what is left in the list if so chosen.
        self.progress_label = ElidedLabel("")
        self.document_filter = QComboBox()
        self.document_filter.addItems(list(FILTERS))
        self.document_filter.setToolTip("Which documents the list shows (the open one always shows)")
        chosen = self.preferences.document_filter
        if chosen in FILTERS:
            self.document_filter.setCurrentText(chosen)
            self.documents.set_filter(FILTERS[chosen])
        filter_row = QHBoxLayout()
        filter_row.addWidget(self.progress_label, 1)
        filter_row.addWidget(self.document_filter)
        documents_layout.addLayout(filter_row)
        documents_layout.addWidget(self.documents, 1)
        self.view = NoteView(schema, dark, self.preferences.monospace)
        self.view.set_type_labels(self.preferences.type_labels)
        if self.preferences.note_zoom:
            self.view.set_zoom(self.preferences.note_zoom)
        self.view.menu_factory = self._note_menu
        self.find_bar = FindBar(self.view)
        self.find_bar.hide()
        self.banner = LockBanner()
        self.palette_widget = TagPalette(schema, dark)
        self.attributes = AttributeEditor(schema, lambda: self.session.editor)
        self.table = AnnotationPanel(schema)
        self._restore_table_view()
        self.relations = RelationPanel(lambda: self.session.editor, self.session.current)
        self.task_attributes = TaskAttributeEditor(schema, lambda: self.session.editor)
        self.status = SessionStatusBar()
        self.setStatusBar(self.status)
        self.retrainer = RetrainAsYouGo(self, session, self.priority, self.status.add_field(14))
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        centre_layout.setSpacing(2)
        centre_layout.addWidget(self.banner)
        centre_layout.addWidget(self.view, 1)
        centre_layout.addWidget(self.find_bar)
        current = QWidget()
        current_layout = QVBoxLayout(current)
        current_layout.setContentsMargins(0, 0, 0, 0)
        current_layout.addWidget(self.attributes)
        current_layout.addWidget(self.task_attributes)
        listed = QWidget()
        listed_layout = QVBoxLayout(listed)
        listed_layout.setContentsMargins(0, 0, 0, 0)
        listed_layout.addWidget(self.table, 1)
        listed_layout.addWidget(self.relations)
        self.view.setMinimumWidth(note_min_width(self.view.font(), self.view))
        self.body = AdaptiveBody(
            centre,
            [Panel("Documents", documents_box)],
            [
                Panel("Tags (select text, then press the key)", self.palette_widget),
                Panel("Current annotation", current),
                Panel("Annotations", listed),
            ],
            ([300, 680, 420], [300, 170, 390]),
        )
        layout = load_window_layout("annotation")
        self.body.restore(layout)
        # A screenshot takes the size it is given.
        if session.track and restore_geometry(self, layout.get(GEOMETRY_KEY)):
            # Arranged for the restored width now: a hidden window gets its resize event
            # only when shown, and the side-by-side panels would hold it wider till then.
            self.body.fit_width(self.width())
        self.setCentralWidget(self.body)
        self.actions_by_name: dict[str, QAction] = {}
        self._build_menus()
        self._connect()
        self.populate_documents()
        self._clock_timer = QTimer(self)
        self._clock_timer.setInterval(5000)
        self._clock_timer.timeout.connect(self._refresh_status)
        self._clock_timer.timeout.connect(self.check_outside_change)
        self._clock_timer.start()
        for widget in (
            self.view,
            self.view.viewport(),
            self.table.table,
            self.table.table.viewport(),
            self.palette_widget,
        ):
            widget.installEventFilter(self)

    # -- building -----------------------------------------------------------------------------------
    def _build_menus(self) -> None:
        build_main_menus(self)

    def _add_model_menu(self) -> None:
        from annotator.gui.model_actions import ModelActions

        s = self.session
        project = s.workspace.project
        self.model_actions = ModelActions(
            self,
            project,
            lambda: s.document,
            s.add_suggestions,
            None if project.plain_folder else s.annotator,
        )
        self.model_actions.finished.connect(self._on_model_actions_finished)
        self.model_actions.failed.connect(lambda message: self._on_session_notice(f"Model: {message}"))
        self.menuBar().addMenu(self.model_actions.menu())

    def _on_model_actions_finished(self, summary: str) -> None:
        self._on_session_notice(summary)
        self.populate_documents()  # suggestion counts, and pre-annotations for documents not started

    def _connect(self) -> None:
        s = self.session
        s.document_changed.connect(self._on_session_document_changed)
        self._shown_current: Annotation | None = None
        s.current_changed.connect(self._on_session_current_changed)
        s.save_state_changed.connect(self.status.show_save_state)
        s.read_only_changed.connect(self.banner.show_lock)
        s.read_only_changed.connect(self._on_session_read_only_changed)
        s.entry_changed.connect(self._on_session_entry_changed)
        s.notice.connect(self._on_session_notice)
        # Looked up when emitted: tests replace the question after the window is built.
        s.edits_not_recovered.connect(lambda line: self.tell_edits_not_recovered(line))
        self.banner.override_requested.connect(self._on_banner_override_requested)
        self.documents.document_chosen.connect(self.open_document)
        self.documents.progress_changed.connect(self._show_progress)
        self.document_filter.currentTextChanged.connect(self._on_document_filter_current_text_changed)
        self.next_priority_button.clicked.connect(self.priority.open_next)
        self.priority.message.connect(self._on_session_notice)
        self.retrainer.message.connect(self._on_session_notice)
        self.view.tag_key_pressed.connect(self._on_view_tag_key_pressed)
        self.palette_widget.type_chosen.connect(self._on_view_tag_key_pressed)
        self.view.accept_pressed.connect(s.accept_current)
        self.view.delete_pressed.connect(s.delete_current)
        self.attributes.accept_requested.connect(s.accept_current)
        self.attributes.delete_requested.connect(s.delete_current)
        self.view.navigate_pressed.connect(self.step)
        self.view.position_clicked.connect(self._on_view_position_clicked)
        # Moving the caret into an annotation with the arrow keys makes it current too.
        self.view.caret_moved.connect(self._on_view_position_clicked)
        self.view.escape_pressed.connect(lambda: s.set_current(None))
        self.table.annotation_activated.connect(self._on_table_annotation_activated)
        self.relations.annotation_activated.connect(self._on_table_annotation_activated)

    # -- documents --------------------------------------------------------------------------------------
    def populate_documents(self) -> None:
        s = self.session
        self.documents.populate(
            s.workspace, s.statuses(), {e.doc_id: s.seconds(e.doc_id) for e in s.workspace.entries}
        )
        if s.doc_id is not None:
            self.documents.set_current(s.doc_id)

    def open_document(self, doc_id: str) -> bool:
        self.attributes.commit_comment()  # before the record it was typed in is saved and closed
        if doc_id == self.session.doc_id:
            return True  # already open: the selection and the current annotation stay
        self.keep_place()
        try:
            with opening_a_record():
                self.session.open_document(doc_id, self.ask_recovery)
        except AnnotatorError as error:
            QMessageBox.warning(self, "Cannot open document", error.one_line())
            return False
        self._restore_place()
        return True

    def next_unfinished(self, direction: int = 1) -> None:
        """Open the next (or previous) document not done, in list order, going round."""
        target = self.documents.next_unfinished(self.session.doc_id, direction)
        if target is None:
            self._on_session_notice("Every document is done.")
        else:
            self.open_document(target)

    def _show_progress(self) -> None:
        counts = self.documents.progress()
        total = sum(counts.values())
        # Short, with the list's own marks, to fit beside the filter at 1,280 pixels.
        self.progress_label.setText(
            f"● {counts['done']}/{total} done  ◐ {counts['in progress']}  ○ {counts['not started']}"
        )
        self.progress_label.set_tooltip_text(
            f"{counts['done']} of {total} done, {counts['in progress']} in progress, "
            f"{counts['not started']} not started"
        )

    def _on_document_filter_current_text_changed(self, name: str) -> None:
        self.documents.set_filter(FILTERS.get(name))
        self.preferences.document_filter = name
        save_preferences(self.preferences)

    def step_document(self, direction: int) -> None:
        # The next record the list shows: with "Not done" chosen, the done ones are skipped.
        ids = self.documents.shown_ids() or self.session.workspace.doc_ids()
        current = self.session.doc_id
        index = ids.index(current) if current in ids else -1
        target = index + direction
        if 0 <= target < len(ids):
            self.open_document(ids[target])

    def keep_place(self) -> None:
        """Remember where the user is in the open note (to come back there)."""
        if self.session.doc_id is not None and self.view.note is not None:
            self.places[self.session.doc_id] = self.view.place()

    def _restore_place(self) -> None:
        place = self.places.get(self.session.doc_id or "")
        if place is not None:
            self.view.go_to_place(*place)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._place_shown:
            # Scrolled again once the note has its size: before, it has nothing to scroll.
            self._place_shown = True
            QTimer.singleShot(0, self._restore_place)
            self._tell_waiting_recovery()

    def _tell_waiting_recovery(self) -> None:
        """After a crash, say which other notes hold edits to recover: only the note opened
        is asked about at once, and the others would be found one by one, or never."""
        if self.session.workspace.looking_only:
            return
        waiting = self.session.workspace.waiting_recovery()
        if not waiting:
            return
        names = ", ".join(waiting[:8]) + (f" and {len(waiting) - 8} more" if len(waiting) > 8 else "")
        message = (
            f"Unsaved edits from an earlier session wait in {len(waiting)} other "
            f"document{'s' if len(waiting) != 1 else ''}: {names}. Open each to recover them."
        )
        earlier = self.statusBar().currentMessage()
        self.statusBar().showMessage(f"{earlier} {message}" if earlier else message, 30000)
        for doc_id in waiting:
            self.documents.mark_waiting_recovery(doc_id)

    def _on_session_document_changed(self, document: Document | None) -> None:
        self.view.set_note(document)
        self.table.set_document(document)
        self.relations.set_document(document)
        self.attributes.show_annotation(None)
        self.task_attributes.show_annotation(None)
        if document is not None:
            self.documents.set_current(document.doc_id)
            self.actions_by_name["done"].setChecked(self.session.status(document.doc_id) == "done")
        self._refresh_status()
        self.view.setFocus()

    def _on_session_read_only_changed(self, _read_only: bool, _holder: str) -> None:
        self.attributes.show_annotation(self.session.current())  # its controls follow the lock

    def _on_session_notice(self, message: str) -> None:
        self.statusBar().showMessage(message, 10000)

    def _on_session_entry_changed(self, doc_id: str) -> None:
        s = self.session
        annotations, pending = s.workspace.counts(doc_id)
        self.documents.update_entry(doc_id, s.status(doc_id), annotations, pending, s.seconds(doc_id))
        if doc_id == s.doc_id:
            self._refresh_status(annotations, pending)

    # -- current annotation and keys ----------------------------------------------------------------------
    def _on_session_current_changed(self, annotation: Annotation | None) -> None:
        shown, self._shown_current = self._shown_current, annotation
        if (
            annotation is not None
            and shown is not None
            and shown.id == annotation.id
            and self.view.selection_span() == (shown.start, shown.end)
        ):
            # The current annotation was replaced (an undone resize, a type change): a selection
            # that showed its old bounds shows the new ones, or the next type key would tag the
            # old span anew.
            self.view.select_span(annotation.start, annotation.end)
        self.view.highlighter.set_current(annotation.id if annotation else None)
        self.attributes.show_annotation(annotation)
        self.task_attributes.show_annotation(annotation)
        self.table.select_annotation(annotation.id if annotation else None)

    def _on_view_tag_key_pressed(self, type_name: str) -> None:
        # The tag shows in the note and the table; an older message ("Redid reject PATIENT.")
        # must not read as this key's outcome, while a warning the edit raises still shows.
        self.statusBar().clearMessage()
        start, end = self.view.selection_span()
        annotation = self.session.apply_type(type_name, start, end, self.view.cursor_offset())
        if annotation is not None:
            self.view.select_span(annotation.start, annotation.end)
        elif self.session.read_only:
            self.statusBar().showMessage("Read-only: this document is locked by someone else.", 4000)
        else:
            self.statusBar().showMessage(f"Select text first, then press the key for {type_name}.", 4000)
        self.view.setFocus()

    def _on_view_position_clicked(self, position: int) -> None:
        editor = self.session.editor
        found = editor.innermost_at(position) if editor is not None else None
        self.session.set_current(found.id if found else None)

    def _on_table_annotation_activated(self, annotation_id: str) -> None:
        self.session.set_current(annotation_id)
        current = self.session.current()
        if current is not None:
            self.view.select_span(current.start, current.end)

    def step(self, direction: int, pending_only: bool = False) -> None:
        found = self.session.step(direction, self.view.cursor_offset(), pending_only)
        if found is not None:
            self.view.select_span(found.start, found.end)

    def annotate_all(self) -> AnnotateAllDialog | None:
        """Open the "annotate all" preview for the current annotation (modal)."""
        s = self.session
        source = s.current()
        if source is None or s.document is None or s.read_only:
            self.statusBar().showMessage("Select an annotation first (click it or press Tab).", 4000)
            return None
        dialog = AnnotateAllDialog(source, s.document, self._load_scope, s.history, s.annotator, self)
        dialog.accepted.connect(lambda: self._on_session_notice(dialog.outcome()))
        self.last_dialog = dialog
        dialog.open()
        return dialog

    def reset_layout(self) -> None:
        self.body.reset()
        self._on_session_notice("Layout reset: every panel back in its first place.")

    def _load_scope(self, scope: Scope) -> list[Document]:
        """Read the scope's documents; a large scope is read in a worker behind a progress dialog."""
        workspace = self.session.workspace
        missing = [i for i in self.session.scope_ids(scope) if i not in workspace.documents]
        if len(missing) > 20:

            def job(progress: Callable[[int, int], None], cancelled: Callable[[], bool]) -> list[Document]:
                documents = workspace.read_many(missing, progress, cancelled)
                prepare_indexes(documents, cancelled=cancelled)
                return documents

            ok, result = run_with_progress(self, "Reading the project's documents…", job)
            if not ok:
                return [self.session.document] if self.session.document is not None else []
            workspace.adopt(result)
        return self.session.load_scope(scope)

    def _note_menu(self, position: int) -> QMenu:
        s = self.session
        menu = QMenu(self)
        current = s.current()
        if current is not None:
            self.actions_by_name["accept"].setEnabled(current.pending)
            menu.addAction(self.actions_by_name["accept"])
            menu.addAction(self.actions_by_name["delete"])
            menu.addAction(self.actions_by_name["annotate_all"])
            menu.addSeparator()
        tag_menu = menu.addMenu("Tag selection as" if current is None else "Change type to")
        for category in s.schema.categories:
            sub = tag_menu.addMenu(category.name)
            for type_def in category.types:
                action = sub.addAction(f"{type_def.name}\t{type_def.key}")
                action.triggered.connect(lambda _c=False, t=type_def.name: self._on_view_tag_key_pressed(t))
        return menu

    # -- saving, locks, closing -----------------------------------------------------------------------------
    def save(self) -> None:
        self.attributes.commit_comment()
        failed = self.session.save()
        if failed:
            reasons = self.session.workspace.save_errors
            QMessageBox.warning(
                self,
                "Not saved",
                "Could not save:\n"
                + "\n".join(reasons.get(doc_id, doc_id) for doc_id in failed)
                + "\nWhat is not in the file stays in the recovery file.",
            )
        self._refresh_status()

    def _mark_done(self) -> None:
        self.session.mark_done(self.actions_by_name["done"].isChecked())

    def _on_banner_override_requested(self) -> None:
        if not self.session.read_only:
            return
        if self.confirm_override(self.session.lock_holder):
            self.session.override_lock()

    def check_outside_change(self) -> None:
        """Notice the open note's file changed or deleted outside the tool, and lose neither
        version: unedited here, it is read again; with unsaved edits, the user chooses which
        stays open and the other is kept beside it; open read-only, the new version is shown.
        Checked every few seconds, when the window is activated and before saving."""
        s = self.session
        if self._checking_outside:
            return
        if s.read_only:
            self._follow_read_only_note()
            return
        change = s.outside_change()
        if change is None:
            return
        self._checking_outside = True
        self.keep_place()
        try:
            doc_id = s.doc_id or ""
            if change == "deleted":
                s.keep_deleted_document()
                self._on_session_notice(
                    f"{doc_id} was deleted outside the tool; your version stays open, and saving "
                    "(Ctrl+S) writes it back."
                )
            elif not s.workspace.is_dirty(doc_id):
                s.take_outside_version()
                self._on_session_notice(f"{doc_id} was changed outside the tool: read again from its file.")
            elif self.ask_outside_change(doc_id) == "mine":
                self.save()
            else:
                mine = s.take_outside_version()
                kept = f"; your edits are kept in {mine.name}" if mine is not None else ""
                self._on_session_notice(f"{doc_id}: opened the version changed outside the tool{kept}.")
        except AnnotatorError as error:
            self._on_session_notice(error.one_line())
        finally:
            self._checking_outside = False
        self._restore_place()
        self.populate_documents()

    def _follow_read_only_note(self) -> None:
        """Someone else's note, open read-only, changed on disk: shown again where the user was
        (selection and first line on screen, as far as the new version has them)."""
        self._checking_outside = True
        self.keep_place()
        try:
            followed = self.session.follow_read_only_note()
        except AnnotatorError as error:
            self._on_session_notice(error.one_line())  # a damaged file: the last reading stays
            followed = False
        finally:
            self._checking_outside = False
        if followed:
            self._restore_place()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            # Back from another program (a git pull, a sync): is the note still the file's?
            QTimer.singleShot(0, self.check_outside_change)

    def closeEvent(self, event: QCloseEvent) -> None:
        s = self.session
        self.attributes.commit_comment()
        choice = self.confirm_close() if s.workspace.dirty() else "save"
        if choice == "cancel":
            event.ignore()
            return
        self.retrainer.cancel()
        if s.workspace.dirty():
            if choice == "save":
                failed = s.save()
                if failed and not self.close_unsaved(
                    [s.workspace.save_errors.get(doc_id, doc_id) for doc_id in failed]
                ):
                    event.ignore()
                    return
            else:
                # Keep the recovery files: "discard" must never be a one-click way to lose work.
                for doc_id in list(s.workspace.documents):
                    s.workspace.documents[doc_id].mark_pristine()
        self.keep_place()
        s.close()
        if s.track:
            save_places(s.workspace.project.root, s.annotator, self.places)
            save_window_layout("annotation", {**self.body.state(), GEOMETRY_KEY: geometry_state(self)})
        event.accept()

    # -- the rest ----------------------------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress, QEvent.Type.Wheel):
            self.session.note_activity()
        if (
            watched is self.table.table
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and self.view.acts_on(event)
        ):
            # A row clicked leaves the focus in the table, where Enter, Delete and the type keys
            # did nothing: they act on the row's annotation as in the note, which takes the focus.
            self.view.setFocus()
            self.view.keyPressEvent(event)
            return True
        return False

    def _refresh_status(self, annotations: int = -1, pending: int = -1) -> None:
        s = self.session
        doc_id = s.doc_id or ""
        if annotations < 0:
            annotations, pending = s.workspace.counts(doc_id) if doc_id else (0, 0)
        self.status.show_fields(
            doc_id,
            s.annotator,
            annotations,
            pending,
            s.seconds(doc_id) if doc_id else 0.0,
            s.status(doc_id) if doc_id else "",
        )
        self.status.show_save_state(s.save_state)
        history = s.history
        self.actions_by_name["undo"].setEnabled(history.can_undo)
        self.actions_by_name["redo"].setEnabled(history.can_redo)
        self.actions_by_name["undo"].setText(f"&Undo {history.undo_text}".rstrip())
        self.actions_by_name["redo"].setText(f"&Redo {history.redo_text}".rstrip())

    def _toggle_theme(self) -> None:
        dark = self.actions_by_name["dark"].isChecked()
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, "dark" if dark else "light")
        self.dark = dark
        self.view.highlighter.set_dark(dark)
        self.palette_widget.set_dark(dark)
        self.preferences.theme = "dark" if dark else "light"
        save_preferences(self.preferences)

    # -- the user's display preferences -----------------------------------------------------------------
    def toggle_monospace(self) -> None:
        on = self.actions_by_name["monospace"].isChecked()
        self.view.set_monospace(on)
        self.preferences.monospace = on
        save_preferences(self.preferences)

    def _restore_table_view(self) -> None:
        """The annotation table filtered and sorted as the user left it (and kept so)."""
        table, chosen = self.table, self.preferences
        index = table.category_box.findData(chosen.table_category) if chosen.table_category else -1
        if index >= 0:
            table.category_box.setCurrentIndex(index)
        table.pending_box.setChecked(chosen.table_pending_only)
        column, order = chosen.table_sort
        if column < table.model.columnCount():
            table.table.sortByColumn(column, Qt.SortOrder(order))
        table.category_box.currentIndexChanged.connect(self._keep_table_view)
        table.pending_box.toggled.connect(self._keep_table_view)
        table.table.horizontalHeader().sortIndicatorChanged.connect(self._keep_table_view)

    def _keep_table_view(self, *_args: object) -> None:
        table, chosen = self.table, self.preferences
        header = table.table.horizontalHeader()
        view = (
            str(table.category_box.currentData() or ""),
            table.pending_box.isChecked(),
            (
                header.sortIndicatorSection(),
                0 if header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder else 1,
            ),
        )
        if view != (chosen.table_category, chosen.table_pending_only, chosen.table_sort):
            chosen.table_category, chosen.table_pending_only, chosen.table_sort = view
            save_preferences(chosen)

    def zoom_note(self, step: int) -> None:
        """Ctrl++ / Ctrl+-: the note text a point larger or smaller, remembered."""
        zoom = min(max(self.view.zoom + step, MIN_ZOOM), MAX_ZOOM)
        self.view.set_zoom(zoom)
        self.preferences.note_zoom = zoom
        save_preferences(self.preferences)

    def toggle_type_labels(self) -> None:
        on = self.actions_by_name["type_labels"].isChecked()
        self.view.set_type_labels(on)
        self.preferences.type_labels = on
        save_preferences(self.preferences)

    def open_type_settings(self) -> TypeSettingsDialog:
        """The colours-and-keys dialog (non-modal); OK saves and repaints everything at once."""
        dialog = TypeSettingsDialog(self.session.schema, self.preferences, self)
        dialog.accepted.connect(lambda: self.apply_preferences(dialog.updated_preferences()))
        self.settings_dialog = dialog
        dialog.open()
        return dialog

    def apply_preferences(self, preferences: Preferences) -> None:
        save_preferences(preferences)
        self.preferences = preferences
        schema = preferences.apply(self.session.schema)
        self.view.set_schema(schema)
        self.palette_widget.set_schema(schema)
        self.table.model.schema = schema
        self.table.fit_columns(schema)
        self.table.table.viewport().update()
        self._on_session_notice("Colours and keys saved: they apply to every project you open.")
