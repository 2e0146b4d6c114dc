"""Cross-validation's trainings side by side on several processes: the same figures and model."""

from __future__ import annotations

import os
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.document import Document
from annotator.crf import parallel
from annotator.crf.tagger import TrainingCancelled
from annotator.errors import UsageError
from annotator.io.i2b2 import write_i2b2
from annotator.synth.generator import generate_corpus
from annotator.workflows import train as train_workflow
from annotator.workflows.train import TrainRequest, train


@pytest.fixture(scope="module")
def gold(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("gold")
    for document in generate_corpus(patients=4, seed=3).gold:
        write_i2b2(document, folder / f"{document.doc_id}.xml")
    return folder


def _crf_bytes(model: Path) -> bytes:
    with zipfile.ZipFile(model) as archive:
        return archive.read("model.crfsuite")


def test_folds_trained_side_by_side_give_the_figures_and_model_of_one_process(
    gold: Path, tmp_path: Path
) -> None:
    results = {}
    told: dict[int, list[tuple[int, int]]] = {1: [], 2: []}
    for workers in (1, 2):
        request = TrainRequest(gold, tmp_path / f"{workers}.model", iterations=5, cv_folds=2, workers=workers)
        results[workers] = train(request, progress=_recorder(told[workers]))
    one, two = results[1], results[2]
    assert one.cross_validation is not None and two.cross_validation is not None
    assert one.cross_validation.to_dict() == two.cross_validation.to_dict()
    assert one.cross_validation.micro.tp > 0
    assert _crf_bytes(tmp_path / "1.model") == _crf_bytes(tmp_path / "2.model")
    assert one.metadata.annotations == two.metadata.annotations
    done = [d for d, _ in told[2]]
    assert done == sorted(done) and told[2][-1][0] == told[2][-1][1]


def _recorder(calls: list[tuple[int, int]]) -> Callable[[int, int], None]:
    return lambda done, total: calls.append((done, total))


def test_a_cancel_stops_every_training_and_writes_no_model(gold: Path, tmp_path: Path) -> None:
    asked = 0

    def cancelled() -> bool:
        nonlocal asked
        asked += 1
        return asked > 3

    with pytest.raises(TrainingCancelled):
        train(TrainRequest(gold, tmp_path / "m.model", cv_folds=2, workers=2), cancelled=cancelled)
    assert not (tmp_path / "m.model").exists()


def test_a_fold_without_phi_is_named_from_its_worker(tmp_path: Path) -> None:
    folder = tmp_path / "gold"
    folder.mkdir()
    tagged = generate_corpus(patients=1, seed=4).gold[0]
    write_i2b2(tagged, folder / "100-01.xml")
    write_i2b2(Document("101-01", "Nothing to see here."), folder / "101-01.xml")
    with pytest.raises(UsageError, match=r"cross-validation fold \d of 2"):
        train(TrainRequest(folder, tmp_path / "m.model", cv_folds=2, workers=2, iterations=2))


def test_the_command_takes_workers(gold: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.model"
    assert (
        main(["train", str(gold), "-o", str(model), "--cv", "2", "--iterations", "3", "--workers", "2"]) == 0
    )
    assert model.is_file() and "micro" in capsys.readouterr().out.lower()
    with pytest.raises(SystemExit):
        main(["train", str(gold), "-o", str(model), "--workers", "none"])


def test_trainings_side_by_side_are_as_many_as_cores_and_free_memory_allow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(parallel, "_auto_allowed", False)
    assert train_workflow.default_training_workers(1_000) == 1  # a script that did not allow more
    monkeypatch.setattr(parallel, "_auto_allowed", True)
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    monkeypatch.setattr(train_workflow, "available_memory", lambda: 16 * 10**9)
    assert train_workflow.default_training_workers(1_000_000) == 4  # at most four
    # 2 billion characters: about 320 GB of features per training, more than is free.
    assert train_workflow.default_training_workers(2_000_000_000) == 1
    monkeypatch.setattr(train_workflow, "available_memory", lambda: 2 * 10**9)
    assert train_workflow.default_training_workers(10_000_000) == 1  # about 1.9 GB each
    monkeypatch.setattr(train_workflow, "available_memory", lambda: None)
    assert train_workflow.default_training_workers(10_000_000) == 4


def test_free_memory_is_read_where_the_system_says() -> None:
    free = train_workflow.available_memory()
    assert free is None or free > 0
