"""Tokens that keep their character offsets, with line and section context.

PHI often sits inside what a whitespace tokeniser would call one token: ``70yoM`` holds an
age, ``MRN:12345`` an identifier, ``3041023MARY`` an id and a hospital (seed 003). So the
tokeniser splits letter runs from digit runs, a lower-case run from a following capital
(``yoM`` -> ``yo``, ``M``), and every punctuation mark into its own token. Offsets are code
points into the note text, end-exclusive, like every span in the tool.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

# Letter runs, digit runs, or one other non-space character. A letter run ends before a
# capital that follows a lower-case letter (``yoM`` -> ``yo``, ``M``): a letter continues
# the run when the one before it is not lower-case a-z, or when it is not a capital A-Z.
_PIECE = re.compile(r"[^\W\d_](?:(?<![a-z])[^\W\d_]|[^\W\d_A-Z])*|\d+|[^\w\s]|_", re.UNICODE)
_HEADING_WORDS = re.compile(r"[A-Za-z]+")
_MAX_HEADING_WORDS = 6


class Token(NamedTuple):
    """One token of a note (a named tuple: a note makes one per word, and a tuple is built
    several times faster than a frozen dataclass).

    Attributes
    ----------
    text: the token's characters, ``note[start:end]``.
    start, end: code-point offsets, end-exclusive.
    line: 0-based line index.
    section: the normalised heading of the section the token is in ("" before any).
    in_heading: the token is part of a heading line (or of an inline heading prefix).
    line_start: the token is the first one on its line.
    space_before: whitespace separates the token from the previous one.
    """

    text: str
    start: int
    end: int
    line: int
    section: str = ""
    in_heading: bool = False
    line_start: bool = False
    space_before: bool = True


def _heading_of(line: str) -> tuple[str, int] | None:
    """The normalised heading a line opens, and where the heading part ends (line-relative).

    A heading is a short line ending in ":" (``Social History:``), an upper-case line
    (``PHYSICAL EXAMINATION``), or an upper-case prefix ending in ":" followed by text
    (``HPI: 70yo man ...``).
    """
    stripped = line.strip()
    if not stripped:
        return None
    words = _HEADING_WORDS.findall(stripped)
    if not words:
        return None
    if stripped.endswith(":") and len(words) <= _MAX_HEADING_WORDS:
        return _normalise(words), len(line.rstrip())
    letters = "".join(words)
    if letters.isupper() and len(letters) >= 3 and len(words) <= _MAX_HEADING_WORDS + 2:
        return _normalise(words), len(line.rstrip())
    colon = line.find(":")
    if colon > 0:
        prefix_words = _HEADING_WORDS.findall(line[:colon])
        prefix = "".join(prefix_words)
        if prefix_words and prefix.isupper() and len(prefix) >= 2 and len(prefix_words) <= _MAX_HEADING_WORDS:
            return _normalise(prefix_words), colon + 1
    return None


def _normalise(words: list[str]) -> str:
    return " ".join(w.lower() for w in words[:3])


def tokenize(text: str) -> list[Token]:
    """Split a note into tokens with offsets, line index and section heading.

    Parameters
    ----------
    text:
        The note text (LF line endings).

    Returns
    -------
    list[Token]
        In text order; ``text[t.start:t.end] == t.text`` for every token.
    """
    return list(iter_tokens(text))


def iter_tokens(text: str) -> Iterator[Token]:
    """The tokens of :func:`tokenize`, one at a time (a long note never sits in memory as tokens)."""
    section = ""
    line_offset = 0
    previous_end = -1
    line_index = 0
    while line_offset <= len(text):
        newline = text.find("\n", line_offset)
        line_end = len(text) if newline < 0 else newline
        line = text[line_offset:line_end]
        heading = _heading_of(line)
        heading_end = -1
        if heading is not None:
            section, heading_end = heading
        first = True
        for match in _PIECE.finditer(line):
            part = match.group()
            relative = match.start()
            start = line_offset + relative
            end = start + len(part)
            yield Token(
                part, start, end, line_index, section, relative < heading_end, first, start != previous_end
            )
            previous_end = end
            first = False
        line_offset = line_end + 1
        line_index += 1


_LETTERS = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=4)
def note_words(text: str) -> frozenset[str]:
    """The note's words (runs of letters), lower-cased.

    A rule pattern none of whose key words is among them cannot match and is not run: most
    patterns' key words are in few notes, and a regular expression scan costs more than this.
    """
    return frozenset(_LETTERS.findall(text.lower()))
