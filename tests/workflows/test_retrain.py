"""What retraining learns from, and a retrain that is cancelled or has nothing to learn."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from annotator.core.annotation import Source
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.errors import UsageError
from annotator.io.i2b2 import write_i2b2
from annotator.io.workstate import DONE, IN_PROGRESS, WorkState
from annotator.workflows.notes import WorkflowCancelled
from annotator.workflows.retrain import RetrainRequest, finished_documents, retrain, retrain_in_child

TEXT = "Seen by Dr. Quentin Abernathy on 12/3.\n"


def _project(root: Path) -> Project:
    project = Project.create(root, "Retrain", annotators=["alice", "bob"])
    for doc_id in ("900-01", "900-02", "900-03"):
        write_i2b2(Document(doc_id, TEXT), project.source_dir / f"{doc_id}.xml")
    return project


def _version(project: Project, annotator: str, doc_id: str) -> None:
    document = Document(doc_id, TEXT)
    start = TEXT.index("Quentin")
    document.add(document.make_annotation("NAME", "DOCTOR", start, start + len("Quentin Abernathy")))
    date = TEXT.index("12/3")
    document.add(document.make_annotation("DATE", "DATE", date, date + 4, source=Source.MODEL, pending=True))
    write_i2b2(document, project.annotations_dir(annotator) / f"{doc_id}.xml")


def test_finished_documents_are_gold_and_done_versions_without_pending_tags(tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    gold = Document("900-01", TEXT)
    gold.add(gold.make_annotation("DATE", "DATE", TEXT.index("12/3"), TEXT.index("12/3") + 4))
    write_i2b2(gold, project.gold_dir / "900-01.xml")
    for annotator, doc_id in (("alice", "900-01"), ("alice", "900-02"), ("bob", "900-03")):
        _version(project, annotator, doc_id)
    state = WorkState.load(project)
    state.set_status("900-01", "alice", DONE)  # gold wins over alice's version
    state.set_status("900-02", "alice", DONE)
    state.set_status("900-03", "bob", IN_PROGRESS)  # not finished: not learnt from
    state.save()
    documents = {d.doc_id: d for d in finished_documents(project)}
    assert sorted(documents) == ["900-01", "900-02"]
    assert [a.type for a in documents["900-01"].annotations] == ["DATE"]
    assert [a.type for a in documents["900-02"].annotations] == ["DOCTOR"]  # the pending DATE is left out


def test_nothing_finished_is_a_clear_error(tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    with pytest.raises(UsageError, match="no finished notes"):
        retrain(RetrainRequest(project, "alice"))
    assert not (project.models_dir / "crf.model").exists()


def test_a_cancelled_child_is_stopped_at_once_and_writes_no_model(tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    _version(project, "alice", "900-01")
    state = WorkState.load(project)
    state.set_status("900-01", "alice", DONE)
    state.save()
    began = time.perf_counter()
    with pytest.raises(WorkflowCancelled):
        retrain_in_child(
            RetrainRequest(project, "alice"), cancelled=lambda: time.perf_counter() - began > 0.2
        )
    assert time.perf_counter() - began < 3
    assert not (project.models_dir / "crf.model").exists()


def test_the_childs_error_comes_back_as_one_line(tmp_path: Path) -> None:
    from annotator.errors import AnnotatorError

    project = _project(tmp_path / "p")
    with pytest.raises(AnnotatorError, match="no finished notes to learn from yet"):
        retrain_in_child(RetrainRequest(project, "alice"))
