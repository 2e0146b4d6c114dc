"""Every edit made in a session is kept in the document's edit history, which saving never empties."""

from __future__ import annotations

from pathlib import Path

from annotator.core.annotation import Source
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.evaluation.effort import replay_history
from annotator.io.edit_history import history_path, read_history
from annotator.io.i2b2 import write_i2b2
from annotator.session.annotation_session import AnnotationSession
from annotator.session.timers import ManualTimers
from annotator.session.workspace import Workspace

TEXT = "Patient John Smith was seen by Dr. Marissa Jones on 2060-01-02.\n"


def _project(root: Path) -> Project:
    project = Project.create(root, "History", annotators=["alice"])
    write_i2b2(Document("310-01", TEXT), project.source_dir / "310-01.xml")
    pre = Document("310-01", TEXT)
    for phrase, category, type_ in (("John Smith", "NAME", "PATIENT"), ("2060-01-02", "DATE", "DATE")):
        start = TEXT.index(phrase)
        pre.add(
            pre.make_annotation(
                category, type_, start, start + len(phrase), source=Source.MODEL, pending=True
            )
        )
    project.preannotations_dir.mkdir(exist_ok=True)
    write_i2b2(pre, project.preannotations_dir / "310-01.xml")
    return project


def test_a_sessions_edits_are_kept_with_their_times_across_a_save(tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    workspace = Workspace.open(project.root, "alice")
    times = iter([1000.0, 1001.0, 1002.0, 1003.0, 1004.0, 1005.0])
    workspace.wall_clock = lambda: next(times)
    session = AnnotationSession(workspace, timers=ManualTimers())
    document = session.open_document("310-01")
    patient, date = sorted(document.annotations, key=lambda a: a.start)
    session.set_current(patient.id)
    session.accept_current()
    session.save()  # empties the journal, not the history
    session.set_current(date.id)
    session.delete_current()  # rejects the date suggestion
    start = TEXT.index("Marissa Jones")
    session.apply_type("DOCTOR", start, start + len("Marissa Jones"), start)
    session.close()
    lines = read_history(history_path(project.state_dir, "alice", "310-01"))
    assert [line["op"] for line in lines] == ["start", "replace", "remove", "add"]
    assert [line["at"] for line in lines] == [1000.0, 1000.0, 1001.0, 1002.0]
    assert {a["type"] for a in lines[0]["annotations"]} == {"PATIENT", "DATE"}
    assert all("text" not in a for a in lines[0]["annotations"])  # no note text is kept
    fates = replay_history(lines)
    assert (fates.count("accepted"), fates.count("rejected")) == (1, 1)
    assert dict(fates.hand) == {"DOCTOR": 1}
