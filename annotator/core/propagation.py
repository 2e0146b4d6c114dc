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
``build_propagation_commands(preview, documents_by_id, source, selected=None, *, annotator=None)
-> list[Command]``
    One :class:`~annotator.core.history.AddAnnotation` per selected match (default: the
    matches whose ``selected`` flag is set), with the source's tag and type, provenance
    ``Source.PROPAGATED`` and a fresh id in its document. Matches that overlap an existing
    annotation (checked again now, in case the document changed) or an earlier selected
    match are left out: propagation never overwrites and never makes overlapping tags.
    ``annotator`` is recorded on the new tags (default: the source's annotator).
``apply_propagation(history, preview, documents_by_id, source, selected=None, *, annotator=None)
-> Command | None``
    Builds the commands and pushes them as ONE undo step (a ``CompositeCommand`` described
    ``"annotate all"``), even across several documents.
``find_unannotated_occurrences(documents, scope="patient", *, case_sensitive=False,
min_length=2) -> list[Inconsistency]``
    Consistency check: every unannotated whole-word, case-insensitive occurrence of a string
    that is annotated as PHI elsewhere in the same patient's records (``"patient"``) or in the
    whole corpus (``"corpus"``). ``Inconsistency``: doc_id, start, end, text, types (the
    (category, type) pairs the string got, most frequent first), annotated_at ((doc_id,
    annotation id) pairs), scope, ``suggested``.
``text_index(document) -> TextIndex``
    The cached lowercase text and token tables of a document (rebuilt when its text changes).
``prepare_indexes(documents, *, fuzzy=True, progress=None, cancelled=None)``
    Builds those caches ahead of the first search (for a worker thread);
    ``clear_indexes()`` drops them.

Matching rules
--------------
* Whole word: a match may not start or end inside a run of letters/digits; a source that
  starts or ends with punctuation is matched at that punctuation.
* Whitespace inside the source matches any run of whitespace (a name broken over two lines
  is still found).
* Fuzzy: windows of as many whitespace tokens as the source, edge punctuation trimmed,
  compared in lowercase with ``fuzz.ratio``; sources shorter than 4 characters are not
  searched fuzzily and windows overlapping an exact match are skipped.

:class:`Match` keeps the matched text and its context for the dialog; its ``repr`` leaves
them out so a match printed to a log never shows note text.
"""

from __future__ import annotations

import re
import weakref
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from rapidfuzz import fuzz, process

from annotator.core.annotation import Annotation, Source
from annotator.core.composed import ComposedText, compose, is_plain
from annotator.core.document import Document
from annotator.core.history import AddAnnotation, Command, CompositeCommand, History, ReplaceAnnotation
from annotator.errors import UsageError

Scope = Literal["document", "patient", "project"]
ConsistencyScope = Literal["patient", "corpus"]

CONTEXT_CHARS = 40
FUZZY_MIN_LENGTH = 4
# Maximal letter/digit runs, or single other non-space characters: every whole-word
# occurrence of a string starts and ends on one of these token boundaries.
_WORD_TOKEN = re.compile(r"[^\W_]+|[^\w\s]|_")
_EDGE_PUNCTUATION = "\"'()[]{}<>,.;:!?*«»“”‘’"
# A whitespace-separated token without its edge punctuation (all-punctuation tokens skipped).
_FUZZY_TOKEN = re.compile(rf"[^\s{re.escape(_EDGE_PUNCTUATION)}](?:\S*[^\s{re.escape(_EDGE_PUNCTUATION)}])?")
_FLATTEN = str.maketrans("\n\r\t\f\v", "     ")


def lower_same_length(text: str) -> str:
    """Lowercase ``text`` without changing its length (offsets stay valid).

    A few characters lowercase to two code points (``İ``); they are kept as they are.
    """
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


class TextIndex:
    """Per-document search caches: the lowercase text and the fuzzy-search token table.

    Built lazily by :func:`text_index` and rebuilt whenever the document's text object
    changes, so repeated searches over a project do not lowercase or tokenise again. Token
    offsets are kept in compact arrays; fuzzy windows are sliced per search rather than
    stored, which would cost ~100 MB of strings for a 2,000-document project.
    """

    __slots__ = ("__weakref__", "_composed", "_composed_lower", "_flat", "_plain", "_spans", "lower", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.lower = lower_same_length(text)
        self._flat: str | None = None
        self._plain: bool | None = None
        self._composed: ComposedText | None = None
        self._composed_lower: str | None = None
        # One attribute, set in one step: a worker thread may warm the cache meanwhile.
        self._spans: tuple[array[int], array[int]] | None = None

    @property
    def plain(self) -> bool:
        """Whether the text is composed and holds no invisible character (most notes): then
        it is searched as it is, without composing it first."""
        if self._plain is None:
            self._plain = is_plain(self.text)
        return self._plain

    @property
    def composed(self) -> ComposedText:
        """The text as a reader sees it (see :mod:`annotator.core.composed`)."""
        if self._composed is None:
            self._composed = compose(self.text)
        return self._composed

    @property
    def composed_lower(self) -> str:
        if self._composed_lower is None:
            self._composed_lower = lower_same_length(self.composed.text)
        return self._composed_lower

    @property
    def flat(self) -> str:
        """The lowercase text with every line break or tab turned into a space."""
        if self._flat is None:
            self._flat = self.lower.translate(_FLATTEN)
        return self._flat

    def token_spans(self) -> tuple[array[int], array[int]]:
        """Starts and ends of the whitespace-separated tokens, edge punctuation trimmed."""
        if self._spans is None:
            spans = [m.span() for m in _FUZZY_TOKEN.finditer(self.lower)]
            self._spans = (array("q", [start for start, _ in spans]), array("q", [end for _, end in spans]))
        return self._spans

    def windows(self, size: int) -> list[str]:
        """Window ``i`` is tokens ``i`` to ``i + size - 1`` of :attr:`flat` (see :meth:`window_span`)."""
        starts, ends = self.token_spans()
        flat = self.flat
        return [flat[start:end] for start, end in zip(starts, ends[size - 1 :], strict=False)]

    def window_span(self, index: int, size: int) -> tuple[int, int]:
        starts, ends = self.token_spans()
        return starts[index], ends[index + size - 1]


_INDEXES: weakref.WeakKeyDictionary[Document, TextIndex] = weakref.WeakKeyDictionary()


def text_index(document: Document) -> TextIndex:
    """The document's :class:`TextIndex`, rebuilt if its text changed since last time."""
    index = _INDEXES.get(document)
    if index is None or index.text is not document.text:
        index = TextIndex(document.text)
        _INDEXES[document] = index
    return index


def clear_indexes() -> None:
    """Drop every cached :class:`TextIndex` (e.g. when a project is closed)."""
    _INDEXES.clear()


def prepare_indexes(
    documents: Sequence[Document],
    *,
    fuzzy: bool = True,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> None:
    """Build the search caches ahead of time (e.g. in a worker thread after opening a project).

    The first search of a 2,000-document project otherwise spends tens of milliseconds
    (exact) to a few hundred (fuzzy) lowercasing texts; later ones reuse the caches.
    """
    total = len(documents)
    for done, document in enumerate(documents, 1):
        if cancelled is not None and cancelled():
            return
        index = text_index(document)
        if fuzzy:
            # The fuzzy prefilter reads every document's flat text; token tables are built
            # only for the few documents that pass it.
            _ = index.flat
        if progress is not None and (done % 100 == 0 or done == total):
            progress(done, total)


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
        identical annotation (already annotated, or a pending suggestion applying accepts).
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
    # Pending suggestions of the same tag on the same span: ticked (exact ones), applying
    # accepts them. Counted as "already annotated", they stayed pending and unreviewed.
    suggested: list[Match] = field(default_factory=list)

    @property
    def selected(self) -> list[Match]:
        """Matches (exact or fuzzy) and suggestions currently ticked."""
        return [m for m in self.matches + self.fuzzy + self.suggested if m.selected]

    def counts(self) -> dict[str, int]:
        return {
            "matches": len(self.matches),
            "fuzzy": len(self.fuzzy),
            "suggested": len(self.suggested),
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
    """The needle's words, composed (``n`` + U+0303 read as ``ñ``) as the text searched is."""
    words = [w if case_sensitive else lower_same_length(w) for w in compose(needle).text.split()]
    return re.compile(r"\s+".join(map(re.escape, words)))


def _context(text: str, start: int, end: int) -> tuple[str, str]:
    left = text[max(0, start - CONTEXT_CHARS) : start]
    right = text[end : end + CONTEXT_CHARS]
    table = str.maketrans("\n\r\t", "   ")
    return left.translate(table), right.translate(table)


class _SortedSpans:
    """A document's annotations sorted by ``(start, end)``, asked which overlap a span.

    Only an annotation starting less than the longest annotation's length before the span
    can reach into it, so a question looks at that slice of the list, not at every
    annotation (each occurrence of a word found 3,000 times in a note of 5,000 tags looked
    at all of them: seconds).
    """

    def __init__(self, annotations: Iterable[Annotation]) -> None:
        self.by_start = sorted(annotations, key=lambda a: (a.start, a.end))
        self.starts = [a.start for a in self.by_start]
        self.longest = max((a.end - a.start for a in self.by_start), default=0)

    def overlapping(self, start: int, end: int) -> list[Annotation]:
        """The annotations with ``a.start < end and start < a.end``, in ``(start, end)`` order."""
        low = bisect_right(self.starts, start - self.longest)
        high = bisect_left(self.starts, end)
        return [a for a in self.by_start[low:high] if start < a.end]


def _sorted_spans(document: Document) -> _SortedSpans:
    return _SortedSpans(document.annotations)


def _classify(
    document: Document,
    start: int,
    end: int,
    source: Annotation,
    by_start: _SortedSpans,
) -> tuple[str, tuple[str, ...]]:
    """``"free"``, ``"already"``, ``"suggested"`` (a pending suggestion of the same tag there)
    or ``"conflict"``, with the ids concerned."""
    overlapping = by_start.overlapping(start, end)
    if not overlapping:
        return "free", ()
    for annotation in overlapping:
        if (
            annotation.start == start
            and annotation.end == end
            and annotation.tag == source.tag
            and annotation.type == source.type
        ):
            return ("suggested" if annotation.pending else "already"), (annotation.id,)
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
    # A needle of only characters nobody sees is empty once they are left out, and an empty
    # pattern matches an empty span at every position: there is nothing to look for.
    if not compose(needle).text.strip():
        return preview
    pattern = _pattern(needle, case_sensitive)
    needle_words = lower_same_length(needle).split()
    do_fuzzy = fuzzy and len(needle.strip()) >= FUZZY_MIN_LENGTH
    fuzzy_query = " ".join(needle_words).strip(_EDGE_PUNCTUATION)
    fuzzy_documents = _fuzzy_candidates(fuzzy_query, documents, fuzzy_threshold) if do_fuzzy else set()
    for document in documents:
        index = text_index(document)
        text = document.text
        # A note with combining accents or characters nobody sees is searched as a reader sees
        # it, composed and without them ("Nun\u0303ez", "Hen\u00addrickson"), each match mapped
        # back to the note as written. (A pattern letting a hidden character stand between any
        # two letters took seconds to compile for a long tag.)
        composed = None if index.plain else index.composed
        if composed is None:
            searched, haystack = text, (text if case_sensitive else index.lower)
        else:
            searched, haystack = composed.text, (composed.text if case_sensitive else index.composed_lower)
        # The exact matches, in text order: they do not overlap, so their ends rise too.
        exact_starts: list[int] = []
        exact_ends: list[int] = []
        by_start: _SortedSpans | None = None
        for found in pattern.finditer(haystack):
            start, end = found.span()
            if whole_word and not _word_bounded(searched, start, end):
                continue
            if composed is not None:
                start, end = composed.to_written(start), composed.to_written_end(end)
            exact_starts.append(start)
            exact_ends.append(end)
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
            elif kind == "suggested":
                match.selected = True  # exact: ticked, as an exact match is
                preview.suggested.append(match)
            elif kind == "already":
                match.selected = False
                preview.already.append(match)
            else:
                match.selected = False
                preview.conflicts.append(match)
        if id(document) not in fuzzy_documents:
            continue
        size = len(needle_words)
        hits = process.extract(
            fuzzy_query, index.windows(size), scorer=fuzz.ratio, score_cutoff=fuzzy_threshold, limit=None
        )
        for window, score, position in hits:
            start, end = index.window_span(position, size)
            # A window overlapping an exact match is the same name with a neighbour attached.
            # The first exact match ending after the window's start is the only one that can.
            first = bisect_right(exact_ends, start)
            if first < len(exact_starts) and exact_starts[first] < end:
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
            elif kind == "suggested":
                preview.suggested.append(match)
            elif kind == "already":
                preview.already.append(match)
            else:
                preview.conflicts.append(match)
    preview.fuzzy.sort(key=lambda m: (-m.score, m.doc_id, m.start))
    return preview


def _fuzzy_candidates(query: str, documents: Sequence[Document], threshold: float) -> set[int]:
    """``id()`` of the documents that may hold a window with ``fuzz.ratio >= threshold``.

    Slicing every token window of a large project costs far more than scoring them, so a
    document is first tested as a whole with ``fuzz.partial_ratio`` (best alignment of the
    query against any same-length substring, computed in C). The bound is sound: a window W
    within Indel distance d of the query (length L) has a length-L substring S within 2d,
    and ``ratio >= t`` implies ``d <= 2L(1 - t)/t``, so ``partial_ratio >= 1 - 2(1 - t)/t``.
    """
    every = {id(d) for d in documents}
    t = threshold / 100.0
    if t <= 0 or len(query) > 64:
        return every
    bound = 100.0 * (1.0 - 2.0 * (1.0 - t) / t) - 1.0
    if bound <= 0:
        return every
    # Texts shorter than twice the query are simply searched (the bound assumes room around W).
    short = {id(d) for d in documents if len(d.text) < 2 * len(query)}
    long_documents = [d for d in documents if id(d) not in short]
    flats = [text_index(d).flat for d in long_documents]
    hits = process.extract(query, flats, scorer=fuzz.partial_ratio, score_cutoff=bound, limit=None)
    return short | {id(long_documents[position]) for _, _, position in hits}


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
    suggested = {m.key for m in preview.suggested}
    for doc_id, matches in by_document.items():
        document = documents_by_id.get(doc_id)
        if document is None:
            raise UsageError(f"annotate all: document {doc_id} is not open")
        # Taken: the document's tags (an empty one holds no character, so it overlaps
        # nothing) and the tags added here. These come in text order, so a match overlaps
        # one of them exactly when the furthest end among them is past its start.
        taken = _SortedSpans(a for a in document.annotations if a.start < a.end)
        added_end = -1
        for match in sorted(matches, key=lambda m: (m.start, m.end)):
            if not 0 <= match.start < match.end <= len(document.text):
                continue
            if match.key in suggested:
                # The suggestion says what the source says: accepting it keeps its provenance.
                pending = [document.get(i) for i in match.overlapping_ids if i in document]
                commands.extend(
                    ReplaceAnnotation(document, old, old.replace(pending=False, annotator=who), "accept")
                    for old in pending
                    if old.pending
                )
                continue
            if added_end > match.start or taken.overlapping(match.start, match.end):
                continue
            added_end = max(added_end, match.end)
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


def _worth_checking(text: str, min_length: int) -> bool:
    return len(text) >= min_length and any(c.isalnum() for c in text)


def _is_short_number(text: str) -> bool:
    # A number of one to three digits (an age, a day of the month) is PHI by its context, not by
    # itself: "62" tagged as an age says nothing of "HR 62" or "14:53" in the same notes.
    return len(text) < 4 and text.isdigit()


_NEAR_TOKEN = re.compile(r"\w+")
# Words that say a number beside them is an age, whatever context the tagged ones had
# ("60-yr-old" where "60 yo" was tagged, "Age: 80").
_AGE_CUES = frozenset({"age", "aged", "yo", "y", "yr", "yrs", "year", "years", "old", "yom", "yof"})


def _neighbour_words(text: str, start: int, end: int) -> tuple[str, str]:
    """The word right before and right after ``[start, end)`` on its line, lower-cased ("" at an end)."""
    line_start = text.rfind("\n", 0, start) + 1
    before = _NEAR_TOKEN.findall(text, max(line_start, start - 40), start)
    line_end = text.find("\n", end)
    after = _NEAR_TOKEN.findall(text, end, min(line_end if line_end >= 0 else len(text), end + 40))
    return (before[-1].lower() if before else "", after[0].lower() if after else "")


def find_unannotated_occurrences(
    documents: Sequence[Document],
    scope: ConsistencyScope = "patient",
    *,
    case_sensitive: bool = False,
    min_length: int = 2,
) -> list[Inconsistency]:
    """Every unannotated occurrence of a string annotated as PHI elsewhere in its scope.

    Matching is whole word and case-insensitive (unless ``case_sensitive``); an occurrence
    counts as annotated when any annotation overlaps it. Strings shorter than ``min_length``
    characters or without a letter or digit are skipped; a number of under four digits (PHI
    only by its context: an age, a day) counts only where the word before or after it is one
    seen beside an annotated occurrence, or a word that makes it an age ("54 yo", not "HR 54").

    Parameters
    ----------
    documents:
        The corpus (any order).
    scope:
        ``"patient"``: compare each patient's records among themselves; ``"corpus"``: all.
    case_sensitive:
        Only report occurrences written exactly as annotated (``IN`` the state is then not
        confused with the word ``in``).
    min_length:
        Shortest annotated string (after stripping spaces) worth checking.

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
        found.extend(_group_inconsistencies(group_key, group, case_sensitive, max(1, min_length)))
    found.sort(key=lambda i: (i.doc_id, i.start, i.end))
    return found


def _group_inconsistencies(
    group_key: str, group: Sequence[Document], case_sensitive: bool, min_length: int
) -> list[Inconsistency]:
    # Annotated strings (lowercase) -> type counts and where they were annotated.
    types: dict[str, dict[tuple[str, str], int]] = {}
    where: dict[str, list[tuple[str, str]]] = {}
    # Short numbers: the tokens seen before and after their annotated occurrences ("54 yo").
    contexts: dict[str, tuple[set[str], set[str]]] = {}
    for document in group:
        for annotation in document.annotations:
            text = document.text[annotation.start : annotation.end].strip()
            if not _worth_checking(text, min_length):
                continue
            key = text if case_sensitive else lower_same_length(text)
            counts = types.setdefault(key, {})
            counts[(annotation.tag, annotation.type)] = counts.get((annotation.tag, annotation.type), 0) + 1
            where.setdefault(key, []).append((document.doc_id, annotation.id))
            if _is_short_number(text):
                before, after = _neighbour_words(document.text, annotation.start, annotation.end)
                contexts.setdefault(key, (set(), set()))[0].add(before)
                contexts[key][1].add(after)
    if not types:
        return []
    # A whole-word occurrence starts on a token: index the strings by their first token and
    # keep, per first token, the distinct lengths to try (far fewer than the strings: dates
    # sharing a first token "03" number in the hundreds, their lengths in the few).
    lengths_by_first: dict[str, set[int]] = {}
    for key in types:
        first = _WORD_TOKEN.search(lower_same_length(key))
        if first is not None:
            lengths_by_first.setdefault(first.group(), set()).add(len(key))
    lengths = {token: tuple(sorted(values)) for token, values in lengths_by_first.items()}
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
        haystack = document.text if case_sensitive else index.lower
        text = document.text
        covered: bytearray | None = None
        for token_match in _WORD_TOKEN.finditer(index.lower):
            candidate_lengths = lengths.get(token_match.group())
            if candidate_lengths is None:
                continue
            start = token_match.start()
            if covered is None:
                covered = _coverage(document)
            if covered[start]:
                continue  # every occurrence from here overlaps an annotation (piles of tags: all)
            for length in candidate_lengths:
                end = start + length
                summary = summaries.get(haystack[start:end])
                if summary is None or not _word_bounded(text, start, end):
                    continue
                if _is_covered(covered, start, end):
                    continue
                seen = contexts.get(haystack[start:end])
                if seen is not None:
                    # A short number counts only in a context it was tagged in ("54 yo", not
                    # "HR 54"), or beside a word that makes it an age.
                    before, after = _neighbour_words(text, start, end)
                    if before not in seen[0] and after not in seen[1] and not _AGE_CUES & {before, after}:
                        continue
                found.append(
                    Inconsistency(
                        document.doc_id, start, end, text[start:end], summary[0], summary[1], group_key
                    )
                )
    return found


def _coverage(document: Document) -> bytearray:
    covered = bytearray(len(document.text) + 1)
    for annotation in document.annotations:
        covered[annotation.start : annotation.end] = b"\x01" * (annotation.end - annotation.start)
    return covered


def _is_covered(covered: bytearray, start: int, end: int) -> bool:
    return any(covered[start:end])
