"""The demo's simulated histories lead from the model's suggestions to each annotator's version."""

from __future__ import annotations

from pathlib import Path

from annotator.core.project import Project
from annotator.evaluation.effort import replay_history
from annotator.io.edit_history import history_documents, history_path, read_history
from annotator.io.i2b2 import read_i2b2
from annotator.io.workstate import DONE, WorkState
from annotator.synth.demo import ensure_demo_project


def test_replaying_each_history_gives_the_annotators_version(tmp_path: Path) -> None:
    project = Project.open(ensure_demo_project(tmp_path / "demo"))
    state = WorkState.load(project)
    shown = {"alice": 0, "bob": 0}
    for annotator in ("alice", "bob"):
        assert history_documents(project.state_dir, annotator) == project.document_ids()
        for doc_id in project.document_ids():
            fates = replay_history(read_history(history_path(project.state_dir, annotator, doc_id)))
            version = read_i2b2(project.annotations_dir(annotator) / f"{doc_id}.xml")
            assert sorted((t.type, t.start, t.end) for t, _o in fates.final) == sorted(
                (a.type, a.start, a.end) for a in version.annotations
            )
            assert state.status(doc_id, annotator) == DONE and state.seconds(doc_id, annotator) > 0
            shown[annotator] += fates.shown > 0
    # The crossover: each annotator saw suggestions on about half of the documents.
    total = len(project.document_ids())
    assert all(total // 3 < count < 2 * total // 3 for count in shown.values())
