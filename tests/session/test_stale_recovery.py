"""Unsaved edits of a crashed session, recovered over a note whose text changed on disk since
(a colleague's sync, a re-import, a hand edit): never applied to the new text, never lost."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from annotator.core.document import Document
from annotator.core.project import Project
from annotator.io.autosave import recovery_path
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.io.journal import TEXT_DIGEST, journal_path, read_journal, text_digest
from annotator.session.annotation_session import AnnotationSession
from annotator.session.timers import ManualTimers
from annotator.session.workspace import Workspace

TEXT = "Patient John Smith was seen by Dr. Marissa Jones on 2060-01-02.\n"
# The same note re-imported with a title line: every offset moved by its length.
NEW_TEXT = "DISCHARGE SUMMARY\n" + TEXT


@pytest.fixture
def project(tmp_path: Path) -> Project:
    project = Project.create(tmp_path / "p", "Tiny", annotators=["alice"])
    write_i2b2(Document("300-01", TEXT), project.source_dir / "300-01.xml")
    return project


def _session(project: Project) -> AnnotationSession:
    # Time stands still: no test here reads it.
    return AnnotationSession(
        Workspace.open(project.root, "alice"), clock=lambda: 500.0, autosave_delay=1.0, timers=ManualTimers()
    )


def _tag_and_crash(project: Project, autosave: bool = False) -> Path:
    """A session tags "John Smith" in 300-01 and dies unsaved; the working copy's path."""
    session = _session(project)
    session.open_document("300-01")
    start = TEXT.index("John Smith")
    session.apply_type("PATIENT", start, start + len("John Smith"), start)
    if autosave:
        assert session.autosave_now() == 1
    assert session.workspace.journal.flush()
    for lock in session.workspace.locks.values():
        lock.release()  # what the dead process's lock stands for: stale
    return session.workspace.entry("300-01").working_path


def _replace_text(working: Path, text: str, older_than: Path | None = None) -> bytes:
    """Someone else's version of the note lands; with ``older_than``, a sync that keeps file
    times (rsync -t, unison) gives it a time before that file's. The new file's bytes."""
    write_i2b2(Document("300-01", text), working)
    if older_than is not None:
        then = older_than.stat().st_mtime - 60
        os.utime(working, (then, then))
    return working.read_bytes()


def _reopen(project: Project) -> tuple[AnnotationSession, list[str], list[str], list[str]]:
    """A new session that opens 300-01: (session, recovery questions, notices, warnings)."""
    session = _session(project)
    asked: list[str] = []
    notices: list[str] = []
    warnings: list[str] = []
    session.notice.connect(notices.append)
    session.edits_not_recovered.connect(warnings.append)

    def ask(doc_id: str) -> bool:
        asked.append(doc_id)
        return True

    session.open_document("300-01", ask_recovery=ask)
    return session, asked, notices, warnings


def test_journal_lines_hold_the_digest_of_the_text_they_were_made_over(project: Project) -> None:
    working = _tag_and_crash(project)
    (entry,) = read_journal(journal_path(working))
    assert entry[TEXT_DIGEST] == text_digest(TEXT)
    assert "John" not in journal_path(working).read_text()


def test_edits_journalled_over_a_text_changed_since_are_kept_aside_not_replayed(project: Project) -> None:
    working = _tag_and_crash(project)
    theirs = _replace_text(working, NEW_TEXT)
    session, asked, notices, warnings = _reopen(project)
    document = session.document
    assert document is not None and document.text == NEW_TEXT
    assert document.annotations == []  # no PATIENT tag on "DISCHARGE " or anywhere else
    assert asked == []  # edits that cannot be applied are not offered
    (kept,) = working.parent.glob(".300-01.xml.journal.stale-*")
    assert [entry["op"] for entry in read_journal(kept)] == ["add"]
    assert not journal_path(working).exists()
    assert len(warnings) == 1 and "text changed" in warnings[0] and kept.name in warnings[0]
    assert "\n" not in warnings[0]
    assert notices == warnings
    assert session.save_state == "saved"
    session.close()
    assert working.read_bytes() == theirs  # nothing written over their version
    assert kept.exists()


def test_edits_over_the_same_text_in_a_file_changed_otherwise_are_replayed(project: Project) -> None:
    working = _tag_and_crash(project)
    # A colleague's tag added to the file: the text, and so every offset, is the same.
    theirs = read_i2b2(working)
    start = TEXT.index("Marissa Jones")
    doctor = theirs.make_annotation("NAME", "DOCTOR", start, start + len("Marissa Jones"))
    theirs.add(doctor.replace(id="D900"))  # an id of theirs: the journal's own ids are not at issue
    write_i2b2(theirs, working)
    session, asked, _notices, warnings = _reopen(project)
    assert asked == ["300-01"] and warnings == []
    document = session.document
    assert document is not None
    assert sorted(a.text for a in document.annotations) == ["John Smith", "Marissa Jones"]
    session.close()


def test_a_journal_from_before_digests_is_replayed_as_before(project: Project) -> None:
    working = _tag_and_crash(project)
    journal = journal_path(working)
    lines = [line for line in journal.read_text().splitlines() if line]
    journal.write_text(
        "".join(line.replace(f',"{TEXT_DIGEST}":"{text_digest(TEXT)}"', "") + "\n" for line in lines)
    )
    assert TEXT_DIGEST not in journal.read_text()
    session, asked, _notices, warnings = _reopen(project)
    assert asked == ["300-01"] and warnings == []
    document = session.document
    assert document is not None and [a.text for a in document.annotations] == ["John Smith"]
    session.close()


def test_a_recovery_file_over_another_text_is_kept_aside_not_offered(project: Project) -> None:
    # The journal could not be written (a full disk): only the recovery file has the edit,
    # with the old text in it. Opened, it would put that text back over theirs on saving.
    working = _tag_and_crash(project, autosave=True)
    journal_path(working).unlink()
    theirs = _replace_text(working, NEW_TEXT, older_than=recovery_path(working))
    session, asked, _notices, warnings = _reopen(project)
    document = session.document
    assert asked == []
    assert document is not None and document.text == NEW_TEXT and document.annotations == []
    (kept,) = working.parent.glob(".300-01.xml.autosave.stale-*")
    assert [a.text for a in read_i2b2(kept).annotations] == ["John Smith"]
    assert not recovery_path(working).exists()
    assert len(warnings) == 1 and kept.name in warnings[0]
    session.close()
    assert working.read_bytes() == theirs


def test_journal_and_recovery_file_over_another_text_are_both_kept_and_named(project: Project) -> None:
    working = _tag_and_crash(project, autosave=True)
    _replace_text(working, NEW_TEXT, older_than=recovery_path(working))
    session, asked, _notices, warnings = _reopen(project)
    assert asked == []
    kept = sorted(working.parent.glob(".300-01.xml.*.stale-*"))
    assert [path.name.split(".stale-")[0] for path in kept] == [".300-01.xml.autosave", ".300-01.xml.journal"]
    assert len(warnings) == 1 and all(path.name in warnings[0] for path in kept)
    session.close()


def test_edits_kept_aside_twice_in_one_second_keep_both(project: Project) -> None:
    working = _tag_and_crash(project)
    _replace_text(working, NEW_TEXT)
    _reopen(project)[0].close()
    _replace_text(working, TEXT)  # back to the text a second crashed session edits
    working_again = _tag_and_crash(project)
    _replace_text(working_again, NEW_TEXT)
    _reopen(project)[0].close()
    assert len(list(working.parent.glob(".300-01.xml.journal.stale-*"))) == 2
