"""``annotator train`` and ``annotator preannotate``: outputs, exit codes, inputs untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.annotation import Source
from annotator.core.document import Document
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.synth.generator import generate_corpus


@pytest.fixture(scope="module")
def gold_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("gold")
    for document in generate_corpus(patients=3, seed=5).gold:
        write_i2b2(document, folder / f"{document.doc_id}.xml")
    return folder


@pytest.fixture(scope="module")
def model(gold_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("model") / "tagger.model"
    assert main(["train", str(gold_dir), "-o", str(path), "--iterations", "15"]) == 0
    return path


def test_train_json_reports_metadata(
    gold_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.model"
    assert main(["train", str(gold_dir), "-o", str(path), "--iterations", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert "cross_validation" not in report
    assert report["metadata"]["documents"] == len(list(gold_dir.glob("*.xml")))
    assert report["metadata"]["feature_version"] >= 1 and "O" in report["metadata"]["labels"]
    assert path.is_file()


def test_train_with_cross_validation_prints_tables(
    gold_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["train", str(gold_dir), "-o", str(tmp_path / "t.model"), "--cv", "2", "--iterations", "5"]) == 0
    )
    captured = capsys.readouterr()
    printed = captured.out
    assert "2-fold cross-validation by patient" in printed
    assert "micro" in printed and "DATE/DATE" in printed
    assert "recall bias" in printed and "0.99" in printed
    assert "model written to" in captured.err


def test_preannotate_folder_keeps_human_annotations(
    model: Path, gold_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in"
    source.mkdir()
    originals = {}
    for path in sorted(gold_dir.glob("*.xml"))[:3]:
        gold = read_i2b2(path)
        # Keep one human annotation per note; the model must leave it exactly as it is.
        kept = gold.annotations[:1]
        write_i2b2(Document(gold.doc_id, gold.text, kept), source / path.name)
        originals[path.name] = ((source / path.name).read_bytes(), kept)
    unbiased_out = tmp_path / "unbiased"
    assert main(["preannotate", str(model), str(source), "-o", str(unbiased_out), "--json"]) == 0
    unbiased = json.loads(capsys.readouterr().out)
    out = tmp_path / "out"
    assert (
        main(["preannotate", str(model), str(source), "-o", str(out), "--recall-bias", "0.9", "--json"]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    # the bias reaches the CLI's prediction path: it changes what is suggested
    assert report["documents"] == unbiased["documents"] == 3
    biased_text = sum(a.end - a.start for p in out.glob("*.xml") for a in read_i2b2(p).annotations)
    plain_text = sum(a.end - a.start for p in unbiased_out.glob("*.xml") for a in read_i2b2(p).annotations)
    assert biased_text > plain_text
    for name, (raw, kept) in originals.items():
        assert (source / name).read_bytes() == raw
        document = read_i2b2(out / name)
        assert document.annotations[: len(kept)] == [a for a in kept]
        for suggestion in document.annotations[len(kept) :]:
            assert (
                suggestion.source is Source.MODEL and suggestion.pending and suggestion.confidence is not None
            )
            assert not any(suggestion.overlaps(h) for h in kept)


def test_preannotate_single_file_into_folder(model: Path, gold_dir: Path, tmp_path: Path) -> None:
    source = sorted(gold_dir.glob("*.xml"))[0]
    out = tmp_path / "out"
    out.mkdir()
    assert main(["preannotate", str(model), str(source), "-o", str(out)]) == 0
    assert (out / source.name).is_file()


def test_preannotate_refuses_to_overwrite_its_input(
    model: Path, gold_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = sorted(gold_dir.glob("*.xml"))[0]
    before = source.read_bytes()
    assert main(["preannotate", str(model), str(source), "-o", str(source)]) == 2
    assert main(["preannotate", str(model), str(gold_dir), "-o", str(gold_dir)]) == 2
    assert source.read_bytes() == before
    assert "never overwrites" in capsys.readouterr().err


def test_preannotate_refuses_two_files_of_one_document_id(
    model: Path, gold_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 100-01.xml and 100-01.XML are both the document 100-01: the suggestions found in one
    # were written into the other, at offsets that hold other words.
    first, second = sorted(gold_dir.glob("*.xml"))[:2]
    source = tmp_path / "in"
    source.mkdir()
    (source / first.name).write_bytes(first.read_bytes())
    (source / first.name.replace(".xml", ".XML")).write_bytes(second.read_bytes())
    assert main(["preannotate", str(model), str(source), "-o", str(tmp_path / "out")]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "Traceback" not in error
    assert first.name in error and first.name.replace(".xml", ".XML") in error
    assert not (tmp_path / "out").exists()


def test_preannotate_with_corrupt_model_exits_1(
    gold_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"nonsense")
    assert main(["preannotate", str(bad), str(gold_dir), "-o", str(tmp_path / "out")]) == 1
    error = capsys.readouterr().err
    assert str(bad) in error and "Traceback" not in error
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "arguments",
    [
        ["train", "{gold}", "-o", "{tmp}/m.model", "--cv", "1"],
        ["train", "{tmp}/absent", "-o", "{tmp}/m.model"],
        ["train", "{gold}"],
        ["preannotate", "{model}", "{gold}", "-o", "{tmp}/o", "--recall-bias", "1.5"],
    ],
)
def test_usage_errors_exit_2(arguments: list[str], gold_dir: Path, model: Path, tmp_path: Path) -> None:
    filled = [a.format(gold=gold_dir, tmp=tmp_path, model=model) for a in arguments]
    with pytest.raises(SystemExit) as raised:
        code = main(filled)
        raise SystemExit(code)
    assert raised.value.code == 2


def test_train_on_empty_folder_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    # Bad input (exit 1), with the message every command gives for a folder without documents.
    assert main(["train", str(empty), "-o", str(tmp_path / "m.model")]) == 1
    assert "no .xml documents directly in this folder" in capsys.readouterr().err


def test_train_another_schema_through_a_mapping(
    gold_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "2006.model"
    arguments = [
        "train",
        str(gold_dir),
        "-o",
        str(path),
        "--schema",
        "i2b2-2006",
        "--mapping",
        "i2b2-2014-to-i2b2-2006",
    ]
    assert main([*arguments, "--iterations", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["metadata"]["schema"] == "i2b2-2006"
    assert (
        "B-DOCTOR" in report["metadata"]["labels"] and "B-MEDICALRECORD" not in report["metadata"]["labels"]
    )


def test_preannotate_suggests_the_sites_listed_names(
    model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in"
    source.mkdir()
    text = "micu npn: pt seen by zzkondouli and zzkondouli's team; transferred from Qqharbor Clinic.\n"
    write_i2b2(Document("073-01", text, []), source / "073-01.xml")
    lists = tmp_path / "site-lists.tsv"
    lists.write_text("DOCTOR\tzzkondouli\nHOSPITAL\tQqharbor Clinic\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["preannotate", str(model), str(source), "-o", str(out), "--site-lists", str(lists)]) == 0
    assert "site lists: 2 phrases" in capsys.readouterr().out
    suggested = {(a.type, a.text) for a in read_i2b2(out / "073-01.xml").annotations}
    assert {("DOCTOR", "zzkondouli"), ("HOSPITAL", "Qqharbor Clinic")} <= suggested


def test_preannotate_refuses_a_bad_site_list_before_writing(
    model: Path, gold_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lists = tmp_path / "site-lists.tsv"
    lists.write_text("DOCTOR\tzzkondouli\nSURGEON\tzzmarek\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["preannotate", str(model), str(gold_dir), "-o", str(out), "--site-lists", str(lists)]) == 1
    error = capsys.readouterr().err
    assert "site-lists.tsv" in error and "line 2" in error and "Traceback" not in error
    # The list's phrases are PHI: the message names the line, not what it holds.
    assert "zzmarek" not in error
    assert not out.exists()
