"""Character spans: 0-based, end-exclusive, counted in Unicode code points."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A half-open range ``[start, end)`` of code points in a note's text."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if self.start < 0 or self.end < self.start:
            raise ValueError(f"invalid span {self.start}-{self.end}")

    def __len__(self) -> int:
        return self.end - self.start

    def overlaps(self, other: Span) -> bool:
        """True when the two spans share at least one code point."""
        # An empty span holds no code point, so it overlaps nothing (not even a span around it).
        return (
            self.start < other.end
            and other.start < self.end
            and self.start < self.end
            and other.start < other.end
        )

    def contains(self, other: Span) -> bool:
        return self.start <= other.start and other.end <= self.end

    def shifted(self, delta: int) -> Span:
        return Span(self.start + delta, self.end + delta)

    def text_of(self, text: str) -> str:
        return text[self.start : self.end]


class SpanIndex:
    """Ranges ``(start, end)`` sorted once, so that asking whether any of them overlaps or
    contains a range costs O(log n): scanning a long note's matches against its thousands of
    tags stays linear in the note."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self._starts = [start for start, _ in ordered]
        # The furthest end among the spans sorted so far: the spans starting before a point
        # reach past it exactly when this prefix maximum does.
        self._reach = list(accumulate((end for _, end in ordered), max))

    def overlaps(self, start: int, end: int) -> bool:
        """Some range ``(s, e)`` has ``s < end`` and ``e > start``."""
        before = bisect_left(self._starts, end)
        return before > 0 and self._reach[before - 1] > start

    def covers(self, start: int, end: int) -> bool:
        """Some range ``(s, e)`` has ``s <= start`` and ``end <= e``."""
        before = bisect_right(self._starts, start)
        return before > 0 and self._reach[before - 1] >= end


def offsets_problem(start: int, end: int, length: int) -> str | None:
    """What is wrong with a tag's offsets in a text of ``length`` code points, said plainly
    (``"offsets 3587-3578 end before they start"``), or None when they fit."""
    if start > end:
        return f"offsets {start}-{end} end before they start"
    if start < 0 or end > length:
        return f"offsets {start}-{end} outside the text (length {length})"
    return None


def blank_line_start(text: str, offset: int) -> int | None:
    """Where the line holding ``offset`` starts, when only white space stands on it before
    ``offset``; else None. Read back from ``offset``, never forward from the line's start:
    on a note of one line a million characters long, that would be a scan for every call."""
    at = offset
    while at > 0 and text[at - 1] != "\n" and text[at - 1].isspace():
        at -= 1
    return at if at == 0 or text[at - 1] == "\n" else None
