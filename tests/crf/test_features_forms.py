"""The fast forms of the features say exactly what the readable ones say.

Tagging and training hand crfsuite :func:`document_attributes` (attribute names built from
per-word parts) and match the templates in their *led* form (the first character before
the assertion); a model is only the same model if both equal the readable forms.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.core.document import Document
from annotator.crf.features import as_attributes, document_attributes, document_features
from annotator.crf.templates import TEMPLATE_SPECS, _Led
from annotator.crf.tokenizer import tokenize

CRAFTED = (
    "Seen by Dr. O'Neil on 2067-05-03 at 10:30am; MRN:12345, 70yoM, tel (617) 555-1234 x123.\n"
    "SOCIAL HISTORY\nLives in New Hampshire with wife Mary.  Email mary.s@example.org\n"
    "HPI: Dvořák 3041023MARY SmithJones__ñ 1st Jan, '98\t\tDOB 1/2/63 in the 1990s\n"
    "Dictated by: K. L. Smith, MD  Room 4B  ID H63-52721 L16788/34 ssn 123-45-6789\n"
)


@pytest.mark.parametrize("public", [True, False])
def test_attributes_are_the_feature_dicts_in_crfsuite_form(
    gold_documents: list[Document], public: bool
) -> None:
    for text in (CRAFTED, *(d.text for d in gold_documents[:6])):
        tokens = tokenize(text)
        expected = [list(as_attributes(f)) for f in document_features(text, tokens, public=public)]
        assert document_attributes(text, tokens, public=public) == expected
        # A run of tokens in the middle (a chunk with its context) reads the same way.
        middle = tokens[5:-5]
        expected = [list(as_attributes(f)) for f in document_features(text, middle, public=public)]
        assert document_attributes(text, middle, public=public) == expected


def test_attributes_name_strings_and_indicators_as_crfsuite_does() -> None:
    assert as_attributes({"bias": 1.0, "w": "dr", "-1|0": "a|b"}) == ("bias", "w:dr", "-1|0:a|b")
    with pytest.raises(ValueError, match="indicators only"):
        as_attributes({"weight": 0.5})


def test_attributes_of_nothing_are_nothing() -> None:
    assert document_attributes("", []) == []


LED = {name: spec for name, spec in TEMPLATE_SPECS.items() if isinstance(spec, _Led)}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789 -/.:()+'@xeXEyoMFsSAmgJanNovDec\n,_é", max_size=80))
def test_led_templates_match_what_the_plain_patterns_match(text: str) -> None:
    for spec in LED.values():
        assert [m.span() for m in spec.led().finditer(text)] == [
            m.span() for m in spec.plain().finditer(text)
        ]


def test_led_templates_match_the_crafted_note_like_the_plain_patterns() -> None:
    found = 0
    for spec in LED.values():
        spans = [m.span() for m in spec.plain().finditer(CRAFTED)]
        assert [m.span() for m in spec.led().finditer(CRAFTED)] == spans
        found += len(spans)
    assert found >= 20  # the comparison saw real matches
