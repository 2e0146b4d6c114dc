"""Bounded pieces of a note, so tagging and training memory does not grow with its length.

A 9 MB note is two million tokens; their feature dictionaries alone would take gigabytes.
So a note is cut into *chunks* of whole lines (about :data:`CHUNK_CHARS` characters; a line
longer than twice that is cut at a space; a run four times that long with no space, or
of as many tokens as a chunk's characters, anywhere). Each chunk carries :data:`CONTEXT_TOKENS` tokens of
its neighbours on both sides: every feature looks at most three tokens away (window, trigger
phrases), multi-token templates and lexicon phrases are shorter than the context, and the
CRF's Viterbi path settles within a few tokens, so the chunk's own (*core*) tokens get the
features and labels they would get in the whole note. Only the core is kept.

Notes shorter than a chunk (nearly all) are one chunk with no context: tagging them is
exactly what it was before chunking.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice

from annotator.core.annotation import Annotation
from annotator.crf.tokenizer import Token, iter_tokens

CHUNK_CHARS = 20_000
CONTEXT_TOKENS = 24


@dataclass(frozen=True, slots=True)
class Chunk:
    """Tokens of a note piece with context: ``tokens[core_start:core_end]`` are its own."""

    tokens: list[Token]
    core_start: int
    core_end: int

    @property
    def core(self) -> list[Token]:
        return self.tokens[self.core_start : self.core_end]


def _cut_before(first: Token, token: Token, max_chars: int) -> bool:
    span = token.start - first.start
    return (
        (span >= max_chars and token.line_start)
        or (span >= 2 * max_chars and token.space_before)
        # A run with no space is cut anywhere: one chunk of 200 KB of "-" took 1 GB of features.
        or span >= 4 * max_chars
    )


def iter_chunks(text: str, max_chars: int = CHUNK_CHARS, context: int = CONTEXT_TOKENS) -> Iterator[Chunk]:
    """The note's chunks in order; their cores together are ``tokenize(text)``."""
    stream = iter_tokens(text)
    left: list[Token] = []
    core: list[Token] = []
    for token in stream:
        # As many tokens as characters ("-" after "-"): memory goes by tokens, so cut anywhere.
        if core and (_cut_before(core[0], token, max_chars) or len(core) >= max_chars):
            ahead = [token, *islice(stream, context - 1)] if context > 0 else [token]
            yield Chunk(left + core + ahead[:context], len(left), len(left) + len(core))
            left = (left + core)[-context:] if context > 0 else []
            core = ahead
            continue
        core.append(token)
    if core:
        yield Chunk(left + core, len(left), len(left) + len(core))


class AnnotationIndex:
    """A document's annotations sorted by start, to pick those near a chunk in O(log n)."""

    def __init__(self, annotations: Sequence[Annotation]) -> None:
        self._sorted = sorted(annotations, key=lambda a: (a.start, -(a.end - a.start)))
        self._starts = [a.start for a in self._sorted]
        self._longest = max((a.end - a.start for a in self._sorted), default=0)

    def overlapping(self, start: int, end: int) -> list[Annotation]:
        """Annotations overlapping ``[start, end)``, in start order."""
        low = bisect.bisect_left(self._starts, start - self._longest)
        high = bisect.bisect_left(self._starts, end)
        return [a for a in self._sorted[low:high] if a.end > start]
