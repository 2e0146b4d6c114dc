"""``annotator stats``: tables, --json, --by-type, one-line errors for bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.io.i2b2 import write_i2b2


def _write_sample(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = "Dr. Kai Yamamoto saw her on 5/3/67."
    prefix = "Dr. "
    date_prefix = "Dr. Kai Yamamoto saw her on "
    document = Document(
        "100-01",
        text,
        [
            Annotation(
                "P0", "NAME", "DOCTOR", len(prefix), len(prefix) + len("Kai Yamamoto"), "Kai Yamamoto"
            ),
            Annotation("P1", "DATE", "DATE", len(date_prefix), len(date_prefix) + len("5/3/67"), "5/3/67"),
        ],
    )
    write_i2b2(document, folder / "100-01.xml")
    write_i2b2(Document("101-01", "Nothing to see."), folder / "101-01.xml")
    return folder


def test_stats_json_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _write_sample(tmp_path / "notes")
    assert main(["stats", str(folder), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["documents"] == 2
    assert stats["patients"] == 2
    assert stats["annotations"] == 2
    assert stats["tokens"] == 7 + 3
    assert stats["phi_tokens"] == 3
    assert stats["by_type"]["DOCTOR"] == 1 and stats["by_type"]["DATE"] == 1
    assert stats["by_category"]["NAME"] == 1


def test_stats_table_by_type(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _write_sample(tmp_path / "notes")
    assert main(["stats", str(folder / "100-01.xml"), "--by-type"]) == 0
    out = capsys.readouterr().out
    assert "documents" in out and "DOCTOR" in out and "HOSPITAL" in out
    assert main(["stats", str(folder)]) == 0
    assert "DOCTOR" not in capsys.readouterr().out


def test_stats_counts_a_file_named_twice_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _write_sample(tmp_path / "notes")
    assert main(["stats", str(folder), str(folder / "100-01.xml"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["documents"] == 2


@pytest.mark.parametrize(
    "content",
    [b"<deIdi2b2><TEXT>unterminated", b"", b"\x00\x01\x02binary", b"<other/>"],
    ids=["truncated", "empty", "binary", "no-text"],
)
def test_stats_bad_file_one_line_error(
    tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _write_sample(tmp_path / "notes")
    bad = folder / "102-01.xml"
    bad.write_bytes(content)
    assert main(["stats", str(folder)]) == 1
    error = capsys.readouterr().err
    assert "102-01.xml" in error
    assert "Traceback" not in error
    assert len(error.strip().splitlines()) == 1


def test_stats_missing_path_is_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["stats", str(tmp_path / "absent")])
    assert exit_info.value.code == 2


def test_stats_folder_without_xml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", str(tmp_path)]) == 1
    assert (
        "no .xml documents directly in this folder (sub-folders are not searched)" in capsys.readouterr().err
    )


def test_stats_on_synthetic_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["synth", str(tmp_path / "c"), "--patients", "2", "--seed", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert main(["stats", str(tmp_path / "c" / "gold"), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats == summary["gold"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_full_standard_output_is_one_line_not_an_internal_error(
    tmp_path: Path, json_flag: list[str]
) -> None:
    import subprocess
    import sys

    folder = _write_sample(tmp_path / "notes")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "annotator", "stats", str(folder), *json_flag],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert done.returncode == 1
    assert done.stderr == "annotator stats: error: cannot write the output: No space left on device\n"


def test_a_missing_path_with_a_line_break_is_still_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["stats", str(tmp_path / "no\nsuch")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no\\nsuch: no such file or folder" in err


def test_a_link_to_nothing_is_named_as_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(SystemExit):
        main(["stats", str(loop)])
    assert "a symbolic link to nothing (its target is missing, or it loops)" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["stats"], ["validate"], ["convert", "--to", "brat"]])
@pytest.mark.parametrize("kind", ["dead link", "pipe"])
def test_a_note_file_that_is_no_file_is_named_not_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], kind: str
) -> None:
    import os

    folder = _write_sample(tmp_path / "notes")
    odd = folder / "102-01.xml"
    if kind == "pipe":
        os.mkfifo(odd)  # opened, it would wait for a writer forever
    else:
        odd.symlink_to(tmp_path / "moved-away.xml")
    argv = [command[0], str(folder), *command[1:]]
    if command[0] == "convert":
        argv += ["-o", str(tmp_path / "out")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "102-01.xml: is a " in err and "not a file" in err
    assert not (tmp_path / "out").exists()


def test_a_brat_folder_is_named_as_one_with_the_command_that_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.txt").write_text("Seen by Dr. Smith.\n", encoding="utf-8")
    (tmp_path / "a.ann").write_text("T1\tDOCTOR 12 17\tSmith\n", encoding="utf-8")
    for command in (["stats", str(tmp_path)], ["validate", str(tmp_path)]):
        assert main(command) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "brat files (.ann)" in err and "convert --from brat" in err
