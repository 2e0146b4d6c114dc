"""Validation: one problem class per test, through the library and the command line.

Every bad file must give a one-line message naming the file and the problem (never the
note text), no traceback, exit code 1, and leave the file's bytes and mtime untouched.
"""

from __future__ import annotations

import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.schema import load_schema
from annotator.io.i2b2 import read_i2b2
from annotator.io.validate import CODES, validate_document, validate_file

SECRET = "Hendrickson"
TEXT = f"Seen by Dr {SECRET} on 2067-05-03.\nFollow up."
NAME_AT = len("Seen by Dr ")
DATE_AT = len(f"Seen by Dr {SECRET} on ")
HEADER = b'<?xml version="1.0" encoding="UTF-8" ?>\n'


def tag(category: str, tag_id: str, start: object, end: object, text: str, type_: str) -> str:
    return f'<{category} id="{tag_id}" start="{start}" end="{end}" text="{text}" TYPE="{type_}" comment="" />'


NAME_TAG = tag("NAME", "P0", NAME_AT, NAME_AT + len(SECRET), SECRET, "DOCTOR")
DATE_TAG = tag("DATE", "P1", DATE_AT, DATE_AT + 10, "2067-05-03", "DATE")


def i2b2(
    tags: list[str] | None = None, text: str = TEXT, header: bytes = HEADER, body: str | None = None
) -> bytes:
    tags = [NAME_TAG, DATE_TAG] if tags is None else tags
    inner = (
        body
        if body is not None
        else f"<TEXT><![CDATA[{text}]]></TEXT>\n<TAGS>\n" + "\n".join(tags) + "\n</TAGS>"
    )
    return header + f"<deIdi2b2>\n{inner}\n</deIdi2b2>\n".encode()


GOOD = i2b2()

# name -> (file bytes, expected code, expected exit code)
BAD: dict[str, tuple[bytes, str, int]] = {
    "not-well-formed": (GOOD.replace(b"</TAGS>", b"</TAG>"), "not-well-formed", 1),
    "truncated": (GOOD[: GOOD.index(b"<TAGS>") + 20], "truncated", 1),
    "empty": (b"", "empty", 1),
    "whitespace-only": (b" \n\t\n", "empty", 1),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), "binary", 1),
    "undeclared-encoding": (
        i2b2(text=TEXT.replace("Seen", "Vu"), header=b"").replace(b"Vu", "Vé".encode("latin-1")),
        "encoding",
        1,
    ),
    "wrong-encoding": (GOOD.replace(b"Seen", "Séen".encode("latin-1")), "encoding", 1),
    "declared-utf16-but-8-bit": (GOOD.replace(b"UTF-8", b"UTF-16"), "encoding", 1),
    "bom": (b"\xef\xbb\xbf" + GOOD, "bom", 0),
    "no-text": (i2b2(body="<TAGS>\n" + NAME_TAG + "\n</TAGS>"), "no-text", 1),
    "no-tags": (i2b2(body=f"<TEXT><![CDATA[{TEXT}]]></TEXT>"), "no-tags", 1),
    "non-integer-offset": (i2b2([tag("NAME", "P0", "eleven", 22, SECRET, "DOCTOR")]), "bad-offset", 1),
    "missing-offset": (i2b2([NAME_TAG.replace(f' end="{NAME_AT + len(SECRET)}"', "")]), "missing-offset", 1),
    "negative-offset": (i2b2([tag("NAME", "P0", -3, NAME_AT, SECRET, "DOCTOR")]), "negative-offset", 1),
    "beyond-text": (
        i2b2([tag("DATE", "P1", len(TEXT) - 2, len(TEXT) + 5, "up.", "DATE")]),
        "offset-beyond-text",
        1,
    ),
    "start-after-end": (
        i2b2([tag("NAME", "P0", NAME_AT + 5, NAME_AT, SECRET, "DOCTOR")]),
        "start-after-end",
        1,
    ),
    "text-mismatch": (
        i2b2([tag("NAME", "P0", NAME_AT + 2, NAME_AT + 2 + len(SECRET), SECRET, "DOCTOR")]),
        "text-mismatch",
        1,
    ),
    "duplicate-id": (i2b2([NAME_TAG, DATE_TAG.replace('id="P1"', 'id="P0"')]), "duplicate-id", 1),
    "unknown-tag": (i2b2([NAME_TAG.replace("<NAME", "<PERSON")]), "unknown-tag", 1),
    "unknown-type": (i2b2([NAME_TAG.replace('"DOCTOR"', '"SURGEON"')]), "unknown-type", 1),
    "type-not-in-category": (i2b2([NAME_TAG.replace('"DOCTOR"', '"CITY"')]), "type-not-in-category", 1),
    "overlap": (
        i2b2([NAME_TAG, tag("NAME", "P1", NAME_AT, NAME_AT + 4, SECRET[:4], "PATIENT")]),
        "overlap",
        0,
    ),
    "dangling-link": (
        i2b2([NAME_TAG, '<SEENBY id="L0" fromID="P0" fromText="x" toID="P9" toText="y" />']),
        "dangling-link",
        0,
    ),
    "entity-bomb": (
        HEADER
        + b'<!DOCTYPE deIdi2b2 [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        + b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>\n<deIdi2b2><TEXT>&c;</TEXT><TAGS/></deIdi2b2>\n',
        "entity",
        1,
    ),
    "entity-bomb-utf16": (
        (
            '<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE deIdi2b2 [<!ENTITY a "aaaaaaaaaa">'
            '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<deIdi2b2><TEXT>&b;</TEXT><TAGS/></deIdi2b2>\n'
        ).encode("utf-16"),
        "entity",
        1,
    ),
    "external-entity-file": (
        HEADER
        + b'<!DOCTYPE deIdi2b2 [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
        + b"<deIdi2b2><TEXT>&xxe;</TEXT><TAGS/></deIdi2b2>\n",
        "entity",
        1,
    ),
    "external-dtd-entity-reference": (
        HEADER
        + b'<!DOCTYPE deIdi2b2 SYSTEM "file:///etc/passwd">\n<deIdi2b2><TEXT>&xxe;</TEXT><TAGS/></deIdi2b2>\n',
        "entity",
        1,
    ),
}

# Offsets that --realign --write repairs (the tag's text is found nearby).
REPAIRABLE = {"text-mismatch", "beyond-text"}


def _write(tmp_path: Path, data: bytes) -> tuple[Path, bytes, int]:
    path = tmp_path / "150-01.xml"
    path.write_bytes(data)
    os.utime(path, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    return path, data, path.stat().st_mtime_ns


@pytest.mark.parametrize("name", list(BAD))
def test_validate_file_reports_the_problem_class(tmp_path: Path, name: str) -> None:
    data, code, _exit = BAD[name]
    path, _data, _mtime = _write(tmp_path, data)
    problems = validate_file(path, load_schema("i2b2-2014"))
    assert code in {p.code for p in problems}, [p.one_line() for p in problems]
    assert all(SECRET not in p.one_line() for p in problems)


@pytest.mark.parametrize("realign", [False, True])
@pytest.mark.parametrize("name", list(BAD))
def test_cli_prints_one_line_per_problem_and_leaves_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, realign: bool
) -> None:
    data, code, exit_code = BAD[name]
    repaired = realign and name in REPAIRABLE
    exit_code = 0 if repaired else exit_code
    path, original, mtime = _write(tmp_path, data)
    args = ["validate", str(path), "--schema", "i2b2-2014"] + (["--realign", "--write"] if realign else [])
    assert main(args) == exit_code
    out, err = capsys.readouterr()
    lines = out.splitlines()
    problem_lines = [line for line in lines if line.startswith(f"{path}: ")]
    assert problem_lines, out
    if not repaired:
        # the printed lines are the problems' one-line forms, the expected code among them,
        # and a line says "warning:" exactly when its problem is a warning
        problems = validate_file(path, load_schema("i2b2-2014"))
        assert problem_lines == [p.one_line() for p in problems]
        flagged = next(p for p in problems if p.code == code)
        assert flagged.severity == CODES[code][0]
        assert all(
            ("] warning: " in p.one_line() or ": warning: " in p.one_line()) == (p.severity == "warning")
            for p in problems
        )
    assert lines[-1].startswith("1 file(s) checked")
    assert "Traceback" not in out + err and SECRET not in out + err and "root:" not in out + err
    if repaired:
        assert "realigned to" in out and validate_file(path) == []
    else:
        assert path.read_bytes() == original
        assert path.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in tmp_path.iterdir()) == ["150-01.xml"]


def test_clean_file_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _data, _mtime = _write(tmp_path, GOOD)
    assert main(["validate", str(path), "--schema", "i2b2-2014"]) == 0
    assert capsys.readouterr().out.splitlines() == ["1 file(s) checked: 0 error(s), 0 warning(s)"]


def test_bom_is_a_warning_and_the_file_still_reads(tmp_path: Path) -> None:
    path, _data, _mtime = _write(tmp_path, BAD["bom"][0])
    assert [p.severity for p in validate_file(path)] == ["warning"]
    assert len(read_i2b2(path)) == 2


def test_oversize_file_is_refused_before_reading(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.xml"
    with path.open("wb") as handle:  # sparse: no disk space used
        handle.truncate(65 * 1024 * 1024)
    assert [p.code for p in validate_file(path)] == ["too-large"]
    assert main(["validate", str(path)]) == 1
    assert "over the" in capsys.readouterr().out


def test_limit_is_configurable(tmp_path: Path) -> None:
    path, _data, _mtime = _write(tmp_path, GOOD)
    assert [p.code for p in validate_file(path, limit=100)] == ["too-large"]


def test_whitespace_normalised_text_attribute_is_fine(tmp_path: Path) -> None:
    text = "Dr Ora\nHendrickson\tJr seen."
    shown = "Ora Hendrickson Jr"
    start = len("Dr ")
    path, _data, _mtime = _write(
        tmp_path, i2b2([tag("NAME", "P0", start, start + len(shown), shown, "DOCTOR")], text)
    )
    assert validate_file(path) == []


def test_one_file_reports_many_problems(tmp_path: Path) -> None:
    tags = [
        tag("NAME", "P0", -1, 4, "x", "DOCTOR"),
        tag("NAME", "P0", 5, 2, "x", "DOCTOR"),
        tag("DATE", "P2", 0, 999, "x", "DATUM"),
    ]
    path, _data, _mtime = _write(tmp_path, i2b2(tags))
    codes = [p.code for p in validate_file(path, load_schema("i2b2-2014"))]
    assert codes == [
        "negative-offset",
        "duplicate-id",
        "start-after-end",
        "unknown-type",
        "offset-beyond-text",
    ]


def test_problem_line_format(tmp_path: Path) -> None:
    start = NAME_AT + 2
    path, _data, _mtime = _write(
        tmp_path, i2b2([tag("NAME", "P3", start, start + len(SECRET), SECRET, "DOCTOR")])
    )
    (found,) = validate_file(path)
    assert found.one_line().startswith(f"{path}: [tag P3 {start}-{start + len(SECRET)}] text attribute")


def test_validate_document_checks_a_document_in_memory() -> None:
    from annotator.io.i2b2 import parse_i2b2

    document = parse_i2b2(GOOD, "150-01.xml")
    assert validate_document(document, load_schema("i2b2-2014")) == []
    first = document.annotations[0]
    document.replace(first.id, first.replace(start=first.start + 1))
    assert [p.code for p in validate_document(document)] == ["text-mismatch"]


def test_folders_recurse_and_the_summary_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "100-01.xml").write_bytes(GOOD)
    (tmp_path / "a" / "b" / "100-02.xml").write_bytes(BAD["duplicate-id"][0])
    (tmp_path / "a" / "notes.txt").write_text("not xml")
    assert main(["validate", str(tmp_path / "a")]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "2 file(s) checked: 1 error(s), 0 warning(s)"


@pytest.mark.parametrize(
    "args",
    [
        ["validate"],
        ["validate", "/no/such/file.xml"],
        ["validate", "--write", "."],
        ["validate", "--schema", "nope", "."],
    ],
)
def test_usage_errors_exit_two(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        code = main(args)
        raise SystemExit(code)
    assert stopped.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    path, _data, _mtime = _write(tmp_path, BAD["duplicate-id"][0])
    assert main(["validate", str(path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["summary"] == {"files": 1, "errors": 1, "warnings": 0, "files_realigned": 0}
    assert report["files"][0]["problems"][0]["code"] == "duplicate-id"


@pytest.fixture
def local_server() -> Iterator[tuple[str, list[str]]]:
    requests: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # the stdlib names it
            requests.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'<!ENTITY xxe "LEAKED">')

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", requests
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    "template",
    [
        b'<!DOCTYPE deIdi2b2 SYSTEM "{url}/evil.dtd">\n<deIdi2b2><TEXT>&xxe;</TEXT><TAGS/></deIdi2b2>\n',
        b'<!DOCTYPE deIdi2b2 [<!ENTITY xxe SYSTEM "{url}/secret">]>\n<deIdi2b2><TEXT>&xxe;</TEXT><TAGS/></deIdi2b2>\n',
        b'<!DOCTYPE deIdi2b2 [<!ENTITY % p SYSTEM "{url}/p.dtd"> %p;]>\n<deIdi2b2><TEXT>x</TEXT><TAGS/></deIdi2b2>\n',
    ],
)
def test_external_references_never_touch_the_network(
    tmp_path: Path, local_server: tuple[str, list[str]], template: bytes
) -> None:
    url, requests = local_server
    path, _data, _mtime = _write(tmp_path, HEADER + template.replace(b"{url}", url.encode()))
    problems = validate_file(path)
    assert [p.code for p in problems] == ["entity"]
    assert requests == []
    assert "LEAKED" not in problems[0].one_line()


def test_every_problem_code_is_documented() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "formats.md").read_text(encoding="utf-8")
    for code, (severity, _meaning) in CODES.items():
        assert f"| `{code}` | {severity} |" in docs, code


@pytest.mark.parametrize(
    "text",
    [
        f"Patient <{SECRET} is here",
        f"Patient &{SECRET}; is here",
        f"Patient </{SECRET}> is here",
        f"Patient <{SECRET} Jones> is here",
        f'Patient <{SECRET} Jones="1" Jones="2"/> is here',
        f"Patient <!-- {SECRET} -- Jones --> is here",
        f"Patient <{SECRET}:x>Jones</{SECRET}:x> is here",
        f"Patient {SECRET}\x01 Jones",
        f"Patient <![CDATA[{SECRET} Jones",
    ],
)
def test_parser_messages_never_quote_the_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    # A plain-text TEXT (no CDATA) with a stray "<" or "&": libxml2 would name what follows.
    path, _data, _mtime = _write(tmp_path, i2b2(body=f"<TEXT>{text}</TEXT>\n<TAGS></TAGS>"))
    assert main(["validate", str(path)]) == 1
    out, err = capsys.readouterr()
    assert SECRET not in out + err and "Jones" not in out + err
    assert out.startswith(f"{path}: ")


def test_schema_from_a_mae_dtd(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dtd = Path(__file__).resolve().parents[1] / "data" / "mae" / "PHI.dtd"
    path, _data, _mtime = _write(tmp_path, GOOD)
    assert main(["validate", str(path), "--schema", str(dtd)]) == 0
    capsys.readouterr()
    path.write_bytes(i2b2([NAME_TAG.replace('"DOCTOR"', '"SURGEON"')]))
    assert main(["validate", str(path), "--schema", str(dtd)]) == 1
    assert "TYPE SURGEON is not in schema PHI" in capsys.readouterr().out


def test_unreadable_paths(tmp_path: Path) -> None:
    assert [p.code for p in validate_file(tmp_path)] == ["unreadable"]
    (missing,) = validate_file(tmp_path / "gone.xml")
    assert (missing.code, missing.one_line()) == ("unreadable", f"{tmp_path / 'gone.xml'}: no such file")


def test_a_mae_link_to_a_missing_tag_is_named_and_an_unset_argument_is_not(tmp_path: Path) -> None:
    text = "Seen by Dr. Smith on 2019-03-04."
    tags = (
        '<NAME id="N0" spans="12~17" text="Smith" TYPE="DOCTOR" />'
        '<DATE id="D0" spans="21~31" text="2019-03-04" TYPE="DATE" />'
        '<SEENON id="L0" fromID="N0" fromText="Smith" toID="X9" toText="2019-03-04" />'
        '<SEENON id="L1" fromID="N0" fromText="Smith" toID="" toText="" />'
        '<SEENON id="L2" fromID="N0" fromText="Smith" toID="D0" toText="2019-03-04" />'
    )
    path = tmp_path / "note.xml"
    path.write_text(f"<PHI><TEXT><![CDATA[{text}]]></TEXT><TAGS>{tags}</TAGS></PHI>", encoding="utf-8")
    problems = validate_file(path)
    assert [(p.code, p.tag_id) for p in problems] == [("dangling-link", "L0")]
    assert "X9" in problems[0].one_line() and problems[0].severity == "warning"
