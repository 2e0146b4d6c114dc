"""The tokeniser keeps offsets, splits PHI glued to other characters, knows lines and sections."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.crf.tokenizer import tokenize


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=200))
def test_tokenize_offsets_round_trip(text: str) -> None:
    tokens = tokenize(text)
    previous_end = 0
    for token in tokens:
        assert text[token.start : token.end] == token.text
        assert token.start >= previous_end
        assert token.text.strip() == token.text and token.text
        previous_end = token.end
    # Nothing but whitespace is left out.
    covered = {i for t in tokens for i in range(t.start, t.end)}
    assert all(text[i].isspace() for i in range(len(text)) if i not in covered)


def test_tokenize_splits_age_glued_to_sex() -> None:
    assert [t.text for t in tokenize("70yoM")] == ["70", "yo", "M"]


def test_tokenize_splits_record_number_after_colon() -> None:
    text = "MRN:12345"
    tokens = tokenize(text)
    assert [t.text for t in tokens] == ["MRN", ":", "12345"]
    assert tokens[2].start == len("MRN:")
    assert not tokens[2].space_before


def test_tokenize_splits_digits_from_letters() -> None:
    assert [t.text for t in tokenize("3041023MARY")] == ["3041023", "MARY"]


def test_tokenize_lines_and_sections() -> None:
    text = "SOCIAL HISTORY\nWorks as a teacher.\nPlan:\nCall Dr. Lee."
    tokens = tokenize(text)
    by_text = {t.text: t for t in tokens}
    assert by_text["SOCIAL"].in_heading and by_text["SOCIAL"].line == 0
    assert by_text["teacher"].section == "social history"
    assert by_text["teacher"].line == 1
    assert by_text["Works"].line_start and not by_text["teacher"].line_start
    assert by_text["Lee"].section == "plan" and by_text["Lee"].line == 3


def test_tokenize_inline_upper_case_heading() -> None:
    tokens = tokenize("HPI: 70yo man")
    assert tokens[0].in_heading and tokens[0].section == "hpi"
    assert not tokens[-1].in_heading and tokens[-1].section == "hpi"


def _pieces_the_obvious_way(line: str) -> list[str]:
    """Letter runs, digit runs, single marks; then each letter run cut before a lower-upper step."""
    pieces = []
    for piece in re.findall(r"[^\W\d_]+|\d+|[^\w\s]|_", line):
        pieces += re.split(r"(?<=[a-z])(?=[A-Z])", piece)
    return pieces


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aAbzZyYMéÉßǅﬁΣσ09٣ _-:.'", max_size=60))
def test_tokenize_cuts_like_the_obvious_two_step_split(line: str) -> None:
    assert [t.text for t in tokenize(line)] == _pieces_the_obvious_way(line)


def test_ascii_lookalikes_keep_length_and_return_a_plain_text_itself() -> None:
    from annotator.core.lookalikes import ascii_lookalikes

    text = "Dr.\u00a0O\u2019Hara\u2009MD\u202f\u3000x\u200bY 410\u2011555\u20131234 \u22122 a\u2014b \u201cin \u201992\u201d"
    plain = ascii_lookalikes(text)
    # A zero-width space is no space, and an em dash breaks a clause: both stay.
    assert plain == "Dr. O'Hara MD  x\u200bY 410-555-1234 -2 a\u2014b \"in '92\"" and len(plain) == len(text)
    ascii_text = "Dr. Smith\tMD 410-555-1234"
    assert ascii_lookalikes(ascii_text) is ascii_text
