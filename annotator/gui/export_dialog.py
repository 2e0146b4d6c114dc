"""The de-identified export dialog: options, a before/after preview, export in a worker.

A refused export lists its findings (:class:`LeakFindingsPanel`). The loop that fixes them
works on what is exported, the gold: "Tag it" tags the place in the gold file as one undo
step (:class:`~annotator.session.gold_fixes.GoldFixes`: a pending suggestion there is
accepted, never doubled), "Not PHI here" writes the project's allow file
(``leak-allow.json``); after each, the leak check runs again in the background and the count
of findings left is shown in place, until the export goes through. A finished export says
what it did, including which tags were masked for review and why.

Signals
-------
exported(object): the :class:`~annotator.deid.export.DeidReport` of a finished export.
failed(str): the one-line error of a failed export (leak, unsafe folder, bad input).
rechecked(int): the findings left after a fix was checked again.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QRegularExpression, Signal
from PySide6.QtGui import QCloseEvent, QFont, QRegularExpressionValidator, QTextCursor
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
    QVBoxLayout,
    QWidget,
)

from annotator.core.document import Document
from annotator.core.project import Project
from annotator.core.schema import Schema, load_schema
from annotator.deid.allowlist import read_allow_file
from annotator.deid.export import DeidReport, deidentify_documents, leak_findings
from annotator.deid.findings import Leak, LeakError
from annotator.deid.surrogates import CorpusContext, DeidOptions
from annotator.errors import AnnotatorError, printable_path
from annotator.gui.leak_findings_panel import LeakFindingsPanel
from annotator.gui.offsets import OffsetMap
from annotator.gui.workers import Job, JobThread
from annotator.io.corpus import read_corpus
from annotator.session.gold_fixes import GoldFixes
from annotator.workflows.deidentify import DeidentifyRequest, deidentify, site_leak_options
from annotator.workflows.notes import Cancelled, Progress


class ExportDialog(QDialog):
    """Export a project's gold standard with masks or surrogates.

    Parameters
    ----------
    project:
        The project whose ``gold/`` folder is exported (default target: ``exports/``).
    schema:
        The project's tag set (categories of the tags "Tag it" adds); read from the project
        when not given.
    who:
        Recorded on the gold tags "Tag it" adds or accepts.
    """

    exported = Signal(object)
    failed = Signal(str)
    rechecked = Signal(int)
    ALLOW_FILE = "leak-allow.json"

    def __init__(
        self,
        project: Project,
        parent: QWidget | None = None,
        schema: Schema | None = None,
        who: str = "supervisor",
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("De-identified export")
        self.project = project
        self._schema = schema
        self._who = who
        self._worker: JobThread | None = None
        self._documents: list[Document] = []
        self._context = CorpusContext()
        self.fixes: GoldFixes | None = None
        self.report: DeidReport | None = None

        self.method_combo = QComboBox()
        self.method_combo.addItem("Realistic surrogates", "surrogate")
        self.method_combo.addItem("Masks", "mask")
        self.mask_style_combo = QComboBox()
        self.mask_style_combo.addItem("[**TYPE**] placeholders", "brackets")
        self.mask_style_combo.addItem("Same-length characters", "chars")
        self.mask_char_edit = QLineEdit("X")
        self.mask_char_edit.setMaxLength(1)
        # A seed is a key: with it anyone redraws every patient's date shift and name letters.
        # Drawn here (64 bits: a 31-bit one could be found by trying them all against one
        # known date), used for the preview and the export, shown nowhere; one typed in the
        # box (to redo an export) replaces it.
        self._drawn_seed = secrets.randbits(64)
        self.seed_edit = QLineEdit()
        self.seed_edit.setValidator(
            QRegularExpressionValidator(QRegularExpression(r"\d{0,20}"), self.seed_edit)
        )
        self.seed_edit.setPlaceholderText(
            "drawn for this export, secret (kept in the audit map, if one is written)"
        )
        self.seed_edit.setToolTip(
            "Leave empty for a secret seed of this export. Type one only to redo an export; keep it "
            "secret: with it anyone can undo the date shifts."
        )
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
        form.addRow("Seed", self.seed_edit)
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
        self.seed_edit.textChanged.connect(self._on_option_changed)
        self.document_combo.currentIndexChanged.connect(self._on_option_changed)
        self.browse_button.clicked.connect(self._on_browse_button_clicked)
        self.export_button.clicked.connect(self._on_export_button_clicked)
        self.close_button.clicked.connect(self.close)
        self.findings.finding_shown.connect(self.show_finding)
        self.findings.tag_requested.connect(self.tag_finding)
        self.findings.undo_requested.connect(self.undo_fix)
        self.findings.not_phi_marked.connect(lambda _entry: self.recheck())
        self._load()
        self._on_method_combo_current_index_changed()

    # -- state ---------------------------------------------------------------------------
    def options(self) -> DeidOptions:
        """The options as the widgets show them."""
        return DeidOptions(
            method=str(self.method_combo.currentData()),
            seed=int(self.seed_edit.text()) if self.seed_edit.text() else self._drawn_seed,
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
        self.seed_edit.setEnabled(not masking)
        self.refresh_preview()

    def _on_option_changed(self) -> None:
        self.mask_char_edit.setEnabled(
            self.method_combo.currentData() == "mask" and self.mask_style_combo.currentData() == "chars"
        )
        self.refresh_preview()

    def _on_browse_button_clicked(self) -> None:
        # The chooser opens where the output would go (its nearest existing folder), not in
        # the folder the program was started from.
        start = Path(self.out_edit.text().strip() or self.project.exports_dir)
        while not start.is_dir() and start != start.parent:
            start = start.parent
        folder = QFileDialog.getExistingDirectory(self, "Output folder", str(start))
        if folder:
            self.out_edit.setText(folder)

    # -- export --------------------------------------------------------------------------
    def start_export(self) -> None:
        """Run the export in a worker thread; ``exported`` or ``failed`` follows."""
        if self._worker is not None or not self._documents:
            return
        out = self.out_edit.text().strip()
        if not out:
            self._on_export_failed("choose an output folder")
            return
        map_text = self.map_edit.text().strip()
        request = DeidentifyRequest(
            gold_dir=self.project.gold_dir,
            out_dir=Path(out),
            options=self.options(),
            map_path=Path(map_text) if map_text else None,
            force=self.force_check.isChecked(),
            allow_path=self._allow_path(),
        )

        lists_path, schema_name = self.project.site_lists_path, self.project.schema

        def job(progress: Progress, cancelled: Cancelled) -> DeidReport | LeakError:
            checked = replace(
                request, leak_options=site_leak_options(lists_path, schema_name, request.options)
            )
            try:
                return deidentify(checked, progress, cancelled)
            except LeakError as error:
                return error  # a refusal with findings to list, not a bare message

        self.status_label.setText("Exporting…")
        self.findings.show_findings([])
        self._run(job, self._on_export_done, self._on_export_failed)

    def recheck(self) -> None:
        """Check the gold again (nothing written) after a fix; the findings left replace the list."""
        if self._worker is not None or not self._documents:
            return
        snapshot = [d.copy() for d in self._documents]
        options, context = self.options(), self._context
        allow_path = self._allow_path()
        allowed = read_allow_file(allow_path) if allow_path is not None else []
        lists_path, schema_name = self.project.site_lists_path, self.project.schema

        def job(progress: Progress, cancelled: Cancelled) -> list[Leak]:
            check = site_leak_options(lists_path, schema_name, options)
            return leak_findings(
                snapshot, options, context, check, allowed=allowed, progress=progress, cancelled=cancelled
            )

        self.findings.set_checking(True, "Checking the gold again…")
        self._run(job, self._on_recheck_done, self._on_export_failed)

    def _allow_path(self) -> Path | None:
        return self.findings.allow_path if self.findings.allow_path.exists() else None

    def _run(self, job: Job, done: Callable[[Any], None], failed: Callable[[str], None]) -> None:
        worker = JobThread(job, self)
        worker.progressed.connect(self._on_worker_progressed)
        worker.succeeded.connect(lambda result: self._then(done, result))
        worker.errored.connect(lambda message: self._then(failed, message))
        self._worker = worker
        self.export_button.setEnabled(False)
        self.close_button.setText("Cancel")
        self.progress_bar.setValue(0)
        worker.start()

    def _then(self, handler: Callable[[Any], None], value: object) -> None:
        self._finish()
        handler(value)

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

    def _on_export_done(self, report: DeidReport | LeakError) -> None:
        if isinstance(report, LeakError):
            documents = sorted({leak.doc_id for leak in report.leaks})
            self._on_export_failed(
                f"{len(report.leaks)} place(s) in {len(documents)} gold document(s) "
                f"({', '.join(printable_path(d) for d in documents[:5])}{', …' if len(documents) > 5 else ''}) "
                "would still show original PHI; nothing was written"
            )
            self.findings.show_findings(report.leaks)
            return
        self.report = report
        self.status_label.setText(export_summary(report))
        self.findings.show_findings([], review_summary(report))
        self.exported.emit(report)

    def _on_recheck_done(self, leaks: list[Leak]) -> None:
        if leaks:
            self.findings.show_findings(leaks)
        else:
            self.findings.show_findings([], "No findings left: Export writes the de-identified copy now.")
            self.export_button.setFocus()
        self.rechecked.emit(len(leaks))

    def _on_export_failed(self, message: str) -> None:
        # The export's refusals are worded for the command line; here the flag is a checkbox.
        message = message.replace("use --force to", f"tick “{self.force_check.text()}” to")
        self.status_label.setText(f"Export failed: {message}")
        self.findings.set_checking(False)
        self.failed.emit(message)

    # -- fixing findings in the gold --------------------------------------------------------------
    def _gold_fixes(self) -> GoldFixes:
        if self.fixes is None:
            schema = self._schema
            if schema is None:
                try:
                    schema = load_schema(self.project.schema)
                except AnnotatorError:
                    schema = load_schema()
            self.fixes = GoldFixes(self._documents, schema, self._who)
        return self.fixes

    def tag_finding(self, leak: Leak) -> None:
        """Tag a finding's place in the gold (one undo step, saved), then check again."""
        fix = self._gold_fixes().tag(
            leak.doc_id, leak.original_start, leak.original_end, leak.type, (leak.source_doc_id, leak.tag_id)
        )
        self.status_label.setText(fix.message)
        self.findings.set_undo_available(self._gold_fixes().history.can_undo)
        if fix.changed:
            self.recheck()
            self.refresh_preview()

    def undo_fix(self) -> None:
        try:
            undone = self._gold_fixes().undo()
        except AnnotatorError as error:
            self.status_label.setText(f"Could not undo: {error.one_line()}")
            return
        self.findings.set_undo_available(self._gold_fixes().history.can_undo)
        if undone:
            self.status_label.setText(undone)
            self.recheck()
            self.refresh_preview()

    def show_finding(self, leak: Leak) -> None:
        """Select a finding in the preview: in the gold note (before) and in the export (after)."""
        index = self.document_combo.findText(leak.doc_id)
        if index < 0:
            return
        self.document_combo.setCurrentIndex(index)
        for view, start, end in (
            (self.before_view, leak.original_start, leak.original_end),
            (self.after_view, leak.start, leak.end),
        ):
            offsets = OffsetMap(view.toPlainText())
            cursor = view.textCursor()
            cursor.setPosition(offsets.to_qt(start))
            cursor.setPosition(offsets.to_qt(end), QTextCursor.MoveMode.KeepAnchor)
            view.setTextCursor(cursor)
            view.ensureCursorVisible()

    def closeEvent(self, event: QCloseEvent) -> None:  # Qt override
        if self._worker is not None:
            # Cancelling leaves nothing half-written; wait so the thread never outlives us.
            self._worker.cancel()
            self._worker.wait()
            self._finish()
        super().closeEvent(event)


def export_summary(report: DeidReport) -> str:
    """What a finished export did, in a sentence or two."""
    text = (
        f"{report.documents} documents of {report.patients} patients written to {report.out_dir}; "
        "leak check passed"
    )
    if report.leaks_allowed:
        text += f" ({report.leaks_allowed} finding(s) passed as marked not PHI)"
    if report.review:
        text += f". {len(report.review)} tag(s) masked for review (listed below)"
    return text + "."


def review_summary(report: DeidReport) -> str:
    """The tags an export masked instead of replacing, each with where and why ("" when none)."""
    if not report.review:
        return ""
    lines = [
        f"{len(report.review)} tag(s) could not get a realistic surrogate and were masked as "
        "[**TYPE**] instead; check them in the export:"
    ]
    for item in report.review[:20]:
        lines.append(
            f"• {printable_path(str(item['doc_id']))}, tag {item['id']} ({item['type']}) at "
            f"{item['start']}-{item['end']} of the exported note: {item['reason']}"
        )
    if len(report.review) > 20:
        lines.append(f"… and {len(report.review) - 20} more (the export's report lists them all).")
    return "\n".join(lines)
