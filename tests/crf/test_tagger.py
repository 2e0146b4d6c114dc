"""Training and prediction with real crfsuite; model files, metadata and their errors."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from annotator.core.annotation import Source
from annotator.core.document import Document
from annotator.crf.features import FEATURE_VERSION
from annotator.crf.tagger import CrfTagger, ModelMetadata, TrainingCancelled, training_hash
from annotator.errors import ModelError, UsageError


def test_tagger_finds_most_gold_phi_in_a_held_out_patient(
    trained_tagger: CrfTagger, held_out: list[Document]
) -> None:
    predicted = trained_tagger.predict_corpus(held_out)
    gold = {(d.doc_id, a.type, a.start, a.end) for d in held_out for a in d.annotations}
    found = {
        (doc_id, a.type, a.start, a.end) for doc_id, annotations in predicted.items() for a in annotations
    }
    assert len(gold & found) / len(gold) > 0.6
    assert len(gold & found) / len(found) > 0.6


def test_predictions_are_pending_model_annotations_with_confidence(
    trained_tagger: CrfTagger, held_out: list[Document]
) -> None:
    document = held_out[0]
    annotations = trained_tagger.predict(document)
    assert annotations
    for annotation in annotations:
        assert annotation.source is Source.MODEL and annotation.pending
        assert annotation.confidence is not None and 0.0 < annotation.confidence <= 1.0
        assert annotation.text == document.text[annotation.start : annotation.end]
        assert annotation.id not in document
    assert len({a.id for a in annotations}) == len(annotations)


def test_recall_grows_with_the_recall_bias_threshold(
    trained_tagger: CrfTagger, held_out: list[Document]
) -> None:
    trained_tagger.postprocess = False
    try:
        scored = [trained_tagger.score(d) for d in held_out]
    finally:
        trained_tagger.postprocess = True
    gold_tokens = set()
    for item in scored:
        for annotation in item.document.annotations:
            gold_tokens |= {
                (item.document.doc_id, t.start)
                for t in item.tokens
                if annotation.start <= t.start < annotation.end
            }
    recalls = []
    predicted_counts = []
    for threshold in (None, 0.5, 0.8, 0.95, 0.99):
        tagged = set()
        for item in scored:
            for span in trained_tagger.decode(item, threshold):
                tagged |= {
                    (item.document.doc_id, t.start) for t in item.tokens if span.start <= t.start < span.end
                }
        recalls.append(len(tagged & gold_tokens) / len(gold_tokens))
        predicted_counts.append(len(tagged))
    assert recalls == sorted(recalls)
    assert predicted_counts == sorted(predicted_counts) and predicted_counts[-1] > predicted_counts[0]


def test_model_file_round_trip_keeps_metadata_and_predictions(
    trained_tagger: CrfTagger, held_out: list[Document], tmp_path: Path
) -> None:
    path = tmp_path / "tagger.model"
    trained_tagger.save(path)
    loaded = CrfTagger.load(path)
    assert loaded.metadata is not None and trained_tagger.metadata is not None
    assert loaded.metadata.feature_version == FEATURE_VERSION
    assert loaded.metadata.schema == "i2b2-2014"
    assert "O" in loaded.metadata.labels and "B-DATE" in loaded.metadata.labels
    assert loaded.metadata.training_hash == trained_tagger.metadata.training_hash
    assert loaded.metadata.tokens > 0 and loaded.metadata.documents > 0
    document = held_out[0]
    assert [a.key for a in loaded.predict(document)] == [a.key for a in trained_tagger.predict(document)]


def _rewrite_metadata(source: Path, target: Path, **changes: object) -> None:
    with zipfile.ZipFile(source) as archive:
        metadata = json.loads(archive.read("metadata.json"))
        model = archive.read("model.crfsuite")
    metadata.update(changes)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("metadata.json", json.dumps(metadata))
        archive.writestr("model.crfsuite", model)
    target.write_bytes(buffer.getvalue())


def test_model_from_another_feature_version_is_refused(trained_tagger: CrfTagger, tmp_path: Path) -> None:
    trained_tagger.save(tmp_path / "good.model")
    old = tmp_path / "old.model"
    _rewrite_metadata(
        tmp_path / "good.model", old, feature_version=FEATURE_VERSION - 1 if FEATURE_VERSION > 1 else 99
    )
    with pytest.raises(ModelError, match="feature version") as error:
        CrfTagger.load(old)
    assert str(old) in str(error.value) and "retrain" in str(error.value)


@pytest.mark.parametrize("content", [b"", b"not a zip at all", b"PK\x03\x04broken"])
def test_corrupt_model_file_names_the_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "broken.model"
    path.write_bytes(content)
    with pytest.raises(ModelError) as error:
        CrfTagger.load(path)
    assert str(path) in str(error.value)


def test_model_with_unreadable_crfsuite_part_is_refused(trained_tagger: CrfTagger, tmp_path: Path) -> None:
    trained_tagger.save(tmp_path / "good.model")
    with zipfile.ZipFile(tmp_path / "good.model") as archive:
        metadata = archive.read("metadata.json")
    bad = tmp_path / "bad.model"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("metadata.json", metadata)
        archive.writestr("model.crfsuite", b"garbage")
    with pytest.raises(ModelError, match=str(bad)):
        CrfTagger.load(bad)


def test_missing_model_file(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="cannot read"):
        CrfTagger.load(tmp_path / "absent.model")


def test_training_without_annotations_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        CrfTagger(max_iterations=5).train([Document("100-01", "No PHI here at all.")])


def test_training_can_be_cancelled(gold_documents: list[Document]) -> None:
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append((done, total))

    with pytest.raises(TrainingCancelled):
        CrfTagger(max_iterations=50).train(
            gold_documents[:3], progress=progress, cancelled=lambda: len(calls) >= 5
        )
    assert calls and all(total == 3 + 50 for _, total in calls)


def test_training_hash_ignores_order_but_not_annotations(gold_documents: list[Document]) -> None:
    first, second = gold_documents[0], gold_documents[1]
    assert training_hash([first, second]) == training_hash([second, first])
    stripped = Document(first.doc_id, first.text)
    assert training_hash([stripped, second]) != training_hash([first, second])


def test_metadata_from_incomplete_dict_is_a_model_error() -> None:
    with pytest.raises(ModelError):
        ModelMetadata.from_dict({"feature_version": 1})


def test_recall_bias_out_of_range(trained_tagger: CrfTagger, held_out: list[Document]) -> None:
    with pytest.raises(UsageError):
        trained_tagger.predict(held_out[0], recall_bias=1.5)
