"""A model's attribute names, read from its bytes, and tagging with only those."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from annotator.core.document import Document
from annotator.crf.features import document_attributes
from annotator.crf.model_vocabulary import model_attributes
from annotator.crf.tagger import CrfTagger
from annotator.crf.tokenizer import tokenize


def _crfsuite_bytes(tagger: CrfTagger) -> bytes:
    model = tagger._model_bytes
    assert model is not None
    return model


def test_the_names_are_those_pycrfsuite_lists(trained_tagger: CrfTagger) -> None:
    listed = set(trained_tagger._require_model().info().attributes)
    read = model_attributes(_crfsuite_bytes(trained_tagger))
    assert read is not None
    assert read == listed
    assert "bias" in read


def test_two_models_with_the_same_names_share_one_set(trained_tagger: CrfTagger, tmp_path: Path) -> None:
    # The features' caches are keyed by the set: equal but distinct sets would be compared
    # name by name on every hit (tagging with a retrained model was seven times slower).
    path = tmp_path / "copy.model"
    trained_tagger.save(path)
    first, second = CrfTagger.load(path), CrfTagger.load(path)
    assert first._vocabulary is not None
    assert first._vocabulary is second._vocabulary
    assert model_attributes(_crfsuite_bytes(first)) is first._vocabulary


@pytest.mark.parametrize(
    "damage",
    [
        lambda model: b"",
        lambda model: b"not a model at all, just text",
        lambda model: model[:200],
        lambda model: b"xCRF" + model[4:],
    ],
    ids=["empty", "text", "truncated", "wrong magic"],
)
def test_unreadable_bytes_mean_no_filter(trained_tagger: CrfTagger, damage: Callable[[bytes], bytes]) -> None:
    assert model_attributes(damage(_crfsuite_bytes(trained_tagger))) is None


def test_words_and_pairs_the_model_lacks_are_left_out() -> None:
    text = "Seen by Dr Zyxwv today"
    tokens = tokenize(text)
    everything = document_attributes(text, tokens)
    vocabulary = frozenset({"bias", "w:dr", "-1|0:by|dr", "EOS"})
    kept = document_attributes(text, tokens, vocabulary=vocabulary)
    assert len(kept) == len(everything)
    for full, filtered in zip(everything, kept, strict=True):
        # Only words' and word pairs' attributes are filtered: the rest are few and mostly known.
        assert set(filtered) <= set(full)
        assert not any(
            name.startswith(("w:", "-1|0:", "0|+1:")) and name not in vocabulary for name in filtered
        )
    dr = [t.text for t in tokens].index("Dr")
    assert "w:dr" in kept[dr] and "-1|0:by|dr" in kept[dr]
    assert "EOS" in kept[-1] and "BOS" not in kept[0]
    assert all("bias" in item for item in kept)


def test_tagging_gives_the_same_spans_with_and_without_the_filter(
    trained_tagger: CrfTagger, held_out: list[Document]
) -> None:
    assert trained_tagger._vocabulary is not None
    filtered = trained_tagger.predict_spans(held_out, recall_bias=0.9)
    vocabulary, trained_tagger._vocabulary = trained_tagger._vocabulary, None
    try:
        unfiltered = trained_tagger.predict_spans(held_out, recall_bias=0.9)
    finally:
        trained_tagger._vocabulary = vocabulary
    assert sum(len(spans) for spans in filtered.values()) > 0
    assert filtered == unfiltered
