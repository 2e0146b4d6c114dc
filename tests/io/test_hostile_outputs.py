"""Hostile inputs against the writers: ids that would pick where files go, tags no reader reads.

A document id comes from the input (a JSON field, a RECORD ID) and names an output file: it
must never choose the folder, and a refused one writes nothing, inside the output or out of
it. A second TAGS element or a tag inside a tag would be silently dropped by a reader that
takes the first TAGS' direct children, leaving a name in a "de-identified" copy. Every case
runs the real command in process and compares the whole tmp tree before and after.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.file_names import file_name_problem
from annotator.errors import InputError, StorageError
from annotator.io.i2b2 import read_i2b2
from annotator.io.outputs import check_file_name, file_in_folder, plan_files, publishing
from annotator.io.validate import validate_file

SECRET = "SECRETNOTE"
NOTE = f"{SECRET} Patient John Smith seen 2020-01-01."
PER_DOCUMENT = ["i2b2", "brat", "mae", "project"]


def tree(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root``: a file's bytes, None for a folder."""
    found: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames:
            found[(Path(dirpath) / name).relative_to(root).as_posix()] = None
        for name in filenames:
            path = Path(dirpath) / name
            found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in out + err
    assert SECRET not in out + err and "John Smith" not in out + err
    return code, err


def assert_refused(code: int, err: str, source: Path, *needles: str) -> None:
    assert code == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(source) in lines[0], err
    for needle in needles:
        assert needle in lines[0], err


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A deep working folder, so an id that climbs out still lands inside ``tmp_path``."""
    folder = tmp_path / "a" / "b" / "work"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    return folder


def write_jsonl(path: Path, *ids: str) -> Path:
    rows = [
        json.dumps({"id": doc_id, "text": NOTE, "spans": [{"start": 19, "end": 29, "label": "PATIENT"}]})
        for doc_id in ids
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


HOSTILE_IDS = {
    "climbs-out": "../../evil",
    "sub-folder": "a/b",
    "backslash": "a\\b",
    "dot-dot": "..",
    "dot": ".",
    "hidden": ".hidden",
    "nul": "a\x00b",
    "newline": "a\nb",
    "bidi-override": "a\u202eb",
    "too-long": "x" * 5000,
    "wide-too-long": "\u6f22" * 100,  # 100 characters, 300 bytes in UTF-8
    "windows-colon": "c:note",
    "windows-device": "CON",
    "trailing-dot": "note.",
}


@pytest.mark.parametrize("target", PER_DOCUMENT)
@pytest.mark.parametrize("doc_id", HOSTILE_IDS.values(), ids=HOSTILE_IDS.keys())
def test_a_jsonl_id_that_cannot_be_a_file_name_is_refused_before_writing(
    tmp_path: Path, work: Path, target: str, doc_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_jsonl(work / "t.jsonl", "fine-01", doc_id)
    before = tree(tmp_path)
    code, err = run(["convert", str(source), "--to", target, "-o", "out/o"], capsys)
    assert_refused(code, err, source, "cannot name an output file", repr(doc_id)[:30])
    assert tree(tmp_path) == before


def test_an_absolute_id_is_refused_and_nothing_is_written_where_it_points(
    tmp_path: Path, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere" / "evil"
    source = write_jsonl(work / "t.jsonl", str(elsewhere))
    before = tree(tmp_path)
    code, err = run(["convert", str(source), "--to", "i2b2", "-o", "out/o"], capsys)
    assert_refused(code, err, source, "path separator")
    assert tree(tmp_path) == before


def test_a_long_id_is_shown_cut_in_the_message(
    tmp_path: Path, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_jsonl(work / "t.jsonl", "y" * 5000)
    code, err = run(["convert", str(source), "--to", "i2b2", "-o", "out"], capsys)
    assert_refused(code, err, source, "5,000 characters")
    assert "y" * 41 not in err


@pytest.mark.parametrize("record_id", ["../../evil2", "a/b", "{tmp}/elsewhere/evil3"])
def test_an_inline_2006_record_id_is_checked_too(
    tmp_path: Path, work: Path, record_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    record_id = record_id.format(tmp=tmp_path)
    source = work / "records.xml"
    source.write_text(
        '<?xml version="1.0"?>\n<ROOT>'
        f'<RECORD ID="{record_id}"><TEXT>{SECRET} <PHI TYPE="DOCTOR">Smith</PHI></TEXT></RECORD></ROOT>\n',
        encoding="utf-8",
    )
    before = tree(tmp_path)
    code, err = run(["convert", str(source), "--from", "inline2006", "--to", "i2b2", "-o", "out/o"], capsys)
    assert_refused(code, err, source, "cannot name an output file", repr(record_id)[:30])
    assert tree(tmp_path) == before


def test_ids_one_file_apart_on_windows_and_macos_are_refused(
    tmp_path: Path, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_jsonl(work / "t.jsonl", "Note-01", "note-01")
    before = tree(tmp_path)
    code, err = run(["convert", str(source), "--to", "brat", "-o", "out"], capsys)
    assert_refused(code, err, source, "'Note-01'", "'note-01'")
    assert tree(tmp_path) == before


@pytest.mark.parametrize("target", PER_DOCUMENT)
def test_plain_ids_still_convert(work: Path, target: str, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_jsonl(work / "t.jsonl", "110-01", "note_2.v1", "Ärztin 3")
    code, _err = run(["convert", str(source), "--to", target, "-o", "out"], capsys)
    assert code == 0
    folder = work / "out" / ("source" if target == "project" else "")
    names = {p.stem for p in folder.iterdir() if p.suffix in (".xml", ".txt")}
    assert names == {"110-01", "note_2.v1", "Ärztin 3"}


def test_the_name_check_and_its_second_look(tmp_path: Path) -> None:
    assert check_file_name("110-01") == "110-01"
    assert file_in_folder(tmp_path, "110-01", ".xml") == tmp_path / "110-01.xml"
    for name in HOSTILE_IDS.values():
        with pytest.raises(InputError, match=r"^in\.jsonl: document id "):
            file_in_folder(tmp_path, name, ".xml", "in.jsonl")


def test_staging_refuses_a_path_outside_the_planned_output(tmp_path: Path) -> None:
    out = tmp_path / "out"
    plan = plan_files([out / "a.xml", out / "b.xml"])
    with publishing(plan) as staged:
        staged(out / "a.xml").write_text("a")
        with pytest.raises(StorageError, match="not inside the planned output"):
            staged(out / ".." / "evil.xml")
        staged(out / "b.xml").write_text("b")
    assert sorted(p.name for p in out.iterdir()) == ["a.xml", "b.xml"]
    assert not (tmp_path / "evil.xml").exists()


# -- tags no reader would read -------------------------------------------------------------

DATE = '<DATE id="P1" start="35" end="45" text="2020-01-01" TYPE="DATE"/>'
NAME = '<NAME id="P0" start="19" end="29" text="John Smith" TYPE="PATIENT"/>'
UNREAD = {
    "second-tags": f"<TAGS>{DATE}</TAGS><TAGS>{NAME}</TAGS>",
    "nested-tag": f'<TAGS>\n<DATE id="P1" start="35" end="45" text="2020-01-01" TYPE="DATE">{NAME}</DATE></TAGS>',
    "nested-in-mae": (
        '<TAGS><DATE id="P1" spans="35~45" text="2020-01-01" TYPE="DATE">'
        '<NAME id="P0" spans="19~29" text="John Smith" TYPE="PATIENT"/></DATE></TAGS>'
    ),
    "tag-outside-tags": f"<TAGS>{DATE}</TAGS>{NAME}",
    "lower-case-tags": f"<TAGS>{DATE}</TAGS><tags>{NAME}</tags>",
}
MESSAGES = {
    "second-tags": "2 TAGS elements",
    "nested-tag": "tag P1 (DATE, line 2)",
    "nested-in-mae": "tag P1",
    "tag-outside-tags": "tag P0 (NAME, line 1) stands outside TAGS",
    "lower-case-tags": "2 TAGS elements",
}
CODES = {
    "second-tags": "second-tags",
    "nested-tag": "nested-tag",
    "nested-in-mae": "nested-tag",
    "tag-outside-tags": "tag-outside-tags",
    "lower-case-tags": "second-tags",
}


def write_gold(folder: Path, tags: str) -> Path:
    folder.mkdir()
    path = folder / "100-01.xml"
    path.write_text(
        f'<?xml version="1.0"?><deIdi2b2><TEXT><![CDATA[{NOTE}]]></TEXT>{tags}</deIdi2b2>', encoding="utf-8"
    )
    return path


@pytest.mark.parametrize("case", UNREAD)
def test_deidentify_refuses_tags_it_would_not_read(
    tmp_path: Path, work: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_gold(work / "gold", UNREAD[case])
    before = tree(tmp_path)
    code, err = run(["deidentify", "gold", "-o", "out", "--method", "mask"], capsys)
    assert_refused(code, err, Path("gold") / path.name, MESSAGES[case])
    assert tree(tmp_path) == before


@pytest.mark.parametrize("case", UNREAD)
def test_convert_refuses_tags_it_would_not_read(
    tmp_path: Path, work: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    write_gold(work / "gold", UNREAD[case])
    before = tree(tmp_path)
    code, err = run(["convert", "gold", "--from", "i2b2", "--to", "jsonl", "-o", "out.jsonl"], capsys)
    assert_refused(code, err, Path("gold") / "100-01.xml", MESSAGES[case])
    assert tree(tmp_path) == before


@pytest.mark.parametrize("case", ["second-tags", "nested-in-mae"])
def test_converting_from_mae_refuses_them_too(
    tmp_path: Path, work: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    tags = (
        UNREAD[case]
        .replace('start="35" end="45"', 'spans="35~45"')
        .replace('start="19" end="29"', 'spans="19~29"')
    )
    write_gold(work / "gold", tags)
    before = tree(tmp_path)
    code, err = run(["convert", "gold", "--from", "mae", "--to", "jsonl", "-o", "out.jsonl"], capsys)
    assert_refused(code, err, Path("gold") / "100-01.xml", MESSAGES[case])
    assert tree(tmp_path) == before


@pytest.mark.parametrize("case", UNREAD)
def test_the_reader_and_the_validator_report_them(tmp_path: Path, case: str) -> None:
    path = write_gold(tmp_path / "gold", UNREAD[case])
    with pytest.raises(InputError, match=re.escape(MESSAGES[case])) as raised:
        read_i2b2(path)
    assert str(path) in str(raised.value)
    problems = validate_file(path)
    assert [p.code for p in problems if p.is_error] == [CODES[case]]
    assert all(SECRET not in p.one_line() and "John Smith" not in p.one_line() for p in problems)


def test_the_validator_reports_both_at_once(tmp_path: Path) -> None:
    nested = f'<DATE id="P1" start="35" end="45" text="2020-01-01" TYPE="DATE">{NAME}</DATE>'
    path = write_gold(tmp_path / "gold", f"<TAGS>{nested}</TAGS><TAGS>{NAME}</TAGS>")
    assert sorted(p.code for p in validate_file(path) if p.is_error) == ["nested-tag", "second-tags"]
    assert main(["validate", str(path)]) == 1


def test_comments_and_text_inside_tags_are_not_elements(tmp_path: Path) -> None:
    tags = f'<TAGS><!-- reviewed --><NAME id="P0" start="19" end="29" text="John Smith" TYPE="PATIENT"><!-- ok --> </NAME>{DATE}</TAGS>'
    path = write_gold(tmp_path / "gold", tags)
    assert sorted(a.id for a in read_i2b2(path)) == ["P0", "P1"]
    assert not [p for p in validate_file(path) if p.is_error]


@pytest.mark.parametrize("name", ["CON", "nul.txt", "COM\u00b9", "lpt\u00b3", "CONIN$", "conout$.xml"])
def test_every_windows_device_name_is_refused(name: str) -> None:
    assert file_name_problem(name) == "it is a Windows device name"


@pytest.mark.parametrize("name", ["CONTRA", "COM10", "LPT0", "100-01"])
def test_names_that_only_begin_like_a_device_are_fine(name: str) -> None:
    assert file_name_problem(name) is None
