"""The annotation session without Qt: psygnal signals, injected timers, autosave, saving."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from annotator.core.document import Document
from annotator.core.project import Project
from annotator.io.autosave import recovery_path
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.io.journal import journal_path, read_journal
from annotator.io.locking import DocumentLock, lock_path, read_lock_info
from annotator.session.annotation_session import AnnotationSession
from annotator.session.timers import ManualTimers
from annotator.session.workspace import Workspace

TEXT = "Patient John Smith was seen by Dr. Marissa Jones on 2060-01-02.\n"


class Clock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def project(tmp_path: Path) -> Project:
    project = Project.create(tmp_path / "p", "Tiny", annotators=["alice"])
    write_i2b2(Document("300-01", TEXT), project.source_dir / "300-01.xml")
    write_i2b2(Document("300-02", "Follow-up for John Smith.\n"), project.source_dir / "300-02.xml")
    return project


def _session(project: Project, timers: ManualTimers, clock: Clock) -> AnnotationSession:
    return AnnotationSession(
        Workspace.open(project.root, "alice"), clock=clock, autosave_delay=1.0, timers=timers
    )


def _tag(session: AnnotationSession, type_name: str, phrase: str) -> Path:
    """Open 300-01, tag ``phrase`` with ``type_name``; the document's working file."""
    session.open_document("300-01")
    start = TEXT.index(phrase)
    session.apply_type(type_name, start, start + len(phrase), start)
    return session.workspace.entry("300-01").working_path


def test_signals_announce_document_current_and_save_state(project: Project) -> None:
    timers, clock = ManualTimers(), Clock()
    session = _session(project, timers, clock)
    seen: list[tuple[str, object]] = []
    session.document_changed.connect(lambda d: seen.append(("document", d.doc_id)))
    session.current_changed.connect(lambda a: seen.append(("current", a.type if a else None)))
    session.save_state_changed.connect(lambda s: seen.append(("state", s)))
    session.open_document("300-01")
    start = TEXT.index("John Smith")
    tagged = session.apply_type("PATIENT", start, start + len("John Smith"), start)
    assert tagged is not None and tagged.text == "John Smith"
    assert ("document", "300-01") in seen
    assert ("current", "PATIENT") in seen
    assert ("state", "unsaved") in seen and session.save_state == "unsaved"
    session.close()


def test_autosave_fires_from_the_injected_timer_after_the_delay(project: Project) -> None:
    timers, clock = ManualTimers(), Clock()
    session = _session(project, timers, clock)
    working = _tag(session, "DOCTOR", "Marissa Jones")
    timers.fire_all()
    assert not recovery_path(working).exists()  # not quiet long enough yet
    clock.now += 1.5
    timers.fire_all()
    assert recovery_path(working).exists()
    assert session.save_state == "autosaved"
    session.close()


def test_a_failed_save_keeps_the_edit_in_the_recovery_file(project: Project) -> None:
    timers, clock = ManualTimers(), Clock()
    session = _session(project, timers, clock)
    working = _tag(session, "PATIENT", "John Smith")
    # Someone else overrides the lock: our save must fail and say so, not pretend.
    DocumentLock(working, "bob").acquire(force=True)
    failed = session.save()
    assert failed == ["300-01"]
    assert session.save_state == "unsaved"
    recovered = read_i2b2(recovery_path(working))
    assert [a.text for a in recovered.annotations] == ["John Smith"]
    assert session.scheduler.pending


def test_saving_folds_the_edit_into_the_file_and_drops_the_recovery(project: Project) -> None:
    timers, clock = ManualTimers(), Clock()
    session = _session(project, timers, clock)
    working = _tag(session, "DATE", "2060-01-02")
    clock.now += 2
    timers.fire_all()
    assert session.save() == []
    assert [a.type for a in read_i2b2(working).annotations] == ["DATE"]
    assert not recovery_path(working).exists()
    assert session.save_state == "saved"
    session.close()


def test_the_work_state_is_written_by_the_delayed_timer(project: Project) -> None:
    timers, clock = ManualTimers(), Clock()
    session = _session(project, timers, clock)
    session.open_document("300-02")
    session.mark_done()
    assert session.status("300-02") == "done"
    reopened = _session(project, ManualTimers(), Clock())
    assert reopened.status("300-02") != "done"  # not flushed yet
    timers.fire_all()
    assert _session(project, ManualTimers(), Clock()).status("300-02") == "done"
    session.close()


def _crash(session: AnnotationSession) -> None:
    """What a crash leaves: whatever the journal writer had synced, nothing saved; the dead
    process's lock is stale, which is what releasing it stands for here."""
    assert session.workspace.journal.flush()
    for lock in session.workspace.locks.values():
        lock.release()


def test_a_crash_is_recovered_from_the_journal_and_the_session_says_so(project: Project) -> None:
    session = _session(project, ManualTimers(), Clock())
    working = _tag(session, "PATIENT", "John Smith")
    _crash(session)
    assert not recovery_path(working).exists()  # no autosave happened: only the journal has it
    reopened = _session(project, ManualTimers(), Clock())
    notices: list[str] = []
    reopened.notice.connect(notices.append)
    document = reopened.open_document("300-01", ask_recovery=lambda doc_id: True)
    assert [a.text for a in document.annotations] == ["John Smith"]
    assert reopened.save_state == "unsaved"
    assert notices == ["Recovered 1 unsaved edit(s) of 300-01 from its edit journal."]
    assert reopened.save() == []
    assert not journal_path(working).exists()  # folded into the file
    assert [a.text for a in read_i2b2(working).annotations] == ["John Smith"]
    reopened.close()


def test_declining_a_recovery_keeps_the_journal_aside_and_says_where(project: Project) -> None:
    session = _session(project, ManualTimers(), Clock())
    working = _tag(session, "PATIENT", "John Smith")
    _crash(session)
    reopened = _session(project, ManualTimers(), Clock())
    notices: list[str] = []
    reopened.notice.connect(notices.append)
    document = reopened.open_document("300-01", ask_recovery=lambda doc_id: False)
    assert document.annotations == []
    (kept,) = working.parent.glob(".300-01.xml.journal.declined-*")
    assert notices == [f"The unsaved edits of 300-01 were kept in {kept.name}."]
    assert [e["op"] for e in read_journal(kept)] == ["add"]
    assert not journal_path(working).exists()
    reopened.close()


def test_a_stale_lock_is_taken_over_with_a_message(project: Project) -> None:
    working = project.annotations_dir("alice") / "300-01.xml"
    working.parent.mkdir(parents=True, exist_ok=True)
    write_i2b2(Document("300-01", TEXT), working)
    DocumentLock(working, "bob", host="gone-host").acquire()
    old = time.time() - 3600
    os.utime(lock_path(working), (old, old))  # no heartbeat for an hour
    session = _session(project, ManualTimers(), Clock())
    notices: list[str] = []
    session.notice.connect(notices.append)
    session.open_document("300-01")
    assert not session.read_only
    assert len(notices) == 1 and notices[0].startswith("Took over the stale lock on 300-01 held by bob")
    session.close()


def test_the_session_heartbeats_its_locks(project: Project) -> None:
    timers, clock = ManualTimers(), Clock()
    session = _session(project, timers, clock)
    session.open_document("300-01")
    working = session.workspace.entry("300-01").working_path
    old = time.time() - 3600
    os.utime(lock_path(working), (old, old))
    clock.now += 61
    timers.fire_all()
    info = read_lock_info(working)
    assert info is not None and info.age < 60
    session.close()


def _session_in_folder_of_mode(project: Project, folder_mode: int) -> AnnotationSession:
    folder = project.annotations_dir("alice")
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(folder_mode)
    return _session(project, ManualTimers(), Clock())


@pytest.mark.parametrize(("folder_mode", "file_mode"), [(0o700, 0o600), (0o755, 0o644), (0o770, 0o660)])
def test_a_new_working_copy_follows_its_folder_and_saves_keep_its_mode(
    project: Project, folder_mode: int, file_mode: int
) -> None:
    session = _session_in_folder_of_mode(project, folder_mode)
    working = _tag(session, "PATIENT", "John Smith")
    assert stat.S_IMODE(working.stat().st_mode) == file_mode
    working.chmod(0o640)  # the team changed it: saving must not undo that
    assert session.save() == []
    assert stat.S_IMODE(working.stat().st_mode) == 0o640
    session.close()


@pytest.mark.parametrize(("folder_mode", "file_mode"), [(0o755, 0o644), (0o770, 0o660)])
def test_annotate_all_into_an_unopened_record_makes_a_copy_as_readable_as_the_folder(
    project: Project, folder_mode: int, file_mode: int
) -> None:
    from annotator.core.propagation import apply_propagation, find_occurrences

    session = _session_in_folder_of_mode(project, folder_mode)
    _tag(session, "PATIENT", "John Smith")
    source = session.current()
    assert source is not None and session.document is not None
    scope = session.load_scope("patient")
    preview = find_occurrences(source, scope, origin_doc_id="300-01")
    assert {m.doc_id for m in preview.selected} == {"300-02"}
    apply_propagation(session.history, preview, {d.doc_id: d for d in scope}, source, annotator="alice")
    assert session.save() == []
    other = session.workspace.entry("300-02").working_path
    assert read_i2b2(other).annotations[0].type == "PATIENT"
    assert stat.S_IMODE(other.stat().st_mode) == file_mode
    session.close()


@pytest.mark.parametrize("leave", ["save", "switch"])
def test_an_edit_undone_and_redone_after_a_save_leaves_no_journal_to_recover(
    project: Project, leave: str
) -> None:
    session = _session(project, ManualTimers(), Clock())
    working = _tag(session, "PATIENT", "John Smith")
    assert session.save() == []
    session.undo()
    session.redo()  # the document holds what its file holds again
    assert session.workspace.journal.flush() and journal_path(working).exists()
    if leave == "save":
        assert session.save() == []
    else:
        session.open_document("300-02")
    assert not journal_path(working).exists()
    session.close()
    reopened = _session(project, ManualTimers(), Clock())
    asked: list[str] = []

    def ask(doc_id: str) -> bool:
        asked.append(doc_id)
        return True

    reopened.open_document("300-01", ask_recovery=ask)
    assert asked == [] and reopened.save_state == "saved"
    reopened.close()
