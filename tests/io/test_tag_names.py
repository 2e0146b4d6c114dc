"""Labels become element names: one that XML cannot name an element with is refused.

A label from JSON Lines, a brat ``.ann`` or an inline 2006 file becomes the tag (the element
name) of the i2b2 and MAE files we write. Unchecked, ``PAT IENT`` or ``<x`` wrote files our own
``validate`` calls not well-formed, and a label holding ``/><NAME x=""`` wrote a tag of its own.
Each reader refuses such a label in one line naming the file and where in it, through the real
command, with nothing written; the i2b2 writer refuses one built in code; plain labels (with
``_``, ``.`` and ``-``) still convert and come back.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import etree

from annotator.cli.main import main
from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.errors import StorageError
from annotator.io.formats import read_documents
from annotator.io.i2b2 import document_to_i2b2, write_i2b2

SECRET = "SECRETNOTE"
NOTE = "The patient John Smith was seen."
JOHN = NOTE.index("John Smith")
INJECTION = f'DATE id="X9" start="0" end="10" text="{SECRET}" TYPE="DATE" comment="" /><NAME x=""'
HOSTILE = {
    "space": "PAT IENT",
    "leading-digit": "1X",
    "angle": "<x",
    "quote": 'a"b',
    "empty": "",
    "control": "PAT\u0001IENT",
    "injection": INJECTION,
}
# Letters XML allows in names but the readers refuse (no schema or sample uses them).
NON_ASCII = {"latin": "PATIENT\u00e9", "cyrillic-a": "\u0410GE"}
PLAIN = ["PATIENT", "DOCTOR", "LOCATION-OTHER", "My_Label.v2-x", "_private"]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and SECRET not in out + err
    return code, err


def assert_refused(code: int, err: str, source: Path, out: Path, *needles: str) -> None:
    assert code == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(source) in lines[0] and "cannot be a tag name" in lines[0], err
    for needle in needles:
        assert needle in lines[0], err
    assert not out.exists()


def shown(label: str) -> str:
    """The part of the label's repr every message shows (it is cut at 40 characters)."""
    return repr(label)[:30]


def jsonl_file(folder: Path, span: dict[str, object], extra: dict[str, object] | None = None) -> Path:
    record = {"id": "d1", "text": NOTE, "spans": [{"start": JOHN, "end": JOHN + 10, **span}], **(extra or {})}
    path = folder / "notes.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


def brat_folder(folder: Path, ann: str) -> Path:
    source = folder / "brat"
    source.mkdir()
    (source / "d1.txt").write_text(NOTE, encoding="utf-8")
    (source / "d1.ann").write_text(ann, encoding="utf-8")
    return source


def inline_file(folder: Path, attributes: str) -> Path:
    path = folder / "records.xml"
    body = f"{NOTE[:JOHN]}<PHI {attributes}>John Smith</PHI>{NOTE[JOHN + 10 :]}"
    path.write_text(f'<ROOT><RECORD ID="d1"><TEXT>{body}</TEXT></RECORD></ROOT>', encoding="utf-8")
    return path


def xml_attribute(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


# -- the readers, through the real command ------------------------------------------------------
@pytest.mark.parametrize("label", [*HOSTILE.values(), *NON_ASCII.values()], ids=[*HOSTILE, *NON_ASCII])
@pytest.mark.parametrize("target", ["i2b2", "mae"])
def test_a_jsonl_label_that_cannot_name_an_element_is_refused(
    tmp_path: Path, label: str, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = jsonl_file(tmp_path, {"label": label})
    out = tmp_path / "out"
    code, err = run(["convert", str(source), "-o", str(out), "--to", target], capsys)
    assert_refused(code, err, source, out, "line 1", "span 1", shown(label))
    if len(repr(label)) > 40:
        assert f"label {repr(label)[:37]}... cannot" in err


@pytest.mark.parametrize("tag", ["PAT IENT", INJECTION, ""], ids=["space", "injection", "empty"])
def test_a_jsonl_tag_given_beside_a_plain_label_is_checked_too(
    tmp_path: Path, tag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # An empty tag falls back to the label's category, which is plain: that one converts.
    source = jsonl_file(tmp_path, {"label": "PATIENT", "tag": tag, "id": "P7"})
    out = tmp_path / "out"
    code, err = run(["convert", str(source), "-o", str(out), "--to", "i2b2"], capsys)
    if not tag:
        assert code == 0, err
        return
    assert_refused(code, err, source, out, "line 1", "span 1 (P7)", shown(tag))


def test_a_jsonl_relation_or_document_tag_type_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = [{"role": "Arg1", "target": "P0"}, {"role": "Arg2", "target": "P0"}]
    relation = {"id": "R1", "type": "<SAME", "arguments": arguments}
    document_tag = {"id": "D1", "tag": "1DOC"}
    cases: list[tuple[dict[str, object], str, str]] = [
        ({"relations": [relation]}, "relation R1", "'<SAME'"),
        ({"document_tags": [document_tag]}, "document tag D1", "'1DOC'"),
    ]
    for extra, where, label in cases:
        source = jsonl_file(tmp_path, {"label": "PATIENT", "id": "P0"}, extra)
        out = tmp_path / "out"
        code, err = run(["convert", str(source), "-o", str(out), "--to", "i2b2"], capsys)
        assert_refused(code, err, source, out, "line 1", where, label)


BRAT_LABELS = {k: v for k, v in HOSTILE.items() if " " not in v}  # brat splits a label at a space


@pytest.mark.parametrize("label", [*BRAT_LABELS.values(), "<x&y"], ids=[*BRAT_LABELS, "ampersand"])
def test_a_brat_label_that_cannot_name_an_element_is_refused(
    tmp_path: Path, label: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = brat_folder(tmp_path, f"T1\t{label} {JOHN} {JOHN + 10}\tJohn Smith\n")
    out = tmp_path / "out"
    code, err = run(["convert", str(source), "-o", str(out), "--from", "brat", "--to", "i2b2"], capsys)
    assert_refused(code, err, source / "d1.ann", out, "line 1", "T1", shown(label))


@pytest.mark.parametrize("value", ["PAT IENT", INJECTION], ids=["space", "injection"])
def test_a_brat_type_attribute_that_cannot_name_an_element_is_refused(
    tmp_path: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ann = f"T1\tNAME {JOHN} {JOHN + 10}\tJohn Smith\nA1\tTYPE T1 {value}\n"
    source = brat_folder(tmp_path, ann)
    out = tmp_path / "out"
    code, err = run(["convert", str(source), "-o", str(out), "--from", "brat", "--to", "i2b2"], capsys)
    assert_refused(code, err, source / "d1.ann", out, "line 2", "A1", shown(value))


def test_a_brat_relation_type_that_cannot_name_an_element_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ann = f"T1\tPATIENT {JOHN} {JOHN + 4}\tJohn\nT2\tPATIENT {JOHN + 5} {JOHN + 10}\tSmith\nR1\t1Same Arg1:T1 Arg2:T2\n"
    source = brat_folder(tmp_path, ann)
    out = tmp_path / "out"
    code, err = run(["convert", str(source), "-o", str(out), "--from", "brat", "--to", "i2b2"], capsys)
    assert_refused(code, err, source / "d1.ann", out, "line 3", "R1", "'1Same'")


# XML 1.0 cannot hold U+0001 even as a character reference: that file fails as XML instead.
INLINE_LABELS = {k: v for k, v in HOSTILE.items() if k != "control"} | {"declared": "1 <X"}


@pytest.mark.parametrize("label", INLINE_LABELS.values(), ids=INLINE_LABELS)
def test_an_inline2006_type_that_cannot_name_an_element_is_refused(
    tmp_path: Path, label: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = inline_file(tmp_path, f'TYPE="{xml_attribute(label)}"')
    out = tmp_path / "out"
    code, err = run(["convert", str(source), "-o", str(out), "--to", "i2b2"], capsys)
    assert_refused(code, err, source, out, "line 1", "PHI #1", shown(label))


def test_an_inline2006_category_that_cannot_name_an_element_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = inline_file(tmp_path, f'id="P3" TYPE="PATIENT" category="{xml_attribute(INJECTION)}"')
    out = tmp_path / "out"
    code, err = run(["convert", str(source), "-o", str(out), "--to", "i2b2"], capsys)
    assert_refused(code, err, source, out, "line 1", "PHI P3", shown(INJECTION))


# -- the i2b2 writer's own guard ------------------------------------------------------------------
WRITER_TAGS = {
    **HOSTILE,
    "superscript": "PAT\u00b2",
    "newline": "NAME\n",
    "clark": "{urn:x}NAME",
    "colon": "a:b",
}


@pytest.mark.parametrize("tag", WRITER_TAGS.values(), ids=WRITER_TAGS)
def test_the_i2b2_writer_refuses_a_tag_name_xml_cannot_hold(tmp_path: Path, tag: str) -> None:
    document = Document("d1", NOTE, [Annotation("P1", tag, "PATIENT", JOHN, JOHN + 10, "John Smith")])
    with pytest.raises(StorageError, match="cannot name an XML element") as caught:
        document_to_i2b2(document)
    assert "P1" in str(caught.value) and SECRET not in str(caught.value)
    target = tmp_path / "d1.xml"
    with pytest.raises(StorageError):
        write_i2b2(document, target)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["x y", "xmlns", "x\u00b2"])
def test_the_i2b2_writer_refuses_an_attribute_name_xml_cannot_hold(name: str) -> None:
    annotation = Annotation("P1", "NAME", "PATIENT", JOHN, JOHN + 10, "John Smith", extra=((name, "v"),))
    with pytest.raises(StorageError):
        document_to_i2b2(Document("d1", NOTE, [annotation]))


@pytest.mark.parametrize("field", ["id", "type", "annotator", "text"])
def test_the_i2b2_writer_refuses_a_control_character_in_any_attribute(field: str) -> None:
    values = {"id": "P1", "type": "PATIENT", "annotator": "ann", "text": "John Smith"}
    values[field] += "\u0001"
    annotation = Annotation(
        values["id"], "NAME", values["type"], JOHN, JOHN + 10, values["text"], annotator=values["annotator"]
    )
    with pytest.raises(StorageError, match="U\\+0001"):
        document_to_i2b2(Document("d1", NOTE, [annotation]))


def test_the_i2b2_writer_escapes_every_attribute_value() -> None:
    hostile = f'"/><NAME x="&<\t\n{SECRET}'
    annotation = Annotation(
        hostile,
        "NAME",
        hostile,
        JOHN,
        JOHN + 10,
        "John Smith",
        comment=hostile,
        annotator=hostile,
        extra=(("note", hostile),),
    )
    root = etree.fromstring(document_to_i2b2(Document("d1", NOTE, [annotation])))
    (element,) = root.find("TAGS")  # type: ignore[misc]
    assert element.tag == "NAME"
    for name in ("id", "TYPE", "comment", "annotator", "note"):
        assert element.get(name) == hostile


# -- plain labels still go through ----------------------------------------------------------------
def _spans(documents: list[Document]) -> list[tuple[str, str, int, int]]:
    return sorted(
        ((a.tag, a.type, a.start, a.end) for d in documents for a in d.annotations), key=lambda x: x[2]
    )


@pytest.mark.parametrize("target", ["i2b2", "mae", "brat", "inline2006", "jsonl"])
def test_plain_labels_convert_and_come_back(
    tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    spans = [{"start": i, "end": i + 1, "label": label} for i, label in enumerate(PLAIN)]
    source = tmp_path / "notes.jsonl"
    source.write_text(json.dumps({"id": "d1", "text": NOTE, "spans": spans}) + "\n", encoding="utf-8")
    out = tmp_path / target
    code, err = run(["convert", str(source), "-o", str(out), "--to", target], capsys)
    assert code == 0, err
    back = tmp_path / "back"
    code, err = run(["convert", str(out), "-o", str(back), "--from", target, "--to", "jsonl"], capsys)
    assert code == 0, err
    # The default schema (i2b2 2014) gives the categories; a label it does not know is its own.
    categories = ["NAME", "NAME", "LOCATION", "My_Label.v2-x", "_private"]
    expected = [(c, t, s["start"], s["end"]) for c, t, s in zip(categories, PLAIN, spans, strict=True)]
    assert _spans(read_documents(back, "jsonl")) == expected
    if target in ("i2b2", "mae"):
        # validate would also (rightly) say two of the tags are not in the schema.
        tags = etree.fromstring((out / "d1.xml").read_bytes()).find("TAGS")
        assert tags is not None
        assert sorted(str(e.tag) for e in tags) == sorted(categories)


# -- TYPE values: one line of visible text ------------------------------------------------------
# A TYPE beside its category is a value, not an element name: MedTator's sample task declares
# `Severity type ( Not bothersome | Mild | ... )`. Invisible characters and spaces around it
# are never a type: a newline in one wrote a brat attribute line that changed the type.
BAD_TYPES = {
    "newline": "DATE\n",
    "tab": "DA\tTE",
    "bidi-override": "DATE\u202e",
    "zero-width": "DA\u200bTE",
    "leading-space": " DATE",
    "trailing-space": "DATE ",
    "line-separator": "DA\u2028TE",
}


def i2b2_file(folder: Path, type_value: str, root: str = "deIdi2b2") -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "d1.xml"
    value = "".join(c if c.isprintable() and c != "\t" else f"&#{ord(c)};" for c in xml_attribute(type_value))
    tag = f'<NAME id="P0" start="{JOHN}" end="{JOHN + 10}" text="John Smith" TYPE="{value}" comment="" />'
    if root != "deIdi2b2":
        tag = tag.replace(f'start="{JOHN}" end="{JOHN + 10}"', f'spans="{JOHN}~{JOHN + 10}"')
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8" ?>\n<{root}>\n<TEXT><![CDATA[{NOTE}]]></TEXT>\n'
        f"<TAGS>\n{tag}\n</TAGS>\n</{root}>\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("value", BAD_TYPES.values(), ids=BAD_TYPES)
@pytest.mark.parametrize("root", ["deIdi2b2", "MyTask"], ids=["i2b2", "mae"])
def test_an_i2b2_or_mae_type_with_invisible_characters_or_spaces_around_is_refused(
    tmp_path: Path, value: str, root: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = i2b2_file(tmp_path / "in", value, root)
    out = tmp_path / "out"
    code, err = run(["convert", str(source.parent), "-o", str(out), "--to", "jsonl"], capsys)
    assert code == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and str(source) in lines[0], err
    assert "tag P0 (NAME) has TYPE" in lines[0] and shown(value) in lines[0], err
    assert ("spaces around it" if value in (" DATE", "DATE ") else "U+") in lines[0]
    assert not out.exists()


@pytest.mark.parametrize("value", BAD_TYPES.values(), ids=BAD_TYPES)
def test_a_jsonl_or_inline2006_type_beside_a_category_with_invisible_characters_is_refused(
    tmp_path: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for source in (
        jsonl_file(tmp_path, {"label": value, "tag": "NAME"}),
        inline_file(
            tmp_path,
            f'TYPE="{xml_attribute(value).replace(chr(10), "&#10;").replace(chr(9), "&#9;")}" category="NAME"',
        ),
    ):
        out = tmp_path / "out"
        code, err = run(["convert", str(source), "-o", str(out), "--to", "i2b2"], capsys)
        assert code == 1, err
        assert str(source) in err and "TYPE" in err and shown(value) in err, err
        assert not out.exists()


@pytest.mark.parametrize("source_format", ["i2b2", "mae", "jsonl", "inline2006"])
def test_a_type_with_inner_spaces_beside_its_category_converts_and_comes_back(
    tmp_path: Path, source_format: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if source_format in ("i2b2", "mae"):
        source = i2b2_file(
            tmp_path / "in", "Not bothersome", "deIdi2b2" if source_format == "i2b2" else "MyTask"
        )
    elif source_format == "jsonl":
        source = jsonl_file(tmp_path, {"label": "Not bothersome", "tag": "NAME"})
    else:
        source = inline_file(tmp_path, 'TYPE="Not bothersome" category="NAME"')
    seen = []
    for target in ("i2b2", "mae", "jsonl", "inline2006"):
        out = tmp_path / f"out-{target}"
        code, err = run(["convert", str(source), "-o", str(out), "--to", target], capsys)
        assert code == 0, err
        back = read_documents(out, target)
        seen.append(_spans(back))
    assert all(s == [("NAME", "Not bothersome", JOHN, JOHN + 10)] for s in seen), seen


@pytest.mark.parametrize(
    ("target", "needle"),
    [("brat", "which a brat attribute cannot hold"), ("conll", "cannot be a CoNLL label")],
)
def test_brat_and_conll_refuse_a_type_they_cannot_hold_and_write_nothing(
    tmp_path: Path, target: str, needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = jsonl_file(tmp_path, {"label": "Not bothersome", "tag": "NAME", "id": "P4"})
    out = tmp_path / "out"
    code, err = run(["convert", str(source), "-o", str(out), "--to", target], capsys)
    assert code == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "'Not bothersome'" in lines[0], err
    assert "(nothing written)" in lines[0]
    assert not out.exists()


def test_validate_reports_a_bad_type_under_its_own_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = i2b2_file(tmp_path / "in", "DOCTOR\n")
    capsys.readouterr()
    assert main(["validate", "--json", str(source.parent)]) == 1
    report = json.loads(capsys.readouterr().out)
    codes = [p["code"] for f in report["files"] for p in f["problems"]]
    assert codes == ["bad-type"], report
