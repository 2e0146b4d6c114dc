"""Hostile adjudication inputs: one folder given twice, gold written around the inputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.adjudication.corpus import prepare_corpus
from annotator.cli.main import main
from annotator.errors import UsageError
from tests.adjudication.helpers import NOTE, version, write_versions


def _folders(tmp_path: Path) -> list[Path]:
    return write_versions(
        tmp_path / "adj",
        {
            "a": [version("100-01", NOTE, ("John Smith", "NAME", "DOCTOR"), ("Boston", "LOCATION", "CITY"))],
            "b": [version("100-01", NOTE, ("John Smith", "NAME", "DOCTOR"))],
        },
    )


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_same_folder_twice_is_refused_whatever_its_spelling(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _folders(tmp_path)
    link = tmp_path / "alias"
    link.symlink_to(a)
    gold = tmp_path / "gold"
    for second in (f"{a}/", str(tmp_path / "adj" / "." / "a"), str(link)):
        err = _refused(["adjudicate", str(a), second, "-o", str(gold)], capsys)
        assert "the same annotator folder is given twice" in err
    assert not gold.exists()  # no fake unanimous agreements reach the gold standard
    # Two distinct folders still adjudicate.
    assert main(["adjudicate", str(a), str(b), "-o", str(gold)]) == 0
    capsys.readouterr()
    assert (gold / "100-01.xml").exists()


def test_the_shared_preparation_refuses_it_too(tmp_path: Path) -> None:
    # gui --adjudicate prepares its corpus with this function.
    a, _ = _folders(tmp_path)
    with pytest.raises(UsageError, match="given twice"):
        prepare_corpus([a, Path(f"{a}/.")], tmp_path / "gold")


def test_gold_around_the_annotator_folders_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _folders(tmp_path)
    err = _refused(["adjudicate", str(a), str(b), "-o", str(tmp_path / "adj")], capsys)
    assert "refusing to write the gold folder into (or around)" in err
    err = _refused(["adjudicate", str(a), str(b), "-o", str(tmp_path)], capsys)
    assert "(or around)" in err
    assert sorted(p.name for p in (tmp_path / "adj").iterdir()) == ["a", "b"]
