"""MAE, inline 2006, brat, JSONL and CoNLL specifics; detection; folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.core.document import Document
from annotator.core.schema import load_schema
from annotator.errors import InputError, SchemaError, StorageError
from annotator.io.brat import read_brat
from annotator.io.conll import document_to_conll
from annotator.io.formats import detect_format, read_documents, write_documents
from annotator.io.inline2006 import read_inline2006
from annotator.io.jsonl import parse_jsonl
from annotator.io.mae import document_to_mae, parse_mae_dtd, read_mae, read_mae_dtd, schema_to_mae_dtd

DATA = Path(__file__).resolve().parent.parent / "data"
SCHEMA = load_schema("i2b2-2014")


def _slices_match(document: Document) -> bool:
    return all(document.text[a.start : a.end] == a.text for a in document.annotations)


# -- MAE -----------------------------------------------------------------------------------
def test_mae_reads_utf16_spans_as_code_points() -> None:
    warnings: list[str] = []
    document = read_mae(DATA / "mae" / "170-01.xml", warnings)
    text = document.text
    assert [(a.id, a.tag, a.type, a.text) for a in document.annotations] == [
        ("N0", "NAME", "PATIENT", "Ora Smith"),
        ("A0", "AGE", "AGE", "64"),
        ("D0", "DATE", "DATE", "2067-05-03"),
        ("N1", "NAME", "DOCTOR", "Lee"),
        ("N1.0", "NAME", "DOCTOR", "Lee"),
    ]
    assert document.get("N0").start == text.index("Ora Smith")
    assert _slices_match(document)
    # Both fragments of N1 are annotations; the non-consuming N2 and the link SP0 are kept
    # on the document (tests/io/test_mae.py), so nothing is announced as dropped.
    assert warnings == []


def test_mae_written_spans_count_utf16_units() -> None:
    document = read_mae(DATA / "mae" / "170-01.xml")
    document.remove("N1")
    data = document_to_mae(document).decode()
    start = document.text.index("2067")
    utf16 = len(document.text[:start].encode("utf-16-le")) // 2
    assert f'<DATE id="D0" spans="{utf16}~{utf16 + 10}"' in data
    assert data.startswith('<?xml version="1.0" encoding="UTF-8" ?>\n<PHI>\n')


def test_mae_unchanged_file_saves_byte_identical() -> None:
    path = DATA / "mae" / "170-01.xml"
    assert document_to_mae(read_mae(path)) == path.read_bytes()


def test_mae_code_point_spans_from_other_tools_are_recognised() -> None:
    text = "😀 Smith"
    data = f'<PHI><TEXT><![CDATA[{text}]]></TEXT><TAGS><NAME id="N0" spans="2~7" text="Smith" TYPE="DOCTOR"/></TAGS></PHI>'
    from annotator.io.mae import parse_mae

    assert parse_mae(data.encode(), "x.xml").get("N0").start == len("😀 ")


def test_mae_dtd_becomes_a_schema() -> None:
    schema = read_mae_dtd(DATA / "mae" / "PHI.dtd")
    assert schema.name == "PHI"
    assert schema.category_names == ["NAME", "DATE", "AGE"]
    assert [t.name for t in schema.categories[0].types] == ["PATIENT", "DOCTOR", "USERNAME"]
    assert schema.category_of("AGE") == "AGE"


def test_schema_to_dtd_and_back() -> None:
    again = parse_mae_dtd(schema_to_mae_dtd(SCHEMA, "deid"))
    assert again.name == "deid"
    assert [(t.name, t.category) for t in again.types] == [(t.name, t.category) for t in SCHEMA.types]


def test_dtd_without_extent_tags_is_refused() -> None:
    with pytest.raises(SchemaError, match="no extent tags"):
        parse_mae_dtd('<!ENTITY name "X">\n<!ELEMENT LINK EMPTY >')


def test_dtd_is_never_loaded_as_xml(tmp_path: Path) -> None:
    dtd = tmp_path / "t.dtd"
    dtd.write_text(
        '<!ENTITY name "T">\n<!ENTITY % x SYSTEM "file:///etc/passwd"> %x;\n<!ELEMENT NAME ( #PCDATA ) >\n'
    )
    assert read_mae_dtd(dtd).category_names == ["NAME"]


# -- inline 2006 -----------------------------------------------------------------------------
def test_inline2006_reads_records_with_offsets_on_the_plain_text() -> None:
    first, second = read_inline2006(DATA / "inline2006" / "records.xml", SCHEMA)
    assert (first.doc_id, second.doc_id) == ("311", "312")
    assert "<PHI" not in first.text and "Mercy & Hope" in first.text
    assert _slices_match(first) and _slices_match(second)
    by_text = {a.text: (a.tag, a.type) for a in first.annotations}
    assert by_text["JOHN R. SMITH"] == ("NAME", "DOCTOR")
    assert by_text["Mercy & Hope"] == ("LOCATION", "HOSPITAL")
    # 2006 types that are 2014 categories stay as they are.
    assert by_text["5 East"] == ("LOCATION", "LOCATION")
    assert by_text["123-45"] == ("ID", "ID")
    assert second.get("P1").text == "91" and "< 100" in second.text


def test_inline2006_cannot_nest_overlapping_tags() -> None:
    document = Document("1", "Ora Smith")
    document.add(document.make_annotation("NAME", "PATIENT", 0, 9))
    document.add(document.make_annotation("NAME", "DOCTOR", 4, 9))
    from annotator.io.inline2006 import documents_to_inline2006

    with pytest.raises(StorageError, match="overlap"):
        documents_to_inline2006([document])


# -- brat ------------------------------------------------------------------------------------
def test_brat_reads_offsets_on_the_file_as_is() -> None:
    warnings: list[str] = []
    document = read_brat(DATA / "brat" / "180-01.ann", SCHEMA, warnings)
    assert "\r\n" in document.text
    assert [(a.id, a.tag, a.type, a.text) for a in document.annotations] == [
        ("T1", "NAME", "DOCTOR", "Ora Smith"),
        ("T2", "DATE", "DATE", "2067-05-03"),
        ("T3", "LOCATION", "HOSPITAL", "Me"),
        ("T3.1", "LOCATION", "HOSPITAL", "cy"),
    ]
    assert document.get("T3.1").fragment_of == "T3"
    assert document.get("T1").comment == "checked twice"
    (relation,) = document.relations
    assert (relation.id, relation.type, [a.target for a in relation.arguments]) == (
        "R1",
        "Same",
        ["T1", "T3"],
    )
    assert warnings == []


@pytest.mark.parametrize(
    ("ann", "message"),
    [
        ("T1\tDOCTOR 3 999\tx\n", "do not fit"),
        ("T1\tDOCTOR three 5\tx\n", "malformed"),
        ("T1\tA 0 1\tD\nT1\tA 0 1\tD\n", "duplicate"),
        ("R1\tLink Arg1:T9 Arg2:T8\n", "R1 names T9, which is not in the file"),
        ("T1\tA 0 1\tD\nA1\tNegated T2\n", "line 2: A1 names T2, which is not in the file"),
        ("T1\tA 0 1\tD\nX1\tfoo T1\n", "line 2: unknown annotation kind 'X'"),
        ("T1\tA 0 1\tD\nR1\tLink Arg1:T1\n", "line 2: malformed R annotation"),
    ],
)
def test_brat_bad_annotation_lines_are_refused(tmp_path: Path, ann: str, message: str) -> None:
    (tmp_path / "1.txt").write_text("Dr Smith")
    (tmp_path / "1.ann").write_text(ann)
    with pytest.raises(InputError, match=message):
        read_brat(tmp_path / "1.txt")


# -- JSONL -----------------------------------------------------------------------------------
def test_jsonl_minimal_records_use_the_schema_for_categories() -> None:
    line = {"id": "a", "text": "Dr Smith", "spans": [{"start": 3, "end": 8, "label": "DOCTOR"}]}
    (document,) = parse_jsonl((json.dumps(line) + "\n\n").encode(), "x.jsonl", SCHEMA)
    (annotation,) = document.annotations
    assert (annotation.tag, annotation.type, annotation.text, annotation.id) == (
        "NAME",
        "DOCTOR",
        "Smith",
        "P0",
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "line 1: not valid JSON"),
        ('{"text": 5}', "string 'text'"),
        ('{"text": "abc", "spans": [{"start": 0, "end": 9, "label": "X"}]}', "do not fit"),
        ('{"text": "abc", "spans": [{"start": 0}]}', "needs integer start"),
    ],
)
def test_jsonl_bad_lines_are_refused(line: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_jsonl(line.encode(), "x.jsonl")


# -- CoNLL -----------------------------------------------------------------------------------
def test_conll_layout() -> None:
    text = "Dr Smith's note\n\nseen 2067-05-03."
    document = Document("190-01", text)
    start = len("Dr ")
    document.add(document.make_annotation("NAME", "DOCTOR", start, start + len("Smith")))
    date = text.index("2067")
    document.add(document.make_annotation("DATE", "DATE", date, date + 10))
    assert document_to_conll(document).splitlines() == [
        "-DOCSTART- 190-01",
        "",
        "Dr 0 2 O",
        f"Smith {start} {start + 5} B-DOCTOR",
        f"'s {start + 5} {start + 7} O",
        f"note {start + 8} {start + 12} O",
        "",
        f"seen {date - 5} {date - 1} O",
        f"2067-05-03 {date} {date + 10} B-DATE",
        f". {date + 10} {date + 11} O",
        "",
    ]


def test_conll_multi_token_span_is_b_then_i() -> None:
    document = Document("1", "Ora Smith")
    document.add(document.make_annotation("NAME", "PATIENT", 0, 9))
    assert document_to_conll(document).splitlines()[2:4] == ["Ora 0 3 B-PATIENT", "Smith 4 9 I-PATIENT"]


# -- registry ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("i2b2/110-01.xml", "i2b2"),
        ("mae/170-01.xml", "mae"),
        ("inline2006/records.xml", "inline2006"),
        ("brat/180-01.ann", "brat"),
        ("brat/180-01.txt", "brat"),
        ("brat", "brat"),
        ("i2b2", "i2b2"),
    ],
)
def test_detect_format(path: str, name: str) -> None:
    assert detect_format(DATA / path) == name


def test_unknown_suffix_needs_from(tmp_path: Path) -> None:
    (tmp_path / "x.docx").write_text("a,b")
    with pytest.raises(InputError, match="--from"):
        detect_format(tmp_path / "x.docx")


@pytest.mark.parametrize("name", ["i2b2", "mae", "brat", "jsonl", "inline2006"])
def test_write_then_read_a_folder(tmp_path: Path, name: str) -> None:
    documents = read_documents(DATA / "i2b2")
    written = write_documents(documents, tmp_path / "out", name)
    assert all(p.exists() for p in written)
    again = read_documents(tmp_path / "out", name, SCHEMA)
    assert sorted(d.doc_id for d in again) == ["110-01", "120-01"]
    for before, after in zip(documents, sorted(again, key=lambda d: d.doc_id), strict=True):
        assert after.text == before.text
        assert [a.key for a in after.sorted_annotations()] == [a.key for a in before.sorted_annotations()]


def test_brat_annotations_without_their_text_are_an_error(tmp_path: Path) -> None:
    (tmp_path / "1.ann").write_text("T1\tDOCTOR 0 2\tDr\n")
    with pytest.raises(InputError, match="no such file"):
        read_documents(tmp_path, "brat")


def test_the_light_list_of_format_names_matches_the_registry() -> None:
    from annotator.io.format_names import FORMAT_DESCRIPTIONS, READ_ONLY, WRITE_ONLY
    from annotator.io.formats import FORMATS

    assert {name: f.description for name, f in FORMATS.items()} == FORMAT_DESCRIPTIONS
    assert {name for name, f in FORMATS.items() if f.write_one is None and f.write_all is None} == READ_ONLY
    assert {name for name, f in FORMATS.items() if f.read is None} == WRITE_ONLY


@pytest.mark.parametrize(("name", "suffix"), [("brat", ".ann"), ("jsonl", ".jsonl"), ("mae", ".xml")])
def test_a_folder_of_another_format_read_as_one_is_an_error_not_nothing(
    tmp_path: Path, name: str, suffix: str
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "100-01.conll").write_text("Amy\tB-PATIENT\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        read_documents(folder, name)
    assert (
        error.value.message
        == f"no {name} files ({suffix}) in the folder (it holds .conll files); check --from"
    )
