"""Character spans: 0-based, end-exclusive, counted in Unicode code points."""

from __future__ import annotations

from dataclasses import dataclass


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
