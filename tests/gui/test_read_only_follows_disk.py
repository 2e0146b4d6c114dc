"""A note open read-only (another annotator holds its lock) follows its file: when they save,
the window shows their new version where the user was, and touches nothing of theirs."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from annotator.core.document import Document
from annotator.gui.main_window import MainWindow
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.io.locking import DocumentLock
from tests.gui.conftest import TEXT_200_01, TEXT_201_01, make_window, open_note, show

# Long enough to scroll: the place on screen is part of what must survive the new reading.
FILLER = "".join(f"Line {n}: vitals stable, no acute distress.\n" for n in range(150))
LONG_TEXT = TEXT_200_01 + FILLER + "Discharged home with Marissa Jones following.\n"
# What bob's journal and recovery file hold; alice's window must leave both as they are.
THEIR_JOURNAL = b'{"op":"remove","id":"P1"}\n'
THEIR_RECOVERY = b"<not alice's to touch/>"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A plain folder of notes; bob (on ward-pc) has 200-01 open, with unsaved edits."""
    notes = tmp_path / "notes"
    notes.mkdir()
    first = Document("200-01", LONG_TEXT)
    start = LONG_TEXT.index("John Smith")
    first.add(first.make_annotation("NAME", "PATIENT", start, start + len("John Smith")))
    write_i2b2(first, notes / "200-01.xml")
    write_i2b2(Document("201-01", TEXT_201_01), notes / "201-01.xml")
    DocumentLock(notes / "200-01.xml", "bob", host="ward-pc").acquire()
    (notes / ".200-01.xml.journal").write_bytes(THEIR_JOURNAL)
    (notes / ".200-01.xml.autosave").write_bytes(THEIR_RECOVERY)
    return notes


def _bob_saves(path: Path) -> None:
    """Bob saves his version: a DOCTOR tag on the last "Marissa Jones" (at the end of the note)."""
    theirs = read_i2b2(path)
    start = LONG_TEXT.rindex("Marissa Jones")
    theirs.add(theirs.make_annotation("NAME", "DOCTOR", start, start + len("Marissa Jones")))
    write_i2b2(theirs, path)


def _theirs_untouched(folder: Path) -> None:
    assert (folder / ".200-01.xml.journal").read_bytes() == THEIR_JOURNAL
    assert (folder / ".200-01.xml.autosave").read_bytes() == THEIR_RECOVERY
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == [
        "200-01.xml",
        "201-01.xml",
    ]


def _alice_reads(qtbot: QtBot, folder: Path) -> MainWindow:
    window = make_window(qtbot, folder)
    window.open_document("200-01")
    show(qtbot, window)
    assert window.session.read_only and window.banner.isVisible()

    def never_asked(doc_id: str) -> str:
        raise AssertionError("nothing of alice's to keep: she is not asked")

    window.ask_outside_change = never_asked
    return window


def test_a_read_only_note_saved_by_its_lock_holder_is_shown_again_where_the_user_was(
    qtbot: QtBot, folder: Path
) -> None:
    window = _alice_reads(qtbot, folder)
    line = LONG_TEXT.index("Line 120:")
    window.view.select_span(line, line + len("Line 120"))
    patient = next(a for a in open_note(window).annotations if a.type == "PATIENT")
    window.session.set_current(patient.id)  # picked in the table, say
    place = window.view.place()
    assert place[2] > 0  # scrolled down: the top line is not the note's first
    saved_by_bob = folder / "200-01.xml"
    _bob_saves(saved_by_bob)
    theirs = saved_by_bob.read_bytes()
    window.check_outside_change()  # what the window does every five seconds
    document = open_note(window)
    assert [a.text for a in document.annotations if a.type == "DOCTOR"] == ["Marissa Jones"]
    assert window.table.model.rowCount() == len(document.annotations) == 2
    assert window.view.place() == place
    assert window.view.selection_span() == (line, line + len("Line 120"))
    current = window.session.current()
    assert current is not None and current.id == patient.id
    message = window.statusBar().currentMessage()
    assert "200-01 was changed on disk" in message and "bob on ward-pc" in message
    assert window.session.read_only and window.banner.isVisible()
    assert window.session.save_state == "read-only"
    window.check_outside_change()  # settled: read once
    assert open_note(window) is document
    window.close()
    assert saved_by_bob.read_bytes() == theirs
    _theirs_untouched(folder)


def test_coming_back_to_a_read_only_note_saved_meanwhile_leaves_the_holders_files_alone(
    qtbot: QtBot, folder: Path
) -> None:
    window = _alice_reads(qtbot, folder)
    window.open_document("201-01")
    _bob_saves(folder / "200-01.xml")
    window.open_document("200-01")
    assert window.session.read_only
    assert "DOCTOR" in {a.type for a in open_note(window).annotations}
    _theirs_untouched(folder)  # not set aside as "declined", not discarded
    window.close()
    _theirs_untouched(folder)


def test_a_read_only_note_caught_half_written_keeps_the_last_reading_until_complete(
    qtbot: QtBot, folder: Path
) -> None:
    window = _alice_reads(qtbot, folder)
    before = open_note(window)
    path = folder / "200-01.xml"
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])  # bob's save caught half way (not atomic)
    window.check_outside_change()
    assert open_note(window) is before
    message = window.statusBar().currentMessage()
    assert message and "\n" not in message and "Traceback" not in message
    window.statusBar().clearMessage()
    window.check_outside_change()  # said once, not every five seconds
    assert window.statusBar().currentMessage() == ""
    path.write_bytes(whole)  # the save completes
    _bob_saves(path)
    window.check_outside_change()
    assert sorted(a.type for a in open_note(window).annotations) == ["DOCTOR", "PATIENT"]
    window.close()


def test_a_read_only_note_deleted_on_disk_stays_shown_and_nothing_is_written(
    qtbot: QtBot, folder: Path
) -> None:
    window = _alice_reads(qtbot, folder)
    before = open_note(window)
    (folder / "200-01.xml").unlink()
    window.check_outside_change()
    assert open_note(window) is before
    assert "deleted on disk" in window.statusBar().currentMessage()
    assert window.session.save_state == "read-only" and not window.session.workspace.dirty()
    window.close()
    assert not (folder / "200-01.xml").exists()
