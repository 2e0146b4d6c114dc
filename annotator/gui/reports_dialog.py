"""The supervisor's evaluation dialog: pick two folders and options, see the tables, export.

The reference defaults to the project's ``gold/`` and the prediction to the first
annotator's ``annotations/<name>/``; any folder can be chosen. ``--mode clean`` results show
a summary (micro, macro, categories, types) and a per-document table; ``i2b2`` mode shows
the official 42 tables, one row each. Exports write JSON, CSV or a self-contained HTML page;
PHI text goes into them only when "Include PHI text" is ticked.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from annotator.core.mapping import available_mappings
from annotator.core.project import Project
from annotator.errors import AnnotatorError, printable_path
from annotator.evaluation.counts import score_text
from annotator.evaluation.engine import LEVELS, MATCH_MODES, EvaluationResult
from annotator.evaluation.official import OfficialRun
from annotator.evaluation.report import document_rows, score_headers, summary_rows
from annotator.gui.workers import run_with_progress
from annotator.workflows.evaluate import (
    EvaluateRequest,
    EvaluateResult,
    EvaluationMode,
    ExportRequest,
    ReportFormat,
    evaluate,
    export_report,
)
from annotator.workflows.notes import Cancelled, Note, NoteKind, Progress
from annotator.workflows.scoring import ScoringRequest

NO_MAPPING = "(none)"
OFFICIAL_HEADERS = [
    "table",
    "docs",
    "macro P (SD)",
    "macro R (SD)",
    "macro F1",
    "micro P",
    "micro R",
    "micro F1",
]


def _fmt(value: float) -> str:
    return score_text(value)


def _fill(model: QStandardItemModel, headers: list[str], rows: list[list[str]]) -> None:
    model.clear()
    model.setHorizontalHeaderLabels(headers)
    for row in rows:
        items = []
        for column, value in enumerate(row):
            item = QStandardItem(str(value))
            item.setEditable(False)
            if column > 0:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            items.append(item)
        model.appendRow(items)


class _FolderField(QWidget):
    """An editable combo of the project's folders plus a Browse button."""

    def __init__(
        self, choices: list[tuple[str, Path]], default: Path | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.combo = QComboBox(self)
        self.combo.setEditable(True)
        for label, path in choices:
            self.combo.addItem(f"{label}  ({printable_path(path)})", str(path))
        if default is not None:
            index = self.combo.findData(str(default))
            if index >= 0:
                self.combo.setCurrentIndex(index)
            else:
                self.combo.setEditText(str(default))
        self.browse = QPushButton("Browse…", self)
        self.browse.clicked.connect(self._on_browse_clicked)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo, 1)
        layout.addWidget(self.browse)

    def path(self) -> Path:
        data = self.combo.currentData()
        text = self.combo.currentText()
        if data is not None and self.combo.itemText(self.combo.currentIndex()) == text:
            return Path(str(data))
        return Path(text.strip())

    def set_path(self, path: Path) -> None:
        index = self.combo.findData(str(path))
        if index >= 0:
            self.combo.setCurrentIndex(index)
        else:
            self.combo.setEditText(str(path))

    def _on_browse_clicked(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "Choose a folder of i2b2 files", str(self.path()))
        if chosen:
            self.set_path(Path(chosen))


class ReportsDialog(QDialog):
    """Evaluate one folder against another and export the report.

    Parameters
    ----------
    project:
        Supplies the default folders (``gold/`` and each annotator's folder) and ``reports/``.
    """

    def __init__(self, project: Project, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.project = project
        self.setWindowTitle(f"Evaluation reports — {project.name}")
        self.evaluation_result: EvaluationResult | None = None
        self.official: list[OfficialRun] | None = None
        self.outcome: EvaluateResult | None = None

        choices: list[tuple[str, Path]] = [("gold", project.gold_dir)]
        choices += [(f"annotations/{name}", project.annotations_dir(name)) for name in project.annotators]
        choices.append(("preannotations", project.preannotations_dir))
        predicted_default = project.annotations_dir(project.annotators[0]) if project.annotators else None
        self.reference_field = _FolderField(choices, project.gold_dir, self)
        self.predicted_field = _FolderField(choices, predicted_default, self)

        self.mode_combo = QComboBox(self)
        self.mode_combo.addItems(["clean", "i2b2"])
        self.match_combo = QComboBox(self)
        self.match_combo.addItems(list(MATCH_MODES))
        self.level_combo = QComboBox(self)
        self.level_combo.addItems(list(LEVELS))
        self.hipaa_check = QCheckBox("HIPAA subset only", self)
        self.mapping_combo = QComboBox(self)
        self.mapping_combo.addItems([NO_MAPPING, *[m for m in available_mappings() if m != "hipaa"]])
        self.exclude_edit = QLineEdit(self)
        self.exclude_edit.setPlaceholderText("types to exclude, e.g. PROFESSION,NAME/USERNAME")
        self.beta_spin = QDoubleSpinBox(self)
        self.beta_spin.setRange(0.1, 100.0)
        self.beta_spin.setValue(1.0)
        self.beta_spin.setToolTip("F-beta: values above 1 weigh recall more (F10 for de-identification)")
        self.include_text_check = QCheckBox("Include PHI text in exports", self)

        form = QFormLayout()
        form.addRow("Reference (gold):", self.reference_field)
        form.addRow("Predicted:", self.predicted_field)
        form.addRow("Mode:", self.mode_combo)
        form.addRow("Match:", self.match_combo)
        form.addRow("Level:", self.level_combo)
        form.addRow("", self.hipaa_check)
        form.addRow("Mapping:", self.mapping_combo)
        form.addRow("Exclude:", self.exclude_edit)
        form.addRow("Beta:", self.beta_spin)
        form.addRow("", self.include_text_check)

        self.run_button = QPushButton("Evaluate", self)
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self._on_run_button_clicked)
        self.status_label = QLabel("", self)
        self.status_label.setWordWrap(True)

        self.summary_model = QStandardItemModel(self)
        self.documents_model = QStandardItemModel(self)
        self.summary_view = QTableView(self)
        self.summary_view.setModel(self.summary_model)
        self.documents_view = QTableView(self)
        self.documents_view.setModel(self.documents_model)
        for view in (self.summary_view, self.documents_view):
            view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            view.setSortingEnabled(True)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.summary_view, "Summary")
        self.tabs.addTab(self.documents_view, "Per document")

        self.export_json_button = QPushButton("Export JSON…", self)
        self.export_csv_button = QPushButton("Export CSV…", self)
        self.export_html_button = QPushButton("Export HTML…", self)
        self.export_json_button.clicked.connect(self._on_export_json_button_clicked)
        self.export_csv_button.clicked.connect(self._on_export_csv_button_clicked)
        self.export_html_button.clicked.connect(self._on_export_html_button_clicked)
        self.close_button = QPushButton("Close", self)
        self.close_button.clicked.connect(self.accept)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addStretch(1)
        for button in (
            self.export_json_button,
            self.export_csv_button,
            self.export_html_button,
            self.close_button,
        ):
            buttons.addWidget(button)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.status_label)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(buttons)
        self.mode_combo.currentTextChanged.connect(self._on_mode_combo_current_text_changed)
        self._update_enabled()
        self.resize(900, 700)

    # -- options -------------------------------------------------------------------------
    def scoring(self) -> ScoringRequest:
        """The scoring choices as the widgets show them (defaults in i2b2 mode, which has none)."""
        if self.mode_combo.currentText() == "i2b2":
            return ScoringRequest()
        mapping = self.mapping_combo.currentText()
        return ScoringRequest(
            match=self.match_combo.currentText(),
            level=self.level_combo.currentText(),
            beta=round(self.beta_spin.value(), 4),
            exclude=tuple(t.strip() for t in self.exclude_edit.text().split(",") if t.strip()),
            hipaa=self.hipaa_check.isChecked(),
            mapping=None if mapping == NO_MAPPING else mapping,
        )

    def set_folders(self, reference: Path, predicted: Path) -> None:
        self.reference_field.set_path(reference)
        self.predicted_field.set_path(predicted)

    def _update_enabled(self) -> None:
        clean = self.mode_combo.currentText() == "clean"
        for widget in (
            self.match_combo,
            self.level_combo,
            self.hipaa_check,
            self.mapping_combo,
            self.exclude_edit,
            self.beta_spin,
        ):
            widget.setEnabled(clean)
        has_result = self.evaluation_result is not None or self.official is not None
        self.export_json_button.setEnabled(has_result)
        self.export_csv_button.setEnabled(has_result)
        self.export_html_button.setEnabled(self.evaluation_result is not None)

    def _on_mode_combo_current_text_changed(self, _text: str) -> None:
        self._update_enabled()

    # -- running -------------------------------------------------------------------------
    def evaluate(self) -> bool:
        """Run the evaluation (in a worker) with the current choices; False and a message on bad input."""
        request = EvaluateRequest(
            self.reference_field.path(),
            self.predicted_field.path(),
            EvaluationMode(self.mode_combo.currentText()),
            self.scoring(),
        )
        self.outcome = None
        self.evaluation_result = None
        self.official = None

        def job(progress: Progress, cancelled: Cancelled) -> EvaluateResult:
            return evaluate(request, progress, cancelled)

        ok, result = run_with_progress(self, "Evaluating…", job)
        if not ok:
            self.status_label.setText(f"Cannot evaluate: {result or 'cancelled'}")
            self._update_enabled()
            return False
        self.outcome = result
        if result.mode is EvaluationMode.I2B2:
            self.official = result.runs
            self._show_official(result.runs)
        else:
            self.evaluation_result = result.evaluation
            self._show_result(result.evaluation, result.notes)
        self._update_enabled()
        return True

    def _on_run_button_clicked(self) -> None:
        self.evaluate()

    def _show_result(self, result: EvaluationResult, found: list[Note]) -> None:
        beta = result.options.beta
        _fill(self.summary_model, ["scope", "name", *score_headers(beta)], summary_rows(result))
        _fill(self.documents_model, ["document", *score_headers(beta), "note"], document_rows(result))
        micro = result.micro
        notes = [
            f"{len(result.documents)} documents; micro F1 {_fmt(micro.f1)}; "
            f"token kappa {_fmt(result.kappa_labelled.kappa)} (F1 is the primary measure for spans)"
        ]
        for note in found:
            if note.kind is NoteKind.ONLY_REFERENCE:
                notes.append(f"{note.count} reference document(s) without a predicted file count as missed")
            elif note.kind is NoteKind.ONLY_PREDICTED:
                notes.append(f"{note.count} predicted document(s) without a reference file count as spurious")
            elif note.kind is NoteKind.EXCLUDE_MATCHES_NOTHING:
                notes.append(note.message())
        if result.skipped:
            notes.append("skipped: " + "; ".join(result.skipped))
        self.status_label.setText(". ".join(notes))

    def _show_official(self, runs: list[OfficialRun]) -> None:
        rows = []
        for run in runs:
            for table in run.tables:
                s = table.scores()
                rows.append(
                    [
                        table.label,
                        str(table.n),
                        f"{_fmt(s['macro_precision'])} ({_fmt(s['macro_precision_sd'])})",
                        f"{_fmt(s['macro_recall'])} ({_fmt(s['macro_recall_sd'])})",
                        _fmt(s["macro_f1"]),
                        _fmt(s["micro_precision"]),
                        _fmt(s["micro_recall"]),
                        _fmt(s["micro_f1"]),
                    ]
                )
        _fill(self.summary_model, OFFICIAL_HEADERS, rows)
        _fill(self.documents_model, ["document"], [])
        self.status_label.setText(
            f"Official i2b2 2014 tables ({sum(len(r.tables) for r in runs)}); only documents present on both sides"
        )

    # -- export --------------------------------------------------------------------------
    def export(self, kind: str, path: Path) -> None:
        """Write the current result as ``json``, ``csv`` or ``html`` to ``path``."""
        if self.outcome is None:
            raise AnnotatorError("nothing to export: run the evaluation first")
        request = ExportRequest(
            path,
            ReportFormat(kind),
            include_text=self.include_text_check.isChecked(),
            title=f"{self.project.name}: evaluation",
        )
        export_report(self.outcome, request)

    def _export_to_chosen(self, kind: str, pattern: str) -> None:
        default = self.project.reports_folder() / f"evaluation.{kind}"
        chosen, _ = QFileDialog.getSaveFileName(self, f"Export {kind.upper()}", str(default), pattern)
        if not chosen:
            return
        try:
            Path(chosen).parent.mkdir(parents=True, exist_ok=True)
            self.export(kind, Path(chosen))
        except (AnnotatorError, OSError) as error:
            QMessageBox.warning(self, "Export failed", str(error))
            return
        self.status_label.setText(f"Wrote {chosen}")

    def _on_export_json_button_clicked(self) -> None:
        self._export_to_chosen("json", "JSON (*.json)")

    def _on_export_csv_button_clicked(self) -> None:
        self._export_to_chosen("csv", "CSV (*.csv)")

    def _on_export_html_button_clicked(self) -> None:
        self._export_to_chosen("html", "HTML (*.html)")
