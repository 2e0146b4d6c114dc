"""corpus_statistics on tiny hand-made documents, numbers checked by hand."""

from __future__ import annotations

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.schema import load_schema
from annotator.core.statistics import corpus_statistics


def _tag(document_text: str, tag_id: str, category: str, type_: str, prefix: str, text: str) -> Annotation:
    start = len(prefix)
    assert document_text[start : start + len(text)] == text
    return Annotation(tag_id, category, type_, start, start + len(text), text)


def _documents() -> list[Document]:
    first = "Seen by Dr. Kai Yamamoto on 2067-05-03 at Mercy Hospital."
    one = Document(
        "100-01",
        first,
        [
            _tag(first, "P0", "NAME", "DOCTOR", "Seen by Dr. ", "Kai Yamamoto"),
            _tag(first, "P1", "DATE", "DATE", "Seen by Dr. Kai Yamamoto on ", "2067-05-03"),
            _tag(
                first,
                "P2",
                "LOCATION",
                "HOSPITAL",
                "Seen by Dr. Kai Yamamoto on 2067-05-03 at ",
                "Mercy Hospital",
            ),
        ],
    )
    second = "Follow up 5/3.\nAge 67."
    two = Document(
        "100-02",
        second,
        [
            _tag(second, "P0", "DATE", "DATE", "Follow up ", "5/3"),
            _tag(second, "P1", "AGE", "AGE", "Follow up 5/3.\nAge ", "67"),
        ],
    )
    third = "No PHI here."
    return [one, two, Document("101-01", third)]


def test_counts_documents_patients_tokens_characters() -> None:
    stats = corpus_statistics(_documents())
    assert stats["documents"] == 3
    assert stats["patients"] == 2
    # "Seen by Dr. Kai Yamamoto on 2067-05-03 at Mercy Hospital." = 10 tokens;
    # "Follow up 5/3.\nAge 67." = 5; "No PHI here." = 3.
    assert stats["tokens"] == 18
    assert stats["characters"] == len("Seen by Dr. Kai Yamamoto on 2067-05-03 at Mercy Hospital.") + len(
        "Follow up 5/3.\nAge 67."
    ) + len("No PHI here.")


def test_phi_tokens_are_tokens_touching_an_annotation() -> None:
    stats = corpus_statistics(_documents())
    # Kai, Yamamoto, 2067-05-03, Mercy, Hospital. | 5/3. , 67.
    assert stats["phi_tokens"] == 7
    assert stats["per_document"]["phi_tokens"] == round(7 / 3, 2)


def test_counts_per_category_and_type() -> None:
    stats = corpus_statistics(_documents())
    assert stats["annotations"] == 5
    assert stats["by_category"] == {"NAME": 1, "DATE": 2, "LOCATION": 1, "AGE": 1}
    assert stats["by_type"] == {"DOCTOR": 1, "DATE": 2, "HOSPITAL": 1, "AGE": 1}
    assert stats["per_document"]["annotations"] == round(5 / 3, 2)
    assert stats["per_document"]["tokens"] == 6.0


def test_schema_lists_every_type_in_order_with_zeros() -> None:
    schema = load_schema("i2b2-2014")
    stats = corpus_statistics(_documents(), schema)
    assert [c["category"] for c in stats["categories"]] == schema.category_names
    assert len(stats["by_type"]) == 31
    assert stats["by_type"]["PATIENT"] == 0
    name = stats["categories"][0]
    assert name == {
        "category": "NAME",
        "count": 1,
        "types": [
            {"type": "PATIENT", "count": 0},
            {"type": "DOCTOR", "count": 1},
            {"type": "USERNAME", "count": 0},
        ],
    }


def test_unknown_types_follow_the_schema() -> None:
    text = "Badge 12345."
    document = Document("102-01", text, [_tag(text, "P0", "BADGE", "BADGE", "Badge ", "12345")])
    stats = corpus_statistics([document], load_schema("i2b2-2014"))
    assert stats["categories"][-1] == {
        "category": "BADGE",
        "count": 1,
        "types": [{"type": "BADGE", "count": 1}],
    }


def test_empty_input() -> None:
    stats = corpus_statistics([])
    assert stats["documents"] == 0
    assert stats["per_document"] == {"annotations": 0.0, "tokens": 0.0, "characters": 0.0, "phi_tokens": 0.0}
