"""Links in the adjudicated gold: a link every annotator made is carried between the gold's
tags; the others are counted and named by the command, never dropped in silence."""

from __future__ import annotations

from pathlib import Path

from annotator.adjudication.corpus import prepare_corpus
from annotator.adjudication.decisions import AdjudicationSession
from annotator.core.document import Document
from annotator.core.relations import Argument, Relation
from annotator.io.i2b2 import read_i2b2
from annotator.workflows.adjudicate import AdjudicateRequest, adjudicate
from annotator.workflows.notes import NoteKind
from tests.adjudication.helpers import NOTE, version, write_versions

TAGS = (
    ("John Smith", "NAME", "DOCTOR"),
    ("Ora Hendrickson", "NAME", "PATIENT"),
    ("2067-05-03", "DATE", "DATE"),
)


def linked(*links: tuple[str, str, str]) -> Document:
    """The note with TAGS (ids P0, P1, P2) and links given as (type, from id, to id)."""
    document = version("100-01", NOTE, *TAGS)
    for number, (type_, source, target) in enumerate(links):
        document.add_relation(
            Relation(f"L{number}", type_, arguments=(Argument("from", source), Argument("to", target)))
        )
    return document


def gold_links(gold_dir: Path) -> list[tuple[str, str, str]]:
    gold = read_i2b2(gold_dir / "100-01.xml")
    text = {a.id: a.text for a in gold}
    return sorted((r.type, text[r.arguments[0].target], text[r.arguments[1].target]) for r in gold.relations)


def test_a_link_every_annotator_made_is_carried_and_the_others_are_counted(tmp_path: Path) -> None:
    folders = write_versions(
        tmp_path,
        {
            # Both link the doctor to the patient; only alice links the patient to the date.
            "alice": [linked(("SEENBY", "P1", "P0"), ("SEENON", "P1", "P2"))],
            "bob": [linked(("SEENBY", "P1", "P0"))],
        },
    )
    gold_dir = tmp_path / "gold"
    result = adjudicate(AdjudicateRequest(tuple(folders), gold_dir, adjudicator="dana"))
    assert gold_links(gold_dir) == [("SEENBY", "Ora Hendrickson", "John Smith")]
    notes = [(n.kind, n.subject, n.count) for n in result.notes]
    assert notes == [(NoteKind.LINKS_LEFT_OUT, "100-01", 1)]
    assert result.report.documents[0].to_dict()["links_left_out"] == 1


def test_a_link_waits_for_the_tags_it_names_to_be_decided(tmp_path: Path) -> None:
    alice = linked(("SEENON", "P1", "P2"))
    bob = linked(("SEENON", "P1", "P2"))
    bob.remove("P2")
    bob.add(alice.get("P2").replace(type="AGE"))  # the same span, another type: a conflict
    folders = write_versions(tmp_path, {"alice": [alice], "bob": [bob]})
    gold_dir = tmp_path / "gold"
    adjudicate(AdjudicateRequest(tuple(folders), gold_dir, adjudicator="dana"))
    assert gold_links(gold_dir) == []  # the date is undecided: the link waits for it
    # Deciding the conflict for alice's DATE brings the link both made into the gold.
    prepared = prepare_corpus(folders, gold_dir)
    session: AdjudicationSession = prepared.open_session("100-01", "dana")
    (unit,) = session.unresolved()
    session.take(unit.id, 0)
    session.save(gold_dir)
    assert gold_links(gold_dir) == [("SEENON", "Ora Hendrickson", "2067-05-03")]
    assert session.links_left_out == 0
