"""Features of a few tokens: shape, affixes, templates, lexicons, triggers, frequency, window."""

from __future__ import annotations

from annotator.crf.features import (
    FEATURE_VERSION,
    FeatureDict,
    document_features,
    short_shape,
    word_shape,
    zipf_bucket,
)
from annotator.crf.tokenizer import tokenize


def _features(text: str, token_text: str, public: bool = True) -> FeatureDict:
    tokens = tokenize(text)
    index = [t.text for t in tokens].index(token_text)
    return document_features(text, tokens, public=public)[index]


def test_word_shapes() -> None:
    assert word_shape("Smith") == "Xxxxx"
    assert short_shape("Smith") == "Xx"
    assert word_shape("70yo") == "ddxx"


def test_features_of_a_name_after_doctor_title() -> None:
    features = _features("Seen by Dr. Smith today.", "Smith", public=False)
    assert features["w"] == "smith"
    assert features["caps"] == "init"
    assert features["s3"] == "ith" and features["p2"] == "sm"
    assert features["lex:SURNAME"] == 1.0
    assert features["trig<TITLE_DR"] == 1.0
    assert features["-1:w"] == "." and features["-2:w"] == "dr"


def test_public_features_name_no_rare_word() -> None:
    text = "Seen by Dr. Smith at Zwolinski Hall, MRN 4417302, about chest pain."
    tokens = tokenize(text)
    features = document_features(text, tokens)
    named = {str(v) for f in features for v in f.values()}
    # A surname (even a common one), a rare word and a long number are never named...
    assert not any(w in v for v in named for w in ("smith", "zwolinski", "4417302"))
    smith = features[[t.text for t in tokens].index("Smith")]
    assert smith["w"] == "~rare" and smith["lex:SURNAME"] == 1.0 and smith["caps"] == "init"
    assert features[[t.text for t in tokens].index("4417302")]["w"] == "~num"
    # ... while public words are.
    assert {"seen", "dr", "about", "chest", "pain"} <= {str(f["w"]) for f in features} | named


def test_features_of_a_date_template_cover_every_piece() -> None:
    text = "Admitted on 2067-05-03 for pain."
    tokens = tokenize(text)
    features = document_features(text, tokens)
    pieces = [
        f for t, f in zip(tokens, features, strict=True) if text.index("2067") <= t.start < text.index(" for")
    ]
    assert len(pieces) == 5
    assert "re:DATE_ISO" in pieces[0] and all("re:DATE_ISO+" in f for f in pieces[1:])
    assert pieces[0]["chunk"] == "dddd-dd-dd"
    assert pieces[0]["num"] == "year"


def test_features_record_number_trigger_and_digit_class() -> None:
    features = _features("MRN: 9290228", "9290228")
    assert features["trig<MRN"] == 1.0
    assert features["ndig"] == "7"
    assert "re:MRN_DIGITS" in features


def test_public_frequency_separates_common_words_from_rare_names() -> None:
    assert int(zipf_bucket("the")) >= 6
    assert zipf_bucket("xqzvplorn") == "0"
    assert zipf_bucket("12") == "na"


def test_multi_word_lexicon_entry_marks_every_token() -> None:
    text = "Moved from New Hampshire last year."
    tokens = tokenize(text)
    features = document_features(text, tokens)
    marked = [t.text for t, f in zip(tokens, features, strict=True) if "phrase:STATE" in f]
    assert marked == ["New", "Hampshire"]


def test_feature_version_is_a_positive_int() -> None:
    assert isinstance(FEATURE_VERSION, int) and FEATURE_VERSION >= 1
