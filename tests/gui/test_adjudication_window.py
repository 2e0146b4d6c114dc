"""Adjudication window: a keyboard walk through a document to a finalised gold file on disk."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.adjudication.corpus import prepare_corpus
from annotator.adjudication.decisions import log_path, read_log
from annotator.adjudication.units import UnitKind
from annotator.core.annotation import Source
from annotator.core.document import Document
from annotator.gui.adjudication.highlighter import UnitState, unit_state
from annotator.gui.adjudication.launch import launch_adjudication
from annotator.gui.adjudication.window import AdjudicationWindow
from annotator.io.i2b2 import read_i2b2
from tests.adjudication.helpers import NOTE, at, version, write_versions

# The offscreen platform warns that it cannot propagate size hints when a window is shown.
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")


@pytest.fixture
def folders(tmp_path: Path) -> list[Path]:
    alice = [
        version(
            "100-01",
            NOTE,
            ("John Smith", "NAME", "DOCTOR"),
            ("2067-05-03", "DATE", "DATE"),
            ("Ora Hendrickson", "NAME", "PATIENT"),
            ("Boston", "LOCATION", "CITY"),
        ),
        version("100-02", NOTE, ("2067-05-03", "DATE", "DATE")),
    ]
    bob = [
        version(
            "100-01",
            NOTE,
            ("John", "NAME", "DOCTOR"),
            ("Smith", "NAME", "DOCTOR"),
            ("2067-05-03", "DATE", "DATE"),
            ("Ora Hendrickson", "NAME", "DOCTOR"),
        ),
        version("100-02", NOTE, ("2067-05-03", "DATE", "DATE")),
    ]
    return write_versions(tmp_path, {"alice": alice, "bob": bob})


@pytest.fixture
def window(qtbot: QtBot, folders: list[Path], tmp_path: Path) -> AdjudicationWindow:
    prepared = prepare_corpus(folders, tmp_path / "gold")
    widget = AdjudicationWindow(prepared, adjudicator="dana")
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    widget.activateWindow()
    widget.note_view.setFocus()
    return widget


def press(
    qtbot: QtBot,
    window: AdjudicationWindow,
    key: Qt.Key,
    modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    qtbot.keyClick(window.note_view, key, modifier)


def test_keyboard_walk_to_finalised_gold(qtbot: QtBot, window: AdjudicationWindow, tmp_path: Path) -> None:
    session = window.session
    assert session is not None and session.doc_id == "100-01"
    current = window.current_unit
    assert current is not None and (current.start, current.end) == at(NOTE, "John Smith")
    # F is refused while units are open: nothing is written.
    press(qtbot, window, Qt.Key.Key_F)
    assert not session.finalised
    assert "cannot be finalised" in window.statusBar().currentMessage()
    assert not (tmp_path / "gold" / "100-01.xml").exists()
    # 1: take alice's "John Smith"; the window moves on to the type conflict.
    press(qtbot, window, Qt.Key.Key_1)
    current = window.current_unit
    assert current is not None and (current.start, current.end) == at(NOTE, "Ora Hendrickson")
    # 2 then U: take bob's type, undo it; the unit is open again.
    press(qtbot, window, Qt.Key.Key_2)
    assert session.is_resolved(current.id)
    press(qtbot, window, Qt.Key.Key_U)
    assert not session.is_resolved(current.id)
    # K goes back to the previous unresolved unit (wrapping), J forward again.
    press(qtbot, window, Qt.Key.Key_J)
    press(qtbot, window, Qt.Key.Key_K)
    assert window.current_unit == current
    press(qtbot, window, Qt.Key.Key_1)  # PATIENT, as alice said
    current = window.current_unit
    assert current is not None and (current.start, current.end) == at(NOTE, "Boston")
    press(qtbot, window, Qt.Key.Key_X)  # Boston only in alice's version: neither
    # Ctrl+Z undoes too (and returns to the unit); B then takes it after all.
    press(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not session.is_resolved(current.id)
    assert window.current_unit == current
    press(qtbot, window, Qt.Key.Key_B)
    assert session.unresolved() == []
    press(qtbot, window, Qt.Key.Key_F)
    assert session.finalised
    gold = read_i2b2(tmp_path / "gold" / "100-01.xml")
    assert {a.key for a in gold} == {
        ("NAME", "DOCTOR", *at(NOTE, "John Smith")),
        ("DATE", "DATE", *at(NOTE, "2067-05-03")),
        ("NAME", "PATIENT", *at(NOTE, "Ora Hendrickson")),
        ("LOCATION", "CITY", *at(NOTE, "Boston")),
    }
    assert all(a.source is Source.ADJUDICATED and a.annotator == "dana" for a in gold)
    entries = read_log(log_path(tmp_path / "gold", "100-01"))
    assert entries[-1]["decision"] == "finalise"
    assert "✔" in window.document_list.item(0).text()


def test_candidate_accept_key_and_next_document(
    qtbot: QtBot, window: AdjudicationWindow, tmp_path: Path
) -> None:
    press(qtbot, window, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    session = window.session
    assert session is not None and session.doc_id == "100-02"
    unit = window.current_unit
    assert unit is not None and unit.kind is UnitKind.MISSED_CANDIDATE
    assert unit_state(session, unit) is UnitState.CANDIDATE
    assert "Possible missed PHI" in window.unit_panel.toPlainText()
    press(qtbot, window, Qt.Key.Key_A)
    assert session.is_resolved(unit.id)
    assert unit.suggestion is not None and unit.suggestion.key in {a.key for a in session.gold}
    press(qtbot, window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert unit.suggestion.key in {a.key for a in read_i2b2(tmp_path / "gold" / "100-02.xml")}
    assert window.corpus_progress.value() == sum(s.progress()[0] for s in window.sessions.values())


def test_launch_adjudication_renders_screenshot(qtbot: QtBot, folders: list[Path], tmp_path: Path) -> None:
    target = tmp_path / "shot.png"
    assert launch_adjudication(folders, tmp_path / "gold", screenshot=target, document_id="100-02") == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_edit_key_uses_the_selection_and_chosen_type(qtbot: QtBot, window: AdjudicationWindow) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QTextCursor
    from PySide6.QtWidgets import QApplication

    from annotator.gui.adjudication.edit_dialog import EditUnitDialog

    session = window.session
    assert session is not None
    start = at(NOTE, "Ora Hendrickson")[0]
    unit = next(u for u in session.units if u.start == start)
    window.go_to(unit)
    cursor = window.note_view.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + len("Ora"), QTextCursor.MoveMode.KeepAnchor)
    window.note_view.setTextCursor(cursor)
    seen: list[tuple[int, int]] = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, EditUnitDialog)
        seen.append((dialog.start_box.value(), dialog.end_box.value()))
        dialog.type_box.setCurrentIndex(dialog.type_box.findData("PATIENT"))
        dialog.accept()

    QTimer.singleShot(0, answer)
    press(qtbot, window, Qt.Key.Key_E)
    assert seen == [(start, start + len("Ora"))]
    assert ("NAME", "PATIENT", start, start + len("Ora")) in {a.key for a in session.gold}
    assert session.is_resolved(unit.id)


def test_existing_gold_without_log_is_not_overwritten(
    qtbot: QtBot, folders: list[Path], tmp_path: Path
) -> None:
    gold_dir = tmp_path / "gold"
    write_versions(tmp_path, {"gold": [version("100-01", NOTE, ("Boston", "LOCATION", "CITY"))]})
    before = (gold_dir / "100-01.xml").read_bytes()
    widget = AdjudicationWindow(prepare_corpus(folders, gold_dir), adjudicator="dana")
    qtbot.addWidget(widget)
    assert widget.current_unit is not None
    session = widget.session
    assert session is not None
    unresolved = len(session.unresolved())
    # A decision that could never be saved is refused, not taken and lost at the close; so is
    # finalising (it said "finalised and saved" and wrote nothing).
    widget.take(0)
    assert len(session.unresolved()) == unresolved
    assert "no decision can be made here" in widget.statusBar().currentMessage()
    widget.finalise()
    assert not session.finalised and "never overwritten" in widget.statusBar().currentMessage()
    widget.save()
    assert (gold_dir / "100-01.xml").read_bytes() == before
    assert not list(gold_dir.glob("*.jsonl")) and not list(gold_dir.glob(".*.jsonl"))
    assert widget.document_list.item(0).text().startswith("⚠")


def test_taking_every_version_of_a_boundary_conflict_warns_of_the_overlap(
    qtbot: QtBot, window: AdjudicationWindow
) -> None:
    session = window.session
    assert session is not None
    # The first unit: alice's "John Smith" against bob's "John" and "Smith".
    unit = window.current_unit
    assert unit is not None and (unit.start, unit.end) == at(NOTE, "John Smith")
    press(qtbot, window, Qt.Key.Key_B)
    assert session.is_resolved(unit.id)  # allowed: nested tags can be meant
    message = window.statusBar().currentMessage()
    assert "overlapping tags" in message and "counted twice" in message
    press(qtbot, window, Qt.Key.Key_1)  # a version's tags alone: no warning
    assert "overlapping" not in window.statusBar().currentMessage()


def finalise_then_bob_retypes(qtbot: QtBot, folders: list[Path], gold_dir: Path) -> None:
    """dana takes version 1 everywhere and finalises; then bob retypes Ora Hendrickson (dana
    took alice's PATIENT over his DOCTOR) to STAFF."""
    first = AdjudicationWindow(prepare_corpus(folders, gold_dir), adjudicator="dana")
    qtbot.addWidget(first)
    session = first.session
    assert session is not None
    while session.unresolved():
        first.take(0)
    first.finalise()
    assert session.finalised
    first.close()
    path = folders[1] / "100-01.xml"
    head, tail = path.read_text(encoding="utf-8").rsplit('TYPE="DOCTOR"', 1)
    path.write_text(f'{head}TYPE="STAFF"{tail}', encoding="utf-8")


def test_a_decision_whose_versions_changed_is_open_again_and_the_window_says_so(
    qtbot: QtBot, folders: list[Path], tmp_path: Path
) -> None:
    gold_dir = tmp_path / "gold"
    finalise_then_bob_retypes(qtbot, folders, gold_dir)
    second = AdjudicationWindow(prepare_corpus(folders, gold_dir), adjudicator="dana")
    qtbot.addWidget(second)
    session = second.session
    assert session is not None and not session.finalised
    ora = f"100-01:{at(NOTE, 'Ora Hendrickson')[0]}-{at(NOTE, 'Ora Hendrickson')[1]}"
    assert [u.id for u in session.unresolved()] == [ora] == session.stale
    assert second.current_unit is not None and second.current_unit.id == ora
    assert second.statusBar().currentMessage() == (
        f"100-01: 3/4 decided; the versions changed since 1 decision(s) were made, open again: {ora}"
    )
    assert not second.document_list.item(0).text().startswith("✔")


def test_a_reopened_decision_decided_again_stays_decided_and_the_gold_is_rewritten_on_close(
    qtbot: QtBot, folders: list[Path], tmp_path: Path
) -> None:
    gold_dir = tmp_path / "gold"
    finalise_then_bob_retypes(qtbot, folders, gold_dir)
    # Opened and closed without a key pressed: the gold no longer holds what the changed
    # decision put there, nor claims to be finalised.
    second = AdjudicationWindow(prepare_corpus(folders, gold_dir), adjudicator="dana")
    qtbot.addWidget(second)
    second.close()
    assert "STAFF" not in {a.type for a in read_i2b2(gold_dir / "100-01.xml")}
    ora = at(NOTE, "Ora Hendrickson")
    assert not [a for a in read_i2b2(gold_dir / "100-01.xml") if (a.start, a.end) == ora]
    third = AdjudicationWindow(prepare_corpus(folders, gold_dir), adjudicator="dana")
    qtbot.addWidget(third)
    session = third.session
    assert session is not None and not session.finalised and len(session.stale) == 1
    third.take(1)  # bob's STAFF this time
    third.finalise()
    third.close()
    fourth = AdjudicationWindow(prepare_corpus(folders, gold_dir), adjudicator="dana")
    qtbot.addWidget(fourth)
    session = fourth.session
    assert session is not None and session.finalised and session.stale == [] and not session.unresolved()
    assert "STAFF" in {a.type for a in read_i2b2(gold_dir / "100-01.xml")}


def test_saving_says_how_many_links_the_gold_does_not_hold(qtbot: QtBot, tmp_path: Path) -> None:
    from annotator.core.relations import Argument, Relation

    alice = version("100-01", NOTE, ("John Smith", "NAME", "DOCTOR"), ("Ora Hendrickson", "NAME", "PATIENT"))
    alice.add_relation(Relation("L0", "SEENBY", arguments=(Argument("from", "P1"), Argument("to", "P0"))))
    bob = version("100-01", NOTE, ("John Smith", "NAME", "DOCTOR"), ("Ora Hendrickson", "NAME", "PATIENT"))
    folders = write_versions(tmp_path, {"alice": [alice], "bob": [bob]})
    window = AdjudicationWindow(prepare_corpus(folders, tmp_path / "gold"), adjudicator="dana")
    qtbot.addWidget(window)
    window.finalise()
    assert window.statusBar().currentMessage() == (
        "100-01 finalised and saved; 1 link(s) of the versions not in the gold (not made by every annotator)"
    )
    assert read_i2b2(tmp_path / "gold" / "100-01.xml").relations == []


def test_a_document_one_annotator_lacks_keeps_each_versions_key(qtbot: QtBot, tmp_path: Path) -> None:
    # bob did only the second note: on the first, 2 is his and does nothing, 3 is still carol.
    def note_of(doc_id: str, type_: str) -> list[Document]:
        return [version(doc_id, NOTE, ("Ora Hendrickson", "NAME", type_))]

    folders = write_versions(
        tmp_path,
        {
            "alice": note_of("100-01", "PATIENT") + note_of("100-02", "PATIENT"),
            "bob": note_of("100-02", "DOCTOR"),
            "carol": note_of("100-01", "STAFF") + note_of("100-02", "STAFF"),
        },
    )
    window = AdjudicationWindow(prepare_corpus(folders, tmp_path / "gold"), adjudicator="dana")
    qtbot.addWidget(window)
    session = window.session
    assert session is not None and session.doc_id == "100-01" and session.names == ["alice", "carol"]
    lines = [line.strip() for line in window.unit_panel.toPlainText().splitlines()]
    numbered = [(key, name) for key, name in itertools.pairwise(lines) if key in ("1", "2", "3")]
    assert numbered == [("1", "alice"), ("3", "carol")]
    # The side-by-side columns are numbered by the same keys.
    assert [column.header.full_text() for column in window.side_by_side.columns] == ["1: alice", "3: carol"]
    window.take(1)  # key 2
    assert window.statusBar().currentMessage() == "bob has no version of 100-01"
    assert list(session.gold) == []
    window.take(2)  # key 3: carol, whatever bob's absence
    assert [a.type for a in session.gold] == ["STAFF"]
    window._step_document(1)
    session = window.session
    assert session is not None and session.names == ["alice", "bob", "carol"]
    window.take(1)
    assert [a.type for a in session.gold] == ["DOCTOR"]
