"""Composed Unicode: the text a rule reads, and the way back to the note as written."""

from __future__ import annotations

import time
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from annotator.core.annotation import Annotation
from annotator.core.composed import compose, composed_document
from annotator.core.document import Document


def test_a_composed_text_is_given_back_as_it_is() -> None:
    composed = compose("Nuñez seen.")
    assert composed.text == "Nuñez seen." and composed.starts is None
    assert composed.to_written(3) == 3


def test_a_letter_and_its_mark_become_one_letter_and_offsets_lead_back() -> None:
    written = "Jose\u0301 Nun\u0303ez seen."
    composed = compose(written)
    assert composed.text == "José Nuñez seen."
    start, end = composed.text.index("Nuñez"), composed.text.index("Nuñez") + 5
    assert written[composed.to_written(start) : composed.to_written_end(end)] == "Nun\u0303ez"


def test_characters_nobody_sees_are_left_out_and_offsets_lead_back() -> None:
    written = "Hen\u00addrickson and \u200bNun\u0303ez\ufeff."
    composed = compose(written)
    assert composed.text == "Hendrickson and Nuñez."
    assert written[composed.to_written(0) : composed.to_written_end(11)] == "Hen\u00addrickson"
    start = composed.text.index("Nuñez")
    assert written[composed.to_written(start) : composed.to_written_end(start + 5)] == "Nun\u0303ez"


def test_tags_move_with_the_text_they_cover() -> None:
    text = "Cafe\u0301 Nun\u0303ez seen."
    start = text.index("Nun")
    document = Document(
        "100-01", text, [Annotation("T0", "NAME", "PATIENT", start, start + 6, text[start : start + 6])]
    )
    document.patient_id = "100"
    composed, _ = composed_document(document)
    (tag,) = composed.annotations
    assert composed.text[tag.start : tag.end] == tag.text == "Nuñez"
    assert composed.patient_id == "100"


@given(
    st.text(
        alphabet=st.sampled_from(
            ["a", "n", "e", " ", "\u0301", "\u0303", "\u0323", "ñ", "\u0130", "\u00ad", "\u200b"]
        )
    )
)
def test_every_composed_boundary_maps_to_a_written_boundary_in_order(text: str) -> None:
    composed = compose(text)
    visible = "".join(c for c in text if c not in "\u00ad\u200b")
    assert unicodedata.normalize("NFC", composed.text) == unicodedata.normalize("NFC", visible)
    size = len(composed.text)
    starts = [composed.to_written(i) for i in range(size + 1)]
    ends = [composed.to_written_end(i) for i in range(1, size + 1)]
    assert starts == sorted(starts) and ends == sorted(ends) and starts[-1] == len(text)
    for i in range(size):  # each character's own written text, marks and all, none of a neighbour's
        piece = text[starts[i] : ends[i]]
        assert piece and piece[0] not in "\u00ad\u200b" and piece[-1] not in "\u00ad\u200b"
        same_letter = i < size - 1 and (starts[i], ends[i]) == (starts[i + 1], composed.to_written_end(i + 2))
        assert ends[i] <= starts[i + 1] or i == size - 1 or same_letter


def test_a_letter_whose_marks_compose_only_in_part_keeps_every_mark() -> None:
    # "a" + acute + grave: the acute composes into "á", the grave (blocked) stays a mark.
    # A name ending on "á" was given back without its acute (the written "a" alone).
    written = "Mara\u0301\u0300 seen."
    composed = compose(written)
    assert composed.text == "Mar\u00e1\u0300 seen."
    end = composed.text.index("\u00e1") + 1
    assert written[composed.to_written(0) : composed.to_written_end(end)] == "Mara\u0301\u0300"


def test_a_character_nfc_writes_as_several_is_given_back_whole() -> None:
    written = "x \u0958 y\u00ad"  # DEVANAGARI QA: NFC writes it as KA + NUKTA
    composed = compose(written)
    assert composed.text == "x \u0915\u093c y"
    start = composed.text.index("\u093c")
    assert written[composed.to_written(start) : composed.to_written_end(start + 1)] == "\u0958"


def test_a_long_run_of_marks_in_no_canonical_order_is_composed_in_linear_time() -> None:
    # CPython's NFC reorders marks by insertion: 60,000 alternating marks took ~5 s, a note
    # of a few hundred kilobytes of them minutes (a hostile note stalled the tagger).
    marks = "\u0301\u0316" * 30_000
    started = time.perf_counter()
    composed = compose("a" + marks + " Nun\u0303ez")
    assert time.perf_counter() - started < 2
    assert composed.text == "\u00e1" + "\u0316" * 30_000 + "\u0301" * 29_999 + " Nu\u00f1ez"
