"""CoNLL BIO export: one token per line, ``token start end label``.

Tokens are runs of non-space characters, further split at annotation boundaries so that
every annotation is a whole number of tokens; each line of the note is a sentence
(a blank line between them). Labels are ``B-TYPE``, ``I-TYPE`` or ``O``; a document
starts with ``-DOCSTART- <doc_id>``. Export only: the format loses what is between tokens.
Where annotations overlap, the one that starts first (then the longer) labels the tokens.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from annotator.core.annotation import Annotation
from annotator.core.atomic import atomic_write
from annotator.core.document import Document
from annotator.errors import StorageError
from annotator.io.i2b2 import shown_label

_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int
    label: str


def document_tokens(document: Document) -> list[list[Token]]:
    """Sentences (lines of the note) of labelled tokens."""
    annotations = sorted(document.annotations, key=lambda a: (a.start, -a.end, a.id))
    cuts = sorted({a.start for a in annotations} | {a.end for a in annotations})
    sentences: list[list[Token]] = []
    text = document.text
    cut_index = 0
    covering = _Cover(annotations)
    line_start = 0
    for line in text.split("\n"):
        tokens: list[Token] = []
        for match in _TOKEN.finditer(line):
            start, end = line_start + match.start(), line_start + match.end()
            while cut_index < len(cuts) and cuts[cut_index] <= start:
                cut_index += 1
            pieces = [start]
            index = cut_index
            while index < len(cuts) and cuts[index] < end:
                pieces.append(cuts[index])
                index += 1
            pieces.append(end)
            for piece_start, piece_end in itertools.pairwise(pieces):
                annotation, first = covering.at(piece_start)
                label = "O" if annotation is None else ("B-" if first else "I-") + annotation.type
                tokens.append(Token(text[piece_start:piece_end], piece_start, piece_end, label))
        if tokens:
            sentences.append(tokens)
        line_start += len(line) + 1
    return sentences


class _Cover:
    """Which annotation labels a token, walking tokens left to right."""

    def __init__(self, annotations: list[Annotation]) -> None:
        self._annotations = [a for a in annotations if a.start < a.end]
        self._index = 0
        self._current: Annotation | None = None
        self._seen_current = False

    def at(self, position: int) -> tuple[Annotation | None, bool]:
        if self._current is not None and position >= self._current.end:
            self._current = None
        if self._current is None:
            while self._index < len(self._annotations) and self._annotations[self._index].end <= position:
                self._index += 1
            if self._index < len(self._annotations) and self._annotations[self._index].start <= position:
                self._current = self._annotations[self._index]
                self._index += 1
                self._seen_current = False
        if self._current is None:
            return None, False
        first = not self._seen_current
        self._seen_current = True
        return self._current, first


def document_to_conll(document: Document) -> str:
    for annotation in document.annotations:
        if not annotation.type or any(c.isspace() for c in annotation.type):
            # One token per line, columns split at spaces: such a label would shift them.
            raise StorageError(
                f"document {document.doc_id}: TYPE {shown_label(annotation.type)} cannot be a CoNLL "
                "label, which is one word (nothing written)",
                document.origin.path,
            )
    lines = [f"-DOCSTART- {document.doc_id}", ""]
    for sentence in document_tokens(document):
        lines.extend(f"{t.text} {t.start} {t.end} {t.label}" for t in sentence)
        lines.append("")
    return "\n".join(lines) + "\n"


def documents_to_conll(documents: Iterable[Document]) -> bytes:
    return "".join(document_to_conll(d) for d in documents).encode("utf-8")


def write_conll(documents: Iterable[Document], path: str | Path) -> None:
    """Export documents as one CoNLL BIO file, atomically."""
    atomic_write(path, documents_to_conll(documents))


def conll_spans(content: str) -> dict[str, list[tuple[int, int, str]]]:
    """The labelled spans of each document of a CoNLL export (to check it against the source)."""
    spans: dict[str, list[tuple[int, int, str]]] = {}
    current: list[tuple[int, int, str]] = []
    for line in content.split("\n"):
        if line.startswith("-DOCSTART- "):
            current = spans.setdefault(line[len("-DOCSTART- ") :], [])
            continue
        if not line:
            continue
        _token, start, end, label = line.rsplit(" ", 3)
        if label.startswith("B-"):
            current.append((int(start), int(end), label[2:]))
        elif label.startswith("I-") and current and current[-1][2] == label[2:]:
            current[-1] = (current[-1][0], int(end), label[2:])
    return spans
