"""What the annotation window asks, and the dialogs its menus open.

Kept apart from :mod:`annotator.gui.main_window` (which composes widgets and stays small).
The questions are plain functions the window holds as attributes, so tests replace them;
the dialogs are imported when first opened: they pull in the evaluation and
de-identification code, which the window does not need to open.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from annotator.errors import AnnotatorError

if TYPE_CHECKING:
    from annotator.gui.main_window import MainWindow


def confirm_override(parent: QWidget, holder: str) -> bool:
    answer = QMessageBox.question(
        parent, "Override lock", f"{holder}.\nTake the document over? Their unsaved edits may be lost."
    )
    return answer == QMessageBox.StandardButton.Yes


def ask_recovery(parent: QWidget, doc_id: str) -> bool:
    answer = QMessageBox.question(
        parent,
        "Recover unsaved work",
        f"Document {doc_id} has edits that were never saved (the program did not close "
        "normally).\n\nYes: open it with those edits (unsaved until you save).\n"
        "No: open the saved version; the edits are set aside in a file beside it, not deleted."
        "\n\nOpen the recovered version?",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes,
    )
    return answer == QMessageBox.StandardButton.Yes


def tell_edits_not_recovered(parent: QWidget, line: str) -> None:
    """Unsaved edits of an earlier session were set aside, not applied (the note's text changed
    on disk since): said in a box, not only in the status bar, since the user expected them."""
    QMessageBox.warning(parent, "Unsaved edits not applied", line)


def ask_outside_change(parent: QWidget, doc_id: str) -> str:
    """``mine`` or ``theirs``: which version of a note changed outside the tool stays open (the
    other is kept in a file beside it)."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Changed outside PHI Annotator")
    box.setText(
        f"{doc_id} was changed on disk (another annotator's sync, a git pull, a replaced file) "
        "while you have unsaved edits in it."
    )
    box.setInformativeText(
        "Keep mine: your version is saved; the one on disk is kept beside it (…outside-DATE).\n"
        "Take theirs: the one on disk opens; yours is kept beside it (…mine-DATE).\n"
        "Either way both versions stay on disk."
    )
    mine = box.addButton("Keep mine", QMessageBox.ButtonRole.AcceptRole)
    theirs = box.addButton("Take theirs", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(mine)
    # Esc or closed without a choice: what is on screen stays (and the other version is kept).
    box.setEscapeButton(mine)
    box.exec()
    return "theirs" if box.clickedButton() is theirs else "mine"


def close_unsaved(parent: QWidget, reasons: list[str]) -> bool:
    """Saving on close failed: close all the same (True) or stay (False)?"""
    answer = QMessageBox.warning(
        parent,
        "Not saved",
        "Could not save:\n"
        + "\n".join(reasons)
        + "\n\nYour edits are kept in the edit journal and the recovery file, and are offered "
        "when the document is opened next. Close anyway?",
        QMessageBox.StandardButton.Close | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel,
    )
    return answer == QMessageBox.StandardButton.Close


def confirm_close(parent: QWidget) -> str:
    """``save``, ``discard`` or ``cancel``."""
    answer = QMessageBox.question(
        parent,
        "Unsaved changes",
        "Save your changes before closing?",
        QMessageBox.StandardButton.Save
        | QMessageBox.StandardButton.Discard
        | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Save,
    )
    return {QMessageBox.StandardButton.Save: "save", QMessageBox.StandardButton.Discard: "discard"}.get(
        answer, "cancel"
    )


def open_export(window: MainWindow) -> None:
    from annotator.gui.export_dialog import ExportDialog

    s = window.session
    ExportDialog(s.workspace.project, window, s.schema, s.annotator).show()


def open_reports(window: MainWindow) -> None:
    from annotator.gui.reports_dialog import ReportsDialog

    ReportsDialog(window.session.workspace.project, window).show()


def open_dashboard(window: MainWindow) -> None:
    from annotator.gui.dashboard import DashboardDialog

    DashboardDialog(window.session.workspace.project, window).show()


def show_keys(window: MainWindow) -> None:
    from annotator.gui.shortcuts import ShortcutsDialog

    window.keys_dialog = ShortcutsDialog(window.session.schema, window)
    window.keys_dialog.show()


def open_other(window: MainWindow) -> None:
    """File > Open: the next window, for the same annotator and theme; this one closes."""
    if window.open_project is None:
        return
    folder = QFileDialog.getExistingDirectory(window, "Open a project or a folder of i2b2 XML files")
    if not folder:
        return
    try:
        successor = window.open_project(
            Path(folder), window.session.annotator, "dark" if window.dark else "light"
        )
    except AnnotatorError as error:
        QMessageBox.warning(window, "Cannot open", error.one_line())
        return
    successor.show()
    window.successor = successor
    window.close()
