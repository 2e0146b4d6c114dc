"""Input holes found by an audit of the readers: each case is a real file on disk.

A table without a header row must not have its first note printed as column names; offsets
in other scripts' digits are no offsets; a PhysioNet copy must read back as it was written;
large files of the inline 2006, brat and PhysioNet formats convert in linear time.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.errors import InputError, UsageError
from annotator.io.brat import document_to_brat
from annotator.io.formats import read_documents
from annotator.io.i2b2 import read_i2b2
from annotator.io.inline2006 import parse_inline2006
from annotator.io.jsonl import read_jsonl
from annotator.io.notetable import NoteColumns, read_note_rows
from annotator.io.physionet import physionet_texts, read_physionet
from annotator.io.validate import validate_file

SECRET = "ZZSECRET"
NOTE = f"Seen by Dr {SECRET} today."
START = NOTE.index(SECRET)
END = START + len(SECRET)
# Well under the time of the quadratic code these sizes once hit (20 s to minutes).
SECONDS = 8.0


def _files(root: Path) -> list[Path]:
    return sorted(root.rglob("*"))


def _refused(capsys: pytest.CaptureFixture[str], code: int, args: list[str], root: Path) -> str:
    """Run the CLI in-process: exit ``code``, one line on stderr, no note text, nothing written."""
    before = _files(root)
    capsys.readouterr()
    assert main(args) == code
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert SECRET not in out + err
    assert "Traceback" not in err
    assert _files(root) == before
    return lines[0]


# -- note tables ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        f"1,{NOTE} More words follow here.\n2,another note\n",  # no header row
        f"{SECRET},MRN-1,2101-03-05,{SECRET} was seen\n1,a,b,c\n",  # a name beside a date
        f"{SECRET} {SECRET} {SECRET} {SECRET},{SECRET} {SECRET} {SECRET} {SECRET}\na,b\n",  # repeated
    ],
)
def test_a_table_without_a_header_row_never_prints_its_first_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    table = tmp_path / "export.csv"
    table.write_text(content, encoding="utf-8")
    line = _refused(
        capsys, 1, ["convert", str(table), "-o", str(tmp_path / "out"), "--to", "project"], tmp_path
    )
    assert str(table) in line
    assert "does not look like a header row" in line


def test_a_header_of_column_names_is_still_listed(tmp_path: Path) -> None:
    table = tmp_path / "export.csv"
    table.write_text("ROW_ID,Note Text,Patient ID (MRN)\n1,a,b\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"columns: ROW_ID, Note Text, Patient ID \(MRN\)"):
        read_note_rows(table, NoteColumns())


def test_a_column_name_with_a_terminal_escape_is_not_printed_raw(tmp_path: Path) -> None:
    table = tmp_path / "export.csv"
    table.write_text("te\x1b[2Jxt,id\nabc,1\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_note_rows(table, NoteColumns())
    assert "\x1b" not in caught.value.one_line()


def test_a_table_separated_by_semicolons_is_read_by_its_header(tmp_path: Path) -> None:
    # It was refused as one column holding ';'; a spreadsheet in a European locale saves so.
    table = tmp_path / "export.csv"
    table.write_text(f"id;text\n1;{SECRET}\n", encoding="utf-8")
    assert [row.text for row in read_note_rows(table, NoteColumns())] == [SECRET]


@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_a_utf16_table_is_named_utf16(tmp_path: Path, bom: str) -> None:
    table = tmp_path / "export.csv"
    table.write_bytes(f"{bom}text,id\n{SECRET},1\n".encode("utf-16-le"))
    with pytest.raises(InputError, match="UTF-16 text; export the table as UTF-8") as caught:
        read_note_rows(table, NoteColumns())
    assert caught.value.path == str(table)


# -- i2b2 offsets --------------------------------------------------------------------------------


def _i2b2(path: Path, start: str) -> Path:
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2>\n<TEXT><![CDATA[{NOTE}]]></TEXT>\n<TAGS>\n'
        f'<NAME id="P0" start="{start}" end="{END}" text="{SECRET}" TYPE="DOCTOR" comment="" />\n'
        "</TAGS>\n</deIdi2b2>\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    "start",
    [
        "".join(chr(0x0660 + int(d)) for d in str(START)),  # Arabic-Indic digits: int() reads them
        "".join(chr(0xFF10 + int(d)) for d in str(START)),  # fullwidth digits
        f"+{START}",
        f" {START}",
        f"{str(START)[0]}_{str(START)[1:]}",
    ],
)
def test_offsets_must_be_ascii_digits(tmp_path: Path, start: str) -> None:
    path = _i2b2(tmp_path / "100-01.xml", start)
    with pytest.raises(InputError, match="non-integer start offset"):
        read_i2b2(path)
    codes = [p.code for p in validate_file(path)]
    assert "bad-offset" in codes


def test_offsets_with_leading_zeros_still_read(tmp_path: Path) -> None:
    document = read_i2b2(_i2b2(tmp_path / "100-01.xml", f"00{START}"))
    assert document.annotations[0].start == START


# -- PhysioNet -----------------------------------------------------------------------------------


def _crlf_document(origin: Path) -> Document:
    text = f"Seen\r\nby\r\nDr {SECRET} on\r\nMonday"
    start = text.index(SECRET)
    document = Document("100-01", text)
    document.origin.path = origin
    document.add(Annotation("T1", "NAME", "DOCTOR", start, start + len(SECRET), SECRET))
    return document


def test_physionet_writer_refuses_crlf_text_its_reader_would_shift(tmp_path: Path) -> None:
    # Written as it was, the type-blind list read back put the tag on "nzibar o".
    with pytest.raises(UsageError, match="CRLF line ends") as caught:
        physionet_texts([_crlf_document(tmp_path / "100-01.txt")])
    assert caught.value.path == str(tmp_path / "100-01.txt")


def test_convert_crlf_brat_to_physionet_is_refused_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "brat"
    folder.mkdir()
    text = f"Seen\r\nby\r\nDr {SECRET} on\r\nMonday"
    start = text.index(SECRET)
    (folder / "100-01.txt").write_bytes(text.encode("utf-8"))
    (folder / "100-01.ann").write_text(
        f"T1\tDOCTOR {start} {start + len(SECRET)}\t{SECRET}\n", encoding="utf-8"
    )
    args = ["convert", str(folder), "-o", str(tmp_path / "out"), "--to", "physionet"]
    line = _refused(capsys, 2, args, tmp_path)
    assert str(folder / "100-01.txt") in line


def test_physionet_lf_text_still_round_trips(tmp_path: Path) -> None:
    document = _crlf_document(tmp_path / "x.txt")
    text = document.text.replace("\r\n", "\n")
    start = text.index(SECRET)
    plain = Document("100-01", text)
    plain.add(Annotation("T1", "NAME", "DOCTOR", start, start + len(SECRET), SECRET))
    records, _, blind = physionet_texts([plain])
    (tmp_path / "id.text").write_text(records, encoding="utf-8")
    (tmp_path / "id.deid").write_text(blind, encoding="utf-8")
    (back,) = read_physionet(tmp_path)
    assert back.text == text
    assert [(a.start, a.end, a.text) for a in back.annotations] == [(start, start + len(SECRET), SECRET)]


def test_many_physionet_records_read_in_linear_time(tmp_path: Path) -> None:
    count = 40_000
    records = "".join(
        f"START_OF_RECORD={n}||||1||||\nnote {n}\n||||END_OF_RECORD\n\n" for n in range(1, count + 1)
    )
    (tmp_path / "id.text").write_text(records, encoding="utf-8")
    began = time.perf_counter()
    documents = read_physionet(tmp_path)
    assert time.perf_counter() - began < SECONDS
    assert len(documents) == count


# -- inline 2006 and brat: large notes -------------------------------------------------------------


def test_an_inline_record_of_many_phi_reads_in_linear_time() -> None:
    count = 20_000
    body = "".join(f'word {n} <PHI TYPE="DOCTOR">Name{n}</PHI> ' for n in range(count))
    data = f'<ROOT><RECORD ID="100-01"><TEXT>{body}</TEXT></RECORD></ROOT>'.encode()
    began = time.perf_counter()
    (document,) = parse_inline2006(data, "big.xml")
    assert time.perf_counter() - began < SECONDS
    assert len(document) == count
    last = document.annotations[-1]
    assert document.text[last.start : last.end] == f"Name{count - 1}"


def test_inline_markup_other_than_phi_is_one_warning_per_file() -> None:
    body = "".join(f"word {n} <b>x</b> " for n in range(500))
    data = f'<ROOT><RECORD ID="100-01"><TEXT>{body}</TEXT></RECORD></ROOT>'.encode()
    notes: list[str] = []
    parse_inline2006(data, "marked.xml", warnings=notes)
    assert len(notes) == 1


def test_a_note_of_many_tags_writes_to_brat_in_linear_time() -> None:
    count = 20_000
    words = [f"Name{n:05d}" for n in range(count)]
    document = Document("100-01", " ".join(words))
    for n in range(count):
        start = n * 10
        document.add(Annotation(f"P{n}", "NAME", "DOCTOR", start, start + 9, words[n]))
    began = time.perf_counter()
    _, ann = document_to_brat(document)
    assert time.perf_counter() - began < SECONDS
    assert ann.count(b"\n") == count


# -- ids from a file are shown escaped -------------------------------------------------------------

HOSTILE_ID = "\x1b[31mX\u202e"


def _raw(text: str) -> bool:
    return any(char in text for char in ("\x1b", "\u202e", "\x85"))


@pytest.mark.parametrize(
    "lines",
    [
        [{"id": HOSTILE_ID, "text": "a"}, {"id": HOSTILE_ID, "text": "b"}],
        [
            {
                "id": "100-01",
                "text": "abc",
                "spans": [
                    {"id": HOSTILE_ID, "start": 0, "end": 1, "label": "DOCTOR"},
                    {"id": HOSTILE_ID, "start": 1, "end": 2, "label": "DOCTOR"},
                ],
            }
        ],
        [
            {
                "id": "100-01",
                "text": "abc",
                "spans": [{"id": "a", "start": 0, "end": 1, "label": "DOCTOR", "fragment_of": HOSTILE_ID}],
            }
        ],
    ],
)
def test_jsonl_ids_in_errors_are_escaped(tmp_path: Path, lines: list[dict[str, object]]) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_jsonl(path)
    assert not _raw(caught.value.one_line())
    assert "\\x1b[31mX\\u202e" in caught.value.one_line()


def test_two_records_of_one_id_are_named_escaped(tmp_path: Path) -> None:
    path = tmp_path / "notes.xml"
    path.write_text(
        f'<ROOT><RECORD ID="{HOSTILE_ID[5:]}"><TEXT>a</TEXT></RECORD>'
        f'<RECORD ID="{HOSTILE_ID[5:]}"><TEXT>b</TEXT></RECORD></ROOT>',
        encoding="utf-8",
    )
    with pytest.raises(InputError, match="two documents are named") as caught:
        read_documents(path, "inline2006")
    assert not _raw(caught.value.one_line())


def test_validate_lines_show_tag_ids_escaped(tmp_path: Path) -> None:
    tag_id = "\u202e\x85P0"
    path = tmp_path / "100-01.xml"
    path.write_text(
        f'<?xml version="1.0"?><deIdi2b2><TEXT>{NOTE}</TEXT><TAGS>'
        f'<NAME id="{tag_id}" start="{START}" end="{END}" text="{SECRET}" TYPE="DOCTOR"/>'
        f'<NAME id="{tag_id}" start="{START}" end="{END}" text="{SECRET}" TYPE="DOCTOR"/>'
        "</TAGS></deIdi2b2>",
        encoding="utf-8",
    )
    lines = [problem.one_line() for problem in validate_file(path)]
    assert lines
    assert not any(_raw(line) for line in lines)
    assert any("\\u202e\\x85P0" in line for line in lines)


def test_physionet_crlf_records_with_a_type_blind_list_are_refused(tmp_path: Path) -> None:
    # deid.pl counts the CR of a CRLF file; read as LF, "Zanzibar" came back as "anzibar\n".
    text = f"Dr\r\n{SECRET}\r\n"
    (tmp_path / "id.text").write_bytes(f"START_OF_RECORD=1||||1||||\r\n{text}||||END_OF_RECORD\r\n".encode())
    (tmp_path / "id.deid").write_text(f"Patient 1 Note 1\n4 4 {4 + len(SECRET)}\n", encoding="utf-8")
    with pytest.raises(InputError, match="CRLF line ends") as caught:
        read_physionet(tmp_path)
    assert caught.value.path == str(tmp_path / "id.text")


def test_physionet_crlf_records_without_a_list_still_read(tmp_path: Path) -> None:
    (tmp_path / "id.text").write_bytes(
        f"START_OF_RECORD=1||||1||||\r\nDr\r\n{SECRET}\r\n||||END_OF_RECORD\r\n".encode()
    )
    (document,) = read_physionet(tmp_path)
    assert document.text == f"Dr\n{SECRET}\n"


@pytest.mark.parametrize("kind", ["\x1b[31m", "Date\u202e", "9Date", "a" * 101])
def test_physionet_phrase_types_must_be_names(tmp_path: Path, kind: str) -> None:
    (tmp_path / "id.text").write_text(
        f"START_OF_RECORD=1||||1||||\n{NOTE}\n||||END_OF_RECORD\n", encoding="utf-8"
    )
    (tmp_path / "id-phi.phrase").write_text(f"1 1 {START} {END} {kind} {SECRET}\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 1: the type is not a name") as caught:
        read_physionet(tmp_path)
    assert caught.value.path == str(tmp_path / "id-phi.phrase")


@pytest.mark.parametrize("key", ["spans", "text"])
def test_jsonl_a_key_given_twice_is_refused(tmp_path: Path, key: str) -> None:
    # json.loads keeps the last: a second "spans" silently dropped every tag of the first.
    first = {"spans": '[{"start": 11, "end": 19, "label": "DOCTOR"}]', "text": json.dumps(NOTE)}
    second = {"spans": "[]", "text": '"other"'}
    fields = [f'"{name}": {value}' for name, value in first.items()] + [f'"{key}": {second[key]}']
    path = tmp_path / "notes.jsonl"
    path.write_text('{"id": "100-01", ' + ", ".join(fields) + "}\n", encoding="utf-8")
    with pytest.raises(InputError, match=f"line 1: the key '{key}' appears twice"):
        read_jsonl(path)


@pytest.mark.parametrize(
    ("span_fields", "problem"),
    [
        ('"pending": "false"', "'pending' is true or false"),
        ('"pending": 0', "'pending' is true or false"),
        ('"confidence": NaN', "'confidence' is a finite number"),
        ('"confidence": true', "'confidence' is a finite number"),
        ('"confidence": "high"', "'confidence' is a finite number"),
    ],
)
def test_jsonl_span_flags_and_confidences_of_the_wrong_kind_are_refused(
    tmp_path: Path, span_fields: str, problem: str
) -> None:
    # bool("false") is True: the pending flag written as a string used to flip.
    path = tmp_path / "notes.jsonl"
    path.write_text(
        '{"id": "1-01", "text": "Seen by Dr Lee.", "spans": [{"start": 11, "end": 14, "label": "DOCTOR", '
        + span_fields
        + "}]}\n"
    )
    with pytest.raises(InputError, match=f"line 1: span 1: {problem}"):
        read_jsonl(path)


def test_jsonl_confidence_as_a_number_or_numeric_string_and_pending_as_a_boolean_read(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text(
        '{"id": "1-01", "text": "Seen by Dr Lee.", "spans": ['
        '{"start": 11, "end": 14, "label": "DOCTOR", "confidence": 0.25, "pending": true}, '
        '{"start": 0, "end": 4, "label": "DOCTOR", "confidence": "0.5", "pending": false}]}\n'
    )
    (document,) = read_jsonl(path)
    assert sorted((a.start, a.confidence, a.pending) for a in document) == [(0, 0.5, False), (11, 0.25, True)]


def test_an_i2b2_confidence_that_is_no_finite_number_is_kept_as_written(tmp_path: Path) -> None:
    path = tmp_path / "note.xml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2><TEXT><![CDATA[Seen by Dr Lee.]]></TEXT><TAGS>'
        '<NAME id="P0" start="11" end="14" text="Lee" TYPE="DOCTOR" confidence="nan" />'
        "</TAGS></deIdi2b2>\n"
    )
    (annotation,) = read_i2b2(path).annotations
    assert annotation.confidence is None and ("confidence", "nan") in annotation.extra
