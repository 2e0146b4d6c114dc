"""``annotator train --with-synthetic``: a small gold learnt beside the bundled model's synthetic notes."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.crf.guidelines import I2B2_2014, SAFE_HARBOR
from annotator.errors import UsageError
from annotator.io.i2b2 import write_i2b2
from annotator.workflows.default_model import synthetic_training_notes
from annotator.workflows.train import TrainRequest, TrainResult, train

SCALE = 0.01  # two patients of each synthetic style
# A Safe Harbor gold, as the PhysioNet corpus is tagged: the clinician and the place, not the
# young age nor the weekday.
NOTE = "58 yo man seen on Monday by Dr Zabrowski at Quellmont. Back to Dr Zabrowski at Quellmont.\n"
TAGGED = (("DOCTOR", "NAME", "Zabrowski"), ("HOSPITAL", "LOCATION", "Quellmont"))


def _gold(folder: Path) -> Path:
    folder.mkdir()
    for patient in ("201", "202", "203", "204"):
        for record in ("01", "02"):
            document = Document(f"{patient}-{record}", NOTE)
            position = 0
            for index, (kind, tag, word) in enumerate(TAGGED * 2):
                start = NOTE.index(word, position)
                position = start + len(word)
                document.add(Annotation(f"P{index}", tag, kind, start, position, word))
            write_i2b2(document, folder / f"{document.doc_id}.xml")
    return folder


def _train(tmp_path: Path, name: str, **options: object) -> TrainResult:
    gold = tmp_path / "gold" if (tmp_path / "gold").exists() else _gold(tmp_path / "gold")
    request = TrainRequest(gold, tmp_path / name, synthetic_scale=SCALE, iterations=20, **options)  # type: ignore[arg-type]
    return train(request)


def test_the_synthetic_notes_are_learnt_beside_the_gold_and_a_safe_harbor_gold_is_fitted(
    tmp_path: Path,
) -> None:
    synthetic = synthetic_training_notes(SCALE)
    synthetic_tags = sum(len(d.annotations) for d in synthetic)
    alone = _train(tmp_path, "alone.model")
    assert alone.synthetic_documents == 0 and alone.metadata.annotations == 8 * 4

    as_i2b2 = _train(tmp_path, "i2b2.model", with_synthetic=True, guideline=I2B2_2014)
    assert as_i2b2.documents == 8 and as_i2b2.synthetic_documents == len(synthetic)
    assert as_i2b2.metadata.documents == 8 + len(synthetic)
    assert as_i2b2.metadata.annotations == synthetic_tags + 8 * 4
    assert as_i2b2.to_dict()["synthetic_documents"] == len(synthetic)

    # Learnt as our guidelines tag it: the young age and the weekday of each note too.
    as_safe_harbor = _train(tmp_path, "sh.model", with_synthetic=True, guideline=SAFE_HARBOR)
    assert as_safe_harbor.metadata.annotations == synthetic_tags + 8 * (4 + 2)


def test_the_memory_names_the_gold_s_clinicians_never_the_synthetic_notes(tmp_path: Path) -> None:
    result = _train(tmp_path, "private.model", with_synthetic=True, keep_private_features=True)
    assert result.memory.phrases.get("zabrowski") == "DOCTOR"
    synthetic_names = {
        d.text[a.start : a.end].lower()
        for d in synthetic_training_notes(SCALE)
        for a in d.annotations
        if a.type in {"DOCTOR", "PATIENT", "HOSPITAL"}
    }
    assert synthetic_names and not synthetic_names & set(result.memory.phrases)


def test_cross_validation_learns_the_synthetic_notes_and_suggests_what_the_guideline_tags(
    tmp_path: Path,
) -> None:
    def weekdays_suggested(guideline: str) -> int:
        cv = _train(tmp_path, f"cv-{guideline}.model", with_synthetic=True, guideline=guideline, cv_folds=2)
        assert cv.cross_validation is not None
        per_type = cv.cross_validation.to_dict()["per_type"]
        assert per_type["NAME/DOCTOR"]["tp"] == 16  # each fold learnt the gold's clinician from the other
        return int(per_type.get("DATE/DATE", {"fp": 0})["fp"])

    # Fitted, every fold's model learnt "Monday" as a date; only the i2b2 guideline suggests it.
    assert weekdays_suggested(I2B2_2014) == 8
    assert weekdays_suggested(SAFE_HARBOR) == 0


def test_another_schema_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--with-synthetic needs the i2b2-2014 schema"):
        _train(tmp_path, "m.model", with_synthetic=True, schema="i2b2-2006")
    with pytest.raises(UsageError, match="unknown guideline"):
        _train(tmp_path, "m.model", guideline="hipaa")
    assert not (tmp_path / "m.model").exists()


def test_the_command_line_refuses_it_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = _gold(tmp_path / "gold")
    code = main(
        ["train", str(gold), "-o", str(tmp_path / "m.model"), "--with-synthetic", "--schema", "i2b2-2006"]
    )
    err = capsys.readouterr().err
    assert code != 0 and len(err.strip().splitlines()) == 1 and "--with-synthetic needs" in err
    assert not (tmp_path / "m.model").exists()


@pytest.mark.slow
def test_the_command_line_learns_every_synthetic_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = _gold(tmp_path / "gold")
    model = tmp_path / "m.model"
    options = ["--with-synthetic", "--guideline", "safe-harbor", "--iterations", "1"]
    assert main(["train", str(gold), "-o", str(model), *options]) == 0
    out = capsys.readouterr().out
    assert f"trained on 8 gold documents and {len(synthetic_training_notes())} synthetic notes" in out
    assert model.is_file()
