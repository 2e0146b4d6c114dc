"""What the leak check reports: findings a person can act on, never the text itself.

A :class:`Leak` names the output note, where in it (``start``/``end``), where the same place
is in the gold note of the same name (``original_start``/``original_end``: what to tag), the
original tag it repeats (document, tag id, type) and the rule that fired.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import asdict, dataclass, replace
from itertools import accumulate

from annotator.core.document import Document
from annotator.errors import AnnotatorError


@dataclass(frozen=True)
class Leak:
    """One original PHI string found in the output (no text: it would repeat the PHI).

    Attributes
    ----------
    doc_id: the output note it was found in.
    source_doc_id, tag_id, type: the original tag whose string it repeats (``tag_id`` is
        empty when no tag is concerned, e.g. an untagged age over 89).
    rule: why it is a leak (``unreplaced text``, ``number written another way`` ...).
    start, end: offsets in the output note.
    original_start, original_end: the same place in the gold note ``doc_id``.
    """

    doc_id: str
    source_doc_id: str
    tag_id: str
    type: str
    rule: str
    start: int = 0
    end: int = 0
    original_start: int = 0
    original_end: int = 0

    def to_dict(self) -> dict[str, str | int]:
        return asdict(self)


class LeakError(AnnotatorError):
    """The leak check found original PHI in the output; nothing was written.

    ``leaks`` lists every finding (document, offsets, source tag, type, rule; never the text).
    """

    def __init__(self, message: str, leaks: list[Leak] | None = None) -> None:
        super().__init__(message)
        self.leaks = list(leaks or [])


def leak_error(leaks: list[Leak]) -> LeakError:
    """The one-line error naming the documents (never the strings) that leak."""
    documents = sorted({leak.doc_id for leak in leaks})
    shown = ", ".join(documents[:10]) + (f" and {len(documents) - 10} more" if len(documents) > 10 else "")
    return LeakError(
        f"leak check failed: {len(leaks)} original PHI occurrence(s) in output document(s) {shown}; "
        "nothing was written (--json lists every finding, --review FILE shows them in context)",
        leaks,
    )


def with_original_offsets(
    leaks: list[Leak], originals: list[Document], outputs: list[Document]
) -> list[Leak]:
    """Each finding with its place in the gold note of the same name.

    De-identification only changes tagged text and keeps tag ids, so a place outside every
    tag moves by the growth of the tags before it; a place inside a tag maps to that tag's
    original span. A note without a gold counterpart keeps its output offsets.
    """
    by_id = {d.doc_id: d for d in originals}
    out_by_id = {d.doc_id: d for d in outputs}
    maps: dict[str, _OffsetMap] = {}
    mapped = []
    for leak in leaks:
        original, output = by_id.get(leak.doc_id), out_by_id.get(leak.doc_id)
        start, end = leak.start, leak.end
        if original is not None and output is not None:
            if leak.doc_id not in maps:
                maps[leak.doc_id] = _OffsetMap(original, output)
            start, end = maps[leak.doc_id].to_original(leak.start, leak.end)
        mapped.append(replace(leak, original_start=start, original_end=end))
    return mapped


class _OffsetMap:
    """Output offsets of one note to its gold offsets, built once for all its findings (a long
    note has thousands of tags and of findings: each lookup is a few binary searches)."""

    def __init__(self, original: Document, output: Document) -> None:
        originals = {a.id: a for a in original}
        self.pairs = sorted(
            (new.start, new.end, old.start, old.end)
            for new in output
            if (old := originals.get(new.id)) is not None
        )
        self.starts = [pair[0] for pair in self.pairs]
        self.reach = list(accumulate((pair[1] for pair in self.pairs), max))
        self.ends = sorted((new_end, old_end) for _, new_end, _, old_end in self.pairs)
        self.new_ends = [new_end for new_end, _ in self.ends]
        self.limit = len(original.text)

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        # The first tag (in start order) holding the place's start, or its end, gives its span.
        holding = [
            k
            for k, before in (
                (bisect_right(self.reach, start), bisect_right(self.starts, start)),  # s <= start < e
                (bisect_left(self.reach, end), bisect_left(self.starts, end)),  # s < end <= e
            )
            if k < before
        ]
        if holding:
            _, _, old_start, old_end = self.pairs[min(holding)]
            return old_start, old_end
        # Outside every tag: moved by the growth of the tags that end before it.
        at = bisect_right(self.new_ends, start)
        delta = 0 if at == 0 else self.ends[at - 1][1] - self.ends[at - 1][0]
        return min(max(start + delta, 0), self.limit), min(max(end + delta, 0), self.limit)
