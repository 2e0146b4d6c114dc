"""Annotate all: find every other occurrence of an annotation's text and tag it the same.

Qt-free; the GUI's preview dialog shows a :class:`PropagationPreview` and applies the ticked
matches as one undo step.

API
---
``scope_documents(scope, current, corpus_documents) -> list[Document]``
    The documents to search: ``"document"`` (only ``current``), ``"patient"`` (every record
    of ``current``'s patient) or ``"project"`` (all of them).
``find_occurrences(source, documents, *, origin_doc_id, case_sensitive=False,
whole_word=True, fuzzy=False, fuzzy_threshold=85.0) -> PropagationPreview``
    Searches ``documents`` for ``source.text``. The preview sorts every hit into
    ``matches`` (exact, ticked), ``fuzzy`` (rapidfuzz ``fuzz.ratio`` >= threshold, never
    ticked), ``conflicts`` (overlaps an existing annotation of any type: reported, never
    applied) and ``already`` (an identical annotation exists: skipped). The source
    annotation itself is in none of them.
``build_propagation_commands(preview, documents_by_id, source, selected=None) -> list[Command]``
    One :class:`~annotator.core.history.AddAnnotation` per selected match (default: the
    matches whose ``selected`` flag is set), with the source's tag and type, provenance
    ``Source.PROPAGATED`` and a fresh id in its document. Matches that overlap an existing
    annotation (checked again now, in case the document changed) or an earlier selected
    match are left out: propagation never overwrites and never makes overlapping tags.
``apply_propagation(history, preview, documents_by_id, source, selected=None) -> Command | None``
    Builds the commands and pushes them as ONE undo step (a ``CompositeCommand`` described
    ``"annotate all"``), even across several documents.
``find_unannotated_occurrences(documents, scope="patient") -> list[Inconsistency]``
    Consistency check: every unannotated whole-word, case-insensitive occurrence of a string
    that is annotated as PHI elsewhere in the same patient's records (``"patient"``) or in the
    whole corpus (``"corpus"``).
``text_index(document) -> TextIndex``
    The cached lowercase text and token tables of a document (rebuilt when its text changes).

Matching rules
--------------
* Whole word: a match may not start or end inside a run of letters/digits; a source that
  starts or ends with punctuation is matched at that punctuation.
* Whitespace inside the source matches any run of whitespace (a name broken over two lines
  is still found).
* Fuzzy: windows of as many whitespace tokens as the source, edge punctuation trimmed,
  compared in lowercase with ``fuzz.ratio``; sources shorter than 4 characters are not
  searched fuzzily and windows equal to an exact match are skipped.

:class:`Match` keeps the matched text and its context for the dialog; its ``repr`` leaves
them out so a match printed to a log never shows note text.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from rapidfuzz import fuzz, process

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.history import AddAnnotation, Command, CompositeCommand, History
from annotator.core.span import Span
from annotator.errors import UsageError

Scope = Literal["document", "patient", "project"]
ConsistencyScope = Literal["patient", "corpus"]

CONTEXT_CHARS = 40
FUZZY_MIN_LENGTH = 4
_WHITESPACE_TOKEN = re.compile(r"\S+")
# Maximal letter/digit runs, or single other non-space characters: every whole-word
# occurrence of a string starts and ends on one of these token boundaries.
_WORD_TOKEN = re.compile(r"[^\W_]+|[^\w\s]|_")
_EDGE_PUNCTUATION = "\"'()[]{}<>,.;:!?*«»“”‘’"


def lower_same_length(text: str) -> str:
    """Lowercase ``text`` without changing its length (offsets stay valid).

    A few characters lowercase to two code points (``İ``); they are kept as they are.
    """
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


class TextIndex:
    """Per-document search caches: the lowercase text and token tables.

    Built lazily by :func:`text_index` and rebuilt whenever the document's text object
    changes, so repeated searches over a project do not lowercase or tokenise again.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.lower = lower_same_length(text)
        self._whitespace_tokens: list[tuple[int, int]] | None = None
        self._windows: dict[int, dict[str, list[tuple[int, int]]]] = {}
        self._word_tokens: list[tuple[int, str]] | None = None

    @property
    def whitespace_tokens(self) -> list[tuple[int, int]]:
        """``(start, end)`` of each whitespace-separated token, edge punctuation trimmed."""
        if self._whitespace_tokens is None:
            tokens: list[tuple[int, int]] = []
            lower = self.lower
            for match in _WHITESPACE_TOKEN.finditer(lower):
                start, end = match.span()
                while start < end and lower[start] in _EDGE_PUNCTUATION:
                    start += 1
                while end > start and lower[end - 1] in _EDGE_PUNCTUATION:
                    end -= 1
                if start < end:
                    tokens.append((start, end))
            self._whitespace_tokens = tokens
        return self._whitespace_tokens

    def windows(self, size: int) -> dict[str, list[tuple[int, int]]]:
        """Lowercase windows of ``size`` tokens (single-spaced) and where each occurs."""
        cached = self._windows.get(size)
        if cached is not None:
            return cached
        tokens = self.whitespace_tokens
        lower = self.lower
        found: dict[str, list[tuple[int, int]]] = {}
        for i in range(len(tokens) - size + 1):
            start = tokens[i][0]
            end = tokens[i + size - 1][1]
            key = lower[start:end] if size == 1 else " ".join(lower[s:e] for s, e in tokens[i : i + size])
            found.setdefault(key, []).append((start, end))
        self._windows[size] = found
        return found

    @property
    def word_tokens(self) -> list[tuple[int, str]]:
        """``(start, lowercase token)`` for letter/digit runs and single punctuation marks."""
        if self._word_tokens is None:
            self._word_tokens = [(m.start(), m.group()) for m in _WORD_TOKEN.finditer(self.lower)]
        return self._word_tokens


_INDEXES: weakref.WeakKeyDictionary[Document, TextIndex] = weakref.WeakKeyDictionary()


def text_index(document: Document) -> TextIndex:
    """The document's :class:`TextIndex`, rebuilt if its text changed since last time."""
    index = _INDEXES.get(document)
    if index is None or index.text is not document.text:
        index = TextIndex(document.text)
        _INDEXES[document] = index
    return index


@dataclass
class Match:
    """One occurrence found by :func:`find_occurrences`.

    Attributes
    ----------
    doc_id, start, end: where it is (code points, end-exclusive).
    text: the matched text (not shown in ``repr``).
    score: 100 for exact matches, the rapidfuzz ratio for fuzzy ones.
    left, right: up to ``CONTEXT_CHARS`` characters either side, line breaks as spaces, for
        the preview dialog (not shown in ``repr``; never log them).
    selected: ticked in the preview; True for exact matches, False for fuzzy ones.
    is_fuzzy: found by the fuzzy search.
    overlapping_ids: ids of existing annotations it overlaps (conflicts), or the id of the
        identical annotation (already annotated).
    """

    doc_id: str
    start: int
    end: int
    text: str = field(repr=False)
    score: float = 100.0
    left: str = field(default="", repr=False)
    right: str = field(default="", repr=False)
    selected: bool = True
    is_fuzzy: bool = False
    overlapping_ids: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.doc_id, self.start, self.end)


@dataclass
class PropagationPreview:
    """Everything "annotate all" found, sorted for the preview dialog."""

    matches: list[Match] = field(default_factory=list)
    fuzzy: list[Match] = field(default_factory=list)
    conflicts: list[Match] = field(default_factory=list)
    already: list[Match] = field(default_factory=list)

    @property
    def selected(self) -> list[Match]:
        """Matches (exact or fuzzy) currently ticked."""
        return [m for m in self.matches + self.fuzzy if m.selected]

    def counts(self) -> dict[str, int]:
        return {
            "matches": len(self.matches),
            "fuzzy": len(self.fuzzy),
            "conflicts": len(self.conflicts),
            "already": len(self.already),
        }


def scope_documents(scope: Scope, current: Document, corpus_documents: Sequence[Document]) -> list[Document]:
    """The documents "annotate all" searches for a scope (``current`` always included)."""
    if scope == "document":
        return [current]
    if scope == "patient":
        chosen = [d for d in corpus_documents if d.patient_id == current.patient_id]
    elif scope == "project":
        chosen = list(corpus_documents)
    else:
        raise UsageError(f"unknown scope {scope!r}: use document, patient or project")
    if not any(d is current for d in chosen):
        chosen = [d for d in chosen if d.doc_id != current.doc_id]
        chosen.insert(0, current)
    return chosen


def _is_alnum(char: str) -> bool:
    return char.isalnum()


def _word_bounded(text: str, start: int, end: int) -> bool:
    """True unless the span starts or ends inside a run of letters/digits."""
    if start > 0 and _is_alnum(text[start - 1]) and _is_alnum(text[start]):
        return False
    return not (end < len(text) and _is_alnum(text[end]) and _is_alnum(text[end - 1]))


def _pattern(needle: str, case_sensitive: bool) -> re.Pattern[str]:
    words = needle.split()
    body = r"\s+".join(re.escape(w if case_sensitive else lower_same_length(w)) for w in words)
    return re.compile(body)


def _context(text: str, start: int, end: int) -> tuple[str, str]:
    left = text[max(0, start - CONTEXT_CHARS) : start]
    right = text[end : end + CONTEXT_CHARS]
    table = str.maketrans("\n\r\t", "   ")
    return left.translate(table), right.translate(table)


def _sorted_spans(document: Document) -> list[Annotation]:
    return sorted(document.annotations, key=lambda a: (a.start, a.end))


def _classify(
    document: Document,
    start: int,
    end: int,
    source: Annotation,
    by_start: list[Annotation],
) -> tuple[str, tuple[str, ...]]:
    """``"free"``, ``"already"`` or ``"conflict"`` with the ids concerned."""
    overlapping = [a for a in by_start if a.start < end and start < a.end] if by_start else []
    if not overlapping:
        return "free", ()
    for annotation in overlapping:
        if (
            annotation.start == start
            and annotation.end == end
            and annotation.tag == source.tag
            and annotation.type == source.type
        ):
            return "already", (annotation.id,)
    return "conflict", tuple(a.id for a in overlapping)


def find_occurrences(
    source: Annotation,
    documents: Sequence[Document],
    *,
    origin_doc_id: str,
    case_sensitive: bool = False,
    whole_word: bool = True,
    fuzzy: bool = False,
    fuzzy_threshold: float = 85.0,
) -> PropagationPreview:
    """Find every occurrence of ``source.text`` in ``documents`` for "annotate all".

    Parameters
    ----------
    source:
        The annotation to propagate (its text, tag and type).
    documents:
        The scope, see :func:`scope_documents`.
    origin_doc_id:
        The document ``source`` belongs to; its own span is not reported.
    case_sensitive, whole_word:
        Matching options for the exact search.
    fuzzy, fuzzy_threshold:
        Also offer near matches with ``fuzz.ratio >= fuzzy_threshold`` (0-100), unticked.

    Returns
    -------
    PropagationPreview
    """
    preview = PropagationPreview()
    needle = source.text
    if not needle.strip():
        return preview
    pattern = _pattern(needle, case_sensitive)
    needle_words = lower_same_length(needle).split()
    do_fuzzy = fuzzy and len(needle.strip()) >= FUZZY_MIN_LENGTH
    fuzzy_query = " ".join(needle_words)
    for document in documents:
        index = text_index(document)
        haystack = document.text if case_sensitive else index.lower
        text = document.text
        exact_spans: set[tuple[int, int]] = set()
        by_start: list[Annotation] | None = None
        for found in pattern.finditer(haystack):
            start, end = found.span()
            if whole_word and not _word_bounded(text, start, end):
                continue
            exact_spans.add((start, end))
            if document.doc_id == origin_doc_id and start == source.start and end == source.end:
                continue
            if by_start is None:
                by_start = _sorted_spans(document)
            kind, ids = _classify(document, start, end, source, by_start)
            left, right = _context(text, start, end)
            match = Match(
                document.doc_id, start, end, text[start:end], 100.0, left, right, kind == "free", False, ids
            )
            if kind == "free":
                preview.matches.append(match)
            elif kind == "already":
                match.selected = False
                preview.already.append(match)
            else:
                match.selected = False
                preview.conflicts.append(match)
        if not do_fuzzy:
            continue
        windows = index.windows(len(needle_words))
        hits = process.extract(
            fuzzy_query, list(windows), scorer=fuzz.ratio, score_cutoff=fuzzy_threshold, limit=None
        )
        for window, score, _ in hits:
            for start, end in windows[window]:
                if (start, end) in exact_spans:
                    continue
                if document.doc_id == origin_doc_id and start == source.start and end == source.end:
                    continue
                # Same letters in another case: the case option decides, not the fuzzy search.
                if window == fuzzy_query:
                    continue
                if by_start is None:
                    by_start = _sorted_spans(document)
                kind, ids = _classify(document, start, end, source, by_start)
                left, right = _context(text, start, end)
                match = Match(
                    document.doc_id, start, end, text[start:end], float(score), left, right, False, True, ids
                )
                if kind == "free":
                    preview.fuzzy.append(match)
                elif kind == "already":
                    preview.already.append(match)
                else:
                    preview.conflicts.append(match)
    preview.fuzzy.sort(key=lambda m: (-m.score, m.doc_id, m.start))
    return preview


def build_propagation_commands(
    preview: PropagationPreview,
    documents_by_id: Mapping[str, Document],
    source: Annotation,
    selected: Iterable[Match] | None = None,
    *,
    annotator: str | None = None,
) -> list[Command]:
    """Commands adding the source's tag at every selected match.

    Parameters
    ----------
    preview:
        What :func:`find_occurrences` returned (its ticked matches are the default).
    documents_by_id:
        The documents the matches point into.
    source:
        The annotation being propagated (tag and type are copied).
    selected:
        The matches to apply; default ``preview.selected``. Conflicts are never applied.
    annotator:
        Recorded on the new tags; default the source's annotator.
    """
    chosen = list(preview.selected if selected is None else selected)
    conflict_keys = {m.key for m in preview.conflicts} | {m.key for m in preview.already}
    by_document: dict[str, list[Match]] = {}
    for match in chosen:
        if match.key in conflict_keys:
            continue
        by_document.setdefault(match.doc_id, []).append(match)
    who = source.annotator if annotator is None else annotator
    commands: list[Command] = []
    for doc_id, matches in by_document.items():
        document = documents_by_id.get(doc_id)
        if document is None:
            raise UsageError(f"annotate all: document {doc_id} is not open")
        taken = [a.span for a in document.annotations]
        for match in sorted(matches, key=lambda m: (m.start, m.end)):
            if not 0 <= match.start < match.end <= len(document.text):
                continue
            span = Span(match.start, match.end)
            if any(span.overlaps(other) for other in taken):
                continue
            taken.append(span)
            annotation = document.make_annotation(
                source.tag, source.type, match.start, match.end, source=Source.PROPAGATED, annotator=who
            )
            commands.append(AddAnnotation(document, annotation))
    return commands


def apply_propagation(
    history: History,
    preview: PropagationPreview,
    documents_by_id: Mapping[str, Document],
    source: Annotation,
    selected: Iterable[Match] | None = None,
    *,
    annotator: str | None = None,
) -> Command | None:
    """Apply the selected matches as one undo step (``None`` when nothing is applied)."""
    commands = build_propagation_commands(preview, documents_by_id, source, selected, annotator=annotator)
    if not commands:
        return None
    # Always a composite, even for one tag, so the undo menu says "annotate all".
    return history.push(CompositeCommand(commands, "annotate all"))


# -- consistency: unannotated occurrences of annotated strings ---------------------------


@dataclass(frozen=True)
class Inconsistency:
    """An unannotated occurrence of a string annotated as PHI elsewhere in the scope.

    Attributes
    ----------
    doc_id, start, end: the unannotated occurrence.
    text: its text (not shown in ``repr``).
    types: ``(category, type)`` pairs the string got elsewhere, most frequent first.
    annotated_at: ``(doc_id, annotation_id)`` of every annotation of that string in scope.
    scope: the patient id, or ``"corpus"``.
    """

    doc_id: str
    start: int
    end: int
    text: str = field(repr=False)
    types: tuple[tuple[str, str], ...] = ()
    annotated_at: tuple[tuple[str, str], ...] = ()
    scope: str = ""

    @property
    def suggested(self) -> tuple[str, str]:
        """The category and type the string got most often."""
        return self.types[0]


def _worth_checking(text: str) -> bool:
    stripped = text.strip()
    return len(stripped) >= 2 and any(c.isalnum() for c in stripped)


def find_unannotated_occurrences(
    documents: Sequence[Document], scope: ConsistencyScope = "patient"
) -> list[Inconsistency]:
    """Every unannotated occurrence of a string annotated as PHI elsewhere in its scope.

    Matching is whole word and case-insensitive; an occurrence counts as annotated when any
    annotation overlaps it. Strings shorter than 2 characters or without a letter or digit
    are skipped.

    Parameters
    ----------
    documents:
        The corpus (any order).
    scope:
        ``"patient"``: compare each patient's records among themselves; ``"corpus"``: all.

    Returns
    -------
    list[Inconsistency]
        Ordered by document id, then offset.
    """
    if scope not in ("patient", "corpus"):
        raise UsageError(f"unknown consistency scope {scope!r}: use patient or corpus")
    groups: dict[str, list[Document]] = {}
    for document in documents:
        key = document.patient_id if scope == "patient" else "corpus"
        groups.setdefault(key, []).append(document)
    found: list[Inconsistency] = []
    for group_key, group in groups.items():
        found.extend(_group_inconsistencies(group_key, group))
    found.sort(key=lambda i: (i.doc_id, i.start, i.end))
    return found


def _group_inconsistencies(group_key: str, group: Sequence[Document]) -> list[Inconsistency]:
    # Annotated strings (lowercase) -> type counts and where they were annotated.
    types: dict[str, dict[tuple[str, str], int]] = {}
    where: dict[str, list[tuple[str, str]]] = {}
    for document in group:
        for annotation in document.annotations:
            text = document.text[annotation.start : annotation.end].strip()
            if not _worth_checking(text):
                continue
            key = lower_same_length(text)
            counts = types.setdefault(key, {})
            counts[(annotation.tag, annotation.type)] = counts.get((annotation.tag, annotation.type), 0) + 1
            where.setdefault(key, []).append((document.doc_id, annotation.id))
    if not types:
        return []
    # Index the strings by their first token: a whole-word occurrence starts on a token.
    by_first: dict[str, list[str]] = {}
    for key in types:
        first = _WORD_TOKEN.search(key)
        if first is None:
            continue
        by_first.setdefault(first.group(), []).append(key)
    summaries = {
        key: (
            tuple(sorted(counts, key=lambda t: (-counts[t], t))),
            tuple(where[key]),
        )
        for key, counts in types.items()
    }
    found: list[Inconsistency] = []
    for document in group:
        index = text_index(document)
        lower = index.lower
        text = document.text
        covered = _coverage(document)
        for token_start, token in index.word_tokens:
            candidates = by_first.get(token)
            if candidates is None:
                continue
            for key in candidates:
                start = token_start
                end = start + len(key)
                if not lower.startswith(key, start):
                    continue
                if not _word_bounded(text, start, end):
                    continue
                if _is_covered(covered, start, end):
                    continue
                kinds, places = summaries[key]
                found.append(
                    Inconsistency(document.doc_id, start, end, text[start:end], kinds, places, group_key)
                )
    return found


def _coverage(document: Document) -> bytearray:
    covered = bytearray(len(document.text) + 1)
    for annotation in document.annotations:
        covered[annotation.start : annotation.end] = b"\x01" * (annotation.end - annotation.start)
    return covered


def _is_covered(covered: bytearray, start: int, end: int) -> bool:
    return any(covered[start:end])
