"""The supervisor dashboard: each annotator's progress and time, agreement per pair, and (in
its second tab) what pre-annotation did (:mod:`annotator.gui.effort_tab`).

The figures come from :func:`~annotator.workflows.progress.project_progress`, read from the
project's files on every Refresh (in a worker, behind a progress dialog): the documents each
annotator has a copy of, statuses by the document list's rule, recorded working time, and
strict F1 per pair over the documents both have judged (done, or holding a reviewed tag). The dialog says which folders it
compared and when; "Save as JSON…" keeps the figures (in ``reports/`` by default).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from annotator.core.atomic import atomic_write_text
from annotator.core.project import Project
from annotator.errors import AnnotatorError, printable_path
from annotator.gui.effort_tab import EffortTab
from annotator.gui.workers import run_with_progress
from annotator.workflows.effort import EffortRequest, effort_report
from annotator.workflows.notes import Cancelled, Progress
from annotator.workflows.progress import AnnotatorProgress, ProjectProgress, project_progress

PROGRESS_HEADERS = [
    "annotator",
    "documents with a copy",
    "done",
    "in progress",
    "not started",
    "reviewed tags",
    "pending suggestions",
    "active time",
]
AGREEMENT_HEADERS = [
    "annotator A",
    "annotator B",
    "documents compared",
    "done by both",
    "F1 (strict)",
    "precision A→B",
    "recall A→B",
    "token kappa",
]


def format_duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes // 60}:{minutes % 60:02d} h"


def _time(entry: AnnotatorProgress) -> str:
    if entry.timed_documents == 0:
        # Copies made outside the window carry no time: "0:00 h" would say they took none.
        return "not recorded" if entry.with_copy else "—"
    return f"{format_duration(entry.seconds)} on {entry.timed_documents} doc."


def _fmt(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.3f}"


def _row(values: list[str]) -> list[QStandardItem]:
    items = []
    for column, value in enumerate(values):
        item = QStandardItem(value)
        item.setEditable(False)
        if column > 0:
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        items.append(item)
    return items


class DashboardDialog(QDialog):
    """Per-annotator progress and pairwise agreement for one project."""

    def __init__(self, project: Project, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.project = project
        self.figures: ProjectProgress | None = None
        self.setWindowTitle(f"Supervisor dashboard — {printable_path(project.name)}")
        self.progress_model = QStandardItemModel(self)
        self.agreement_model = QStandardItemModel(self)
        self.progress_view = QTableView(self)
        self.progress_view.setModel(self.progress_model)
        self.agreement_view = QTableView(self)
        self.agreement_view.setModel(self.agreement_model)
        for view in (self.progress_view, self.agreement_view):
            view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            view.verticalHeader().setVisible(False)
        self.source_label = QLabel("", self)
        self.source_label.setWordWrap(True)
        self.summary_label = QLabel("", self)
        self.summary_label.setWordWrap(True)
        self.refresh_button = QPushButton("Refresh", self)
        self.refresh_button.clicked.connect(self._on_refresh_button_clicked)
        self.save_button = QPushButton("Save as JSON…", self)
        self.save_button.clicked.connect(self._on_save_button_clicked)
        self.close_button = QPushButton("Close", self)
        self.close_button.clicked.connect(self.accept)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.refresh_button, self.save_button, self.close_button):
            buttons.addWidget(button)
        progress_page = QWidget(self)
        page = QVBoxLayout(progress_page)
        page.addWidget(self.source_label)
        page.addWidget(QLabel("<b>Progress and active working time</b>", self))
        page.addWidget(self.progress_view, 1)
        page.addWidget(QLabel("<b>Agreement per pair</b> (pending suggestions left out)", self))
        page.addWidget(self.agreement_view, 1)
        page.addWidget(self.summary_label)
        # What pre-annotation did, from the kept edit histories (annotator report effort).
        self.effort_tab = EffortTab(self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(progress_page, "Progress")
        self.tabs.addTab(self.effort_tab, "Pre-annotation effort")
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(buttons)
        self.resize(1000, 560)
        self.refresh()

    def refresh(self) -> None:
        """Read the project's files again (in a worker) and show the figures."""

        def job(progress: Progress, cancelled: Cancelled) -> tuple[ProjectProgress, dict[str, Any] | None]:
            figures = project_progress(self.project, progress, cancelled)
            if self.project.plain_folder:
                return figures, None
            return figures, effort_report(EffortRequest(self.project), cancelled=cancelled)

        ok, result = run_with_progress(self, "Reading every annotator's copies and histories…", job)
        if not ok:
            self.summary_label.setText(f"Could not compute the figures: {result or 'cancelled'}")
            return
        figures, effort = result
        self.show_figures(figures)
        if effort is not None:
            self.effort_tab.show_report(effort)

    def show_figures(self, figures: ProjectProgress) -> None:
        self.figures = figures
        folders = ", ".join(
            f"{printable_path(a.annotator)} ({printable_path(a.folder.relative_to(figures.root))}/)"
            for a in figures.annotators
        )
        self.source_label.setText(
            f"Computed {figures.computed_at} from {printable_path(figures.root)}: the copies of "
            f"{folders or 'no annotator'}, and the work state (status, time) of .annotator/state.json."
        )
        self.progress_model.clear()
        self.progress_model.setHorizontalHeaderLabels(PROGRESS_HEADERS)
        for a in figures.annotators:
            counts = (a.with_copy, a.done, a.in_progress, a.not_started, a.reviewed, a.pending)
            self.progress_model.appendRow(_row([a.annotator, *map(str, counts), _time(a)]))
        self.agreement_model.clear()
        self.agreement_model.setHorizontalHeaderLabels(AGREEMENT_HEADERS)
        for p in figures.pairs:
            scores = (_fmt(p.f1), _fmt(p.precision), _fmt(p.recall), _fmt(p.kappa))
            self.agreement_model.appendRow(_row([p.a, p.b, str(p.compared), str(p.done_by_both), *scores]))
        total = sum(a.seconds for a in figures.annotators)
        worked = (
            f"{format_duration(total)} of active work recorded" if total else "no working time recorded yet"
        )
        text = (
            f"{figures.documents} documents, {len(figures.annotators)} annotators, {worked}. Agreement "
            "is strict micro F1 over the documents both annotators have judged: marked done, or holding a "
            "reviewed tag (n/a: none yet)."
        )
        if figures.problems:
            text += " Unreadable, left out: " + "; ".join(figures.problems)
        self.summary_label.setText(text)

    def save(self, path: Path) -> None:
        if self.figures is None:
            raise AnnotatorError("nothing to save: the figures could not be computed")
        atomic_write_text(path, json.dumps(self.figures.to_dict(), indent=1) + "\n")

    def _on_refresh_button_clicked(self) -> None:
        self.refresh()

    def _on_save_button_clicked(self) -> None:
        chosen, _ = QFileDialog.getSaveFileName(
            self, "Save the figures", str(self.project.reports_folder() / "progress.json"), "JSON (*.json)"
        )
        if not chosen:
            return
        try:
            self.save(Path(chosen))
        except AnnotatorError as error:
            self.summary_label.setText(error.one_line())
            return
        self.summary_label.setText(f"Saved {printable_path(chosen)}")
