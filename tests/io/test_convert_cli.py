"""``annotator convert``: every format, input never overwritten, bad input writes nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.io.formats import read_documents

DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    shutil.copytree(DATA / "i2b2", folder)
    return folder


@pytest.mark.parametrize("target", ["i2b2", "mae", "brat", "jsonl", "inline2006", "conll"])
def test_convert_folder_to_each_format(
    corpus: Path, tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    # CoNLL holds BIO labels only: the test files' extra attributes must be let go; only the
    # XML formats have a place for 120-01's <META>.
    drop = []
    if target not in ("i2b2", "mae"):
        assert main(["convert", str(corpus), str(out), "--to", target]) == 1
        assert f"{target} cannot hold " in capsys.readouterr().err
        drop = ["--drop", "attributes,elements" if target == "conll" else "elements"]
    assert main(["convert", str(corpus), str(out), "--to", target, *drop]) == 0
    assert "2 document(s) converted" in capsys.readouterr().out
    if target != "conll":
        again = read_documents(out, target)
        assert sorted(d.doc_id for d in again) == ["110-01", "120-01"]
    else:
        assert (out / "documents.conll").read_text().count("-DOCSTART-") == 2


def test_convert_back_to_i2b2_gives_the_same_tags(corpus: Path, tmp_path: Path) -> None:
    assert main(["convert", str(corpus), str(tmp_path / "brat"), "--to", "brat", "--drop", "elements"]) == 0
    assert main(["convert", str(tmp_path / "brat"), str(tmp_path / "back"), "--to", "i2b2"]) == 0
    before = {d.doc_id: [a.key for a in d.sorted_annotations()] for d in read_documents(corpus)}
    after = {d.doc_id: [a.key for a in d.sorted_annotations()] for d in read_documents(tmp_path / "back")}
    assert after == before


def test_convert_never_overwrites_the_input(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = {p.name: p.read_bytes() for p in corpus.iterdir()}
    assert main(["convert", str(corpus), str(corpus), "--to", "i2b2", "--force"]) == 2
    assert "would overwrite an input file" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in corpus.iterdir()} == before


def test_existing_output_needs_force(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["convert", str(corpus), str(out), "--to", "i2b2"]) == 0
    assert main(["convert", str(corpus), str(out), "--to", "i2b2"]) == 2
    assert main(["convert", str(corpus), str(out), "--to", "i2b2", "--force"]) == 0


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],
        lambda data: data.replace(b'id="P2"', b'id="P1"'),
        lambda data: data.replace(b'start="13"', b'start="14"'),
        lambda data: b"",
    ],
)
def test_a_bad_input_file_writes_nothing(
    corpus: Path, tmp_path: Path, damage: object, capsys: pytest.CaptureFixture[str]
) -> None:
    path = corpus / "110-01.xml"
    path.write_bytes(damage(path.read_bytes()))  # type: ignore[operator]
    out = tmp_path / "out"
    assert main(["convert", str(corpus), str(out), "--to", "brat"]) == 1
    _out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1 and "110-01.xml" in err and "Traceback" not in err
    assert "Hendrickson" not in err
    assert not out.exists()


def test_export_only_format_cannot_be_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "x.conll"
    source.write_text("-DOCSTART- a\n")
    assert main(["convert", str(source), str(tmp_path / "o"), "--to", "i2b2"]) == 2
    assert "export-only" in capsys.readouterr().err
