"""The de-identified export dialog: options, a before/after preview, export in a worker.

A refused export lists its findings (:class:`LeakFindingsPanel`): each opens in its note
(``finding_opened``, which the main window connects to its document navigation) or is
marked not PHI in the project's allow file (``leak-allow.json``), which exports read.

Signals
-------
exported(object): the :class:`~annotator.deid.export.DeidReport` of a finished export.
failed(str): the one-line error of a failed export (leak, unsafe folder, bad input).
finding_opened(str, int, int): document id, start and end in the gold note of a finding.
tag_requested(str, int, int, str): the same and the type, to tag the finding there.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QCloseEvent, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from annotator.core.document import Document
from annotator.core.project import Project
from annotator.deid.export import DeidReport, deidentify_documents
from annotator.deid.leakcheck import LeakError
from annotator.deid.surrogates import CorpusContext, DeidOptions
from annotator.errors import AnnotatorError
from annotator.gui.leak_findings_panel import LeakFindingsPanel
from annotator.gui.workers import JobThread
from annotator.io.corpus import read_corpus
from annotator.workflows.deidentify import DeidentifyRequest, deidentify
from annotator.workflows.notes import Cancelled, Progress


class ExportDialog(QDialog):
    """Export a project's gold standard with masks or surrogates.

    Parameters
    ----------
    project:
        The project whose ``gold/`` folder is exported (default target: ``exports/``).
    """

    exported = Signal(object)
    failed = Signal(str)
    finding_opened = Signal(str, int, int)
    tag_requested = Signal(str, int, int, str)
    ALLOW_FILE = "leak-allow.json"

    def __init__(self, project: Project, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("De-identified export")
        self.project = project
        self._worker: JobThread | None = None
        self._documents: list[Document] = []
        self._context = CorpusContext()
        self.report: DeidReport | None = None

        self.method_combo = QComboBox()
        self.method_combo.addItem("Realistic surrogates", "surrogate")
        self.method_combo.addItem("Masks", "mask")
        self.mask_style_combo = QComboBox()
        self.mask_style_combo.addItem("[**TYPE**] placeholders", "brackets")
        self.mask_style_combo.addItem("Same-length characters", "chars")
        self.mask_char_edit = QLineEdit("X")
        self.mask_char_edit.setMaxLength(1)
        self.seed_spin = QSpinBox()
        self.seed_spin.setRange(0, 2**31 - 1)
        self.out_edit = QLineEdit(str(project.exports_dir / "deidentified"))
        self.browse_button = QPushButton("Browse…")
        self.map_edit = QLineEdit()
        self.map_edit.setPlaceholderText("no audit map (it would contain PHI)")
        self.force_check = QCheckBox("Replace a non-empty output folder")
        self.document_combo = QComboBox()
        self.before_view = QPlainTextEdit()
        self.after_view = QPlainTextEdit()
        mono = QFont("Monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        for view in (self.before_view, self.after_view):
            view.setReadOnly(True)
            view.setFont(mono)
        self.progress_bar = QProgressBar()
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.export_button = QPushButton("Export")
        self.close_button = QPushButton("Close")
        self.findings = LeakFindingsPanel(project.root / self.ALLOW_FILE, lambda: self._documents)

        form = QFormLayout()
        form.addRow("Method", self.method_combo)
        form.addRow("Mask style", self.mask_style_combo)
        form.addRow("Mask character", self.mask_char_edit)
        form.addRow("Seed", self.seed_spin)
        out_row = QHBoxLayout()
        out_row.addWidget(self.out_edit)
        out_row.addWidget(self.browse_button)
        form.addRow("Output folder", out_row)
        form.addRow("Audit map file", self.map_edit)
        form.addRow("", self.force_check)
        form.addRow("Preview document", self.document_combo)
        views = QHBoxLayout()
        for title, view in (("Before", self.before_view), ("After", self.after_view)):
            column = QVBoxLayout()
            column.addWidget(QLabel(title))
            column.addWidget(view)
            views.addLayout(column)
        buttons = QHBoxLayout()
        buttons.addWidget(self.progress_bar)
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(views)
        layout.addWidget(self.status_label)
        layout.addWidget(self.findings)
        layout.addLayout(buttons)
        self.resize(1000, 700)

        self.method_combo.currentIndexChanged.connect(self._on_method_combo_current_index_changed)
        self.mask_style_combo.currentIndexChanged.connect(self._on_option_changed)
        self.mask_char_edit.textChanged.connect(self._on_option_changed)
        self.seed_spin.valueChanged.connect(self._on_option_changed)
        self.document_combo.currentIndexChanged.connect(self._on_option_changed)
        self.browse_button.clicked.connect(self._on_browse_button_clicked)
        self.export_button.clicked.connect(self._on_export_button_clicked)
        self.close_button.clicked.connect(self.close)
        self.findings.finding_opened.connect(self.finding_opened)
        self.findings.tag_requested.connect(self.tag_requested)
        self._load()
        self._on_method_combo_current_index_changed()

    # -- state ---------------------------------------------------------------------------
    def options(self) -> DeidOptions:
        """The options as the widgets show them."""
        return DeidOptions(
            method=str(self.method_combo.currentData()),
            seed=self.seed_spin.value(),
            mask_style=str(self.mask_style_combo.currentData()),
            mask_char=self.mask_char_edit.text() or "X",
        )

    def busy(self) -> bool:
        return self._worker is not None

    def _load(self) -> None:
        try:
            self._documents = read_corpus(self.project.gold_dir).documents
        except AnnotatorError as error:
            self._documents = []
            self.status_label.setText(error.one_line())
        if not self._documents:
            self.export_button.setEnabled(False)
            if not self.status_label.text():
                self.status_label.setText(f"No gold documents in {self.project.gold_dir}")
            return
        self._context = CorpusContext.from_documents(self._documents)
        self.document_combo.blockSignals(True)
        for document in self._documents:
            self.document_combo.addItem(document.doc_id)
        self.document_combo.blockSignals(False)

    # -- preview -------------------------------------------------------------------------
    def refresh_preview(self) -> None:
        """Show the chosen document before and after (its whole patient is de-identified)."""
        doc_id = self.document_combo.currentText()
        chosen = next((d for d in self._documents if d.doc_id == doc_id), None)
        if chosen is None:
            self.before_view.clear()
            self.after_view.clear()
            return
        records = [d for d in self._documents if d.patient_id == chosen.patient_id]
        try:
            result = deidentify_documents(records, self.options(), context=self._context)
        except AnnotatorError as error:
            self.after_view.setPlainText("")
            self.status_label.setText(error.one_line())
            return
        after = next(d for d in result.documents if d.doc_id == doc_id)
        self.before_view.setPlainText(chosen.text)
        self.after_view.setPlainText(after.text)

    def _on_method_combo_current_index_changed(self) -> None:
        masking = self.method_combo.currentData() == "mask"
        self.mask_style_combo.setEnabled(masking)
        self.mask_char_edit.setEnabled(masking and self.mask_style_combo.currentData() == "chars")
        self.seed_spin.setEnabled(not masking)
        self.refresh_preview()

    def _on_option_changed(self) -> None:
        self.mask_char_edit.setEnabled(
            self.method_combo.currentData() == "mask" and self.mask_style_combo.currentData() == "chars"
        )
        self.refresh_preview()

    def _on_browse_button_clicked(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Output folder", str(self.project.exports_dir))
        if folder:
            self.out_edit.setText(folder)

    # -- export --------------------------------------------------------------------------
    def start_export(self) -> None:
        """Run the export in a worker thread; ``exported`` or ``failed`` follows."""
        if self._worker is not None or not self._documents:
            return
        out = self.out_edit.text().strip()
        if not out:
            self._on_worker_errored("choose an output folder")
            return
        map_text = self.map_edit.text().strip()
        request = DeidentifyRequest(
            gold_dir=self.project.gold_dir,
            out_dir=Path(out),
            options=self.options(),
            map_path=Path(map_text) if map_text else None,
            force=self.force_check.isChecked(),
            allow_path=self.findings.allow_path if self.findings.allow_path.exists() else None,
        )

        def job(progress: Progress, cancelled: Cancelled) -> DeidReport | LeakError:
            try:
                return deidentify(request, progress, cancelled)
            except LeakError as error:
                return error  # a refusal with findings to list, not a bare message

        worker = JobThread(job, self)
        worker.progressed.connect(self._on_worker_progressed)
        worker.succeeded.connect(self._on_worker_succeeded)
        worker.errored.connect(self._on_worker_errored)
        self._worker = worker
        self.export_button.setEnabled(False)
        self.close_button.setText("Cancel")
        self.status_label.setText("Exporting…")
        self.findings.show_findings([])
        self.progress_bar.setValue(0)
        worker.start()

    def _on_export_button_clicked(self) -> None:
        self.start_export()

    def _on_worker_progressed(self, done: int, total: int) -> None:
        self.progress_bar.setMaximum(max(total, 1))
        self.progress_bar.setValue(min(done, total))

    def _finish(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.wait()
            worker.deleteLater()
        self.export_button.setEnabled(bool(self._documents))
        self.close_button.setText("Close")

    def _on_worker_succeeded(self, report: DeidReport | LeakError) -> None:
        if isinstance(report, LeakError):
            self._on_worker_errored(report.one_line())
            self.findings.show_findings(report.leaks)
            return
        self._finish()
        self.report = report
        review = f"; {len(report.review)} masked for review" if report.review else ""
        self.status_label.setText(
            f"{report.documents} documents written to {report.out_dir}; leak check passed{review}"
        )
        self.exported.emit(report)

    def _on_worker_errored(self, message: str) -> None:
        self._finish()
        self.status_label.setText(f"Export failed: {message}")
        self.failed.emit(message)

    def closeEvent(self, event: QCloseEvent) -> None:  # Qt override
        if self._worker is not None:
            # Cancelling leaves nothing half-written; wait so the thread never outlives us.
            self._worker.cancel()
            self._worker.wait()
            self._finish()
        super().closeEvent(event)
