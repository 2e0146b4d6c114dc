"""Decisions on the gold document: undo, provenance, auto-accept, finalise, log, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.adjudication.decisions import (
    AdjudicationSession,
    AutoAccept,
    UnresolvedUnitsError,
    log_path,
    read_log,
    unit_fingerprint,
)
from annotator.adjudication.units import Alignment, UnitKind, align_documents
from annotator.core.annotation import Source
from annotator.io.i2b2 import read_i2b2
from tests.adjudication.helpers import NOTE, at, version

DOC = "100-01"


def alignment(n: int = 2) -> Alignment:
    """Agreement on the date, a split name, a type conflict, Boston only in alice's version."""
    alice = version(
        DOC,
        NOTE,
        ("John Smith", "NAME", "DOCTOR"),
        ("2067-05-03", "DATE", "DATE"),
        ("Ora Hendrickson", "NAME", "PATIENT"),
        ("Boston", "LOCATION", "CITY"),
    )
    bob = version(
        DOC,
        NOTE,
        ("John", "NAME", "DOCTOR"),
        ("Smith", "NAME", "DOCTOR"),
        ("2067-05-03", "DATE", "DATE"),
        ("Ora Hendrickson", "NAME", "DOCTOR"),
    )
    versions = [alice, bob, alice.copy()][:n]
    return align_documents(versions, ["alice", "bob", "carol"][:n])


def unit_at(session: AdjudicationSession, piece: str):  # type: ignore[no-untyped-def]
    start, _ = at(NOTE, piece)
    return next(u for u in session.units if u.start == start)


def gold_keys(session: AdjudicationSession) -> set[tuple[str, str, int, int]]:
    return {a.key for a in session.gold}


def test_session_auto_accepts_unanimous_agreement_with_provenance() -> None:
    session = AdjudicationSession(alignment(), "dana")
    [annotation] = session.gold.annotations
    assert (annotation.type, annotation.start, annotation.end) == ("DATE", *at(NOTE, "2067-05-03"))
    assert annotation.source is Source.ADJUDICATED
    assert annotation.annotator == "dana"
    assert dict(annotation.extra)["agreed_by"] == "alice,bob"
    assert session.progress() == (1, 4)


def test_session_auto_accept_off_leaves_everything_open() -> None:
    session = AdjudicationSession(alignment(), auto=AutoAccept.OFF)
    assert len(session.gold) == 0
    assert len(session.unresolved()) == 4


def test_session_majority_accepts_two_of_three() -> None:
    unanimous = AdjudicationSession(alignment(3), auto="unanimous")
    majority = AdjudicationSession(alignment(3), auto="majority")
    boston = at(NOTE, "Boston")
    assert ("LOCATION", "CITY", *boston) not in gold_keys(unanimous)
    assert ("LOCATION", "CITY", *boston) in gold_keys(majority)
    tag = next(a for a in majority.gold if a.start == boston[0])
    assert dict(tag.extra)["agreed_by"] == "alice,carol"


def test_take_version_then_undo_and_redo() -> None:
    session = AdjudicationSession(alignment())
    unit = unit_at(session, "John")
    assert unit.kind is UnitKind.BOUNDARY_CONFLICT
    before = gold_keys(session)
    session.take(unit.id, 1)
    john, smith = at(NOTE, "John"), at(NOTE, "Smith")
    assert gold_keys(session) - before == {("NAME", "DOCTOR", *john), ("NAME", "DOCTOR", *smith)}
    assert session.is_resolved(unit.id)
    assert session.undo()
    assert gold_keys(session) == before
    assert not session.is_resolved(unit.id)
    assert session.redo()
    assert len(gold_keys(session) - before) == 2


def test_redeciding_replaces_the_earlier_choice_in_one_undo_step() -> None:
    session = AdjudicationSession(alignment())
    unit = unit_at(session, "John")
    session.take(unit.id, 1)
    after_first = gold_keys(session)
    session.take(unit.id, 0)
    assert ("NAME", "DOCTOR", *at(NOTE, "John Smith")) in gold_keys(session)
    assert ("NAME", "DOCTOR", *at(NOTE, "John")) not in gold_keys(session)
    session.undo()
    assert gold_keys(session) == after_first


def test_take_all_neither_and_edit() -> None:
    session = AdjudicationSession(alignment())
    ora = unit_at(session, "Ora Hendrickson")
    assert ora.kind is UnitKind.TYPE_CONFLICT
    session.take_all(ora.id)
    span = at(NOTE, "Ora Hendrickson")
    assert {("NAME", "PATIENT", *span), ("NAME", "DOCTOR", *span)} <= gold_keys(session)
    session.neither(ora.id)
    assert not any(a.start == span[0] for a in session.gold)
    assert session.is_resolved(ora.id)
    session.edit(ora.id, [("NAME", "PATIENT", span[0], span[0] + len("Ora"))])
    edited = next(a for a in session.gold if a.start == span[0])
    assert (edited.end, edited.text, dict(edited.extra).get("agreed_by")) == (
        span[0] + len("Ora"),
        "Ora",
        None,
    )


def test_edit_rejects_offsets_outside_the_text() -> None:
    session = AdjudicationSession(alignment())
    with pytest.raises(Exception, match="not valid"):
        session.edit(session.units[0].id, [("NAME", "PATIENT", 5, len(NOTE) + 3)])


def test_finalise_refused_while_units_unresolved() -> None:
    session = AdjudicationSession(alignment())
    with pytest.raises(UnresolvedUnitsError) as caught:
        session.finalise()
    message = str(caught.value)
    assert "3 unresolved units" in message
    for piece in ("John Smith", "Ora Hendrickson", "Boston"):
        start, end = at(NOTE, piece)
        assert f"{start}-{end}" in message
    assert "Boston" not in message and not session.finalised


def test_finalise_after_all_decided_then_undo_reopens() -> None:
    session = AdjudicationSession(alignment())
    for unit in session.unresolved():
        session.take(unit.id, 0)
    session.finalise()
    assert session.finalised
    session.undo()
    assert not session.finalised


def test_gold_round_trip_keeps_provenance_and_log_has_no_text(tmp_path: Path) -> None:
    session = AdjudicationSession(alignment(), "dana")
    session.take(unit_at(session, "John").id, 0)
    session.neither(unit_at(session, "Boston").id)
    path = session.save(tmp_path)
    reread = read_i2b2(path)
    assert {a.key for a in reread} == gold_keys(session)
    for annotation in reread:
        assert annotation.source is Source.ADJUDICATED and annotation.annotator == "dana"
    john = next(a for a in reread if a.start == at(NOTE, "John Smith")[0])
    assert dict(john.extra)["agreed_by"] == "alice"
    log_text = log_path(tmp_path, DOC).read_text(encoding="utf-8")
    entries = [json.loads(line) for line in log_text.splitlines()]
    assert [e["decision"] for e in entries] == ["take", "take", "neither"]
    assert entries[1] | {"time": ""} == {
        "unit": unit_at(session, "John").id,
        "kind": "boundary_conflict",
        "decision": "take",
        "version": "alice",
        "versions": ["alice"],
        "fingerprint": unit_fingerprint(unit_at(session, "John"), ["alice", "bob"]),
        "adjudicator": "dana",
        "time": "",
    }
    for piece in ("John", "Smith", "Boston", "2067"):
        assert piece not in log_text


def test_resume_from_log_rebuilds_gold_and_resolutions(tmp_path: Path) -> None:
    session = AdjudicationSession(alignment(), "dana")
    john = unit_at(session, "John")
    ora = unit_at(session, "Ora Hendrickson")
    session.take(john.id, 1)
    session.edit(ora.id, [("NAME", "PATIENT", *at(NOTE, "Ora Hendrickson"))])
    session.take(ora.id, 1)
    session.undo()  # back to the edit
    session.save(tmp_path)
    resumed = AdjudicationSession(alignment(), "dana", log=read_log(log_path(tmp_path, DOC)))
    assert gold_keys(resumed) == gold_keys(session)
    assert set(resumed.resolutions) == set(session.resolutions)
    assert len(resumed.log) == len(session.log)


def test_journalled_decisions_survive_a_crash_before_any_save(tmp_path: Path) -> None:
    from annotator.io.journal import JournalWriter

    writer = JournalWriter()
    session = AdjudicationSession(alignment(), "dana")
    log = log_path(tmp_path, DOC)
    session.journal_to(writer, log)
    session.take(unit_at(session, "Ora Hendrickson").id, 1)
    session.neither(unit_at(session, "Boston").id)
    assert writer.flush()
    # The process dies here: no gold file, no save; the decisions are in the log on disk.
    assert not (tmp_path / f"{DOC}.xml").exists()
    resumed = AdjudicationSession(alignment(), "dana", log=read_log(log))
    assert gold_keys(resumed) == gold_keys(session)
    assert resumed.progress() == session.progress()
    # Saving rewrites the whole log atomically; later decisions append to the new file.
    session.save(tmp_path)
    session.take_all(unit_at(session, "John Smith").id)
    assert writer.flush()
    again = AdjudicationSession(alignment(), "dana", log=read_log(log))
    assert gold_keys(again) == gold_keys(session)
    writer.close()


def test_a_second_adjudicator_resuming_leaves_the_first_ones_decisions_under_their_name(
    tmp_path: Path,
) -> None:
    dana = AdjudicationSession(alignment(), "dana")
    dana.take(unit_at(dana, "John Smith").id, 0)
    dana.save(tmp_path)
    erin = AdjudicationSession(alignment(), "erin", log=read_log(log_path(tmp_path, DOC)))
    erin.take(unit_at(erin, "Ora Hendrickson").id, 1)
    erin.save(tmp_path)
    gold = read_i2b2(tmp_path / f"{DOC}.xml")
    by_text = {a.text: a.annotator for a in gold.annotations}
    # The auto-accepted date and John Smith were dana's decisions, Ora Hendrickson erin's;
    # the gold file says who decided each tag, as the decision log does.
    assert by_text == {"2067-05-03": "dana", "John Smith": "dana", "Ora Hendrickson": "erin"}
    assert [e["adjudicator"] for e in read_log(log_path(tmp_path, DOC))] == ["dana", "dana", "erin"]


def _changed(version: int, piece: str, type_: str) -> Alignment:
    """The alignment after annotator ``version`` retyped their tag of ``piece``."""
    changed = alignment()
    document = changed.versions[version]
    [old] = [a for a in document.annotations if a.start == at(NOTE, piece)[0]]
    document.replace(old.id, old.replace(type=type_))
    return align_documents(changed.versions, changed.names)


def test_a_decision_whose_versions_changed_since_is_not_replayed(tmp_path: Path) -> None:
    # dana takes alice's PATIENT for Ora Hendrickson (bob said DOCTOR) and finalises.
    session = AdjudicationSession(alignment(), "dana")
    for unit in session.unresolved():
        session.take(unit.id, 0)
    session.finalise()
    session.save(tmp_path)
    ora = unit_at(session, "Ora Hendrickson")
    assert {a.key for a in session.gold if a.start == ora.start} == {
        ("NAME", "PATIENT", *at(NOTE, "Ora Hendrickson"))
    }
    log = read_log(log_path(tmp_path, DOC))
    # Alice then retypes her tag. Replaying "take alice" would put STAFF in the gold under
    # dana's decision, silently: the unit is open again and the document not finalised.
    resumed = AdjudicationSession(_changed(0, "Ora Hendrickson", "STAFF"), "dana", log=log)
    assert [u.id for u in resumed.unresolved()] == [ora.id] and resumed.stale == [ora.id]
    assert not resumed.finalised
    assert not any(a.start == ora.start for a in resumed.gold)
    assert len(resumed.gold) == len(session.gold) - 1
    # Bob comes round to PATIENT: an agreement now, accepted as such; the gold changed
    # since dana finalised, so it is not finalised either.
    resumed = AdjudicationSession(_changed(1, "Ora Hendrickson", "PATIENT"), "dana", log=log)
    assert resumed.stale == [ora.id] and not resumed.unresolved() and not resumed.finalised
    # An unchanged document replays to the same gold, finalised.
    same = AdjudicationSession(alignment(), "dana", log=log)
    assert gold_keys(same) == gold_keys(session) and same.finalised and same.stale == []


def test_a_stale_decision_is_named_only_while_it_stands(tmp_path: Path) -> None:
    session = AdjudicationSession(alignment(), "dana")
    ora = unit_at(session, "Ora Hendrickson")
    session.take(ora.id, 0)
    session.save(tmp_path)
    taken = read_log(log_path(tmp_path, DOC))
    changed = _changed(0, "Ora Hendrickson", "STAFF")
    # Logged, then undone: nothing of it stands, so nothing is stale.
    session.undo()
    session.save(tmp_path)
    undone = read_log(log_path(tmp_path, DOC))
    assert AdjudicationSession(changed, "dana", log=taken).stale == [ora.id]
    assert AdjudicationSession(changed, "dana", log=undone).stale == []
    # Taken on the old versions, then (after the change) on the new ones: decided. That
    # second decision undone: the old one stands again, and it is stale again.
    resumed = AdjudicationSession(changed, "dana", log=taken)
    resumed.take(ora.id, 1)
    resumed.save(tmp_path)
    again = read_log(log_path(tmp_path, DOC))
    assert AdjudicationSession(changed, "dana", log=again).stale == []
    resumed.undo()
    resumed.save(tmp_path)
    assert AdjudicationSession(changed, "dana", log=read_log(log_path(tmp_path, DOC))).stale == [ora.id]
