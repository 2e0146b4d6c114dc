"""A finding's place in the gold note: the fast lookup against the plain scan it replaced."""

from __future__ import annotations

from bisect import bisect_right

from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.deid.findings import Leak, with_original_offsets


def plain_scan(original: Document, output: Document, start: int, end: int) -> tuple[int, int]:
    """The first tag holding the place, else the growth of the tags before it (O(tags) a call)."""
    originals = {a.id: a for a in original}
    pairs = sorted((n.start, n.end, o.start, o.end) for n in output if (o := originals.get(n.id)) is not None)
    for new_start, new_end, old_start, old_end in pairs:
        if new_start <= start < new_end or (new_start < end <= new_end):
            return old_start, old_end
    ends = sorted((new_end, old_end) for _, new_end, _, old_end in pairs)
    at = bisect_right([e for e, _ in ends], start)
    delta = 0 if at == 0 else max(old for new, old in ends[:at] if new == ends[at - 1][0]) - ends[at - 1][0]
    limit = len(original.text)
    return min(max(start + delta, 0), limit), min(max(end + delta, 0), limit)


spans = st.lists(
    st.tuples(st.integers(0, 60), st.integers(0, 8), st.integers(0, 8), st.integers(0, 8)), max_size=12
)


@settings(max_examples=300, deadline=None)
@given(spans, st.lists(st.tuples(st.integers(0, 90), st.integers(0, 6)), min_size=1, max_size=8))
def test_fast_lookup_equals_the_plain_scan(
    tags: list[tuple[int, int, int, int]], places: list[tuple[int, int]]
) -> None:
    text = "x" * 100
    old, new = [], []
    for number, (start, length, new_shift, new_length) in enumerate(tags):
        old.append(Annotation(f"P{number}", "NAME", "PATIENT", start, min(start + length, 100), ""))
        new_start = min(start + new_shift, 100)
        new.append(
            Annotation(f"P{number}", "NAME", "PATIENT", new_start, min(new_start + new_length, 100), "")
        )
    original, output = Document("100-01", text, old), Document("100-01", text, new)
    leaks = [Leak("100-01", "100-01", "P0", "PATIENT", "unreplaced text", s, s + n) for s, n in places]
    found = with_original_offsets(leaks, [original], [output])
    assert [(f.original_start, f.original_end) for f in found] == [
        plain_scan(original, output, leak.start, leak.end) for leak in leaks
    ]
