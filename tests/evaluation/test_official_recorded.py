"""`annotator evaluate --mode i2b2` against recorded outputs of the official i2b2 2014 script.

tests/data/official_scorer/ holds what the official script printed on our own synthetic
corpora (see its README for the commands); each corpus is regenerated here from its seed
and our output must be the same bytes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.cli.main import main
from tests.evaluation.random_corpus import write_random_corpus

RECORDED = Path(__file__).resolve().parents[1] / "data" / "official_scorer"


def synth(out: Path, patients: int, seed: int) -> Path:
    assert main(["synth", str(out), "--patients", str(patients), "--seed", str(seed)]) == 0
    return out


def corpus(tmp_path: Path, name: str) -> Path:
    if name == "random-60-seed-7":
        write_random_corpus(tmp_path / name, documents=60, seed=7)
        return tmp_path / name
    _, patients, seed = name.split("-")
    return synth(tmp_path / name, int(patients[1:]), int(seed[1:]))


@pytest.mark.parametrize(
    ("name", "system"),
    [
        ("random-60-seed-7", "system"),
        ("synth-p4-s1", "annotator_a"),
        ("synth-p4-s1", "preannotated"),
        ("synth-p3-s2", "annotator_b"),
    ],
)
def test_i2b2_mode_prints_what_the_official_script_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, system: str
) -> None:
    root = corpus(tmp_path, name)
    capsys.readouterr()
    assert (
        main(["evaluate", "--mode", "i2b2", "--gold", str(root / "gold"), "--system", str(root / system)])
        == 0
    )
    ours = capsys.readouterr().out
    expected = (RECORDED / f"{name}.{system}.txt").read_text(encoding="utf-8")
    assert ours.encode("utf-8") == expected.encode("utf-8")
