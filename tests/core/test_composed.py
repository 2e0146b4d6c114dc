"""Composed Unicode: the text a rule reads, and the way back to the note as written."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from annotator.core.annotation import Annotation
from annotator.core.composed import compose, composed_document
from annotator.core.document import Document


def test_a_composed_text_is_given_back_as_it_is() -> None:
    composed = compose("Nuñez seen.")
    assert composed.text == "Nuñez seen." and composed.origin is None
    assert composed.to_written(3) == 3


def test_a_letter_and_its_mark_become_one_letter_and_offsets_lead_back() -> None:
    written = "Jose\u0301 Nun\u0303ez seen."
    composed = compose(written)
    assert composed.text == "José Nuñez seen."
    start, end = composed.text.index("Nuñez"), composed.text.index("Nuñez") + 5
    assert written[composed.to_written(start) : composed.to_written(end)] == "Nun\u0303ez"


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


@given(st.text(alphabet=st.sampled_from(["a", "n", "e", " ", "\u0301", "\u0303", "\u0323", "ñ", "\u0130"])))
def test_every_composed_boundary_maps_to_a_written_boundary_in_order(text: str) -> None:
    composed = compose(text)
    assert unicodedata.normalize("NFC", composed.text) == unicodedata.normalize("NFC", text)
    places = [composed.to_written(i) for i in range(len(composed.text) + 1)]
    assert places == sorted(places) and places[-1] == len(text) and places[0] == 0
