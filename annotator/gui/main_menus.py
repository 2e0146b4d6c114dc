"""The annotation window's menus: File, Edit, Navigate, View, Project, Help.

Kept apart from :mod:`annotator.gui.main_window` so the window itself stays a composition of
widgets; every action calls a window or session method.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from annotator.gui.window_dialogs import open_dashboard, open_export, open_other, open_reports, show_keys

if TYPE_CHECKING:
    from annotator.gui.main_window import MainWindow


def build_main_menus(window: MainWindow) -> None:
    """The menu bar of the annotation window; every action is also in ``window.actions_by_name``."""

    def add(
        menu: QMenu,
        name: str,
        text: str,
        slot: Callable[[], object],
        shortcuts: tuple[str, ...] = (),
        checkable: bool = False,
    ) -> QAction:
        action = QAction(text, window)
        if shortcuts:
            action.setShortcuts([QKeySequence(k) for k in shortcuts])
        action.setCheckable(checkable)
        action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        window.addAction(action)
        actions[name] = action
        return action

    bar = window.menuBar()
    s = window.session
    actions = window.actions_by_name
    file_menu = bar.addMenu("&File")
    add(file_menu, "open", "&Open project or folder…", lambda: open_other(window), ("Ctrl+O",))
    actions["open"].setEnabled(window.open_project is not None)
    add(file_menu, "save", "&Save", window.save, ("Ctrl+S",))
    add(file_menu, "done", "&Mark document done", lambda: window._mark_done(), ("Ctrl+D",), True)
    add(file_menu, "override", "&Override lock…", window._on_banner_override_requested)
    file_menu.addSeparator()
    add(file_menu, "quit", "&Quit", window.close, ("Ctrl+Q",))
    edit = bar.addMenu("&Edit")
    add(edit, "undo", "&Undo", s.undo, ("Ctrl+Z",))
    add(edit, "redo", "&Redo", s.redo, ("Ctrl+Shift+Z", "Ctrl+Y"))
    edit.addSeparator()
    add(edit, "annotate_all", "Annotate &all occurrences…", window.annotate_all, ("Ctrl+Shift+A",))
    add(edit, "accept", "A&ccept pre-annotation\tEnter", s.accept_current)
    add(edit, "delete", "&Delete / reject\tDel", s.delete_current)
    # Return and the keypad's Enter are two keys to Qt: each shortcut names both.
    add(
        edit,
        "accept_type",
        "Accept all pending of this &type",
        lambda: s.accept_all(True),
        ("Ctrl+Shift+Return", "Ctrl+Shift+Enter"),
    )
    add(
        edit,
        "accept_every",
        "Accept all pending in document",
        lambda: s.accept_all(False),
        ("Ctrl+Alt+Return", "Ctrl+Alt+Enter"),
    )
    edit.addSeparator()
    add(edit, "find", "&Find…", window.find_bar.open_bar, ("Ctrl+F",))
    nav = bar.addMenu("&Navigate")
    add(nav, "next", "Next annotation\tTab", lambda: window.step(+1))
    add(nav, "previous", "Previous annotation\tShift+Tab", lambda: window.step(-1))
    add(nav, "next_pending", "Next unreviewed pre-annotation", lambda: window.step(+1, True), ("F8",))
    add(
        nav,
        "previous_pending",
        "Previous unreviewed pre-annotation",
        lambda: window.step(-1, True),
        ("Shift+F8",),
    )
    add(nav, "next_doc", "Next document", lambda: window.step_document(+1), ("Ctrl+PgDown",))
    add(nav, "previous_doc", "Previous document", lambda: window.step_document(-1), ("Ctrl+PgUp",))
    add(
        nav,
        "next_unfinished",
        "Next document not &done",
        lambda: window.next_unfinished(+1),
        ("Ctrl+Shift+PgDown",),
    )
    add(
        nav,
        "previous_unfinished",
        "Previous document not done",
        lambda: window.next_unfinished(-1),
        ("Ctrl+Shift+PgUp",),
    )
    add(nav, "next_priority", "Next by &priority", window.priority.open_next, ("Ctrl+Shift+N",))
    view = bar.addMenu("&View")
    add(
        view,
        "snap",
        "&Snap selection to word boundaries",
        lambda: s.set_snap_to_words(actions["snap"].isChecked()),
        ("Ctrl+Shift+W",),
        True,
    )
    add(
        view,
        "pending_only",
        "Table: pending only",
        lambda: window.table.pending_box.setChecked(actions["pending_only"].isChecked()),
        (),
        True,
    )
    # One setting shown twice: ticking the table's box ticks the menu item as well.
    window.table.pending_box.toggled.connect(actions["pending_only"].setChecked)
    actions["pending_only"].setChecked(window.table.pending_box.isChecked())
    add(view, "zoom_in", "Zoom &in", lambda: window.zoom_note(+1), ("Ctrl++", "Ctrl+="))
    add(view, "zoom_out", "Zoom &out", lambda: window.zoom_note(-1), ("Ctrl+-",))
    add(view, "dark", "&Dark theme", window._toggle_theme, ("Ctrl+Shift+T",), True)
    actions["dark"].setChecked(window.dark)
    view.addSeparator()
    add(view, "monospace", "&Monospace font", window.toggle_monospace, ("Ctrl+Shift+M",), True)
    actions["monospace"].setChecked(window.preferences.monospace)
    add(view, "type_labels", "Type &labels after tags", window.toggle_type_labels, ("Ctrl+Shift+L",), True)
    actions["type_labels"].setChecked(window.preferences.type_labels)
    add(view, "type_settings", "Tag &colours and keys…", window.open_type_settings)
    view.addSeparator()
    add(view, "reset_layout", "&Reset layout", window.reset_layout)
    project_menu = bar.addMenu("&Project")
    add(project_menu, "ExportDialog", "&Export de-identified copies…", lambda: open_export(window))
    add(project_menu, "ReportsDialog", "Agreement &reports…", lambda: open_reports(window))
    add(project_menu, "DashboardDialog", "Progress &dashboard…", lambda: open_dashboard(window))
    window._add_model_menu()
    help_menu = bar.addMenu("&Help")
    add(help_menu, "keys", "&Keyboard shortcuts", lambda: show_keys(window), ("F1",))
