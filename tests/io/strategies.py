"""Hypothesis strategies: notes with awkward characters and non-overlapping annotations."""

from __future__ import annotations

from hypothesis import strategies as st

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.schema import load_schema

SCHEMA = load_schema("i2b2-2014")
TYPES = [t.name for t in SCHEMA.types]

# Characters an XML 1.0 document can hold (no other controls, no surrogates, no U+FFFE/F).
xml_chars = st.characters(min_codepoint=0x20, blacklist_categories=["Cs"]).filter(
    lambda c: c not in "\ufffe\uffff"
) | st.sampled_from("\t\n\r")
AWKWARD = ["\r\n", "\r", "\n", "😀", "𝔘", "]]>", '"', "'", "&", "<", ">", "&amp;", " ", "\t", "é", "\u2028"]
texts = st.lists(st.sampled_from(AWKWARD) | xml_chars, max_size=60).map("".join)
plain_words = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=8)


@st.composite
def documents(draw: st.DrawFn, provenance: bool = True, extras: bool = True) -> Document:
    """A document with random text and random non-overlapping, non-empty annotations."""
    text = draw(st.lists(st.sampled_from(AWKWARD) | xml_chars, min_size=3, max_size=60).map("".join))
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), min_size=2, max_size=12))))
    spans = [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False) if a < b]
    annotations = []
    for number, (start, end) in enumerate(spans):
        type_name = draw(st.sampled_from(TYPES))
        fields: dict[str, object] = {"comment": draw(texts) if draw(st.booleans()) else ""}
        if provenance:
            fields["source"] = draw(st.sampled_from(list(Source)))
            fields["confidence"] = draw(st.none() | st.floats(0, 1))
            fields["annotator"] = draw(st.sampled_from(["", "ann_a", "Dr. B"]))
            fields["pending"] = draw(st.booleans())
        if extras and draw(st.booleans()):
            fields["extra"] = (("reviewer", draw(texts)), ("status", draw(plain_words)))
        annotations.append(
            Annotation(
                f"P{number}",
                SCHEMA.category_of(type_name),
                type_name,
                start,
                end,
                text[start:end],
                **fields,  # type: ignore[arg-type]
            )
        )
    return Document("100-01", text, annotations)
