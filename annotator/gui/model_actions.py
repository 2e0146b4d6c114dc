"""The Model menu: pre-annotate with the CRF tagger, and retrain it from the gold standard.

Training and tagging run in a worker thread behind a progress dialog with a Cancel button;
the GUI stays responsive. Results come back to the GUI thread:

* "Pre-annotate this document" hands the suggestions to ``apply_suggestions`` (the session
  adds them as one undo step, skipping those overlapping an annotation and those the
  annotator already rejected) and reports what was added and what was skipped, and why;
* "Pre-annotate the documents not started" writes ``preannotations/<doc>.xml`` (the source
  note plus suggestions) for every document the annotator has not started, by the rule the
  document list uses (no working copy of theirs, no status); their working copies are
  created from it on first open;
* "Retrain from gold" trains on ``gold/`` and saves ``models/crf.model``;
* a project without a model of its own pre-annotates with the model bundled with PHI
  Annotator (the actions say so);
* "Recall bias" picks the threshold used by both pre-annotation actions (off by default).

Every job ends with a small report (:mod:`annotator.gui.action_report`) and a one-line summary.

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
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QProgressDialog, QWidget

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.core.schema import load_schema
from annotator.crf.guidelines import GUIDELINE_TITLES, GUIDELINES
from annotator.errors import AnnotatorError, StorageError, printable_path
from annotator.gui.action_report import ActionReport, ActionReportDialog, show_report
from annotator.gui.workers import Job, JobThread
from annotator.session.suggestions import SuggestionOutcome
from annotator.workflows.notes import Cancelled, Progress

if TYPE_CHECKING:
    from annotator.workflows.preannotate import PreannotateRequest, PreannotateResult

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
        Adds suggestions to a document as one undo step and says what became of each
        (:meth:`~annotator.session.annotation_session.AnnotationSession.add_suggestions`).
    annotator:
        Whose "not started" documents the project-wide action pre-annotates (``None``:
        documents nobody has started).
    """

    finished = Signal(str)
    failed = Signal(str)

    def __init__(
        self,
        parent: QWidget,
        project: Project,
        current_document: Callable[[], Document | None],
        apply_suggestions: Callable[[Document, list[Annotation]], SuggestionOutcome],
        annotator: str | None = None,
    ) -> None:
        super().__init__(parent)
        self._parent = parent
        self.project = project
        self.annotator = annotator
        self._current_document = current_document
        self._apply_suggestions = apply_suggestions
        self.last_report: ActionReportDialog | None = None
        self.recall_bias: float | None = None
        self.training_iterations: int | None = None
        # Of the synthetic notes "Retrain from gold" learns (tests shrink them).
        self.synthetic_scale = 1.0
        self._worker: JobThread | None = None
        self._dialog: QProgressDialog | None = None
        self._menu = QMenu("&Model", parent)
        self.preannotate_document_action = self._menu.addAction("Pre-annotate this document")
        self.preannotate_all_action = self._menu.addAction("Pre-annotate the documents not started")
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
        # The project's gold follows one guideline: the choice is the project's (project.toml).
        self.guideline = project.guideline
        guideline_menu = self._menu.addMenu("Suggest what the gold tags")
        self._guideline_group = QActionGroup(self)
        self._guideline_group.setExclusive(True)
        self.guideline_actions: dict[str, QAction] = {}
        for name in GUIDELINES:
            action = guideline_menu.addAction(GUIDELINE_TITLES[name])
            action.setCheckable(True)
            action.setChecked(name == self.guideline)
            action.setData(name)
            self._guideline_group.addAction(action)
            self.guideline_actions[name] = action
        self._guideline_group.triggered.connect(self._on_guideline_group_triggered)
        # The site's own names and places (project.toml site_lists): suggested and leak-checked.
        lists_menu = self._menu.addMenu("Site lists")
        self.site_lists_status_action = lists_menu.addAction("")
        self.site_lists_status_action.setEnabled(False)
        lists_menu.addSeparator()
        self.site_lists_file_action = lists_menu.addAction("Use a site-lists file…")
        self.site_lists_folder_action = lists_menu.addAction("Use a deid.pl lists folder…")
        self.no_site_lists_action = lists_menu.addAction("Use no site lists")
        self.site_lists_file_action.triggered.connect(self._on_site_lists_file_action_triggered)
        self.site_lists_folder_action.triggered.connect(self._on_site_lists_folder_action_triggered)
        self.no_site_lists_action.triggered.connect(lambda: self.use_site_lists(None))
        self._show_site_lists()
        self._menu.addSeparator()
        self.retrain_action = self._menu.addAction("Retrain from gold")
        # The project's choice (project.toml): a small gold learnt beside the bundled model's notes.
        self.with_synthetic_action = self._menu.addAction(
            "Retrain with the bundled model's synthetic notes too"
        )
        self.with_synthetic_action.setCheckable(True)
        self.with_synthetic_action.setChecked(project.train_with_synthetic)
        self.with_synthetic_action.setToolTip(
            "Learn the gold beside the synthetic notes (three note styles) the bundled model learnt from: a gold of a few "
            "patients starts where the bundled model stands. Each retraining takes about 15 minutes more."
        )
        self.with_synthetic_action.toggled.connect(self._on_with_synthetic_action_toggled)
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

    def _on_guideline_group_triggered(self, action: QAction) -> None:
        self.guideline = str(action.data())
        if self.project.guideline == self.guideline:
            return
        previous, self.project.guideline = self.project.guideline, self.guideline
        try:
            self.project.save()
        except StorageError as error:
            # Used for this session all the same; only remembering it failed.
            self.project.guideline = previous
            self.failed.emit(
                f"The guideline is used until you close the project, not saved: {error.one_line()}"
            )

    def _on_with_synthetic_action_toggled(self, checked: bool) -> None:
        if self.project.train_with_synthetic == checked:
            return
        self.project.train_with_synthetic = checked
        try:
            self.project.save()
        except StorageError as error:
            self.project.train_with_synthetic = not checked
            self.failed.emit(f"The choice is used until you close the project, not saved: {error.one_line()}")

    def use_site_lists(self, path: Path | None) -> None:
        """Make ``path`` (a list file or a deid.pl ``lists/`` folder; None: none) the project's
        site lists, once it reads; written to ``project.toml`` for everyone who opens it."""
        from annotator.io.site_lists import read_site_lists

        count = 0
        if path is not None:
            try:
                count = len(read_site_lists(path, load_schema(self.project.schema)))
            except AnnotatorError as error:
                self.failed.emit(f"Site lists not changed: {error.one_line()}")
                return
        previous = self.project.site_lists
        self.project.site_lists = "" if path is None else _relative_to(path, self.project.root)
        try:
            self.project.save()
        except StorageError as error:
            self.project.site_lists = previous
            self.failed.emit(f"Site lists not changed: {error.one_line()}")
            return
        self._show_site_lists(count)
        self.finished.emit(
            "No site lists: suggestions and the leak check use the gold and the model only"
            if path is None
            else f"Site lists: {count:,} phrases from {printable_path(self.project.site_lists)}"
        )

    def _show_site_lists(self, count: int | None = None) -> None:
        name = self.project.site_lists
        phrases = f" ({count:,} phrases)" if count is not None and name else ""
        self.site_lists_status_action.setText(
            f"In use: {printable_path(name)}{phrases}" if name else "In use: none"
        )
        self.no_site_lists_action.setEnabled(bool(name))

    def _on_site_lists_file_action_triggered(self) -> None:
        chosen, _ = QFileDialog.getOpenFileName(
            self._parent,
            "Site lists (TYPE<tab>phrase lines)",
            str(self.project.root),
            "Lists (*.tsv *.txt);;All files (*)",
        )
        if chosen:
            self.use_site_lists(Path(chosen))

    def _on_site_lists_folder_action_triggered(self) -> None:
        chosen = QFileDialog.getExistingDirectory(
            self._parent, "deid.pl lists folder", str(self.project.root)
        )
        if chosen:
            self.use_site_lists(Path(chosen))

    def _on_menu_about_to_show(self) -> None:
        model = self.tagging_model
        has_model = model is not None
        suffix = " (bundled default model)" if has_model and model != self.model_path else ""
        self.preannotate_document_action.setText("Pre-annotate this document" + suffix)
        self.preannotate_all_action.setText(f"Pre-annotate the {self._not_started_text()}{suffix}")
        self.preannotate_document_action.setEnabled(
            not self.busy and has_model and self._current_document() is not None
        )
        self.preannotate_all_action.setEnabled(not self.busy and has_model)
        self.retrain_action.setEnabled(not self.busy)  # another model job is running

    def _not_started_text(self) -> str:
        from annotator.workflows.preannotate import not_started_documents

        # The suggestions are shared: only notes nobody has started get new ones.
        count = len(not_started_documents(self.project))
        return f"{count} document{'' if count == 1 else 's'} nobody has started"

    # The workflows import the CRF (scikit-learn): imported on use, so the window opens fast.
    def _on_preannotate_document_action_triggered(self) -> None:
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
        recall_bias, guideline, site_lists = self.recall_bias, self.guideline, self.project.site_lists_path

        def job(progress: Progress, cancelled: Cancelled) -> list[Annotation]:
            return suggest_for_document(
                model_path, snapshot, recall_bias, progress, cancelled, guideline, site_lists
            )

        def done(suggestions: list[Annotation]) -> None:
            # The document may have changed while the tagger ran: the session checks it as it is now.
            outcome = self._apply_suggestions(document, suggestions)
            self._report(self.document_report(outcome), outcome.summary())

        self._start("Pre-annotating the document…", job, done)

    def _on_preannotate_all_action_triggered(self) -> None:
        from annotator.workflows.preannotate import preannotate, project_request

        model_path = self.tagging_model
        if model_path is None:
            self._fail("no model: retrain from gold first")
            return
        request = project_request(self.project, model_path, self.recall_bias, self.guideline)
        started = len(self.project.document_ids()) - len(request.inputs)
        if not request.inputs:
            summary = "Every document has been started: nothing to pre-annotate"
            self._report(
                ActionReport(
                    "Pre-annotation",
                    summary + ".",
                    note="Pre-annotate a document you have open with Model > Pre-annotate this document.",
                ),
                summary,
            )
            return

        def job(progress: Progress, cancelled: Cancelled) -> PreannotateResult:
            return preannotate(request, progress, cancelled)

        def done(result: PreannotateResult) -> None:
            self._report_all(request, result, started)

        self._start(f"Pre-annotating {len(request.inputs)} documents…", job, done)

    def _report_all(self, request: PreannotateRequest, result: PreannotateResult, started: int) -> None:
        folder = printable_path(self.project.preannotations)
        summary = (
            f"{len(result.documents)} documents not started pre-annotated: "
            f"{result.suggestions} suggestions written to {folder}/"
        )
        left = (
            f"{started} document{'' if started == 1 else 's'} someone has started keep the "
            "suggestions they were given"
        )
        self._report(
            ActionReport(
                "Pre-annotation",
                f"{summary}; {left}.",
                ["document", "suggestions", "skipped: overlapping"],
                [[printable_path(d.doc_id), str(d.suggestions), str(d.dropped)] for d in result.documents],
                f"{self._model_text()} The suggestions arrive, pending, when each document is "
                "first opened; working copies that exist already are not changed.",
            ),
            summary,
        )

    def document_report(self, outcome: SuggestionOutcome) -> ActionReport:
        """What "Pre-annotate this document" did: added and skipped suggestions per type."""
        return ActionReport(
            f"Pre-annotation of {printable_path(outcome.doc_id)}",
            outcome.summary() + ".",
            ["type", "added", "skipped: already rejected", "skipped: overlapping"],
            [[t, str(a), str(r), str(o)] for t, a, r, o in outcome.by_type()],
            f"{self._model_text()} The new suggestions are pending: F8 goes to the next one, "
            "Enter accepts it, Delete rejects it (it will not be suggested again); "
            "Ctrl+Z takes them all back.",
        )

    def _model_text(self) -> str:
        model = self.tagging_model
        which = (
            "the bundled default model"
            if model is not None and model != self.model_path
            else "the project's model"
        )
        bias = "off" if self.recall_bias is None else f"T = {self.recall_bias}"
        lists = f"; site lists {self.project.site_lists}" if self.project.site_lists else ""
        return f"Tagged with {which} (recall bias {bias}; guideline {self.guideline}{lists})."

    def _report(self, report: ActionReport, summary: str) -> None:
        self.last_report = show_report(report, self._parent)
        self.finished.emit(summary)

    def _on_retrain_action_triggered(self) -> None:
        from annotator.workflows.train import TrainRequest, train

        request = TrainRequest(
            self.project.gold_dir,
            self.model_path,
            self.project.schema,
            iterations=self.training_iterations,
            with_synthetic=self.project.train_with_synthetic,
            synthetic_scale=self.synthetic_scale,
            guideline=self.guideline,
        )

        def job(progress: Progress, cancelled: Cancelled) -> str:
            result = train(request, progress, cancelled)
            synthetic = (
                f" and {result.synthetic_documents} synthetic notes" if result.synthetic_documents else ""
            )
            return (
                f"model retrained on {result.documents} gold documents{synthetic} "
                f"({result.metadata.annotations} annotations)"
            )

        def done(summary: str) -> None:
            where = printable_path(self.model_path.relative_to(self.project.root))
            self._report(
                ActionReport(
                    "Retraining",
                    f"The {summary}.",
                    note=f"Saved as {where}; pre-annotation uses it from now on.",
                ),
                summary,
            )

        self._start("Retraining the tagger from gold…", job, done)

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


def _relative_to(path: Path, root: Path) -> str:
    """``path`` from the project folder when it is inside it (the project moves with it), else absolute."""
    resolved = path.resolve()
    try:
        return resolved.relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(resolved)
