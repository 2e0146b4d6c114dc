"""The export dialog: before/after preview, options, export in a worker, leaks reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.core.project import Project
from annotator.gui.export_dialog import ExportDialog
from annotator.io.i2b2 import read_i2b2, write_i2b2
from tests.deid.builders import note


@pytest.fixture
def project(tmp_path: Path) -> Project:
    project = Project.create(tmp_path / "proj", "Export test")
    write_i2b2(note("700-01", "Patient ", ("Ora Hendrickson", "PATIENT"), " seen ", ("05/03/2067", "DATE"), "."),
               project.gold_dir / "700-01.xml")  # fmt: skip
    write_i2b2(
        note("700-02", "Follow-up for ", ("Hendrickson", "PATIENT"), "."), project.gold_dir / "700-02.xml"
    )
    return project


@pytest.fixture
def dialog(qtbot: QtBot, project: Project) -> ExportDialog:
    widget = ExportDialog(project)
    qtbot.addWidget(widget)
    return widget


def test_preview_shows_before_and_after(dialog: ExportDialog) -> None:
    assert dialog.document_combo.count() == 2
    assert dialog.before_view.toPlainText().startswith("Patient Ora Hendrickson seen 05/03/2067")
    after = dialog.after_view.toPlainText()
    assert after.startswith("Patient ") and "Hendrickson" not in after and "05/03/2067" not in after
    assert dialog.before_view.isReadOnly() and dialog.after_view.isReadOnly()


def test_preview_follows_method_and_document(dialog: ExportDialog) -> None:
    dialog.method_combo.setCurrentIndex(dialog.method_combo.findData("mask"))
    assert dialog.after_view.toPlainText() == "Patient [**PATIENT**] seen [**DATE**]."
    assert not dialog.seed_edit.isEnabled()
    dialog.mask_style_combo.setCurrentIndex(dialog.mask_style_combo.findData("chars"))
    assert dialog.mask_char_edit.isEnabled()
    dialog.document_combo.setCurrentIndex(1)
    assert dialog.after_view.toPlainText() == "Follow-up for XXXXXXXXXXX."


def test_surrogate_preview_consistent_with_patient(dialog: ExportDialog) -> None:
    first = dialog.after_view.toPlainText().split()[2]
    dialog.document_combo.setCurrentIndex(1)
    assert dialog.after_view.toPlainText() == f"Follow-up for {first}."


def test_each_dialog_starts_from_a_seed_of_its_own(qtbot: QtBot, project: Project) -> None:
    # Seed 0 for everyone would let anyone redraw a patient's date shift from the file name.
    seeds = set()
    for _ in range(3):
        widget = ExportDialog(project)
        qtbot.addWidget(widget)
        seeds.add(widget.options().seed)
    # 64 bits: a 31-bit seed can be found by trying every one against a single known date.
    assert len(seeds) == 3 and all(seed is not None and seed >= 2**31 for seed in seeds)


def test_export_runs_in_worker(qtbot: QtBot, dialog: ExportDialog, tmp_path: Path) -> None:
    out = tmp_path / "export"
    dialog.out_edit.setText(str(out))
    dialog.seed_edit.setText("7")
    with qtbot.waitSignal(dialog.exported, timeout=20000) as blocker:
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    report = blocker.args[0]
    assert report.documents == 2 and report.seed == 7
    assert read_i2b2(out / "700-01.xml").text == dialog.after_view.toPlainText()
    assert dialog.progress_bar.value() == dialog.progress_bar.maximum() > 0
    assert "leak check passed" in dialog.status_label.text()
    assert not dialog.busy()


def test_a_second_export_names_the_checkbox_that_replaces_the_folder(
    qtbot: QtBot, dialog: ExportDialog, tmp_path: Path
) -> None:
    out = tmp_path / "export"
    dialog.out_edit.setText(str(out))
    with qtbot.waitSignal(dialog.exported, timeout=20000):
        dialog.start_export()
    with qtbot.waitSignal(dialog.failed, timeout=20000) as blocker:
        dialog.start_export()
    # Told in the dialog's own terms: the checkbox, not the command line's --force.
    said = dialog.status_label.text()
    assert "not empty" in said and "“Replace a non-empty output folder”" in said
    assert "--force" not in said and "--force" not in blocker.args[0]
    dialog.force_check.setChecked(True)
    with qtbot.waitSignal(dialog.exported, timeout=20000):
        dialog.start_export()


def test_leak_reported_and_nothing_written(qtbot: QtBot, project: Project, tmp_path: Path) -> None:
    write_i2b2(
        note("701-01", "Patient ", ("Zebulon Quist", "PATIENT"), ". Quist called."),
        project.gold_dir / "701-01.xml",
    )
    dialog = ExportDialog(project)
    qtbot.addWidget(dialog)
    out = tmp_path / "export"
    dialog.out_edit.setText(str(out))
    with qtbot.waitSignal(dialog.failed, timeout=20000) as blocker:
        dialog.start_export()
    assert "701-01" in blocker.args[0] and "Quist" not in blocker.args[0]
    assert "Export failed" in dialog.status_label.text()
    assert not out.exists() and dialog.export_button.isEnabled()


def test_the_projects_site_lists_stop_an_export_the_gold_missed_a_name_in(
    qtbot: QtBot, project: Project, tmp_path: Path
) -> None:
    write_i2b2(note("702-01", "Seen by Qqkondouli from speech."), project.gold_dir / "702-01.xml")
    project.site_lists = "site-lists.tsv"
    project.save()
    (project.root / "site-lists.tsv").write_text("DOCTOR\tQqkondouli\n", encoding="utf-8")
    dialog = ExportDialog(Project.open(project.root))
    qtbot.addWidget(dialog)
    out = tmp_path / "export"
    dialog.out_edit.setText(str(out))
    # The gold tags nothing in 702-01: only the site's list knows the clinician.
    with qtbot.waitSignal(dialog.failed, timeout=20000) as blocker:
        dialog.start_export()
    assert "702-01" in blocker.args[0] and "Qqkondouli" not in blocker.args[0]
    assert not out.exists()
    (project.root / "site-lists.tsv").write_text("DOCTOR\tSomeone Else\n", encoding="utf-8")
    with qtbot.waitSignal(dialog.exported, timeout=20000):
        dialog.start_export()


def test_empty_gold_disables_export(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = ExportDialog(Project.create(tmp_path / "empty", "Empty"))
    qtbot.addWidget(dialog)
    assert not dialog.export_button.isEnabled()
    assert "No gold documents" in dialog.status_label.text()


def test_a_finished_export_says_which_tags_were_masked_for_review_and_why(
    qtbot: QtBot, project: Project, tmp_path: Path
) -> None:
    write_i2b2(
        note("703-01", "Seen ", ("around Easter", "DATE"), " by ", ("Dr. Stone", "DOCTOR"), "."),
        project.gold_dir / "703-01.xml",
    )
    dialog = ExportDialog(project)
    qtbot.addWidget(dialog)
    dialog.out_edit.setText(str(tmp_path / "export"))
    with qtbot.waitSignal(dialog.exported, timeout=20000):
        dialog.start_export()
    assert "3 documents of 2 patients written to" in dialog.status_label.text()
    assert "1 tag(s) masked for review (listed below)" in dialog.status_label.text()
    details = dialog.findings.summary_label.text()
    assert not dialog.findings.isHidden()
    assert "masked as [**TYPE**]" in details
    assert (
        "703-01, tag P0 (DATE) at 5-15 of the exported note: date format not recognised or ambiguous"
        in details
    )
    assert "Easter" not in details


def test_browse_opens_where_the_output_would_go(
    qtbot: QtBot, dialog: ExportDialog, project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QFileDialog

    asked: list[str] = []

    def choose(parent: object, title: str, directory: str) -> str:
        asked.append(directory)
        return ""

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", choose)
    assert not project.exports_dir.exists()
    qtbot.mouseClick(dialog.browse_button, Qt.MouseButton.LeftButton)
    assert asked == [str(project.root)]  # exports/ does not exist yet: its parent, the project
    project.exports_dir.mkdir()
    qtbot.mouseClick(dialog.browse_button, Qt.MouseButton.LeftButton)
    assert asked[-1] == str(project.exports_dir)
