"""Screenshots of the windows' reports: the dashboard, a finished export, a pre-annotation.

``annotator gui PROJECT --screenshot F.png --view dashboard|export|preannotation`` renders
them offscreen, as docs/gui.md shows them. Nothing of the project changes: the export is
written to a temporary folder that is removed afterwards, and the pre-annotation report says
what the action would add and skip without adding anything.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEventLoop, QTimer

from annotator.errors import UsageError
from annotator.gui.action_report import ActionReportDialog
from annotator.gui.screenshot import write_screenshot
from annotator.session.suggestions import sort_suggestions

if TYPE_CHECKING:
    from annotator.gui.main_window import MainWindow

REPORT_VIEWS = ("dashboard", "export", "preannotation")


def report_screenshot(window: MainWindow, view: str, target: Path) -> None:
    """Render one of :data:`REPORT_VIEWS` over ``window`` to ``target``."""
    if view == "dashboard":
        from annotator.gui.dashboard import DashboardDialog

        dashboard = DashboardDialog(window.session.workspace.project, window)
        write_screenshot(dashboard, target)
        dashboard.close()
    elif view == "export":
        _export(window, target)
    elif view == "preannotation":
        _preannotation(window, target)
    else:
        raise UsageError(f"no screenshot view {view!r}")


def _export(window: MainWindow, target: Path) -> None:
    from annotator.gui.export_dialog import ExportDialog

    session = window.session
    dialog = ExportDialog(session.workspace.project, window, session.schema, session.annotator)
    with tempfile.TemporaryDirectory() as folder:
        dialog.out_edit.setText(str(Path(folder) / "deidentified"))
        loop = QEventLoop()
        dialog.exported.connect(loop.quit)
        dialog.failed.connect(loop.quit)
        QTimer.singleShot(600_000, loop.quit)
        if dialog.export_button.isEnabled():  # else it says why (no gold documents)
            dialog.start_export()
            loop.exec()
        write_screenshot(dialog, target)
        dialog.close()


def _preannotation(window: MainWindow, target: Path) -> None:
    from annotator.workflows.preannotate import suggest_for_document

    session = window.session
    document = session.document
    model = window.model_actions.tagging_model
    if document is None or model is None:
        raise UsageError("no document open, or no model to pre-annotate with")
    # What the action would add and skip, without adding anything (no edit, no journal).
    suggestions = suggest_for_document(model, document.copy())
    outcome = sort_suggestions(document.copy(), suggestions, session.rejections.spans(document.doc_id))
    dialog = ActionReportDialog(window.model_actions.document_report(outcome), window)
    write_screenshot(dialog, target)
    dialog.close()
