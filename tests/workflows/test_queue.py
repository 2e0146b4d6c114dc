"""The annotation queue: which notes wait, which are claimed, and in what order they come."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.core.document import Document
from annotator.core.project import Project
from annotator.crf.default_model import load_default_model
from annotator.crf.uncertainty import NoteUncertainty, note_uncertainty
from annotator.errors import InputError
from annotator.io.i2b2 import write_i2b2
from annotator.io.workstate import DONE, IN_PROGRESS, WorkState
from annotator.workflows.queue import QueueRequest, build_queue, rank_notes, waiting_notes


def _note(doc_id: str, tokens: int, errors: float) -> NoteUncertainty:
    return NoteUncertainty(doc_id, tokens, tokens * 5, errors)


def test_rank_notes_puts_the_highest_doubt_per_token_first() -> None:
    # 300-01 has the most expected errors, but 301-01 the most per token.
    notes = [_note("300-01", 1000, 5.0), _note("301-01", 10, 1.0), _note("302-01", 100, 0.0)]
    ranked = rank_notes(notes)
    assert [e.doc_id for e in ranked] == ["301-01", "300-01", "302-01"]
    assert [e.rank for e in ranked] == [1, 2, 3]
    assert ranked[0].uncertainty == pytest.approx(0.1)


def test_rank_notes_by_patient_keeps_records_together_in_record_order() -> None:
    notes = [
        _note("300-02", 100, 9.0),  # patient 300: 9 + 0 errors over 1,100 tokens
        _note("300-01", 1000, 0.0),
        _note("301-01", 100, 2.0),  # patient 301: 2 errors over 100 tokens, the higher rate
    ]
    ranked = rank_notes(notes, by_patient=True)
    assert [e.doc_id for e in ranked] == ["301-01", "300-01", "300-02"]


def test_note_uncertainty_adds_one_minus_each_tokens_label_probability() -> None:
    tagger = load_default_model()
    document = Document("400-01", "Seen by Dr. Kowalczyk on 3/4 at Riverside.\n")
    scored = tagger.score(document, ceiling=None)
    result = note_uncertainty(tagger, document)
    assert result.tokens == len(scored.tokens) > 0
    assert result.expected_errors == pytest.approx(sum(1 - s.probability for s in scored.scores))
    assert 0 < result.per_token < 1


def _project(root: Path, per_document: int = 1) -> Project:
    project = Project.create(root, "Queue", annotators=["alice", "bob", "carol"])
    project.annotators_per_document = per_document
    project.save()
    for doc_id, text in (
        ("500-01", "Mr. Quentin Abernathy was seen on 12/3 by Dr. Yusupova.\n"),
        ("500-02", "Follow up.\n"),
        ("501-01", "Call Ms. Okonkwo-Reyes at Lakeside, 555-0199, re: MRN 88231.\n"),
        ("502-01", "No change.\n"),
    ):
        write_i2b2(Document(doc_id, text), project.source_dir / f"{doc_id}.xml")
    return Project.open(root)


def test_waiting_notes_leave_out_own_and_claimed_notes(tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    state = WorkState.load(project)
    state.set_status("500-01", "alice", IN_PROGRESS)  # alice's own: not waiting
    state.set_status("501-01", "bob", DONE)  # claimed by bob
    state.save()
    # A working copy counts as started even without a recorded status.
    write_i2b2(Document("502-01", "No change.\n"), project.annotations_dir("carol") / "502-01.xml")
    waiting, claimed = waiting_notes(project, "alice")
    assert waiting == ["500-02"]
    assert claimed == ["501-01", "502-01"]


def test_two_annotators_per_note_claim_only_when_two_others_started(tmp_path: Path) -> None:
    project = _project(tmp_path / "p", per_document=2)
    assert project.annotators_per_document == 2
    state = WorkState.load(project)
    state.set_status("501-01", "bob", DONE)
    state.set_status("502-01", "bob", DONE)
    state.set_status("502-01", "carol", IN_PROGRESS)
    state.save()
    waiting, claimed = waiting_notes(project, "alice")
    assert waiting == ["500-01", "500-02", "501-01"]
    assert claimed == ["502-01"]


def test_build_queue_orders_the_waiting_notes_by_the_models_doubt(tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    result = build_queue(QueueRequest(project, "alice"))
    assert result.model.name == "phi-default.model"  # no project model: the bundled one
    tagger = load_default_model()
    from annotator.io.i2b2 import read_i2b2

    expected = sorted(
        (
            note_uncertainty(tagger, read_i2b2(project.source_dir / f"{d}.xml"))
            for d in project.document_ids()
        ),
        key=lambda n: -n.per_token,
    )
    assert [e.doc_id for e in result.entries] == [n.doc_id for n in expected]
    assert result.to_dict()["queue"][0]["doc_id"] == expected[0].doc_id


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("queue_by_patient = 1", "queue_by_patient must be true or false"),
        ("annotators_per_document = 0", "annotators_per_document must be a whole number of at least 1"),
        ("retrain_every = -2", "retrain_every must be a whole number of at least 0"),
    ],
)
def test_bad_queue_settings_are_refused_naming_the_setting(tmp_path: Path, line: str, problem: str) -> None:
    root = tmp_path / "p"
    Project.create(root, "Queue")
    with (root / "project.toml").open("a", encoding="utf-8") as file:
        file.write(line + "\n")
    with pytest.raises(InputError, match=problem):
        Project.open(root)


def test_queue_settings_survive_saving(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "p", "Queue")
    project.queue_by_patient = True
    project.annotators_per_document = 2
    project.retrain_every = 5
    project.save()
    again = Project.open(project.root)
    assert (again.queue_by_patient, again.annotators_per_document, again.retrain_every) == (True, 2, 5)
