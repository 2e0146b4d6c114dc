"""Word classes from public English: the shipped file and the features it gives."""

from __future__ import annotations

import gzip
from collections import Counter

from annotator.core.resources import resource_path
from annotator.crf.build_word_clusters import COARSE, FINE
from annotator.crf.features import document_features, word_features
from annotator.crf.lexicons import LEXICON_DIR, read_entries
from annotator.crf.tokenizer import tokenize
from annotator.crf.word_clusters import CLUSTER_FILE, word_classes


def test_the_shipped_file_gives_every_word_one_coarse_and_one_fine_class() -> None:
    with gzip.open(resource_path("lexicons", CLUSTER_FILE), "rt", encoding="utf-8") as handle:
        rows = [line.rstrip("\n").split("\t") for line in handle]
    assert len(rows) > 300_000
    assert all(len(row) == 3 for row in rows)
    words = [row[0] for row in rows]
    assert len(set(words)) == len(words)
    assert all(word == word.lower() and word.strip() == word for word in words)
    assert {int(row[1]) for row in rows} == set(range(COARSE))
    assert {int(row[2]) for row in rows} == set(range(FINE))


def test_listed_names_that_public_english_lacks_have_a_class_too() -> None:
    # (Words of ASCII letters: "Acuña" has none.)
    surnames = [
        e.lower() for e in read_entries(LEXICON_DIR / "surnames_world.txt") if e.isascii() and e.isalpha()
    ]
    assert len(surnames) > 5000 and all(word_classes(name) is not None for name in surnames)
    assert word_classes("acuña") is None


def test_given_names_gather_in_few_coarse_classes() -> None:
    # What the classes are for: a name the lists lack falls where listed names fall.
    names = [e.lower() for e in read_entries(LEXICON_DIR / "first_names_female.txt") if e.isalpha()]
    classes = Counter(word_classes(name)[0] for name in names if word_classes(name) is not None)  # type: ignore[index]
    top_three = sum(count for _, count in classes.most_common(3))
    assert top_three >= 0.5 * sum(classes.values()), classes.most_common(5)


def test_a_word_gets_its_classes_as_features_in_any_case_and_its_neighbours_get_the_coarse_one() -> None:
    rome = word_classes("rome")
    assert rome is not None
    for spelling in ("Rome", "ROME", "rome"):
        features = word_features(spelling)
        assert (features["cl"], features["cl2"]) == rome
    text = "FLYING FROM ROME TODAY"
    by_token = document_features(text, tokenize(text))
    assert by_token[1]["+1:cl"] == rome[0] and by_token[3]["-1:cl"] == rome[0]
    assert "+1:cl2" not in by_token[1]


def test_a_word_public_english_does_not_know_has_no_class() -> None:
    assert word_classes("certusi") is None
    features = word_features("Certusi")
    assert "cl" not in features and "cl2" not in features
    assert "cl" not in word_features("120/80") and "cl" not in word_features("2067")
