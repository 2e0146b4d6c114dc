"""EHR exports (CSV, TSV, JSON Lines; one note per row) into PPP-RR documents and a project."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.errors import InputError
from annotator.io.i2b2 import read_i2b2
from annotator.io.notetable import TABLE_LIMIT, NoteColumns, note_index, read_note_table

COLUMNS = NoteColumns(text="note_text", note_id="note_id", patient="mrn", date="charttime")
ROWS = [
    {"note_id": "n1", "mrn": "MRN-777", "charttime": "2101-03-05", "note_text": "Second note of A."},
    {
        "note_id": "n2",
        "mrn": "MRN-555",
        "charttime": "2101-01-01",
        "note_text": "Only note of B,\nwith a line.",
    },
    {"note_id": "n3", "mrn": "MRN-777", "charttime": "2101-03-01", "note_text": "First note of A."},
]


def _csv(path: Path, rows: list[dict[str, str]], delimiter: str = ",") -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), delimiter=delimiter)
        writer.writeheader()
        writer.writerows(rows)
    return path


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".jsonl"])
def test_patients_numbered_by_appearance_and_notes_by_date(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"export{suffix}"
    if suffix == ".jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    else:
        _csv(path, ROWS, "\t" if suffix == ".tsv" else ",")
    documents = read_note_table(path, COLUMNS)
    assert [(d.doc_id, d.text) for d in documents] == [
        ("001-01", "First note of A."),
        ("001-02", "Second note of A."),
        ("002-01", "Only note of B,\nwith a line."),
    ]
    index = list(csv.reader(io.StringIO(note_index(path, COLUMNS))))
    assert index[0] == ["document", "row", "note_id", "patient_id", "date"]
    assert [row[0] + "=" + row[2] for row in index[1:]] == ["001-01=n3", "001-02=n1", "002-01=n2"]


@pytest.mark.parametrize("delimiter", [";", "\t", "|"])
def test_a_csv_export_with_another_delimiter_is_read_by_its_header(tmp_path: Path, delimiter: str) -> None:
    # A spreadsheet set to a European locale saves "CSV" with semicolons; the header row says
    # which mark separates the columns. A comma inside a note stays the note's.
    path = _csv(tmp_path / "export.csv", ROWS, delimiter)
    documents = read_note_table(path, COLUMNS)
    assert [(d.doc_id, d.text) for d in documents] == [
        ("001-01", "First note of A."),
        ("001-02", "Second note of A."),
        ("002-01", "Only note of B,\nwith a line."),
    ]


@pytest.mark.parametrize(
    "header",
    ['note_id;"note_text, as written";mrn;charttime', '"note;id"|note_text|mrn|charttime'],
    ids=["comma-quoted", "semicolon-quoted"],
)
def test_a_mark_only_inside_a_quoted_column_name_is_not_the_delimiter(tmp_path: Path, header: str) -> None:
    # The comma of a quoted name made a semicolon table "1 field where the header has 2";
    # a quoted ';' made a bar table "';' expected after '\"'".
    delimiter = "|" if "|" in header else ";"
    columns = [column.strip('"') for column in header.split(delimiter)]
    path = tmp_path / "export.csv"
    path.write_text(
        header + "\n" + delimiter.join(["n1", '"Ann seen; well, home."', "MRN-1", "2101-01-01"]) + "\n",
        encoding="utf-8",
    )
    documents = read_note_table(path, NoteColumns(text=columns[1], note_id=columns[0], patient="mrn"))
    assert [(d.doc_id, d.text) for d in documents] == [("001-01", "Ann seen; well, home.")]


def test_a_semicolon_table_with_old_mac_line_ends_is_read_by_its_header(tmp_path: Path) -> None:
    # Lines ended by a carriage return alone: the "header" looked for a mark was the whole
    # file, and a comma in a note made the table a comma one ("2 fields where the header has 1").
    path = tmp_path / "export.csv"
    path.write_bytes(b"note_id;mrn;note_text\rn1;MRN-1;Ann seen, well.\r")
    documents = read_note_table(path, NoteColumns(text="note_text", note_id="note_id", patient="mrn"))
    assert [(d.doc_id, d.text) for d in documents] == [("001-01", "Ann seen, well.")]


def test_a_table_saved_with_two_byte_order_marks_is_read(tmp_path: Path) -> None:
    # Re-saved by a second tool that added its own: the second mark was part of the first
    # column's name, and the table "did not look like a header row".
    path = tmp_path / "export.csv"
    path.write_bytes("\ufeff\ufeffnote_id;note_text\nn1;Ann seen.\n".encode())
    documents = read_note_table(path, NoteColumns(text="note_text", note_id="note_id"))
    assert [(d.doc_id, d.text) for d in documents] == [("001-01", "Ann seen.")]


def test_without_a_patient_column_each_note_is_its_own_patient(tmp_path: Path) -> None:
    path = _csv(tmp_path / "t.csv", [{"text": "a"}, {"text": "b"}])
    assert [d.doc_id for d in read_note_table(path, NoteColumns())] == ["001-01", "002-01"]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("mrn,note_id\n1,2\n", "no column 'note_text'"),
        ('note_text,mrn\n"unclosed,1\n', "row|table"),
        ("note_text,mrn\na,1,extra\n", "3 fields"),
        ("note_text,mrn\n", "no note"),
        ("", "empty"),
        # "row 2: 2 fields where the header has 0" before
        ("\nnote_text,mrn\na,1\n", "the first row is empty"),
    ],
)
def test_bad_tables_are_one_clear_error(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=problem):
        read_note_table(path, NoteColumns(text="note_text", patient="mrn"))


def test_convert_imports_a_table_into_a_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _csv(tmp_path / "export.csv", ROWS)
    out = tmp_path / "project"
    code = main(
        [
            "convert",
            str(path),
            "-o",
            str(out),
            "--to",
            "project",
            "--text-column",
            "note_text",
            "--id-column",
            "note_id",
            "--patient-column",
            "mrn",
            "--date-column",
            "charttime",
        ]
    )
    assert code == 0
    assert "3 document(s) converted" in capsys.readouterr().out
    assert sorted(p.name for p in (out / "source").iterdir()) == ["001-01.xml", "001-02.xml", "002-01.xml"]
    assert read_i2b2(out / "source" / "001-01.xml").text == "First note of A."
    assert 'name = "project"' in (out / "project.toml").read_text()
    assert "MRN-777" in (out / "notes-index.csv").read_text()
    assert not any("MRN" in p.name for p in out.rglob("*"))


def test_convert_names_a_missing_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _csv(tmp_path / "export.csv", ROWS)
    code = main(["convert", str(path), "-o", str(tmp_path / "out"), "--to", "i2b2"])
    assert code == 1
    err = capsys.readouterr().err
    assert "export.csv" in err and "no column 'text'" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_the_patients_names_become_the_projects_site_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        {**row, "surname": surname, "given": given}
        for row, (surname, given) in zip(
            ROWS, [("QUIST", "Zebulon"), ("Masci", "Gerry"), ("QUIST", "Zebulon")], strict=True
        )
    ]
    rows[1]["given"] = "Gerry Ann"
    path = _csv(tmp_path / "export.csv", rows)
    out = tmp_path / "project"
    columns = ["--text-column", "note_text", "--patient-column", "mrn", "--date-column", "charttime"]
    names = ["--name-column", "surname", "--name-column", "given"]
    assert main(["convert", str(path), "-o", str(out), "--to", "project", *columns, *names]) == 0
    assert "6 file(s) written" in capsys.readouterr().err  # the notes, project.toml, the index and the list
    lines = (out / "site-lists.tsv").read_text(encoding="utf-8").splitlines()
    assert lines[1:] == [
        "PATIENT\tQUIST\t001",
        "PATIENT\tZebulon\t001",
        "PATIENT\tMasci\t002",
        "PATIENT\tGerry Ann\t002",
        "PATIENT\tGerry\t002",
        "PATIENT\tAnn\t002",
    ]
    assert 'site_lists = "site-lists.tsv"' in (out / "project.toml").read_text()
    # The window's pre-annotation reads it: Quist is a name in patient 001's notes.
    from annotator.core.project import Project
    from annotator.core.schema import load_schema
    from annotator.io.site_lists import read_site_lists

    project = Project.open(out)
    assert project.site_lists_path is not None
    lists = read_site_lists(project.site_lists_path, load_schema(project.schema))
    assert [m for m in lists.matches("Quist seen", "001")] == [("PATIENT", 0, 5)]
    assert list(lists.matches("Quist seen", "002")) == []
    # Without name columns no list is written.
    plain = tmp_path / "plain"
    assert main(["convert", str(path), "-o", str(plain), "--to", "project", *columns]) == 0
    assert (
        not (plain / "site-lists.tsv").exists() and "site_lists" not in (plain / "project.toml").read_text()
    )


def test_a_missing_name_column_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _csv(tmp_path / "export.csv", ROWS)
    code = main(["convert", str(path), "-o", str(tmp_path / "p"), "--to", "project", "--text-column",
                 "note_text", "--name-column", "surname"])  # fmt: skip
    assert code == 1
    assert "no column 'surname'" in capsys.readouterr().err
    assert not (tmp_path / "p").exists()


def test_a_table_over_one_documents_limit_imports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A table holds many notes: a 70 MB export (over the 64 MB cap on one document) was
    refused as "over the limit for one document". Each note is still held to that cap."""
    line = "Seen today, stable; plan unchanged. " * 28 + "\n"
    note = line * 1000  # about 1 MB
    rows = [
        {"note_id": f"n{i}", "mrn": f"MRN-{i // 10}", "charttime": "2101-01-01", "note_text": note}
        for i in range(70)
    ]
    table = _csv(tmp_path / "export.csv", rows)
    assert table.stat().st_size > 64 * 1024 * 1024
    out = tmp_path / "project"
    code = main(
        ["convert", str(table), "-o", str(out), "--to", "project", "--text-column", "note_text",
         "--id-column", "note_id", "--patient-column", "mrn", "--date-column", "charttime"]
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    assert len(list((out / "source").glob("*.xml"))) == 70
    assert read_i2b2(out / "source" / "007-10.xml").text == note


def test_a_table_over_the_table_limit_is_refused_unread(tmp_path: Path) -> None:
    table = tmp_path / "export.csv"
    with table.open("wb") as handle:
        handle.truncate(TABLE_LIMIT + 1)  # sparse: nothing is written, nothing read
    with pytest.raises(
        InputError, match=r"over the 1,073,741,824-byte limit for a note table \(split the export"
    ):
        read_note_table(table, COLUMNS)


def test_a_table_changed_on_disk_is_read_again(tmp_path: Path) -> None:
    """Rows are parsed once per import (notes, index, names), keyed by the file's size and time."""
    path = _csv(tmp_path / "export.csv", ROWS)
    first = read_note_table(path, COLUMNS)
    rows = [dict(ROWS[0], note_text="A changed note, longer than before."), *ROWS[1:]]
    _csv(path, rows)
    second = read_note_table(path, COLUMNS)
    assert [d.text for d in first] != [d.text for d in second]
    assert "A changed note, longer than before." in [d.text for d in second]


def test_the_index_never_holds_a_formula_a_spreadsheet_would_run(tmp_path: Path) -> None:
    rows = [
        {"note_id": '=HYPERLINK("http://x","y")', "mrn": "+1-555", "charttime": "@SUM(1)", "note_text": "A."},
        {"note_id": "-2+3", "mrn": "-MRN", "charttime": "2101-01-01", "note_text": "B."},
        {"note_id": "n=3", "mrn": "MRN-7", "charttime": "2101-01-02", "note_text": "C."},
    ]
    index = list(csv.reader(io.StringIO(note_index(_csv(tmp_path / "export.csv", rows), COLUMNS))))
    cells = [row[2:] for row in index[1:]]
    assert cells == [
        ['\'=HYPERLINK("http://x","y")', "'+1-555", "'@SUM(1)"],
        ["'-2+3", "'-MRN", "2101-01-01"],
        ["n=3", "MRN-7", "2101-01-02"],  # a formula character inside a cell runs nothing
    ]


def test_a_column_named_in_another_case_is_found_unless_two_are_alike(tmp_path: Path) -> None:
    # MIMIC-III's NOTEEVENTS.csv spells its columns in capitals; the default text column is "text".
    rows = [{"ROW_ID": "174", "SUBJECT_ID": "22532", "CHARTDATE": "2151-08-04", "TEXT": "Admission Date: x"}]
    path = _csv(tmp_path / "NOTEEVENTS.csv", rows)
    columns = NoteColumns(note_id="row_id", patient="subject_id", date="chartdate")
    assert [(d.doc_id, d.text) for d in read_note_table(path, columns)] == [("001-01", "Admission Date: x")]
    assert "22532" in note_index(path, columns)
    twice = _csv(tmp_path / "twice.csv", [{"Text": "a", "TEXT": "b"}])
    with pytest.raises(InputError, match="no column 'text'"):
        read_note_table(twice, NoteColumns())


def test_rows_are_counted_as_a_spreadsheet_shows_them_not_as_lines(tmp_path: Path) -> None:
    notes = [
        {"note_id": "a", "note_text": "three\nline\nnote"},
        {"note_id": "b", "note_text": "two\nlines"},
        {"note_id": "c", "note_text": "one line"},
    ]
    path = _csv(tmp_path / "t.csv", notes)
    columns = NoteColumns(text="note_text", note_id="note_id")
    index = list(csv.reader(io.StringIO(note_index(path, columns))))
    assert sorted((row[2], row[1]) for row in index[1:]) == [("a", "2"), ("b", "3"), ("c", "4")]
    _csv(path, [*notes, {"note_id": "b", "note_text": "again\nand again"}])
    with pytest.raises(InputError) as error:
        read_note_table(path, columns)
    assert error.value.message == "row 5: the same note id as row 3"
    path.write_text('note_id,note_text\na,"x\ny"\nb,"z",extra\n', encoding="utf-8")
    with pytest.raises(InputError) as error:
        read_note_table(path, columns)
    assert error.value.message == "row 3 (from line 4): 3 fields where the header has 2"


def test_a_file_not_named_as_a_table_is_refused_by_its_name(tmp_path: Path) -> None:
    path = tmp_path / "100-01.xml"
    path.write_text("<deIdi2b2><TEXT>x</TEXT></deIdi2b2>", encoding="utf-8")
    with pytest.raises(InputError, match=r"not a note table by its name: an EHR export is read from a \.csv"):
        read_note_table(path, NoteColumns())


def test_a_one_file_output_keeps_its_index_beside_it_under_its_own_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _csv(tmp_path / "export.csv", [{**row, "surname": "QUIST"} for row in ROWS])
    common = ["--text-column", "note_text", "--patient-column", "mrn", "--name-column", "surname"]
    for name in ("first.jsonl", "second.jsonl"):
        code = main(["convert", str(path), "-o", str(tmp_path / name), "--to", "jsonl", *common])
        assert code == 0, capsys.readouterr().err
        err = capsys.readouterr().err
        stem = name.removesuffix(".jsonl")
        # Each file written is named, not "3 file(s) written to first.jsonl".
        assert f"{stem}.notes-index.csv" in err and f"{stem}.site-lists.tsv" in err
    for stem in ("first", "second"):
        assert "MRN-777" in (tmp_path / f"{stem}.notes-index.csv").read_text()
        assert "QUIST" in (tmp_path / f"{stem}.site-lists.tsv").read_text()
    assert not (tmp_path / "notes-index.csv").exists() and not (tmp_path / "site-lists.tsv").exists()
