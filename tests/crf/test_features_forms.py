"""The fast forms of the features say exactly what the readable ones say.

Tagging and training hand crfsuite :func:`document_attributes` (attribute names built from
per-word parts) and match the templates in their *led* form (the first character before
the assertion); a model is only the same model if both equal the readable forms.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from annotator.core.document import Document
from annotator.crf.features import as_attributes, document_attributes, document_features
from annotator.crf.templates import _REQUIRED, _YEAR, MONTH, TEMPLATE_SPECS, TEMPLATES, _Led
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


# The readable patterns some led templates were rewritten from: each rewrite asks of the first
# character from behind what the readable one asked in front of it.
READABLE = {
    "NOT_MONTH_DAY": r"(?<![\d/.])(?:(?:1[3-9]|[2-9]\d|\d{3,})/\d+|\d+/(?:3[2-9]|[4-9]\d|\d{3,}))(?![\d/])",
    "SLASH_RUN": (
        r"(?<![\d/.])(?:\d+(?:/\d+){3,}|(?=[\d/]*\d\.\d)\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?){2,})(?![\d/])"
    ),
    "DATE_MONTH_DAY": rf"\b{MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+{_YEAR}\b)?",
    "DATE_MONTH_YEAR": rf"\b{MONTH}\.?[\s,-]+(?:of\s+)?(?:\d{{4}}|'\d{{2}})\b",
}
# Pieces of dates, ratios and blood gases, so that random notes are dense in near matches.
NOTE_PIECES = [
    *"0123456789",
    "12",
    "/",
    ".",
    " ",
    "-",
    "'",
    ",",
    "\n",
    "s",
    "th",
    "of ",
    "Jan",
    "MAY",
    "May",
    "Sept",
    "OCT",
    "March",
    "JUNE",
    "x",
]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(NOTE_PIECES), max_size=16).map("".join))
@example("123/5 13/2 9/40 1/2 0.5/2/3 7.32/45/88/24 12/45/67/89 1.2.3/4/5 5/.5/6/7")
@example("Sept 5th, '98 MAY 2067 mAY 3 JUNE-2066 Dec of 2067 Janu 3 x.Oct 12")
def test_rewritten_templates_match_what_their_readable_forms_match(text: str) -> None:
    for name, readable in READABLE.items():
        assert [m.span() for m in TEMPLATES[name].finditer(text)] == [
            m.span() for m in re.finditer(readable, text)
        ], name


def test_rewritten_templates_match_the_crafted_note_like_their_readable_forms() -> None:
    text = (
        CRAFTED + "BP 120/80, ABG 7.32/45/88/24, 12/45/67/89 on Jan 3, 2067, MARCH 5th '98, Sept. of 2066\n"
    )
    found = 0
    for name, readable in READABLE.items():
        spans = [m.span() for m in re.finditer(readable, text)]
        assert [m.span() for m in TEMPLATES[name].finditer(text)] == spans, name
        found += len(spans)
    assert found >= 5


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["www.", "http", "s://", ".com", ".edu", "@", "mail", "x", ".", "-", "_", "/", " ", "7"]
        ),
        max_size=12,
    ).map("".join)
)
def test_a_note_without_a_templates_required_text_has_no_match_of_it(text: str) -> None:
    # template_matches skips such a template: every match it would find holds that text.
    for name, parts in _REQUIRED.items():
        for match in TEMPLATES[name].finditer(text):
            assert any(part in match.group() for part in parts), (name, match.group())
