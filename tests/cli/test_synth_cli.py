"""``annotator synth``: writes the four folders, --json, refuses a non-empty folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.io.i2b2 import read_i2b2


def test_synth_writes_four_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "corpus"
    assert main(["synth", str(out), "--patients", "3", "--seed", "2"]) == 0
    names = {
        folder: sorted(p.name for p in (out / folder).glob("*.xml"))
        for folder in ("gold", "annotator_a", "annotator_b", "preannotated")
    }
    assert names["gold"] and all(files == names["gold"] for files in names.values())
    assert all(name[:3].isdigit() and name[3] == "-" for name in names["gold"])
    document = read_i2b2(out / "gold" / names["gold"][0])
    assert len(document) > 0
    printed = capsys.readouterr().out
    assert f"Wrote {len(names['gold'])} documents of 3 patients" in printed


def test_synth_json_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "corpus"
    assert main(["synth", str(out), "--patients", "2", "--seed", "9", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["patients"] == 2
    assert result["documents"] == len(list((out / "gold").glob("*.xml")))
    assert result["annotations"]["gold"] == result["gold"]["annotations"] > 0
    assert set(result["annotations"]) == {"gold", "annotator_a", "annotator_b", "preannotated"}


def test_synth_same_seed_same_bytes(tmp_path: Path) -> None:
    assert main(["synth", str(tmp_path / "a"), "--patients", "2", "--seed", "4"]) == 0
    assert main(["synth", str(tmp_path / "b"), "--patients", "2", "--seed", "4"]) == 0
    for file in sorted((tmp_path / "a").rglob("*.xml")):
        assert file.read_bytes() == (tmp_path / "b" / file.relative_to(tmp_path / "a")).read_bytes()


def test_synth_refuses_non_empty_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    assert main(["synth", str(tmp_path), "--patients", "1"]) == 2
    error = capsys.readouterr().err
    assert "not empty" in error and "Traceback" not in error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]
    # --force replaces an earlier corpus only: a folder of someone's own files is refused.
    assert main(["synth", str(tmp_path), "--patients", "1", "--force"]) == 2
    assert "keep.txt" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def test_synth_force_replaces_an_earlier_corpus_whole(tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    assert main(["synth", str(out), "--patients", "15", "--seed", "3"]) == 0
    assert main(["synth", str(out), "--patients", "2", "--seed", "9", "--force"]) == 0
    # Written into, the old corpus's other patients stayed beside the new ones (patient 101
    # two people); replaced whole, the folder is the seed's corpus and nothing else.
    assert main(["synth", str(tmp_path / "fresh"), "--patients", "2", "--seed", "9"]) == 0
    for folder in ("gold", "source", "annotator_a"):
        assert sorted(p.name for p in (out / folder).iterdir()) == sorted(
            p.name for p in (tmp_path / "fresh" / folder).iterdir()
        )


@pytest.mark.parametrize("patients", ["0", "-1", "901"])
def test_synth_rejects_bad_patient_counts(
    tmp_path: Path, patients: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["synth", str(tmp_path / "x"), "--patients", patients]) == 2
    assert "--patients" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_synth_usage_error_on_bad_number(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["synth", str(tmp_path / "x"), "--patients", "many"])
    assert exit_info.value.code == 2


def test_synth_refuses_a_file_as_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file.txt"
    target.write_text("x", encoding="utf-8")
    assert main(["synth", str(target), "--patients", "1"]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "x"


def test_synth_style_b_writes_the_same_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["synth", str(tmp_path / "b"), "--patients", "2", "--seed", "4", "--style", "b", "--json"]) == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["style"] == "b"
    assert main(["synth", str(tmp_path / "a"), "--patients", "2", "--seed", "4"]) == 0
    for folder in ("gold", "annotator_a", "annotator_b", "preannotated"):
        assert len(list((tmp_path / "b" / folder).glob("*.xml"))) == result["documents"]
    first_b = read_i2b2(next((tmp_path / "b" / "gold").glob("*.xml")))
    first_a = read_i2b2(tmp_path / "a" / "gold" / f"{first_b.doc_id}.xml")
    assert len(first_b) > 0
    assert first_b.text != first_a.text
