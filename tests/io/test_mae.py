"""MAE / MedTator files read natively and written back unharmed (tests/data/mae, synthetic)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lxml import etree

from annotator.adjudication.versions import load_versions
from annotator.core.history import (
    AddAnnotation,
    History,
    RemoveAnnotation,
    ReplaceAnnotation,
    removal_commands,
)
from annotator.core.relations import Argument, RelationKind
from annotator.core.schema import load_schema
from annotator.evaluation.loading import load_pairs
from annotator.io.formats import detect_format, read_documents, write_documents
from annotator.io.i2b2 import read_i2b2
from annotator.io.mae import document_to_mae, parse_mae, read_mae
from annotator.io.pairing import pairing_keys
from annotator.session.workspace import Workspace

DATA = Path(__file__).resolve().parent.parent / "data" / "mae"
NOTE = DATA / "A" / "A_note-01.xml"
TASK = DATA / "VAX_TASK.dtd"
TEXT = "Synthetic note. Fever after dose two; arm was sore and did swell. Mild headache."


def _tags(data: bytes) -> list[tuple[str, dict[str, str]]]:
    root = etree.fromstring(data)
    return [(str(e.tag), {str(k): str(v) for k, v in e.attrib.items()}) for e in root.findall("TAGS/*")]


def test_case_only_text_mismatch_is_a_note_and_spans_are_trusted() -> None:
    warnings: list[str] = []
    document = read_mae(NOTE, warnings)
    fever = document.get("A0")
    assert (fever.start, fever.end, fever.text) == (TEXT.index("Fever"), TEXT.index("Fever") + 5, "Fever")
    assert [w for w in warnings if "A0" in w and "note:" in w and "only in case" in w]
    assert not [w for w in warnings if "warning:" in w]


def test_other_text_mismatch_is_a_warning_not_a_refusal() -> None:
    data = NOTE.read_bytes().replace(b'text="fever"', b'text="chills"')
    warnings: list[str] = []
    document = parse_mae(data, "x.xml", warnings=warnings)
    assert document.get("A0").text == "Fever"
    assert [w for w in warnings if "A0" in w and "warning:" in w]
    assert "chills" not in " ".join(warnings) and "Fever" not in " ".join(warnings)


def test_discontinuous_tag_gives_one_annotation_per_fragment() -> None:
    document = read_mae(NOTE)
    pieces = [a for a in document.annotations if a.id in ("A1", "A1.0")]
    assert [(a.text, a.type, dict(a.extra)["certainty"]) for a in pieces] == [
        ("arm", "sign", "possible"),
        ("swell", "sign", "possible"),
    ]


def test_links_become_relations_and_span_less_tags_document_tags() -> None:
    document = read_mae(NOTE)
    (link,) = document.relations
    assert (link.id, link.type, link.kind, link.comment) == ("L0", "LK_AE_SVRT", RelationKind.LINK, "NA")
    assert link.arguments == (Argument("link_AE", "A2"), Argument("link_SVRT", "S0"))
    # Argument texts repeat the note: the relation holds ids only.
    assert "headache" not in repr(link)
    tags = {t.id: t for t in document.document_tags}
    assert sorted(tags) == ["A3", "F0"]
    assert tags["A3"].attributes == (("type", "symptom"), ("certainty", "negated"))
    assert (tags["A3"].comment, tags["F0"].comment) == ("no rash", "document label")
    assert "A3" not in document and "L0" not in document


def test_lower_case_type_attribute_gives_the_type() -> None:
    document = read_mae(NOTE)
    assert (document.get("A0").tag, document.get("A0").type) == ("AE", "symptom")
    assert (document.get("S0").tag, document.get("S0").type) == ("SVRT", "SVRT")


def test_every_reader_takes_mae_files() -> None:
    assert read_i2b2(NOTE).origin.format == "mae"
    assert detect_format(NOTE) == "mae"
    assert [d.doc_id for d in read_documents(DATA / "A")] == ["A_note-01"]


def test_unedited_rewrite_keeps_every_element_and_attribute() -> None:
    document = read_mae(NOTE)
    document.origin.fingerprint = None  # force a real serialisation, not the bytes read
    data = document_to_mae(document)
    assert sorted(map(repr, _tags(data))) == sorted(map(repr, _tags(NOTE.read_bytes())))
    root = etree.fromstring(data)
    assert root.tag == "VAX_TASK" and root.findtext("TEXT") == TEXT
    assert [etree.tostring(e) for e in root.iterchildren("META")] == [
        etree.tostring(e) for e in etree.fromstring(NOTE.read_bytes()).iterchildren("META")
    ]


def test_round_trip_through_an_editing_session_keeps_what_it_did_not_touch(tmp_path: Path) -> None:
    note = tmp_path / NOTE.name
    shutil.copy(NOTE, note)
    workspace = Workspace.open(note, "tester")
    doc_id = workspace.doc_ids()[0]
    workspace.prepare(doc_id)
    document = workspace.load(doc_id)
    history = History()
    history.push(RemoveAnnotation(document, "A2"))
    severity = document.get("S0")
    history.push(ReplaceAnnotation(document, severity, severity.replace(comment="checked")))
    start = TEXT.index("dose two")
    history.push(AddAnnotation(document, document.make_annotation("AE", "sign", start, start + 8, id="A9")))
    workspace.save(doc_id)
    workspace.release_all()

    before = dict((attrs.get("id"), (tag, attrs)) for tag, attrs in _tags(NOTE.read_bytes()))
    after = dict((attrs.get("id"), (tag, attrs)) for tag, attrs in _tags(note.read_bytes()))
    assert etree.fromstring(note.read_bytes()).tag == "VAX_TASK"
    for untouched in ("A0", "A1", "A3", "F0", "L0"):
        assert after[untouched] == before[untouched]
    assert "A2" not in after
    assert after["S0"][1] == {**before["S0"][1], "comment": "checked"}
    # A new tag gets the attribute set its kind has in the file, with spans in UTF-16 units.
    assert list(after["A9"][1]) == ["id", "spans", "text", "type", "certainty", "comment"]
    assert after["A9"][1]["spans"] == f"{start}~{start + 8}" and after["A9"][1]["type"] == "sign"
    assert b"<label" in note.read_bytes()


def test_dtd_task_gives_palette_keys_and_new_tag_defaults() -> None:
    schema = load_schema(str(TASK))
    assert schema.task is not None and schema.name == "VAX_TASK"
    assert [(t.name, t.category) for t in schema.types] == [
        ("symptom", "AE"),
        ("sign", "AE"),
        ("SVRT", "SVRT"),
        ("FEVER_DOC", "FEVER_DOC"),
    ]
    assert len({t.key for t in schema.types}) == 4 and all(t.key for t in schema.types)
    assert [t.name for t in schema.task.link_tags] == ["LK_AE_SVRT"]
    converted = read_mae(NOTE)
    converted.origin.layout = {}
    converted.origin.format = "i2b2"
    data = document_to_mae(converted, schema=schema)
    assert etree.fromstring(data).tag == "VAX_TASK"
    fever = next(attributes for tag, attributes in _tags(data) if tag == "AE")
    assert list(fever) == ["id", "spans", "text", "type", "certainty", "comment"]


def test_yaml_task_is_a_schema(tmp_path: Path) -> None:
    task = tmp_path / "t.yaml"
    task.write_text(
        "name: T\netags:\n  - name: AE\n    attrs:\n      - name: certainty\n        vtype: list\n"
        "        values: [positive, negated]\n        default_value: positive\n"
        "rtags:\n  - name: LK\n    attrs:\n      - name: arg\n        vtype: idref\n",
        encoding="utf-8",
    )
    schema = load_schema(str(task))
    assert schema.category_names == ["AE"] and schema.task is not None
    certainty = schema.task.tags[0].attribute("certainty")
    assert certainty is not None and certainty.values == ("positive", "negated")


def test_write_documents_with_a_task_uses_its_root(tmp_path: Path) -> None:
    document = read_i2b2(NOTE)
    document.origin.layout = {}
    write_documents([document], tmp_path, "mae", load_schema(str(TASK)))
    assert etree.fromstring((tmp_path / "A_note-01.xml").read_bytes()).tag == "VAX_TASK"


@pytest.mark.parametrize(
    ("groups", "expected"),
    [
        ([["A_doc1", "A_doc2"], ["B_doc1"]], [["doc1", "doc2"], ["doc1"]]),
        ([["110-01"], ["110-01"]], [["110-01"], ["110-01"]]),
        ([["x_1"], ["x_1", "y_2"]], [["x_1"], ["x_1", "y_2"]]),
        # MedTator's exported gold standard beside a system's files.
        ([["G__doc_1.txt.xml_1"], ["sys_doc_1.txt"]], [["doc_1.txt"], ["doc_1.txt"]]),
    ],
)
def test_annotator_prefixes_pair(groups: list[list[str]], expected: list[list[str]]) -> None:
    assert [list(k.values()) for k in pairing_keys(groups)] == expected


def test_medtator_prefixed_folders_pair_in_adjudication_and_evaluation() -> None:
    versions = load_versions([DATA / "A", DATA / "B"])
    assert versions.doc_ids == ["note-01"] and not versions.missing
    loaded = load_pairs(DATA / "A", DATA / "B")
    assert [p.doc_id for p in loaded.pairs] == ["note-01"] and not loaded.only_reference


def test_evaluate_takes_two_files() -> None:
    loaded = load_pairs(NOTE, DATA / "B" / "B_note-01.xml")
    assert len(loaded.pairs) == 1 and loaded.pairs[0].reference


# -- brat: relations, events, attributes and notes kept; annotation.conf read and written --
BRAT = Path(__file__).resolve().parent.parent / "data" / "brat"


def test_brat_round_trip_keeps_relations_and_whole_discontinuous_spans(tmp_path: Path) -> None:
    from annotator.io.brat import document_to_brat, read_brat

    ann = (BRAT / "180-01.ann").read_text(encoding="utf-8")
    shutil.copy(BRAT / "180-01.txt", tmp_path)
    (tmp_path / "180-01.ann").write_text(
        ann + "E1\tVisit:T2 Who:T1\nA1\tNegated E1\nN1\tReference T1 Wiki:1\t\n#2\tAnnotatorNotes R1\tsure\n",
        encoding="utf-8",
    )
    document = read_brat(tmp_path / "180-01.txt")
    document.origin.fingerprint = None
    written = document_to_brat(document)[1].decode().splitlines()
    original = (tmp_path / "180-01.ann").read_text(encoding="utf-8").splitlines()
    # The same lines, but attribute and note ids, which are numbered afresh.
    assert sorted(line.split("\t", 1)[1] for line in written) == sorted(
        line.split("\t", 1)[1] for line in original
    )
    History().push_all(removal_commands(document, "T1"), "delete")
    after = document_to_brat(document)[1].decode()
    assert "R1\t" not in after and "E1\t" not in after and "N1\t" not in after
    assert "T3\tHOSPITAL 47 49;50 52" in after


def test_brat_annotation_conf_written_and_read_as_a_schema(tmp_path: Path) -> None:
    documents = read_documents(BRAT, schema=load_schema("i2b2-2014"))
    written = write_documents(documents, tmp_path, "brat", load_schema("i2b2-2014"))
    assert tmp_path / "annotation.conf" in written
    conf = (tmp_path / "annotation.conf").read_text(encoding="utf-8")
    assert "!NAME\n\tDOCTOR" in conf and "Same\tArg1:DOCTOR, Arg2:HOSPITAL" in conf
    schema = load_schema(str(tmp_path / "annotation.conf"))
    assert schema.category_of("DOCTOR") == "NAME" and schema.category_of("HOSPITAL") == "LOCATION"


def test_convert_to_mae_with_a_dtd_writes_the_task_root(tmp_path: Path) -> None:
    from annotator.workflows.convert import ConvertRequest, convert

    write_documents([read_mae(NOTE)], tmp_path / "i2b2", "i2b2")
    convert(ConvertRequest(source=tmp_path / "i2b2", output=tmp_path / "mae", to="mae", schema=str(TASK)))
    written = (tmp_path / "mae" / "A_note-01.xml").read_bytes()
    assert etree.fromstring(written).tag == "VAX_TASK"
