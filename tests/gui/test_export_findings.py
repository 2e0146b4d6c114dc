"""A refused export in the GUI: each finding listed, and a fixing loop that works on the gold.

Issue 26: "Tag it" used to tag the annotator's working copy, which the export never reads, so
the same finding came back every time, and it could put a second tag on top of a pending one.
Now the tag goes into the gold, as one undo step, and the export checks again after each fix
until it goes through.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from annotator.core.annotation import Source
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.core.schema import load_schema
from annotator.gui.export_dialog import ExportDialog
from annotator.gui.main_window import MainWindow
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.session.gold_fixes import FixKind, GoldFixes
from tests.deid.builders import note
from tests.gui.conftest import TEXT_200_01

FIRST = TEXT_200_01.index("John Smith")
SECOND = TEXT_200_01.index("John Smith", FIRST + 1)


def gold_with_missed_name(project: Project) -> None:
    """Gold 200-01 with the first "John Smith" tagged and the second one missed."""
    document = Document("200-01", TEXT_200_01)
    document.add(document.make_annotation("NAME", "PATIENT", FIRST, FIRST + len("John Smith")))
    for text in ("Marissa Jones", "2060-01-02"):
        start = TEXT_200_01.index(text)
        tag, type_ = ("NAME", "DOCTOR") if text[0].isalpha() else ("DATE", "DATE")
        document.add(document.make_annotation(tag, type_, start, start + len(text)))
        later = TEXT_200_01.find(text, start + 1)
        if later >= 0:
            document.add(document.make_annotation(tag, type_, later, later + len(text)))
    write_i2b2(document, project.gold_dir / "200-01.xml")


def refused(qtbot: QtBot, dialog: ExportDialog, out: Path) -> None:
    dialog.out_edit.setText(str(out))
    with qtbot.waitSignal(dialog.failed, timeout=20000):
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)


def test_refusal_lists_each_finding_without_text(qtbot: QtBot, tmp_path: Path) -> None:
    project = Project.create(tmp_path / "proj", "Findings")
    write_i2b2(
        note("701-01", "Patient ", ("Zebulon Quist", "PATIENT"), ". Quist called. Spoke to QUIST."),
        project.gold_dir / "701-01.xml",
    )
    dialog = ExportDialog(project)
    qtbot.addWidget(dialog)
    refused(qtbot, dialog, tmp_path / "out")
    model = dialog.findings.model
    ModelTester(None).check(model)
    rows = [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]
    first = len("Patient Zebulon Quist. ")
    second = len("Patient Zebulon Quist. Quist called. Spoke to ")
    assert rows == [
        ["701-01", first, first + 5, "PATIENT", "unreplaced text"],
        ["701-01", second, second + 5, "PATIENT", "unreplaced text"],
    ]
    assert not dialog.findings.isHidden() and "2 finding(s) left" in dialog.findings.summary_label.text()
    # The window's language: what to do with its buttons, no command-line flags, no note text.
    status = dialog.status_label.text()
    assert "2 place(s) in 1 gold document(s) (701-01)" in status and "nothing was written" in status
    assert "--" not in status + dialog.findings.summary_label.text() and "Quist" not in status
    assert not (tmp_path / "out").exists()


def test_not_phi_writes_a_private_allow_entry_and_the_next_export_passes(
    qtbot: QtBot, tmp_path: Path
) -> None:
    project = Project.create(tmp_path / "proj", "Findings")
    write_i2b2(note("702-01", "Seen by ", ("Dr. Stone", "DOCTOR"), "."), project.gold_dir / "702-01.xml")
    write_i2b2(note("702-02", "Seen again. Stone passed."), project.gold_dir / "702-02.xml")
    dialog = ExportDialog(project)
    qtbot.addWidget(dialog)
    refused(qtbot, dialog, tmp_path / "out")
    assert dialog.findings.model.rowCount() == 1
    dialog.findings.scope_combo.setCurrentIndex(dialog.findings.scope_combo.findData("patient"))
    with qtbot.waitSignal(dialog.rechecked, timeout=20000) as left:
        qtbot.mouseClick(dialog.findings.not_phi_button, Qt.MouseButton.LeftButton)
    assert left.args == [0]
    allow = project.root / ExportDialog.ALLOW_FILE
    [entry] = json.loads(allow.read_text(encoding="utf-8"))["allow"]
    assert entry["text"] == "Stone" and entry["patient"] == "702"
    assert stat.S_IMODE(allow.stat().st_mode) == 0o600
    assert dialog.findings.model.rowCount() == 0
    assert dialog.findings.summary_label.text().startswith("No findings left")
    with qtbot.waitSignal(dialog.exported, timeout=20000) as blocker:
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    assert blocker.args[0].leaks_allowed == 1
    assert "1 finding(s) passed as marked not PHI" in dialog.status_label.text()


def test_the_fixing_loop_ends_with_a_clean_export_and_no_duplicate_tag(
    qtbot: QtBot, window: MainWindow, project: Project, tmp_path: Path
) -> None:
    gold_with_missed_name(project)
    gold_path = project.gold_dir / "200-01.xml"
    working = project.annotations_dir("alice") / "200-01.xml"
    working_before = working.read_bytes()
    window.actions_by_name["ExportDialog"].trigger()
    dialog = window.findChild(ExportDialog)
    assert dialog is not None
    refused(qtbot, dialog, tmp_path / "out")
    counts = [dialog.findings.model.rowCount()]
    assert counts[0] >= 1
    for _ in range(10):  # the loop must end well before this
        leak = dialog.findings.model.leaks[0]
        assert (leak.doc_id, leak.original_start) == ("200-01", SECOND)
        dialog.findings.table.selectRow(0)
        with qtbot.waitSignal(dialog.rechecked, timeout=20000) as left:
            qtbot.mouseClick(dialog.findings.tag_button, Qt.MouseButton.LeftButton)
        counts.append(left.args[0])
        if left.args[0] == 0:
            break
    assert counts[-1] == 0 and counts == sorted(counts, reverse=True) and len(counts) == 2
    assert dialog.findings.summary_label.text().startswith("No findings left")
    # The fix is in the gold file the export reads, once, and nowhere else.
    gold = read_i2b2(gold_path)
    tagged = [a for a in gold.annotations if a.start == SECOND]
    assert [(a.type, a.text, a.source, a.annotator) for a in tagged] == [
        ("PATIENT", "John Smith", Source.ADJUDICATED, "alice")
    ]
    assert len({(a.start, a.end) for a in gold.annotations}) == len(gold)
    assert working.read_bytes() == working_before
    with qtbot.waitSignal(dialog.exported, timeout=20000):
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    exported = read_i2b2(tmp_path / "out" / "200-01.xml")
    assert "John Smith" not in exported.text and "leak check passed" in dialog.status_label.text()
    dialog.close()


def test_undo_tag_takes_the_fix_out_of_the_gold_and_the_finding_comes_back(
    qtbot: QtBot, project: Project, tmp_path: Path
) -> None:
    gold_with_missed_name(project)
    before = read_i2b2(project.gold_dir / "200-01.xml").annotations
    dialog = ExportDialog(project, who="dana")
    qtbot.addWidget(dialog)
    refused(qtbot, dialog, tmp_path / "out")
    with qtbot.waitSignal(dialog.rechecked, timeout=20000):
        qtbot.mouseClick(dialog.findings.tag_button, Qt.MouseButton.LeftButton)
    assert dialog.findings.undo_button.isEnabled()
    assert len(read_i2b2(project.gold_dir / "200-01.xml")) == len(before) + 1
    with qtbot.waitSignal(dialog.rechecked, timeout=20000) as left:
        qtbot.mouseClick(dialog.findings.undo_button, Qt.MouseButton.LeftButton)
    assert left.args[0] >= 1 and not dialog.findings.undo_button.isEnabled()
    assert read_i2b2(project.gold_dir / "200-01.xml").annotations == before
    assert dialog.status_label.text().startswith("Undid add PATIENT in 200-01")


def test_show_selects_the_finding_before_and_after(qtbot: QtBot, project: Project, tmp_path: Path) -> None:
    gold_with_missed_name(project)
    dialog = ExportDialog(project)
    qtbot.addWidget(dialog)
    refused(qtbot, dialog, tmp_path / "out")
    leak = dialog.findings.model.leaks[0]
    qtbot.mouseClick(dialog.findings.open_button, Qt.MouseButton.LeftButton)
    assert dialog.document_combo.currentText() == "200-01"
    assert (
        dialog.before_view.textCursor().selectedText() == TEXT_200_01[leak.original_start : leak.original_end]
    )
    assert (
        dialog.after_view.textCursor().selectedText() == TEXT_200_01[leak.original_start : leak.original_end]
    )


def test_tag_it_accepts_a_pending_suggestion_at_the_place_instead_of_doubling_it(tmp_path: Path) -> None:
    document = Document("200-01", TEXT_200_01)
    document.add(
        document.make_annotation(
            "NAME", "PATIENT", SECOND, SECOND + len("John Smith"), source=Source.MODEL, pending=True
        )
    )
    document.origin.path = tmp_path / "200-01.xml"
    write_i2b2(document, document.origin.path)
    fixes = GoldFixes([document], load_schema(), "dana")
    fix = fixes.tag("200-01", SECOND, SECOND + len("John Smith"), "PATIENT")
    assert fix.kind is FixKind.ACCEPTED and len(document) == 1
    [saved] = read_i2b2(tmp_path / "200-01.xml").annotations
    assert not saved.pending and saved.source is Source.MODEL and saved.annotator == "dana"
    again = fixes.tag("200-01", SECOND, SECOND + len("John Smith"), "PATIENT")
    assert again.kind is FixKind.ALREADY and not again.changed and len(document) == 1
    inside = fixes.tag("200-01", SECOND + 5, SECOND + len("John Smith"), "PATIENT")
    assert inside.kind is FixKind.REFUSED and "overlaps the gold tag" in inside.message
    assert fixes.undo() == "Undid accept PATIENT in 200-01."
    assert read_i2b2(tmp_path / "200-01.xml").annotations[0].pending
