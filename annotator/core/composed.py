"""Notes read as a reader sees them, with a way back to the offsets of the note as written.

A letter with an accent can be one character (``ñ``, as most editors write it) or a letter
followed by a combining mark (``n`` + U+0303, as some exports and macOS file systems write it).
A word can hold characters nobody sees: a soft hyphen or a zero-width space left by a word
processor or a web page (``Hen\u00addrickson``). Each looks like the plain word, but a rule
that splits words at non-letters reads ``Nun`` and ``ez``, or ``Hen`` and ``drickson``. The
tagger and the leak check read notes composed and without those characters, so a name written
one way and left the other way is still the same name; each place found is mapped back.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from dataclasses import dataclass

from annotator.core.document import Document

# Characters with no width or glyph in running text: the soft hyphen, zero-width space and
# joiners, the word joiner and invisible operators, direction marks and embeddings, the BOM.
_INVISIBLE_CODES = (0x00AD, *range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2060, 0x2065))
_INVISIBLE = "".join(map(chr, (*_INVISIBLE_CODES, *range(0x2066, 0x206A), 0xFEFF)))
INVISIBLE_CLASS = f"[{_INVISIBLE}]"  # a regular-expression class of them
_HAS_INVISIBLE = re.compile(INVISIBLE_CLASS)


@dataclass(frozen=True)
class ComposedText:
    """``text`` composed, with where each of its characters lies in the text as written:
    ``starts[i]`` and ``ends[i]`` (``starts`` has one entry more, the written text's length).
    The characters of a letter and marks that composition changed all lie at the whole of it."""

    text: str
    starts: array[int] | None  # None: the text needed nothing; offsets are the same
    ends: array[int] | None = None

    def to_written(self, offset: int) -> int:
        """A span's start (or any boundary before a character) in the text as written."""
        return offset if self.starts is None else self.starts[offset]

    def to_written_end(self, offset: int) -> int:
        """A span's end in the text as written: after its last character's marks, before any
        invisible character that follows it."""
        if self.ends is None or self.starts is None:
            return offset
        return self.ends[offset - 1] if offset > 0 else self.starts[0]


def is_plain(text: str) -> bool:
    """Whether ``text`` is already composed and holds no invisible character (most notes)."""
    return unicodedata.is_normalized("NFC", text) and not _HAS_INVISIBLE.search(text)


def compose(text: str) -> ComposedText:
    """``text`` with every letter and the combining marks after it composed where Unicode has
    one character for them, and without invisible characters; a text that has neither to do is
    returned as it is (the usual case)."""
    if is_plain(text):
        return ComposedText(text, None)
    pieces: list[str] = []
    starts, ends = array("i"), array("i")
    size = len(text)
    start = 0
    while start < size:
        end = start + 1
        while end < size and (unicodedata.combining(text[end]) or _HAS_INVISIBLE.match(text[end])):
            end += 1
        seen = [i for i in range(start, end) if not _HAS_INVISIBLE.match(text[i])]
        written = "".join(text[i] for i in seen)
        cluster = _nfc(written)
        if cluster == written:
            # Nothing composed: each character at its own place.
            starts.extend(seen)
            ends.extend(i + 1 for i in seen)
        elif cluster:
            # A letter and its marks are read as one: which composed character came from
            # which mark cannot be told once marks are reordered, composed in part ("a" +
            # acute + grave gives "á" + grave) or a character written as two (U+0958), so each
            # character of the cluster stands for all of it, and no span cuts a letter from
            # its marks.
            starts.extend([seen[0]] * len(cluster))
            ends.extend([seen[-1] + 1] * len(cluster))
        pieces.append(cluster)
        start = end
    starts.append(size)
    return ComposedText("".join(pieces), starts, ends)


# Beyond a few marks, CPython's NFC reorders them one swap at a time: 60,000 marks in no
# canonical order took seconds, a few hundred kilobytes of them (a hostile note) minutes.
_FEW_MARKS = 16


def _nfc(cluster: str) -> str:
    """``cluster`` (a letter and its marks) in NFC, in linear time however many marks it has."""
    if len(cluster) <= _FEW_MARKS:
        return unicodedata.normalize("NFC", cluster)
    # Decomposed character by character (each decomposition is in canonical order), the marks
    # put in canonical order by a stable sort on their class: the same text NFD would give,
    # which NFC then composes without reordering anything.
    decomposed = "".join(unicodedata.normalize("NFD", char) for char in cluster)
    return unicodedata.normalize("NFC", _canonical_order(decomposed))


def _canonical_order(decomposed: str) -> str:
    """Each run of combining marks stably sorted by combining class (Unicode's canonical
    ordering), in O(n log n)."""
    out: list[str] = []
    run: list[str] = []
    for char in decomposed:
        if unicodedata.combining(char):
            run.append(char)
            continue
        out.extend(sorted(run, key=unicodedata.combining))
        run.clear()
        out.append(char)
    out.extend(sorted(run, key=unicodedata.combining))
    return "".join(out)


def composed_document(document: Document) -> tuple[Document, ComposedText]:
    """The document composed: its text, and its tags' offsets and texts moved with it."""
    composed = compose(document.text)
    if composed.starts is None:
        return document, composed
    to_composed = _inverse(composed.starts, len(document.text))
    annotations = [
        a.replace(
            start=to_composed[a.start],
            end=to_composed[a.end],
            text=compose(a.text).text,
        )
        for a in document.annotations
    ]
    result = Document(document.doc_id, composed.text, annotations, document.origin)
    result.patient_id, result.record = document.patient_id, document.record
    return result, composed


def _inverse(origin: array[int], size: int) -> array[int]:
    """For each offset of the written text, the composed offset of the boundary at or after
    it (a tag's edge inside a composed cluster moves to the cluster's end)."""
    inverse = array("i", [0] * (size + 1))
    position = len(origin) - 1
    for written in range(size, -1, -1):
        while position > 0 and origin[position - 1] >= written:
            position -= 1
        inverse[written] = position
    return inverse


__all__ = ["INVISIBLE_CLASS", "ComposedText", "compose", "composed_document", "is_plain"]
