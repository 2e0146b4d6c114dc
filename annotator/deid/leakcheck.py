"""The leak check: no original PHI string may survive into a de-identified export.

Every annotated original string (and each token of a name) of an identifying length is
looked for, as a whole-token sequence, in the text of every output document. A match is a
leak when it lies

- in text the export left unchanged (an occurrence the annotators missed), in any record; or
- inside a surrogate of the same kind in the same patient's records (the surrogate repeats
  the original); or
- inside a surrogate of the same kind in another patient's records, for the kinds whose
  surrogates must never re-use a real value (names, IDs, contacts, streets).

Left out on purpose, because they are ordinary vocabulary or kept by design: ages of 89 and
under (kept as they are; ages over 89 are only checked inside age surrogates, since numbers
such as 92 are everywhere in clinical text), dates that name no day or month of a year
(weekday, month or season names, a bare year), generic department names, one-word
professions that are common English words, and strings shorter than ``min_length``. A
string made only of common English words (``Brown``, ``Will``) is matched case-sensitively,
so ``brown stool`` is not a leak of Dr. Brown while an untagged ``Brown`` is.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from wordfreq import zipf_frequency

from annotator.core.document import Document
from annotator.deid.dates import DATE_WORDS, parse_date
from annotator.deid.names import PARTICLES, is_title, name_tokens
from annotator.deid.places import is_generic_department
from annotator.deid.surrogates import STRICT_KINDS, kind_of
from annotator.errors import AnnotatorError

_TOKEN = re.compile(r"\w+|[^\w\s]")
_AGE_NUMBER = re.compile(r"\d+")


class LeakError(AnnotatorError):
    """The leak check found original PHI in the output; nothing was written."""


@dataclass(frozen=True)
class LeakCheckOptions:
    """Tuning of the leak check.

    Attributes
    ----------
    min_length: shortest original string (stripped) that is looked for.
    common_zipf: a word at least this frequent in English (wordfreq Zipf scale) is common;
        strings made only of common words are matched case-sensitively.
    """

    min_length: int = 3
    common_zipf: float = 4.0


@dataclass(frozen=True)
class Leak:
    """One original PHI string found in the output (no text: it would repeat the PHI)."""

    doc_id: str
    source_doc_id: str
    tag_id: str
    type: str
    where: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


@dataclass(frozen=True)
class _Candidate:
    tokens: tuple[str, ...]
    case_sensitive: bool
    patient_id: str
    kind: str
    doc_id: str
    tag_id: str
    type: str
    age: bool = False


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _common(tokens: Iterable[str], options: LeakCheckOptions) -> bool:
    return all(t.isalpha() and zipf_frequency(t.lower(), "en") >= options.common_zipf for t in tokens)


def leak_candidates(documents: Iterable[Document], options: LeakCheckOptions) -> list[_Candidate]:
    """The original strings the check looks for, one per (string, patient, kind)."""
    found: dict[tuple[tuple[str, ...], bool, str, str], _Candidate] = {}

    def add(
        surface: list[str], kind: str, document: Document, tag_id: str, type_: str, age: bool = False
    ) -> None:
        if not surface:
            return
        case_sensitive = _common(surface, options)
        tokens = tuple(surface if case_sensitive else (t.lower() for t in surface))
        key = (tokens, case_sensitive, document.patient_id, kind)
        if key not in found:
            found[key] = _Candidate(
                tokens, case_sensitive, document.patient_id, kind, document.doc_id, tag_id, type_, age
            )

    for document in documents:
        for annotation in document:
            text = annotation.text.strip()
            kind = kind_of(annotation)
            surface = _tokens(text)
            if kind == "age":
                number = _AGE_NUMBER.search(text)
                if number and int(number.group()) > 89:
                    add(surface, kind, document, annotation.id, annotation.type, age=True)
                continue
            if len(text) < options.min_length:
                continue
            if kind == "date":
                parsed = parse_date(text)
                if (parsed is not None and not parsed.identifying) or text.lower() in DATE_WORDS:
                    continue
            if kind == "department" and is_generic_department(text):
                continue
            if kind == "profession" and len(surface) == 1 and _common(surface, options):
                continue
            add(surface, kind, document, annotation.id, annotation.type)
            if kind in ("name", "username"):
                for token in name_tokens(text):
                    if (
                        len(token) >= options.min_length
                        and not is_title(token)
                        and token.lower() not in PARTICLES
                    ):
                        add(_tokens(token), "name", document, annotation.id, annotation.type)
    return list(found.values())


class _OutputIndex:
    """Tokens of the output documents, with where each token occurs."""

    def __init__(self, documents: list[Document]) -> None:
        self.documents = documents
        self.surface: list[list[str]] = []
        self.lower: list[list[str]] = []
        self.spans: list[list[tuple[int, int]]] = []
        self.tags: list[list[tuple[int, int, str]]] = []
        self.tag_starts: list[list[int]] = []
        self.where: dict[str, list[tuple[int, int]]] = {}
        for index, document in enumerate(documents):
            matches = list(_TOKEN.finditer(document.text))
            self.surface.append([m.group() for m in matches])
            self.lower.append([m.group().lower() for m in matches])
            self.spans.append([m.span() for m in matches])
            tags = sorted((a.start, a.end, kind_of(a)) for a in document if a.end > a.start)
            self.tags.append(tags)
            self.tag_starts.append([t[0] for t in tags])
            for position, token in enumerate(self.lower[-1]):
                self.where.setdefault(token, []).append((index, position))

    def surrogate_kind(self, index: int, start: int, end: int) -> str | None:
        """The kind of the output tag wholly containing ``[start, end)``, if any."""
        tags = self.tags[index]
        at = bisect_right(self.tag_starts[index], start)
        for tag_start, tag_end, kind in reversed(tags[max(0, at - 8) : at]):
            if tag_start <= start and end <= tag_end:
                return kind
        return None


def find_leaks(
    originals: Iterable[Document], outputs: Iterable[Document], options: LeakCheckOptions | None = None
) -> list[Leak]:
    """Every original PHI string found in the output, by the rules of this module."""
    options = options or LeakCheckOptions()
    index = _OutputIndex(list(outputs))
    leaks: dict[tuple[str, str, str], Leak] = {}
    for candidate in leak_candidates(originals, options):
        first = candidate.tokens[0] if candidate.case_sensitive else candidate.tokens[0].lower()
        size = len(candidate.tokens)
        for doc_index, position in index.where.get(first.lower(), ()):
            words = (index.surface if candidate.case_sensitive else index.lower)[doc_index]
            if tuple(words[position : position + size]) != candidate.tokens:
                continue
            document = index.documents[doc_index]
            start = index.spans[doc_index][position][0]
            end = index.spans[doc_index][position + size - 1][1]
            kind = index.surrogate_kind(doc_index, start, end)
            same_patient = document.patient_id == candidate.patient_id
            if kind is None:
                if candidate.age:
                    continue
                where = "unreplaced text"
            elif kind != candidate.kind:
                continue
            elif same_patient:
                where = "surrogate repeats the patient's original"
            elif candidate.kind in STRICT_KINDS:
                where = "surrogate repeats another patient's original"
            else:
                continue
            key = (document.doc_id, candidate.doc_id, candidate.tag_id)
            leaks.setdefault(
                key, Leak(document.doc_id, candidate.doc_id, candidate.tag_id, candidate.type, where)
            )
    return sorted(leaks.values(), key=lambda leak: (leak.doc_id, leak.source_doc_id, leak.tag_id))


def leak_error(leaks: list[Leak]) -> LeakError:
    """The one-line error naming the documents (never the strings) that leak."""
    documents = sorted({leak.doc_id for leak in leaks})
    shown = ", ".join(documents[:10]) + (f" and {len(documents) - 10} more" if len(documents) > 10 else "")
    return LeakError(
        f"leak check failed: {len(leaks)} original PHI occurrence(s) in output document(s) {shown}; "
        "nothing was written"
    )
