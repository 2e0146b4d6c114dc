"""The supervisor dashboard: each annotator's progress and time, and running agreement.

Progress and active working time come from the project's work state
(:mod:`annotator.io.workstate`). Agreement is pairwise strict micro F1 (and token kappa)
on the documents both annotators have marked done, recomputed on Refresh.
"""

from __future__ import annotations

import itertools
import math

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from annotator.core.document import Document
from annotator.core.project import Project
from annotator.errors import AnnotatorError, printable_path
from annotator.evaluation.engine import Options, evaluate_pairs
from annotator.evaluation.loading import pair_documents
from annotator.io.i2b2 import read_i2b2
from annotator.io.workstate import DONE, IN_PROGRESS, NOT_STARTED, WorkState

PROGRESS_HEADERS = ["annotator", "done", "in progress", "not started", "active time"]
AGREEMENT_HEADERS = [
    "annotator A",
    "annotator B",
    "documents done by both",
    "F1 (strict)",
    "precision A→B",
    "recall A→B",
    "token kappa",
]


def format_duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes // 60}:{minutes % 60:02d} h"


def _fmt(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:.3f}"


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
        self.setWindowTitle(f"Supervisor dashboard — {printable_path(project.name)}")
        self.progress_model = QStandardItemModel(self)
        self.agreement_model = QStandardItemModel(self)
        self.progress_view = QTableView(self)
        self.progress_view.setModel(self.progress_model)
        self.agreement_view = QTableView(self)
        self.agreement_view.setModel(self.agreement_model)
        for view in (self.progress_view, self.agreement_view):
            view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.summary_label = QLabel("", self)
        self.refresh_button = QPushButton("Refresh", self)
        self.refresh_button.clicked.connect(self._on_refresh_button_clicked)
        self.close_button = QPushButton("Close", self)
        self.close_button.clicked.connect(self.accept)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.refresh_button)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Progress and active working time", self))
        layout.addWidget(self.progress_view, 1)
        layout.addWidget(QLabel("Running agreement (documents both annotators marked done)", self))
        layout.addWidget(self.agreement_view, 1)
        layout.addWidget(self.summary_label)
        layout.addLayout(buttons)
        self.resize(760, 520)
        self.refresh()

    def refresh(self) -> None:
        state = WorkState.load(self.project)
        doc_ids = self.project.document_ids()
        done: dict[str, list[str]] = {}
        self.progress_model.clear()
        self.progress_model.setHorizontalHeaderLabels(PROGRESS_HEADERS)
        total_seconds = 0.0
        for annotator in self.project.annotators:
            counts = {DONE: 0, IN_PROGRESS: 0, NOT_STARTED: 0}
            seconds = 0.0
            for doc_id in doc_ids:
                status = state.status(doc_id, annotator)
                counts[status if status in counts else NOT_STARTED] += 1
                seconds += state.seconds(doc_id, annotator)
            done[annotator] = [d for d in doc_ids if state.status(d, annotator) == DONE]
            total_seconds += seconds
            self.progress_model.appendRow(
                _row(
                    [
                        annotator,
                        str(counts[DONE]),
                        str(counts[IN_PROGRESS]),
                        str(counts[NOT_STARTED]),
                        format_duration(seconds),
                    ]
                )
            )
        self.agreement_model.clear()
        self.agreement_model.setHorizontalHeaderLabels(AGREEMENT_HEADERS)
        problems = []
        for a, b in itertools.combinations(self.project.annotators, 2):
            shared = sorted(set(done[a]) & set(done[b]))
            try:
                docs_a = self._read(a, shared)
                docs_b = self._read(b, shared)
            except AnnotatorError as error:
                problems.append(error.one_line())
                continue
            pairs = pair_documents(docs_a, docs_b, intersection_only=True).pairs
            result = evaluate_pairs(pairs, Options(match="strict"))
            micro = result.micro
            self.agreement_model.appendRow(
                _row(
                    [
                        a,
                        b,
                        str(len(pairs)),
                        _fmt(micro.f1),
                        _fmt(micro.precision),
                        _fmt(micro.recall),
                        _fmt(result.kappa_labelled.kappa),
                    ]
                )
            )
        text = (
            f"{len(doc_ids)} documents, {len(self.project.annotators)} annotators, "
            f"{format_duration(total_seconds)} of active work in total."
        )
        if problems:
            text += " Unreadable: " + "; ".join(problems)
        self.summary_label.setText(text)

    def _read(self, annotator: str, doc_ids: list[str]) -> list[Document]:
        folder = self.project.annotations_dir(annotator)
        return [
            read_i2b2(folder / f"{doc_id}.xml") for doc_id in doc_ids if (folder / f"{doc_id}.xml").is_file()
        ]

    def _on_refresh_button_clicked(self) -> None:
        self.refresh()
