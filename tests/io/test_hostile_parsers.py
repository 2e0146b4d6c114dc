"""Hostile input to the PhysioNet, MAE, JSON Lines, note-table and brat readers.

Each case is a small real file: the reader must refuse it with one InputError naming the file
(and the line, row or tag), and ``annotator convert`` must exit 1 with that one line, no
traceback, no note text, and nothing written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.errors import InputError, StorageError, UsageError
from annotator.io.brat import read_brat
from annotator.io.jsonl import document_to_record, read_jsonl
from annotator.io.mae import read_mae
from annotator.io.notetable import NoteColumns, read_note_rows
from annotator.io.physionet import physionet_texts, read_physionet

SECRET = "ZZSECRET"
NOTE = f"{SECRET} Patient John Smith seen.\n"
JOHN = NOTE.index("John Smith")
RECORDS = f"START_OF_RECORD=1||||1||||\n{NOTE}||||END_OF_RECORD\n\n"


def _convert_refuses(
    capsys: pytest.CaptureFixture[str], source: Path, out: Path, named: str, *options: str
) -> str:
    """Run ``annotator convert`` in-process; it must fail cleanly and write nothing."""
    capsys.readouterr()
    code = main(["convert", str(source), "-o", str(out), *options])
    output, err = capsys.readouterr()
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert named in lines[0]
    assert "Traceback" not in err and "internal error" not in err
    assert SECRET not in err and "John" not in err and SECRET not in output
    assert not out.exists()
    assert not list(out.parent.glob(f".{out.name}*"))
    return lines[0]


# -- PhysioNet ----------------------------------------------------------------------------------
def _physionet(
    folder: Path, records: str = RECORDS, phrases: str | None = None, blind: str | None = None
) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "id.text").write_text(records, encoding="utf-8")
    if phrases is not None:
        (folder / "id-phi.phrase").write_text(phrases, encoding="utf-8")
    if blind is not None:
        (folder / "id.deid").write_text(blind, encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("phrases", "problem"),
    [
        (f"1 1 {JOHN}\u00b2 {JOHN + 4} PTName John\n", "line 1: expected"),  # superscript two
        ("1 1 \u0661\u0669 \u0662\u0663 PTName John\n", "line 1: expected"),  # Arabic-Indic digits
        (f"1 1 {JOHN} {'9' * 5000} PTName John\n", "line 1: a number of 5,000 digits"),
        (f"1 1 {JOHN} 1{'0' * 12} PTName John\n", "line 1: a number of 13 digits"),
    ],
)
def test_physionet_phrase_numbers_must_be_short_ascii(tmp_path: Path, phrases: str, problem: str) -> None:
    folder = _physionet(tmp_path / "pn", phrases=phrases)
    with pytest.raises(InputError, match=problem) as caught:
        read_physionet(folder)
    assert "id-phi.phrase" in str(caught.value)


@pytest.mark.parametrize(
    ("blind", "problem"),
    [
        (f"Patient 1\tNote 1\n{JOHN}\t{JOHN}\u00b2\t{JOHN + 4}\n", "line 2: expected"),
        (f"Patient {'1' * 5000}\tNote 1\n{JOHN}\t{JOHN}\t{JOHN + 4}\n", "line 1: a number of 5,000 digits"),
        (f"Patient 1\tNote 1\n{JOHN}\t{JOHN}\t{'4' * 5000}\n", "line 2: a number of 5,000 digits"),
    ],
)
def test_physionet_type_blind_numbers_must_be_short_ascii(tmp_path: Path, blind: str, problem: str) -> None:
    folder = _physionet(tmp_path / "pn", blind=blind)
    with pytest.raises(InputError, match=problem) as caught:
        read_physionet(folder)
    assert "id.deid" in str(caught.value)


@pytest.mark.parametrize(
    ("records", "problem"),
    [
        (RECORDS.replace("=1||||1", f"={'1' * 5000}||||1"), "line 1: a number of 5,000 digits"),
        (RECORDS.replace("=1||||1", "=\u0661||||\u0661"), "line 1: a record header that is not"),
        (
            RECORDS + RECORDS.replace("=1||||1", "=1\u00b2||||2"),
            "line 5: a record header that is not",
        ),
    ],
)
def test_physionet_record_headers_must_be_short_ascii(tmp_path: Path, records: str, problem: str) -> None:
    folder = _physionet(tmp_path / "pn", records=records)
    with pytest.raises(InputError, match=problem) as caught:
        read_physionet(folder)
    assert "id.text" in str(caught.value)


@pytest.mark.parametrize(
    "phrases",
    [
        f"1 1 {JOHN} {JOHN + 4} PTName John\n1 1 {JOHN} {JOHN + 4} PTName John\n",
        f"1 1 {JOHN} {JOHN + 4} PTName John\n1 1 {JOHN} {JOHN + 4} Date John\n",
    ],
)
def test_physionet_a_span_listed_twice_is_refused(tmp_path: Path, phrases: str) -> None:
    folder = _physionet(tmp_path / "pn", phrases=phrases)
    with pytest.raises(
        InputError, match=r"line 2: record 1/1 offsets \d+-\d+ are listed twice \(first on line 1\)"
    ):
        read_physionet(folder)


def test_physionet_a_span_listed_twice_in_a_type_blind_list_is_refused(tmp_path: Path) -> None:
    row = f"{JOHN}\t{JOHN}\t{JOHN + 4}\n"
    folder = _physionet(tmp_path / "pn", blind=f"Patient 1\tNote 1\n{row}{row}")
    with pytest.raises(InputError, match=r"line 3: .* listed twice") as caught:
        read_physionet(folder)
    assert "id.deid" in str(caught.value)


def test_physionet_well_formed_lists_still_read(tmp_path: Path) -> None:
    folder = _physionet(tmp_path / "pn", phrases=f"1 1 {JOHN} {JOHN + 4} PTName John\n")
    (document,) = read_physionet(folder)
    assert [(a.start, a.text, a.type) for a in document.annotations] == [(JOHN, "John", "PATIENT")]
    (tmp_path / "pn" / "id-phi.phrase").unlink()
    _physionet(tmp_path / "pn", blind=f"Patient 1  Note 1\n{JOHN}  {JOHN}  {JOHN + 4}\n")
    (document,) = read_physionet(folder)
    assert [(a.start, a.end) for a in document.annotations] == [(JOHN, JOHN + 4)]


def test_physionet_writer_refuses_ids_with_other_digits() -> None:
    with pytest.raises(UsageError, match="PPP-RR"):
        physionet_texts([Document("1\u00b2-01", "text")])


def test_convert_physionet_with_a_superscript_offset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _physionet(tmp_path / "pn", phrases=f"1 1 {JOHN}\u00b2 {JOHN + 4} PTName John\n")
    _convert_refuses(capsys, folder, tmp_path / "out", "id-phi.phrase: line 1", "--to", "i2b2")


# -- MAE ----------------------------------------------------------------------------------------
def _mae(path: Path, *tags: str) -> Path:
    body = "\n".join(tags)
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8" ?>\n<PHI>\n<TEXT><![CDATA[{NOTE}]]></TEXT>\n<TAGS>\n{body}\n</TAGS>\n</PHI>\n',
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("spans", "problem"),
    [
        (f"{'5' * 5000}~29", "tag P0 \\(NAME\\) has an offset over 12 digits"),
        ("-3~4", "tag P0 \\(NAME\\) has a negative offset"),
        (f"{JOHN}~{JOHN + 4},-3~4", "tag P0 \\(NAME\\) has a negative offset"),
        ("-1~4", "tag P0 \\(NAME\\) has a negative offset"),
        (f"{JOHN}\u00b2~{JOHN + 4}", "tag P0 \\(NAME\\) has malformed spans"),
    ],
)
def test_mae_bad_spans_are_refused(tmp_path: Path, spans: str, problem: str) -> None:
    path = _mae(tmp_path / "note.xml", f'<NAME id="P0" spans="{spans}" text="John" TYPE="PATIENT" />')
    with pytest.raises(InputError, match=problem) as caught:
        read_mae(path)
    assert "note.xml" in str(caught.value)


@pytest.mark.parametrize("spans", ['spans="-1~-1"', 'spans=""', 'spans=" -1~-1 "', 'spans="-1,-1"', ""])
def test_mae_document_level_tags_stay_document_tags(tmp_path: Path, spans: str) -> None:
    path = _mae(
        tmp_path / "note.xml",
        f'<NAME id="P0" spans="{JOHN}~{JOHN + 4}" text="John" TYPE="PATIENT" />',
        f'<NOTE_LABEL id="D1" {spans} text="" />',
    )
    document = read_mae(path)
    assert [a.text for a in document.annotations] == ["John"]
    assert [t.id for t in document.document_tags] == ["D1"]


def test_convert_mae_with_a_negative_offset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _mae(tmp_path / "note.xml", '<NAME id="P0" spans="-3~4" text="John" TYPE="PATIENT" />')
    line = _convert_refuses(capsys, path, tmp_path / "out", "note.xml", "--to", "i2b2")
    assert "P0" in line


def test_validate_mae_with_a_negative_offset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _mae(tmp_path / "note.xml", '<NAME id="P0" spans="-3~4" text="John" TYPE="PATIENT" />')
    assert main(["validate", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "note.xml" in out + err and "P0" in out + err and "negative offset" in out + err
    assert "Traceback" not in out + err and SECRET not in out + err


# -- JSON Lines ---------------------------------------------------------------------------------
def _jsonl(path: Path, *records: dict[str, object] | str) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _record(**span: object) -> dict[str, object]:
    return {"id": "d1", "text": NOTE, "spans": [{"start": JOHN, "end": JOHN + 4, "label": "PATIENT", **span}]}


@pytest.mark.parametrize(
    "span",
    [{"start": str(JOHN)}, {"end": JOHN + 4.5}, {"start": True}, {"end": False}, {"start": float(JOHN)}],
)
def test_jsonl_offsets_must_be_json_integers(tmp_path: Path, span: dict[str, object]) -> None:
    path = _jsonl(tmp_path / "notes.jsonl", _record(**span))
    with pytest.raises(InputError, match="line 1: span 1 needs integer start") as caught:
        read_jsonl(path)
    assert "notes.jsonl" in str(caught.value)


def test_jsonl_an_offset_of_5000_digits(tmp_path: Path) -> None:
    line = json.dumps(_record()).replace(f'"end": {JOHN + 4}', f'"end": {"9" * 5000}')
    path = _jsonl(tmp_path / "notes.jsonl", json.dumps({"text": "x"}), line)
    with pytest.raises(InputError, match="line 2: a number too long") as caught:
        read_jsonl(path)
    assert "notes.jsonl" in str(caught.value)


def test_jsonl_an_offset_too_large_to_be_one(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "notes.jsonl", _record(end=10**300))
    with pytest.raises(InputError, match="line 1: span 1 has an offset over") as caught:
        read_jsonl(path)
    assert "0" * 20 not in str(caught.value)


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (
            {"relations": [{"id": "R1", "type": "x", "arguments": [{"role": "a", "target": "P9"}]}]},
            "R1 names P9",
        ),
        ({"relations": [{"id": "R1", "type": "x", "trigger": "P9", "arguments": []}]}, "R1 names P9"),
    ],
)
def test_jsonl_relations_naming_nothing_are_refused(
    tmp_path: Path, extra: dict[str, object], problem: str
) -> None:
    path = _jsonl(tmp_path / "notes.jsonl", {**_record(id="P0"), **extra})
    with pytest.raises(InputError, match=f"line 1: relation {problem}") as caught:
        read_jsonl(path)
    assert "notes.jsonl" in str(caught.value)


@pytest.mark.parametrize("fragment_of", ["P9", "P0", "P1"])
def test_jsonl_fragments_of_nothing_are_refused(tmp_path: Path, fragment_of: str) -> None:
    record = _record(id="P0")
    spans = record["spans"]
    assert isinstance(spans, list)
    spans.append({"start": 0, "end": 2, "label": "PATIENT", "id": "P1", "fragment_of": fragment_of})
    if fragment_of == "P0":
        spans[0]["fragment_of"] = "P1"  # P1 continues P0, which itself continues P1
    path = _jsonl(tmp_path / "notes.jsonl", record)
    with pytest.raises(InputError, match=r"line 1: span P[01] is a fragment of") as caught:
        read_jsonl(path)
    assert "notes.jsonl" in str(caught.value)


def test_jsonl_relations_and_fragments_that_fit_still_read(tmp_path: Path) -> None:
    record = _record(id="P0")
    spans = record["spans"]
    assert isinstance(spans, list)
    spans.append({"start": 0, "end": 2, "label": "PATIENT", "id": "P1", "fragment_of": "P0"})
    record["relations"] = [
        {"id": "R1", "type": "x", "arguments": [{"role": "a", "target": "P1"}, {"role": "b", "target": ""}]}
    ]
    (document,) = read_jsonl(_jsonl(tmp_path / "notes.jsonl", record))
    assert [a.fragment_of for a in document.annotations] == ["", "P0"]


def test_jsonl_writer_refuses_what_the_reader_would(tmp_path: Path) -> None:
    document = Document("d1", NOTE)
    document.add(Annotation("P1", "NAME", "PATIENT", JOHN, JOHN + 4, "John", fragment_of="P7"))
    with pytest.raises(StorageError, match="P1 is a fragment of P7"):
        document_to_record(document)


@pytest.mark.parametrize("content", ["", "\n\n  \n", "\ufeff", " \t\r\n"])
def test_jsonl_an_empty_file_holds_no_notes(tmp_path: Path, content: str) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match="no notes in the file") as caught:
        read_jsonl(path)
    assert "notes.jsonl" in str(caught.value)


@pytest.mark.parametrize(
    "char", ["\x00", "\x01", "\x08", "\x0b", "\x0c", "\x1f", "\ufffe", "\uffff", "\ud800"]
)
def test_jsonl_characters_xml_cannot_hold_name_the_file_and_line(tmp_path: Path, char: str) -> None:
    bad = {"id": "d2", "text": f"{SECRET} {char} John"}
    path = _jsonl(tmp_path / "notes.jsonl", {"id": "d1", "text": "fine"}, json.dumps(bad))
    with pytest.raises(
        InputError, match=f"line 2: document d2: character U\\+{ord(char):04X} at offset 9"
    ) as caught:
        read_jsonl(path)
    assert "notes.jsonl" in str(caught.value)


def test_jsonl_an_id_ending_in_5000_digits_reads_as_a_name(tmp_path: Path) -> None:
    """Python's int() refuses 5,000 digits: such ids are names, not record or tag numbers."""
    path = _jsonl(tmp_path / "notes.jsonl", {"id": "d-" + "1" * 5000, "text": "x"})
    assert read_jsonl(path)[0].record == 0
    path = _jsonl(tmp_path / "notes.jsonl", _record(id="P" + "1" * 5000))
    assert read_jsonl(path)[0].get("P" + "1" * 5000) is not None


@pytest.mark.parametrize(
    ("content", "named"),
    [
        (json.dumps({"id": "d1", "text": f"{SECRET} \x01 John"}), "notes.jsonl: line 1"),
        (json.dumps(_record(start=str(JOHN))), "notes.jsonl: line 1"),
        ("\n", "notes.jsonl: no notes"),
    ],
)
def test_convert_bad_jsonl(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, named: str
) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text(content + "\n", encoding="utf-8")
    _convert_refuses(capsys, path, tmp_path / "out", named, "--to", "i2b2")


# -- CSV / TSV / JSON Lines note tables -----------------------------------------------------------
def _table(path: Path, content: str) -> Path:
    path.write_text(content, encoding="utf-8", newline="")
    return path


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (
            f'id,text\n1,"{SECRET} one\n2,two\n3,three\n',
            "row starting on line 2: a quoted field is never closed",
        ),
        (f'id,text\n1,"{SECRET} one\n2,"two"\n3,three\n', "row starting on line 2"),
        (f"id,text\n1,{SECRET} a\n2,b\n1,{SECRET} c\n", "row 4: the same note id as row 2"),
        (f"text,id,text\n{SECRET},1,b\n", "the header names the column 'text' twice"),
        (f'id,text\n1,"{SECRET} \x01 John"\n', "row 2: character U\\+0001 at offset 9 of the note"),
        (f'id,text\n1,ok\n2,"{SECRET}\r\n\x0c"\n', "row 3: character U\\+000C at offset 9 of the note"),
    ],
)
def test_bad_csv_tables_are_refused(tmp_path: Path, content: str, problem: str) -> None:
    path = _table(tmp_path / "export.csv", content)
    with pytest.raises(InputError, match=problem) as caught:
        read_note_rows(path, NoteColumns(note_id="id"))
    assert "export.csv" in str(caught.value) and SECRET not in str(caught.value)


def test_bad_tsv_table_with_an_unclosed_quote(tmp_path: Path) -> None:
    path = _table(tmp_path / "export.tsv", f'id\ttext\n1\t"{SECRET}\n2\tx\n')
    with pytest.raises(InputError, match="row starting on line 2: a quoted field is never closed"):
        read_note_rows(path, NoteColumns())


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('{"id": 1, "text": "a", "n": ' + "7" * 5000 + "}\n", "line 1: not a JSON object"),
        ('{"id": 1, "text": "a", "text": "b"}\n', "line 1: the key 'text' appears twice"),
        ('{"id": 1, "text": "a"}\n{"id": 1, "text": "b"}\n', "row 2: the same note id as row 1"),
        (json.dumps({"id": 1, "text": f"{SECRET}\x00"}) + "\n", "row 1: character U\\+0000 at offset 8"),
    ],
)
def test_bad_json_lines_tables_are_refused(tmp_path: Path, content: str, problem: str) -> None:
    path = _table(tmp_path / "export.jsonl", content)
    with pytest.raises(InputError, match=problem) as caught:
        read_note_rows(path, NoteColumns(note_id="id"))
    assert "export.jsonl" in str(caught.value)


def test_tables_that_are_fine_still_read(tmp_path: Path) -> None:
    content = 'id,text,,\n1,"two\r\nlines, ""quoted""",,\n2,plain,,\n'
    rows = read_note_rows(_table(tmp_path / "export.csv", content), NoteColumns(note_id="id"))
    assert [(r.note_id, r.text) for r in rows] == [("1", 'two\nlines, "quoted"'), ("2", "plain")]


@pytest.mark.parametrize(
    ("content", "id_column"),
    [
        (f'id,text\n1,"{SECRET} one\n2,two\n', []),
        (f"id,text\n1,{SECRET}\n1,{SECRET}\n", ["--id-column", "id"]),
    ],
)
def test_convert_bad_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, id_column: list[str]
) -> None:
    path = _table(tmp_path / "export.csv", content)
    _convert_refuses(capsys, path, tmp_path / "project", "export.csv: row", "--to", "project", *id_column)


# -- brat ---------------------------------------------------------------------------------------
def _brat(folder: Path, txt: bytes, ann: str) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "doc.txt").write_bytes(txt)
    (folder / "doc.ann").write_text(ann, encoding="utf-8")
    return folder / "doc.txt"


@pytest.mark.parametrize(
    "ann",
    [
        f"T1\tPATIENT {JOHN + 1} {JOHN + 5}\tJohn\n",
        f"T1\tPATIENT 0 {len(SECRET)}\tJohn\n",
        f"T1\tPATIENT {JOHN} {JOHN + 4};{JOHN + 5} {JOHN + 9}\tJohn Smith\n",  # the column runs on past the span
        f"T1\tPATIENT {JOHN} {JOHN + 4}\tJohnny\n",
    ],
)
def test_brat_text_column_must_match_the_txt(tmp_path: Path, ann: str) -> None:
    path = _brat(tmp_path / "b", NOTE.encode(), ann)
    with pytest.raises(InputError, match=r"line 1: T1 text column is not the text of the \.txt") as caught:
        read_brat(path)
    assert "doc.ann" in str(caught.value) and SECRET not in str(caught.value)


@pytest.mark.parametrize(
    "ann",
    [
        f"T1\tPATIENT {JOHN} {JOHN}\t\n",  # a fragment of no text
        f"T1\tPATIENT {JOHN + 4} {JOHN}\tJohn\n",  # reversed
        "T1\tPATIENT \u0661\u0669 \u0662\u0663\tJohn\n",  # Arabic-Indic digits
        f"T1\tPATIENT {'1' * 5000} {'2' * 5000}\tJohn\n",
    ],
)
def test_brat_offsets_must_be_a_short_ascii_span_of_text(tmp_path: Path, ann: str) -> None:
    path = _brat(tmp_path / "b", NOTE.encode(), ann)
    with pytest.raises(InputError, match="line 1: malformed T annotation") as caught:
        read_brat(path)
    assert "doc.ann" in str(caught.value)


@pytest.mark.parametrize(
    "ann",
    [
        f"T1\tPATIENT {JOHN} {JOHN + 4}\tJohn\n",
        f"T1\tPATIENT {JOHN} {JOHN + 4};{JOHN + 5} {JOHN + 10}\tJohn Smith\n",  # brat's joining space
        f"T1\tPATIENT {JOHN} {JOHN + 4};{JOHN + 5} {JOHN + 10}\tJohnSmith\n",  # brat before 1.3
        f"T1\tPATIENT {JOHN} {JOHN + 4}\tJohn\t\n",
        f"T1\tPATIENT {JOHN} {JOHN + 4}\n",  # no text column: brat fills it from the offsets
        f"T1\tPATIENT {JOHN} {JOHN + 4}\tJohn\r\n",
    ],
)
def test_brat_text_columns_brat_accepts_still_read(tmp_path: Path, ann: str) -> None:
    document = read_brat(_brat(tmp_path / "b", NOTE.encode(), ann))
    assert document.get("T1").text == "John"


def test_brat_span_across_a_line_break_as_written_by_us(tmp_path: Path) -> None:
    text = "Dr Ora\r\nSmith came"
    document = read_brat(_brat(tmp_path / "b", text.encode(), "T1\tDOCTOR 3 13\tOra  Smith\n"))
    assert document.get("T1").text == "Ora\r\nSmith"


def test_brat_txt_with_a_bom_counts_it_as_brat_does(tmp_path: Path) -> None:
    # brat decodes the .txt with Python's utf8 codec: the mark is character 0.
    text = "\ufeff" + NOTE
    document = read_brat(_brat(tmp_path / "b", text.encode(), f"T1\tPATIENT {JOHN + 1} {JOHN + 5}\tJohn\n"))
    assert document.get("T1").text == "John"


def test_brat_txt_with_a_bom_and_offsets_that_skip_it(tmp_path: Path) -> None:
    path = _brat(tmp_path / "b", ("\ufeff" + NOTE).encode(), f"T1\tPATIENT {JOHN} {JOHN + 4}\tJohn\n")
    with pytest.raises(InputError, match=r"T1 text column .* byte-order mark") as caught:
        read_brat(path)
    assert "doc.ann" in str(caught.value)


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_convert_brat_with_a_wrong_offset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bom: bytes
) -> None:
    path = _brat(
        tmp_path / "b", bom + NOTE.encode(), f"T1\tPATIENT {JOHN} {JOHN + 4}\tJohn\nT2\tDATE 0 3\tJohn\n"
    )
    line = _convert_refuses(capsys, path.parent, tmp_path / "out", "doc.ann: line", "--to", "i2b2")
    assert ("T1" if bom else "T2") in line


@pytest.mark.parametrize("spans", ["", ",,", "-1~-1", None])
def test_mae_a_tag_with_text_but_no_spans_is_refused(tmp_path: Path, spans: str | None) -> None:
    """Read as a tag about the whole note, its phrase would never be masked."""
    spans_attribute = "" if spans is None else f' spans="{spans}"'
    path = tmp_path / "note.xml"
    path.write_text(
        f'<?xml version="1.0"?><PHI><TEXT><![CDATA[{SECRET} John Smith]]></TEXT><TAGS>'
        f'<NAME id="N0"{spans_attribute} text="John Smith" TYPE="PATIENT"/></TAGS></PHI>',
        encoding="utf-8",
    )
    with pytest.raises(InputError, match="tag N0 \\(NAME\\) has text but no spans") as caught:
        read_mae(path)
    assert "note.xml" in str(caught.value)


def test_mae_offsets_with_thousands_of_leading_zeros_read_as_numbers(tmp_path: Path) -> None:
    start = len(SECRET) + 1
    path = tmp_path / "note.xml"
    path.write_text(
        f'<?xml version="1.0"?><PHI><TEXT><![CDATA[{SECRET} John Smith]]></TEXT><TAGS>'
        f'<NAME id="N0" spans="{"0" * 5000}{start}~{start + 10}" text="John Smith" TYPE="PATIENT"/></TAGS></PHI>',
        encoding="utf-8",
    )
    assert [a.text for a in read_mae(path).annotations] == ["John Smith"]
