"""Qt-free rules under the keys: offsets for Qt, the span index, snapping, review provenance."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from annotator.core.annotation import Source
from annotator.core.document import Document
from annotator.core.history import History
from annotator.core.schema import load_schema
from annotator.gui.highlighter import SpanIndex, line_starts
from annotator.gui.offsets import OffsetMap
from annotator.session.editing import AnnotationEditor, snap_to_words, word_step

TEXTS = st.text(alphabet=st.sampled_from(["a", " ", "\n", "é", "😀", "𝔸", "x"]), max_size=40)


@given(TEXTS)
def test_offset_map_round_trips_every_position(text: str) -> None:
    offsets = OffsetMap(text)
    for offset in range(len(text) + 1):
        position = offsets.to_qt(offset)
        assert position == len(text[:offset].encode("utf-16-le")) // 2
        assert offsets.from_qt(position) == offset


@given(
    st.lists(st.tuples(st.integers(0, 60), st.integers(1, 25)), max_size=30),
    st.integers(0, 80),
    st.integers(1, 30),
)
def test_span_index_matches_a_brute_force_scan(spans: list[tuple[int, int]], start: int, width: int) -> None:
    document = Document("400-01", "x" * 100)
    annotations = [document.make_annotation("DATE", "DATE", s, s + w) for s, w in spans]
    index = SpanIndex(annotations[: len(annotations) // 2])
    for annotation in annotations[len(annotations) // 2 :]:
        index.add(annotation)
    if annotations:
        index.remove(annotations[0])
    end = start + width
    expected = {a.id for a in annotations[1:] if a.start < end and start < a.end}
    assert {a.id for a in index.overlapping(start, end)} == expected


def test_line_starts_follow_qt_blocks() -> None:
    text = "one\ntwo\u2029three\n"
    assert line_starts(text) == [0, len("one\n"), len("one\ntwo\u2029"), len(text)]


def test_snap_to_words_trims_spaces_and_widens_to_words() -> None:
    text = "seen by Dr. Marissa Jones today"
    start = text.index("rissa")
    assert snap_to_words(text, start - 1, start + len("rissa Jo")) == (
        text.index("Marissa"),
        text.index("Marissa") + len("Marissa Jones"),
    )
    space = text.index(" Jones")
    assert snap_to_words(text, space, space + 1) == (space + 1, space + 1)


def test_word_step_stops_at_word_ends() -> None:
    text = "John Smith, 54"
    assert word_step(text, 0, +1) == len("John")
    assert word_step(text, len("John"), +1) == len("John Smith")
    assert word_step(text, len(text), -1) == len("John Smith, ")


def make_editor() -> tuple[AnnotationEditor, Document]:
    text = "Patient John Smith seen on 2060-01-02."
    document = Document("400-02", text)
    start = text.index("John Smith")
    document.add(
        document.make_annotation(
            "NAME",
            "DOCTOR",
            start,
            start + len("John Smith"),
            source=Source.MODEL,
            confidence=0.7,
            pending=True,
        )
    )
    return AnnotationEditor(document, History(), load_schema(), "alice"), document


def test_editing_a_suggestion_makes_it_human_and_accepting_keeps_model() -> None:
    editor, document = make_editor()
    (suggestion,) = document.annotations
    editor.change(suggestion.id, type_name="PATIENT")
    changed = document.get(suggestion.id)
    assert (changed.type, changed.source, changed.pending, changed.annotator) == (
        "PATIENT",
        Source.HUMAN,
        False,
        "alice",
    )
    editor.history.undo()
    editor.accept(suggestion.id)
    accepted = document.get(suggestion.id)
    assert (accepted.type, accepted.source, accepted.confidence, accepted.pending) == (
        "DOCTOR",
        Source.MODEL,
        0.7,
        False,
    )


def test_read_only_editor_changes_nothing() -> None:
    editor, document = make_editor()
    editor.read_only = True
    (suggestion,) = document.annotations
    assert editor.tag(0, len("Patient"), "PATIENT") is None
    editor.delete(suggestion.id)
    assert editor.accept_all() == 0
    assert document.annotations == [suggestion]
    assert not editor.history.can_undo
