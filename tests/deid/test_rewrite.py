"""Re-writing a note: offsets recomputed, overlaps as one region, comments dropped."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.deid.rewrite import rewrite_document
from annotator.deid.surrogates import Surrogate


def test_offsets_follow_longer_and_shorter_replacements() -> None:
    prefix = "Seen by "
    text = f"{prefix}Al on Monday with Bartholomew."
    al = Annotation("P0", "NAME", "DOCTOR", len(prefix), len(prefix) + 2, "Al", comment="note")
    bart_start = text.index("Bartholomew")
    bart = Annotation("P1", "NAME", "DOCTOR", bart_start, bart_start + 11, "Bartholomew")
    empty = Annotation("P2", "OTHER", "OTHER", len(text) - 1, len(text) - 1, "")
    new, replaced = rewrite_document(
        Document("1-01", text, [al, bart, empty]),
        lambda a: Surrogate({"Al": "Maximilian", "Bartholomew": "Bo"}[a.text]),
    )
    assert new.text == "Seen by Maximilian on Monday with Bo."
    assert [(a.text, new.text[a.start : a.end]) for a in new][:2] == [
        ("Maximilian", "Maximilian"),
        ("Bo", "Bo"),
    ]
    assert new.get("P2").start == len(new.text) - 1
    assert all(a.comment == "" for a in new)
    assert [r.original.id for r in replaced] == ["P0", "P1", "P2"]


def test_overlapping_annotations_share_one_region() -> None:
    text = "Lives at 12 Main Street Boston."
    start = text.index("12")
    street = Annotation("P0", "LOCATION", "STREET", start, start + len("12 Main Street"), "12 Main Street")
    inner = Annotation("P1", "LOCATION", "CITY", start + 3, start + 7, "Main")
    new, _ = rewrite_document(Document("1-01", text, [street, inner]), lambda a: Surrogate(f"<{a.type}>"))
    assert new.text == "Lives at <STREET> Boston."
    assert {new.text[a.start : a.end] for a in new} == {"<STREET>"}


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(alphabet="ab c\n", min_size=1, max_size=60),
    spans=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 8)), max_size=8),
    sizes=st.lists(st.integers(0, 12), min_size=8, max_size=8),
)
def test_every_tag_matches_its_text_after_rewrite(
    text: str, spans: list[tuple[int, int]], sizes: list[int]
) -> None:
    annotations = []
    for number, (start, length) in enumerate(spans):
        start = min(start, len(text))
        end = min(start + length, len(text))
        annotations.append(Annotation(f"P{number}", "NAME", "DOCTOR", start, end, text[start:end]))
    new, replaced = rewrite_document(
        Document("1-01", text, annotations), lambda a: Surrogate("z" * sizes[int(a.id[1:]) % len(sizes)])
    )
    assert all(new.text[a.start : a.end] == a.text for a in new)
    assert [a.id for a in new] == [a.id for a in annotations] == [r.original.id for r in replaced]
    untouched = [c for i, c in enumerate(text) if not any(a.start <= i < a.end for a in annotations)]
    assert "".join(untouched) == "".join(
        c for i, c in enumerate(new.text) if not any(a.start <= i < a.end for a in new)
    )
