"""Every route between formats on small files of our own: what the target can hold comes
back whole, what it cannot is refused with a list, ``--drop`` names what it lets go."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.brat_conf import parse_brat_conf_text, read_brat_conf
from annotator.core.document import Document
from annotator.core.relations import Argument, RelationKind
from annotator.core.task import parse_dtd, read_task
from annotator.errors import InputError
from annotator.io.capacity import Kind, content, losses
from annotator.io.formats import FORMATS, detect_format, read_documents
from annotator.io.mae import read_mae
from tests.io.crossings import ROUND_TRIP, canonical, cross

DATA = Path(__file__).resolve().parent.parent / "data"
MAE_NOTE = DATA / "mae" / "A" / "A_note-01.xml"
MAE_TASK = DATA / "mae" / "VAX_TASK.dtd"
NARY_NOTE = DATA / "mae_full" / "note-02.xml"
NARY_TASK = DATA / "mae_full" / "LINK_TASK.dtd"
BRAT_NOTE = DATA / "brat_full" / "190-01.ann"
BRAT_CONF = DATA / "brat_full" / "annotation.conf"
I2B2_NOTE = DATA / "i2b2" / "110-01.xml"

SOURCES = {
    "mae-link": (MAE_NOTE, "mae", str(MAE_TASK)),
    "mae-nary": (NARY_NOTE, "mae", str(NARY_TASK)),
    "brat": (BRAT_NOTE, "brat", str(BRAT_CONF)),
    "i2b2": (I2B2_NOTE, "i2b2", "i2b2-2014"),
}
# What each file cannot cross to, and why (every other route must come back whole).
REFUSED = {
    # Its <META> holds a label, which only the XML formats have a place for.
    ("mae-link", "brat"): {Kind.DOCUMENT_TAGS, Kind.ELEMENTS},
    ("mae-link", "inline2006"): {Kind.DOCUMENT_TAGS, Kind.RELATIONS, Kind.ELEMENTS},
    ("mae-link", "jsonl"): {Kind.ELEMENTS},
    ("mae-nary", "brat"): {Kind.DOCUMENT_TAGS, Kind.LINKS},
    ("mae-nary", "inline2006"): {Kind.DOCUMENT_TAGS, Kind.LINKS},
    ("brat", "inline2006"): {Kind.RELATIONS, Kind.EVENTS, Kind.EQUIVALENCES, Kind.NORMALIZATIONS},
}


@pytest.mark.parametrize("via", ROUND_TRIP)
@pytest.mark.parametrize("name", sorted(SOURCES))
def test_route_and_back_keeps_everything_the_target_holds(name: str, via: str, tmp_path: Path) -> None:
    path, source_format, schema = SOURCES[name]
    crossing = cross(path, source_format, via, schema, tmp_path)
    expected = "refused" if (name, via) in REFUSED else "same"
    assert (crossing.outcome, crossing.detail) == (expected, "")
    if expected == "refused":
        documents = read_documents(path, source_format)
        lost = losses(documents, FORMATS[via].holds, FORMATS[via].carries)
        assert set(lost) == REFUSED[(name, via)]


def test_sources_hold_what_the_routes_test() -> None:
    brat = content(read_documents(BRAT_NOTE, "brat")[0])
    assert set(brat) == {
        Kind.COMMENTS,
        Kind.ATTRIBUTES,
        Kind.NOTES,
        Kind.DISCONTINUOUS,
        Kind.RELATIONS,
        Kind.EVENTS,
        Kind.EQUIVALENCES,
        Kind.NORMALIZATIONS,
    }
    mae = content(read_mae(NARY_NOTE))
    assert (mae[Kind.LINKS], mae[Kind.DOCUMENT_TAGS]) == (1, 1)


def test_a_loss_is_refused_with_each_kind_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["convert", str(NARY_NOTE), "-o", str(out), "--to", "brat", "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {
        "converted": False,
        "to": "brat",
        "cannot_hold": {"document-tags": 1, "n-ary-links": 1},
    }
    assert "brat cannot hold document-tags: 1, n-ary-links: 1" in captured.err
    assert "--drop document-tags,n-ary-links" in captured.err
    assert not out.exists()


def test_drop_names_what_it_lets_go(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    drop = "document-tags,elements"
    args = ["convert", str(MAE_NOTE), "-o", str(out), "--to", "brat", "--drop", drop, "--json"]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["dropped"] == {"document-tags": 2, "elements": 1} and result["schema"] == str(MAE_TASK)
    (document,) = read_documents(out, "brat")
    assert [r.type for r in document.relations] == ["LK_AE_SVRT"] and not document.document_tags


def test_drop_must_name_every_kind_lost(tmp_path: Path) -> None:
    args = ["convert", str(NARY_NOTE), "-o", str(tmp_path / "o"), "--to", "brat", "--drop", "document-tags"]
    assert main(args) == 1


def test_drop_refuses_an_unknown_kind(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["convert", str(MAE_NOTE), "-o", str(tmp_path / "o"), "--to", "brat", "--drop", "arcs"])
    assert exit_.value.code == 2 and "unknown kind 'arcs'" in capsys.readouterr().err


def test_links_to_a_dropped_document_tag_go_with_it_and_are_counted(tmp_path: Path) -> None:
    document = read_mae(NARY_NOTE)
    (link,) = document.relations
    document.replace_relation(link.id, link.replace(arguments=(*link.arguments[:2],)))  # binary now
    document.add_relation(link.replace(id="A9", arguments=(link.arguments[0], Argument("place", "N2"))))
    lost = losses([document], FORMATS["brat"].holds)
    assert lost == {Kind.DOCUMENT_TAGS: 1, Kind.RELATIONS: 1}


# -- detection -------------------------------------------------------------------------------------
def test_mae_folder_with_raw_notes_beside_it_is_mae(tmp_path: Path) -> None:
    shutil.copy(MAE_NOTE, tmp_path)
    (tmp_path / "A_note-01.txt").write_text("the raw note", encoding="utf-8")
    (tmp_path / "other.txt").write_text("another raw note", encoding="utf-8")
    assert detect_format(tmp_path) == "mae"
    assert [d.doc_id for d in read_documents(tmp_path)] == ["A_note-01"]


def test_folder_of_two_formats_asks_for_from(tmp_path: Path) -> None:
    shutil.copy(MAE_NOTE, tmp_path)
    shutil.copy(BRAT_NOTE, tmp_path)
    shutil.copy(BRAT_NOTE.with_suffix(".txt"), tmp_path)
    with pytest.raises(InputError, match="holds brat and mae files; name the format to read with --from"):
        detect_format(tmp_path)
    assert [d.doc_id for d in read_documents(tmp_path, "brat")] == ["190-01"]


# -- brat configurations -----------------------------------------------------------------------
def test_brat_conf_read_as_brat_reads_it() -> None:
    schema = read_brat_conf(BRAT_CONF)
    assert [(c.name, [t.name for t in c.types]) for c in schema.categories] == [
        ("NAME", ["DOCTOR", "PATIENT"]),
        ("LOCATION", ["HOSPITAL"]),
        ("DATE", ["DATE"]),
        ("MONEY", ["MONEY"]),
        ("Payment", ["Payment"]),
        ("Meeting", ["Meeting"]),
    ]
    conf = parse_brat_conf_text(BRAT_CONF.read_text(encoding="utf-8"))
    works_at = next(t for t in conf.terms("relations") if t.name == "WorksAt")
    assert works_at.arguments == ["Arg1:DOCTOR|PATIENT", "Arg2:HOSPITAL"]  # the macro expanded


def test_brat_conf_written_declares_what_the_files_use(tmp_path: Path) -> None:
    # The note's own annotation.conf would be written as it is (it declares all of this): the
    # conf written for files whose conf lacks something, or that have none, is the one tested.
    shutil.copy(BRAT_NOTE, tmp_path / BRAT_NOTE.name)
    shutil.copy(BRAT_NOTE.with_suffix(".txt"), tmp_path / BRAT_NOTE.with_suffix(".txt").name)
    args = ["convert", str(tmp_path / BRAT_NOTE.name), "-o", str(tmp_path / "out"), "--to", "brat"]
    assert main([*args, "--schema", str(BRAT_CONF)]) == 0
    assert (tmp_path / "out" / "annotation.conf").read_bytes() == BRAT_CONF.read_bytes()
    shutil.rmtree(tmp_path / "out")
    assert main(args) == 0
    conf = parse_brat_conf_text((tmp_path / "out" / "annotation.conf").read_text(encoding="utf-8"))
    declared = {section: {t.name: t.arguments for t in conf.terms(section)} for section in conf.sections}
    assert set(declared["entities"]) == {"NAME", "DOCTOR", "PATIENT", "LOCATION", "HOSPITAL", "DATE", "MONEY"}
    assert declared["events"]["Meeting"] == ["Participant*:DOCTOR|PATIENT", "Place?:HOSPITAL"]
    assert declared["events"]["Payment"] == ["Giver?:DOCTOR", "Recipient?:PATIENT", "Money?:MONEY"]
    assert declared["relations"]["WorksAt"] == ["Arg1:DOCTOR", "Arg2:HOSPITAL"]
    assert declared["relations"]["Same"][-1] == "<REL-TYPE>:symmetric-transitive"
    assert declared["attributes"] == {"Certainty": ["Arg:DATE", "Value:likely"], "Negated": ["Arg:Meeting"]}


def test_brat_type_shared_by_two_categories_rides_in_a_type_attribute(tmp_path: Path) -> None:
    document = Document("1", "Ann saw Bob")
    document.add(document.make_annotation("NOUN", "other", 0, 3))
    document.add(document.make_annotation("NAMED_ENTITY", "other", 8, 11))
    from annotator.io.brat import document_to_brat
    from annotator.io.formats import write_documents

    ann = document_to_brat(document)[1].decode()
    assert "\tNOUN 0 3\tAnn" in ann and "\tNAMED_ENTITY 8 11\tBob" in ann and "\tTYPE T" in ann
    write_documents([document], tmp_path, "brat")
    (again,) = read_documents(tmp_path, "brat")
    assert canonical(again) == canonical(document)


# -- MAE output --------------------------------------------------------------------------------------
def test_mae_output_comes_with_a_task_declaring_every_tag(tmp_path: Path) -> None:
    assert main(["convert", str(BRAT_NOTE), "-o", str(tmp_path / "out"), "--to", "mae"]) == 0
    task = read_task(tmp_path / "out" / "PHI.dtd")
    (document,) = read_documents(tmp_path / "out", "mae")
    written = {a.tag for a in document.annotations} | {"EVENT", "WorksAt", "Same", "Reference"}
    assert written <= {t.name for t in task.tags}
    event = task.tag("EVENT")
    assert event is not None and event.link
    assert [a.argument for a in event.attributes if a.idref][:2] == ["trigger", "Giver"]
    assert {r.kind for r in document.relations} == set(RelationKind)


# -- ids -----------------------------------------------------------------------------------------------
def test_task_id_prefixes_follow_medtator_and_mae() -> None:
    sample = parse_dtd(
        '<!ENTITY name "T">\n<!ELEMENT NOUN ( #PCDATA ) >\n<!ELEMENT ADJ_ADV ( #PCDATA ) >\n'
        "<!ELEMENT ACTION EMPTY >\n<!ELEMENT ARGUMENTS EMPTY >\n<!ELEMENT NAME ( #PCDATA ) >\n"
    )
    assert sample.id_prefixes() == {
        "NOUN": "N",
        "ADJ_ADV": "A",
        "ACTION": "AC",
        "ARGUMENTS": "AR",
        "NAME": "NA",
    }
    assert read_task(NARY_TASK).id_prefixes()["VERB"] == "VB"  # the DTD's own prefix


def test_new_tags_take_the_task_prefix_and_a_number_never_used() -> None:
    document = read_mae(NARY_NOTE)
    document.id_prefixes = read_task(NARY_TASK).id_prefixes()
    verb = document.make_annotation("VERB", "VERB", 33, 37)
    noun = document.make_annotation("NOUN", "place", 38, 41)
    assert verb.id.startswith("VB") and noun.id.startswith("N")
    # MedTator numbers a tag's ids from the largest of its kind: ours are never below that.
    assert int(verb.id[2:]) > 0 and int(noun.id[1:]) > 2


def test_without_a_task_new_ids_share_the_prefix_of_their_kind() -> None:
    document = read_mae(MAE_NOTE)
    assert document.make_annotation("SVRT", "SVRT", 0, 3).id.startswith("S")
    assert document.make_annotation("AE", "sign", 0, 3).id.startswith("A")
