"""Rejected suggestions stay rejected; "not started" means one thing everywhere (issue 26)."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.errors import InputError
from annotator.io.i2b2 import write_i2b2
from annotator.io.rejections import RejectedSuggestions, rejections_path
from annotator.io.workstate import DONE, IN_PROGRESS, NOT_STARTED, WorkState
from annotator.session.annotation_session import AnnotationSession
from annotator.session.timers import ManualTimers
from annotator.session.workspace import Workspace
from annotator.workflows.preannotate import not_started_documents

TEXT = "Patient John Smith was seen by Dr. Marissa Jones on 2060-01-02.\n"


def _suggestion(document: Document, phrase: str, type_name: str, tag: str) -> Annotation:
    start = TEXT.index(phrase)
    return document.make_annotation(
        tag, type_name, start, start + len(phrase), source=Source.MODEL, confidence=0.8, pending=True
    )


@pytest.fixture
def project(tmp_path: Path) -> Project:
    project = Project.create(tmp_path / "p", "Tiny", annotators=["alice", "bob"])
    for doc_id in ("300-01", "300-02", "301-01"):
        write_i2b2(Document(doc_id, TEXT), project.source_dir / f"{doc_id}.xml")
    pre = Document("300-01", TEXT)
    pre.add(_suggestion(pre, "John Smith", "PATIENT", "NAME"))
    pre.add(_suggestion(pre, "2060-01-02", "DATE", "DATE"))
    project.preannotations_dir.mkdir()
    write_i2b2(pre, project.preannotations_dir / "300-01.xml")
    return project


def _session(project: Project, annotator: str = "alice") -> AnnotationSession:
    return AnnotationSession(Workspace.open(project.root, annotator), timers=ManualTimers())


def _fresh_suggestions(document: Document) -> list[Annotation]:
    """What the tagger might say on a second run: the same two, and one more."""
    return [
        _suggestion(document, "John Smith", "PATIENT", "NAME"),
        _suggestion(document, "2060-01-02", "DATE", "DATE"),
        _suggestion(document, "Marissa Jones", "DOCTOR", "NAME"),
    ]


def test_a_rejected_suggestion_is_not_suggested_again_in_this_or_a_later_session(project: Project) -> None:
    session = _session(project)
    document = session.open_document("300-01")
    date = next(a for a in document.annotations if a.type == "DATE")
    session.set_current(date.id)
    session.delete_current()  # Delete on a pending suggestion: reject
    assert session.history.undo_text == "reject DATE"
    outcome = session.add_suggestions(document, _fresh_suggestions(document))
    assert [a.text for a in outcome.added] == ["Marissa Jones"]
    assert [a.text for a in outcome.rejected] == ["2060-01-02"]
    assert [a.text for a in outcome.overlapping] == ["John Smith"]  # still pending in the note
    assert outcome.summary() == (
        "1 suggestion added to 300-01, 1 skipped: already rejected, "
        "1 skipped: overlapping an existing annotation"
    )
    assert outcome.by_type() == [("DOCTOR", 1, 0, 0), ("DATE", 0, 1, 0), ("PATIENT", 0, 0, 1)]
    assert all(a.pending and a.id in document for a in outcome.added)
    session.save()
    session.close()
    assert rejections_path(project, "alice").is_file()
    assert "2060" not in rejections_path(project, "alice").read_text(encoding="utf-8")  # offsets only

    again = _session(project)
    reopened = again.open_document("300-01")
    second = again.add_suggestions(reopened, _fresh_suggestions(reopened))
    assert second.added == [] and [a.text for a in second.rejected] == ["2060-01-02"]
    again.close()
    # Rejections are the annotator's own: bob gets the date suggested.
    bob = _session(project, "bob")
    theirs = bob.open_document("300-01")
    assert any(a.type == "DATE" and a.pending for a in theirs.annotations)
    bob.close()


def test_undoing_a_rejection_forgets_it(project: Project) -> None:
    session = _session(project)
    document = session.open_document("300-01")
    assert session.editor is not None
    assert session.editor.reject_all() == 2
    assert session.rejections.count("300-01") == 2
    session.history.undo()
    assert session.rejections.count("300-01") == 0
    assert (
        len(session.add_suggestions(document, [_suggestion(document, "Marissa", "DOCTOR", "NAME")]).added)
        == 1
    )
    # Deleting a reviewed annotation is not a rejection of a suggestion.
    added = next(a for a in document.annotations if a.text == "Marissa")
    session.set_current(added.id)
    session.accept_current()
    session.delete_current()
    assert session.rejections.count("300-01") == 0
    session.close()


def test_suggestions_for_a_document_no_longer_open_or_read_only_are_refused(project: Project) -> None:
    session = _session(project)
    first = session.open_document("300-01")
    session.open_document("300-02")
    outcome = session.add_suggestions(first, _fresh_suggestions(first))
    assert outcome.added == [] and outcome.summary().endswith("it is no longer the open document")
    session.close()


def test_a_damaged_rejection_file_is_refused_with_its_name(project: Project) -> None:
    path = rejections_path(project, "alice")
    path.parent.mkdir(parents=True)
    path.write_text('{"documents": {"300-01": [[1, "x", "DATE"]]}}', encoding="utf-8")
    with pytest.raises(InputError) as raised:
        RejectedSuggestions.load(project, "alice")
    assert str(path) in raised.value.one_line()


def test_not_started_means_the_same_in_the_list_and_the_model_menu(project: Project) -> None:
    # alice has a copy of 300-02 made outside the window (annotator synth, a colleague): started.
    alice = project.annotations_dir("alice")
    write_i2b2(Document("300-02", TEXT), alice / "300-02.xml")
    state = WorkState.load(project)
    state.set_status("301-01", "alice", DONE)
    state.set_status("300-01", "bob", IN_PROGRESS)
    state.save()
    session = _session(project)
    statuses = session.statuses()
    assert statuses == {"300-01": NOT_STARTED, "300-02": IN_PROGRESS, "301-01": DONE}
    assert [d for d, s in statuses.items() if s == NOT_STARTED] == not_started_documents(project, "alice")
    assert session.status("300-02") == IN_PROGRESS
    session.close()
    # Nobody has started a document some annotator has: the rule without a name.
    assert not_started_documents(project) == []
