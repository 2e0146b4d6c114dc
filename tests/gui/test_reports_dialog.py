"""The reports dialog on a real project: folders, options, tables, exports (Qt offscreen)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from annotator.core.project import Project
from annotator.gui.reports_dialog import ReportsDialog
from tests.evaluation.helpers import at, write_doc

TEXT = "\nSeen by Amy Lee on 2069-04-07 in Boston.\n"


def _project(root: Path) -> Project:
    project = Project.create(root, "Eval", annotators=["alice", "bob"])
    gold_tags = [
        ("NAME", *at(TEXT, "Amy Lee"), "DOCTOR"),
        ("DATE", *at(TEXT, "2069-04-07"), "DATE"),
        ("LOCATION", *at(TEXT, "Boston"), "CITY"),
    ]
    write_doc(project.gold_dir, "100-01.xml", TEXT, gold_tags)
    write_doc(project.annotations_dir("alice"), "100-01.xml", TEXT, gold_tags[:2])
    write_doc(project.annotations_dir("bob"), "100-01.xml", TEXT, gold_tags)
    return project


def _cells(dialog: ReportsDialog, model_name: str = "summary_model") -> list[list[str]]:
    model = getattr(dialog, model_name)
    return [[model.item(r, c).text() for c in range(model.columnCount())] for r in range(model.rowCount())]


def test_defaults_evaluate_and_show_tables(qtbot: QtBot, tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    dialog = ReportsDialog(project)
    qtbot.addWidget(dialog)
    assert dialog.reference_field.path() == project.gold_dir
    assert dialog.predicted_field.path() == project.annotations_dir("alice")
    assert not dialog.export_json_button.isEnabled()
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    rows = _cells(dialog)
    assert rows[0][:5] == ["micro", "all", "2", "0", "1"]
    assert ["type", "LOCATION/CITY", "0", "0", "1", "n/a", "0.0000", "0.0000"] in rows
    assert _cells(dialog, "documents_model")[0][:4] == ["100-01", "2", "0", "1"]
    assert dialog.export_html_button.isEnabled()
    assert "micro F1 0.8000" in dialog.status_label.text()


def test_options_filter_and_i2b2_mode(qtbot: QtBot, tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    dialog = ReportsDialog(project)
    qtbot.addWidget(dialog)
    dialog.match_combo.setCurrentText("token")
    dialog.exclude_edit.setText("CITY")
    assert dialog.evaluate()
    assert _cells(dialog)[0][:5] == ["micro", "all", "5", "0", "0"]  # Amy, Lee, 2069, 04, 07
    dialog.mode_combo.setCurrentText("i2b2")
    assert not dialog.match_combo.isEnabled()
    assert dialog.evaluate()
    rows = _cells(dialog)
    assert len(rows) == 42
    assert rows[1][0] == "Strict" and rows[1][5:] == ["1.0000", "0.6667", "0.8000"]


def test_a_misspelt_exclusion_is_said_in_the_status_line(qtbot: QtBot, tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    dialog = ReportsDialog(project)
    qtbot.addWidget(dialog)
    dialog.exclude_edit.setText("CITY, CTIY")
    assert dialog.evaluate()
    status = dialog.status_label.text()
    assert "excluded type CTIY matches no annotation (a typo?)" in status
    assert "type CITY " not in status


def test_exports_leave_text_out_unless_asked(qtbot: QtBot, tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    dialog = ReportsDialog(project)
    qtbot.addWidget(dialog)
    assert dialog.evaluate()
    dialog.export("json", tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["micro"]["tp"] == 2 and "Boston" not in (tmp_path / "r.json").read_text()
    dialog.include_text_check.setChecked(True)
    dialog.export("html", tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert "CONTAINS PHI TEXT" in page and "Boston" in page
    # What was compared, and when (issue 26: the page never said).
    assert f"reference <b>{project.gold_dir}</b>; predicted <b>{project.annotations_dir('alice')}</b>" in page
    assert "generated 20" in page
    dialog.export("csv", tmp_path / "r.csv")
    csv_text = (tmp_path / "r.csv").read_text()  # scores only: no text, so no false warning
    assert csv_text.startswith("scope,name,") and "Boston" not in csv_text and "PHI TEXT" not in csv_text


def test_export_dialogs_open_in_the_reports_folder(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path / "p")
    project.reports_dir.rmdir()  # copied without its empty folders: the dialog opened in the launch folder
    asked: list[str] = []

    def choose(parent: object, title: str, directory: str, pattern: str) -> tuple[str, str]:
        asked.append(directory)
        return "", ""  # the user cancels

    monkeypatch.setattr(QFileDialog, "getSaveFileName", choose)
    dialog = ReportsDialog(project)
    qtbot.addWidget(dialog)
    assert dialog.evaluate()
    dialog.export_html_button.click()
    assert asked == [str(project.reports_dir / "evaluation.html")] and project.reports_dir.is_dir()


def test_bad_folder_shows_a_message(qtbot: QtBot, tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    dialog = ReportsDialog(project)
    qtbot.addWidget(dialog)
    dialog.set_folders(tmp_path / "missing", project.gold_dir)
    assert not dialog.evaluate()
    assert "Cannot evaluate" in dialog.status_label.text() and "missing" in dialog.status_label.text()
