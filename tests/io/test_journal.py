"""The write-ahead journal: lines on disk, torn tails, idempotent replay, private files."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from annotator.core.document import Document
from annotator.errors import StorageError
from annotator.io.journal import (
    TEXT_DIGEST,
    JournalWriter,
    added,
    over_text,
    read_journal,
    removed,
    replaced,
    replay,
    text_digest,
    written_over_other_text,
)

TEXT = "Seen by Dr. Marissa Jones on 2060-01-02 with John Smith."


def _doc() -> Document:
    document = Document("200-01", TEXT)
    start = TEXT.index("Marissa Jones")
    document.add(document.make_annotation("NAME", "DOCTOR", start, start + len("Marissa Jones")))
    return document


def test_appended_entries_are_on_disk_after_flush_and_private(tmp_path: Path) -> None:
    writer = JournalWriter()
    path = tmp_path / ".200-01.xml.journal"
    document = _doc()
    for annotation in document.annotations:
        writer.append(path, added(annotation))
    assert writer.flush()
    assert [entry["op"] for entry in read_journal(path)] == ["add"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "Marissa" not in path.read_text()  # offsets, never the note text
    writer.close()


def test_replay_rebuilds_the_edited_document_from_the_saved_one(tmp_path: Path) -> None:
    saved = _doc()
    live = _doc()
    entries = []
    live.annotation_added.connect(lambda a: entries.append(added(a)))
    live.annotation_removed.connect(lambda a: entries.append(removed(a)))
    live.annotation_replaced.connect(lambda old, new: entries.append(replaced(old, new)))
    start = TEXT.index("John Smith")
    patient = live.add(live.make_annotation("NAME", "PATIENT", start, start + len("John Smith")))
    doctor = live.annotations[0]
    live.replace(doctor.id, doctor.replace(type="PATIENT"))
    date = TEXT.index("2060-01-02")
    live.add(live.make_annotation("DATE", "DATE", date, date + len("2060-01-02")))
    live.remove(patient.id)
    assert replay(saved, entries) == 4
    assert saved.annotations == live.annotations
    # Replaying again over a file that already holds the edits (a crash between saving the
    # file and truncating the journal) ends in the same state.
    replay(saved, entries)
    assert saved.annotations == live.annotations


def test_a_torn_last_line_is_dropped_and_a_damaged_middle_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "j"
    path.write_bytes(b'{"op":"remove","id":"P1"}\n{"op":"rem')
    assert read_journal(path) == [{"op": "remove", "id": "P1"}]
    path.write_bytes(b'{"op":"rem\n{"op":"remove","id":"P1"}\n')
    with pytest.raises(StorageError, match="line 1"):
        read_journal(path)


def test_an_entry_outside_the_text_is_refused(tmp_path: Path) -> None:
    document = _doc()
    entry = added(document.annotations[0].replace(id="P9", start=5, end=len(TEXT) + 3))
    with pytest.raises(StorageError, match="cannot be applied"):
        replay(document, [entry])


def test_truncate_empties_the_journal(tmp_path: Path) -> None:
    writer = JournalWriter()
    path = tmp_path / "j"
    writer.append(path, removed(_doc().annotations[0]))
    writer.truncate(path)
    assert read_journal(path) == []
    writer.append(path, removed(_doc().annotations[0]))  # a new journal starts after a save
    assert writer.flush()
    assert len(read_journal(path)) == 1
    writer.close()


def test_a_line_is_in_the_file_when_append_returns(tmp_path: Path) -> None:
    # Written before the edit is shown: a killed process cannot lose it, only a power cut
    # before the background fsync could.
    writer = JournalWriter()
    path = tmp_path / "j"
    for annotation in _doc().annotations:
        writer.append(path, added(annotation))
        assert [entry["op"] for entry in read_journal(path)] == ["add"]
    writer.close()


def test_a_journal_that_cannot_be_written_is_reported_once(tmp_path: Path) -> None:
    writer = JournalWriter()
    path = tmp_path / "j"
    path.mkdir()
    writer.append(path, removed(_doc().annotations[0]))
    assert writer.flush()  # nothing was queued, nothing waits
    failures = writer.take_failures()
    assert len(failures) == 1 and failures[0].startswith("j: ")
    assert writer.take_failures() == []
    writer.close()


def test_a_line_marked_with_the_text_digest_holds_a_digest_never_the_text(tmp_path: Path) -> None:
    writer = JournalWriter()
    path = tmp_path / ".200-01.xml.journal"
    writer.append(path, over_text(added(_doc().annotations[0]), text_digest(TEXT)))
    assert writer.flush()
    (entry,) = read_journal(path)
    assert entry[TEXT_DIGEST] == text_digest(TEXT) and len(entry[TEXT_DIGEST]) == 16
    assert "Marissa" not in path.read_text() and "Jones" not in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    writer.close()


def test_a_journal_written_over_another_text_is_told_from_one_over_this_text() -> None:
    entries = [over_text(added(_doc().annotations[0]), text_digest(TEXT))]
    assert not written_over_other_text(entries, TEXT)
    # One character inserted before the tag (a re-import): every offset after it is off by one.
    assert written_over_other_text(entries, "X" + TEXT)
    # A journal from before digests says nothing either way: replayed as before.
    assert not written_over_other_text([added(_doc().annotations[0])], "X" + TEXT)
    # Lines over two texts (never written so, but read from disk): not this text as a whole.
    mixed = [*entries, over_text(removed(_doc().annotations[0]), text_digest("X" + TEXT))]
    assert written_over_other_text(mixed, TEXT)


def test_replay_ignores_the_digest_of_a_line(tmp_path: Path) -> None:
    saved = Document("200-01", TEXT)
    entry = over_text(added(_doc().annotations[0]), text_digest(TEXT))
    assert replay(saved, [entry]) == 1
    assert [a.text for a in saved.annotations] == ["Marissa Jones"]


def test_a_digest_that_is_not_one_of_ours_counts_as_another_text() -> None:
    # A hand-edited or foreign journal: never replayed on a guess, never an exception.
    for odd in (12, None, ["a"], {"b": 1}, ""):
        assert written_over_other_text([{**added(_doc().annotations[0]), TEXT_DIGEST: odd}], TEXT)
