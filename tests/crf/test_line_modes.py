"""Line case modes read once per line of a note, equal to reading each line afresh."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.core.document import Document
from annotator.crf import features
from annotator.crf.features import LineModes, case_modes, line_case_mode
from annotator.crf.tagger import CrfTagger
from annotator.crf.tokenizer import tokenize


def _afresh(text: str, start: int, end: int) -> str:
    """What the callers computed before: the line of ``start`` to the line of ``end``."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return line_case_mode(text[line_start : line_end if line_end >= 0 else len(text)])


_TEXTS = st.text(alphabet=st.sampled_from("ab AB\n1."), max_size=60)


@settings(max_examples=300, deadline=None)
@given(_TEXTS, st.data())
def test_a_span_has_the_mode_of_its_lines_read_afresh(text: str, data: st.DataObject) -> None:
    lines = LineModes(text)
    for _ in range(5):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, len(text)))
        assert lines.of_span(start, end) == _afresh(text, start, end)


@settings(max_examples=200, deadline=None)
@given(_TEXTS)
def test_token_modes_are_those_of_their_lines(text: str) -> None:
    tokens = tokenize(text)
    assert case_modes(text, tokens) == [_afresh(text, t.start, t.end) for t in tokens]
    shared = LineModes(text)
    assert case_modes(text, tokens[:2], shared) + case_modes(text, tokens[2:], shared) == case_modes(
        text, tokens
    )


def test_a_cache_of_another_text_is_not_used() -> None:
    other = LineModes("ALL CAPITALS HERE")
    text = "all lower case here"
    assert case_modes(text, tokenize(text), other) == ["L"] * 4


def test_a_note_of_one_long_line_is_read_once_when_tagged_in_chunks(
    trained_tagger: CrfTagger, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One line of 60 chunks' worth of text: each chunk, and each span, used to read it all again.
    text = "Seen by Dr Abernathy at Lakeside on 3/4 and her son Bob called. " * 2_000
    reads: list[int] = []

    def counting(line: str) -> str:
        reads.append(len(line))
        return line_case_mode(line)

    monkeypatch.setattr(features, "line_case_mode", counting)
    monkeypatch.setattr(trained_tagger, "chunk_chars", 2_000)
    assert len(list(trained_tagger.chunks(text))) > 30
    trained_tagger.predict_spans([Document("100-01", text)])
    assert sum(reads) <= 2 * len(text)  # the features' read and the clean-ups' read
