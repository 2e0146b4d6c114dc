"""The drug-name lexicon: evidence of text that is not PHI, holding no word that can be a name
or a place we know, and read as a feature of the tokens it names."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from annotator.core.resources import resource_path
from annotator.crf.features import document_features
from annotator.crf.lexicons import LEXICON_DIR, default_lexicons, read_entries
from annotator.crf.tokenizer import tokenize

_LETTERS = re.compile(r"[^\W\d_]+")


def _drugs() -> list[str]:
    return read_entries(LEXICON_DIR / "drugs.txt")


def _words_of(paths: Iterable[Path]) -> set[str]:
    words: set[str] = set()
    for path in paths:
        for entry in read_entries(path):
            words |= {w.lower() for w in _LETTERS.findall(entry)}
    return words


def test_the_list_holds_lower_case_drug_words_only() -> None:
    drugs = _drugs()
    assert len(drugs) > 20_000
    assert all(d.isascii() and d.isalpha() and d.islower() and len(d) >= 5 for d in drugs)
    assert {"lasix", "propofol", "zocor", "zestril", "keppra", "depakote"} <= set(drugs)


def test_no_drug_word_is_a_name_or_place_of_our_lists() -> None:
    # A word that can be a person or a place must never count as evidence of "not PHI".
    others = [p for p in LEXICON_DIR.glob("*.txt") if p.name not in ("drugs.txt", "clinical_words.txt")]
    listed = _words_of([*others, *resource_path("surrogates").glob("*.txt")])
    assert not set(_drugs()) & listed


def test_a_drug_name_is_a_feature_of_its_token_and_its_neighbours() -> None:
    text = "MEDICATIONS:  Zestril, Zocor, hydrochlorothiazide. Seen by Dr. Smith."
    tokens = tokenize(text)
    features = document_features(text, tokens)
    words = [t.text for t in tokens]
    zocor = features[words.index("Zocor")]
    assert zocor["lex:DRUG"] == 1.0 and zocor["-2:lex:DRUG"] == 1.0  # Zestril, two tokens left
    assert "lex:DRUG" not in features[words.index("Smith")]
    assert default_lexicons().contains("DRUG", "ZESTRIL")  # read in any case
