"""The Model menu: pre-annotate with the CRF tagger, and retrain it from the gold standard.

Training and tagging run in a worker thread behind a progress dialog with a Cancel button;
the GUI stays responsive. Results come back to the GUI thread:

* "Pre-annotate this document" hands the suggestions to ``apply_suggestions`` (the main
  window adds them as one undo step); suggestions overlapping an existing annotation are
  dropped first, so nothing anyone annotated is changed;
* "Pre-annotate all documents not started" writes ``preannotations/<doc>.xml`` (the source
  note plus suggestions) for every document no annotator has opened yet; their working
  copies are created from it on first open;
* "Retrain from gold" trains on ``gold/`` and saves ``models/crf.model``;
* a project without a model of its own pre-annotates with the model bundled with PHI
  Annotator (the actions say so);
* "Recall bias" picks the threshold used by both pre-annotation actions (off by default).

Signals
-------
finished(str)   a job ended; a one-line summary
failed(str)     a job failed or was cancelled; a one-line reason
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QMessageBox, QProgressDialog, QWidget

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.gui.workers import Job, JobThread
from annotator.workflows.notes import Cancelled, Progress

if TYPE_CHECKING:
    from annotator.workflows.preannotate import PreannotateResult

MODEL_FILE = "crf.model"
# Thresholds offered in the menu: higher catches more PHI and suggests more false alarms.
RECALL_BIAS_CHOICES: tuple[float | None, ...] = (None, 0.9, 0.95, 0.99)


class ModelActions(QObject):
    """The pre-annotation and retraining actions of a project window.

    Parameters
    ----------
    parent:
        The window the progress dialogs and messages belong to.
    project:
        The open project (model in ``models/``, gold in ``gold/``).
    current_document:
        Returns the document on screen, or None.
    apply_suggestions:
        Adds suggestions to a document as one undo step (implemented by the main window).
    """

    finished = Signal(str)
    failed = Signal(str)

    def __init__(
        self,
        parent: QWidget,
        project: Project,
        current_document: Callable[[], Document | None],
        apply_suggestions: Callable[[Document, list[Annotation]], object],
    ) -> None:
        super().__init__(parent)
        self._parent = parent
        self.project = project
        self._current_document = current_document
        self._apply_suggestions = apply_suggestions
        self.recall_bias: float | None = None
        self.training_iterations: int | None = None
        self._worker: JobThread | None = None
        self._dialog: QProgressDialog | None = None
        self._menu = QMenu("&Model", parent)
        self.preannotate_document_action = self._menu.addAction("Pre-annotate this document")
        self.preannotate_all_action = self._menu.addAction("Pre-annotate all documents not started")
        bias_menu = self._menu.addMenu("Recall bias")
        self._bias_group = QActionGroup(self)
        self._bias_group.setExclusive(True)
        self.bias_actions: dict[float | None, QAction] = {}
        for value in RECALL_BIAS_CHOICES:
            action = bias_menu.addAction("Off" if value is None else f"T = {value}")
            action.setCheckable(True)
            action.setChecked(value is None)
            action.setData(value)
            self._bias_group.addAction(action)
            self.bias_actions[value] = action
        self._bias_group.triggered.connect(self._on_bias_group_triggered)
        self._menu.addSeparator()
        self.retrain_action = self._menu.addAction("Retrain from gold")
        self.preannotate_document_action.triggered.connect(self._on_preannotate_document_action_triggered)
        self.preannotate_all_action.triggered.connect(self._on_preannotate_all_action_triggered)
        self.retrain_action.triggered.connect(self._on_retrain_action_triggered)
        self._menu.aboutToShow.connect(self._on_menu_about_to_show)

    # -- public --------------------------------------------------------------------------
    def menu(self) -> QMenu:
        return self._menu

    @property
    def model_path(self) -> Path:
        return self.project.models_dir / MODEL_FILE

    @property
    def tagging_model(self) -> Path | None:
        """The project's model, else the bundled default model (None when neither exists)."""
        if self.model_path.is_file():
            return self.model_path
        from annotator.crf.default_model import default_model_path, has_default_model

        return default_model_path() if has_default_model() else None

    @property
    def busy(self) -> bool:
        return self._worker is not None

    # -- slots ---------------------------------------------------------------------------
    def _on_bias_group_triggered(self, action: QAction) -> None:
        value = action.data()
        self.recall_bias = float(value) if value is not None else None

    def _on_menu_about_to_show(self) -> None:
        model = self.tagging_model
        has_model = model is not None
        suffix = " (bundled default model)" if has_model and model != self.model_path else ""
        self.preannotate_document_action.setText("Pre-annotate this document" + suffix)
        self.preannotate_all_action.setText("Pre-annotate all documents not started" + suffix)
        self.preannotate_document_action.setEnabled(
            not self.busy and has_model and self._current_document() is not None
        )
        self.preannotate_all_action.setEnabled(not self.busy and has_model)
        self.retrain_action.setEnabled(not self.busy)

    # The workflows import the CRF (scikit-learn): imported on use, so the window opens fast.
    def _on_preannotate_document_action_triggered(self) -> None:
        from annotator.crf.preannotation import non_overlapping
        from annotator.workflows.preannotate import suggest_for_document

        document = self._current_document()
        if document is None:
            self._fail("no document is open")
            return
        snapshot = document.copy()
        model_path = self.tagging_model
        if model_path is None:
            self._fail("no model: retrain from gold first")
            return
        recall_bias = self.recall_bias

        def job(progress: Progress, cancelled: Cancelled) -> list[Annotation]:
            return suggest_for_document(model_path, snapshot, recall_bias, progress, cancelled)

        def done(suggestions: list[Annotation]) -> None:
            # The document may have changed while the tagger ran: check against it as it is now.
            kept, dropped = non_overlapping(document, suggestions)
            kept = [a.replace(id=document.new_id()) for a in kept]
            if kept:
                self._apply_suggestions(document, kept)
            self.finished.emit(
                f"{len(kept)} suggestions added, {dropped} dropped for overlapping annotations"
            )

        self._start("Pre-annotating the document…", job, done)

    def _on_preannotate_all_action_triggered(self) -> None:
        from annotator.workflows.preannotate import preannotate, project_request

        model_path = self.tagging_model
        if model_path is None:
            self._fail("no model: retrain from gold first")
            return
        request = project_request(self.project, model_path, self.recall_bias)
        if not request.inputs:
            self.finished.emit("every document has been started: nothing to pre-annotate")
            return

        def job(progress: Progress, cancelled: Cancelled) -> PreannotateResult:
            return preannotate(request, progress, cancelled)

        def done(result: PreannotateResult) -> None:
            self.finished.emit(
                f"pre-annotated {len(result.documents)} documents not started ({result.suggestions} suggestions)"
            )

        self._start(f"Pre-annotating {len(request.inputs)} documents…", job, done)

    def _on_retrain_action_triggered(self) -> None:
        from annotator.workflows.train import TrainRequest, train

        request = TrainRequest(
            self.project.gold_dir, self.model_path, self.project.schema, iterations=self.training_iterations
        )

        def job(progress: Progress, cancelled: Cancelled) -> str:
            metadata = train(request, progress, cancelled).metadata
            return (
                f"model retrained on {metadata.documents} gold documents ({metadata.annotations} annotations)"
            )

        self._start("Retraining the tagger from gold…", job, self.finished.emit)

    # -- running jobs --------------------------------------------------------------------
    def _start(self, title: str, job: Job, on_success: Callable[[Any], None]) -> None:
        if self._worker is not None:
            self._fail("another model job is still running")
            return
        dialog = QProgressDialog(title, "Cancel", 0, 0, self._parent)
        dialog.setWindowTitle("Model")
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(300)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        worker = JobThread(job, self)
        dialog.canceled.connect(worker.cancel)
        worker.progressed.connect(self._on_worker_progressed)
        worker.succeeded.connect(lambda result: self._on_done(lambda: on_success(result)))
        worker.errored.connect(lambda message: self._on_done(lambda: self._fail(message)))
        self._worker, self._dialog = worker, dialog
        worker.start()

    def _on_worker_progressed(self, done: int, total: int) -> None:
        if self._dialog is not None:
            if self._dialog.maximum() != total:
                self._dialog.setMaximum(total)
            self._dialog.setValue(min(done, total))

    def _on_done(self, report: Callable[[], None]) -> None:
        worker, dialog = self._worker, self._dialog
        self._worker = self._dialog = None
        if worker is not None:
            worker.wait()
            worker.deleteLater()
        if dialog is not None:
            dialog.close()
            dialog.deleteLater()
        report()

    def _fail(self, message: str) -> None:
        self.failed.emit(message)
        box = QMessageBox(
            QMessageBox.Icon.Warning, "Model", message, QMessageBox.StandardButton.Ok, self._parent
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
