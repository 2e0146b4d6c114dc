"""The leak check: no original PHI string may survive into a de-identified export.

Every annotated original string (and each token of a name) of an identifying length is
looked for, as a whole-token sequence, in the text of every output document. A match is a
leak when it lies

- in text the export left unchanged (an occurrence the annotators missed), in any record;
- as a whole surrogate of the same kind in the same patient's records (the surrogate
  repeats the original);
- as a whole surrogate of the same kind in another patient's records, for the kinds whose
  surrogates must never re-use a real value (IDs, contacts, streets);
- for names, as any token of another name surrogate (surrogate names never re-use a name
  of the original corpus).

Left out on purpose, because they are ordinary vocabulary or kept by design: ages of 90 and
under (kept, or 90 by design; ages over 90 are only checked inside age surrogates, since
numbers such as 92 are everywhere in clinical text), dates that name no day or month of a
year (weekday, month or season names, a bare year, and what is vaguer still: ``mid-October``,
``early 2067``, ``the 1960s``, which a shift of a few days leaves as they were), generic
department names, one-word professions that are common English words, strings shorter than
``min_length``, and strings in ``ignore``. Numbers with fewer than ``min_digits_anywhere`` digits (room numbers,
short IDs, ``2/6``) are only looked for among the patient's own surrogates: in free text
they cannot be told from measurements (``pain 3/10``, ``grade 2/6 murmur``). A name token
inside a medical eponym (``Foley catheter``, ``Graves' disease``; the list is
``resources/surrogates/eponyms.txt``) is not a leak. Names, and strings made only of common
English words, are matched case-sensitively (names also in capitals), so ``brown stool`` or
``the summers`` is not a leak of Dr. Brown or Dr. Summers, while an untagged ``Brown`` is.

One-word matches that read as clinical language are left out by
:mod:`annotator.deid.clinical_language`; PHI written another way (digits, dates by value,
names inside words, short tokens in context) is found by :mod:`annotator.deid.leak_variants`,
names glued into user or file names and in the plural by :mod:`annotator.deid.name_variants`;
with the site's lists, a listed name or place left in the text by :mod:`annotator.deid.listed`.
Findings are :class:`~annotator.deid.findings.Leak` records, one per place.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial

from annotator.core.composed import ComposedText, composed_document
from annotator.core.document import Document
from annotator.core.english import zipf as _zipf
from annotator.core.lookalikes import ascii_document
from annotator.core.span import SpanIndex
from annotator.deid.clinical_language import (
    clinical_use,
    eponym_pattern,
    is_vocabulary,
    reads_as_phi,
    surname_only,
    unit_not_initial,
)
from annotator.deid.date_forms import names_no_day_of_a_year
from annotator.deid.dates import DATE_WORDS, parse_date
from annotator.deid.findings import Leak, LeakError, leak_error, with_original_offsets
from annotator.deid.kept_tokens import pieces_kept
from annotator.deid.leak_variants import (
    dates_written_another_way,
    names_inside_words,
    reformatted_numbers,
    short_tokens_in_context,
    untagged_old_ages,
)
from annotator.deid.listed import listed_phrases_left
from annotator.deid.name_variants import names_written_together
from annotator.deid.names import PARTICLES, is_title, name_tokens, without_diacritics
from annotator.deid.placeholders import is_placeholder_tag
from annotator.deid.places import is_generic_department
from annotator.deid.surrogates import STRICT_KINDS, age_over, kind_of
from annotator.io.site_lists import SiteLists

_TOKEN = re.compile(r"\w+|[^\w\s]")
_DECADE = re.compile(r"'?\d{0,2}\d0'?s")
_AGE_NUMBER = re.compile(r"\d+")
_ORDINAL = re.compile(r"\d{1,2}(?:st|nd|rd|th)", re.IGNORECASE)
# Kinds whose one-word vocabulary matches are judged by their context (clinical_language.reads_as_phi).
_JUDGED_KINDS = frozenset({"name", "location", "hospital", "organization", "city"})
_ABBREVIATION_ONLY = re.compile(r"(?:st|mt|ft)\.?", re.IGNORECASE)


@dataclass(frozen=True)
class LeakCheckOptions:
    """Tuning of the leak check.

    Attributes
    ----------
    min_length: shortest original string (stripped) that is looked for.
    common_zipf: a word at least this frequent in English (wordfreq Zipf scale) is common;
        strings made only of common words are matched case-sensitively.
    min_digits_anywhere: numbers with fewer digits are only looked for among the surrogates
        of their own patient.
    ignore: lower-cased strings never looked for (site vocabulary such as ``foley``).
    site_lists: the site's own names and places (:mod:`annotator.deid.listed`): a listed
        phrase left in the text is a finding, tagged in the gold or not.
    """

    min_length: int = 3
    common_zipf: float = 4.0
    min_digits_anywhere: int = 5
    ignore: frozenset[str] = frozenset()
    site_lists: SiteLists | None = None


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
    own_patient_only: bool = False
    # A surname frequent only as a surname, looked for in any case in its own patient's notes:
    # there "garcia agrees" is the name, whatever the context judge says of a word.
    surname_own: bool = False
    # A name with its diacritics dropped ("Nunez" for "Nuñez"): left untagged it is the name;
    # as another patient's surrogate it is a census name like any other ("Nguyen").
    folded: bool = False


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _common(tokens: Iterable[str], options: LeakCheckOptions) -> bool:
    return all(t.isalpha() and _zipf(t.lower()) >= options.common_zipf for t in tokens)


def leak_candidates(documents: Iterable[Document], options: LeakCheckOptions) -> list[_Candidate]:
    """The original strings the check looks for, one per (string, patient, kind)."""
    found: dict[tuple[tuple[str, ...], bool, str, str, bool], _Candidate] = {}

    def add(
        surface: list[str],
        kind: str,
        document: Document,
        tag_id: str,
        type_: str,
        age: bool = False,
        exact: bool = False,
        own_patient: bool = False,
        surname_own: bool = False,
        folded: bool = False,
    ) -> None:
        if not surface or " ".join(surface).lower() in options.ignore:
            return
        # A one-word string that is a dictionary word ("Staples") is matched as written, so the
        # ordinary word ("closed with staples") is not taken for it.
        dictionary_word = len(surface) == 1 and surface[0].isalpha() and _zipf(surface[0].lower()) >= 3.0
        case_sensitive = not surname_own and (exact or dictionary_word or _common(surface, options))
        tokens = tuple(surface if case_sensitive else (t.lower() for t in surface))
        key = (tokens, case_sensitive, document.patient_id, kind, folded)
        digits = sum(c.isdigit() for t in surface for c in t)
        numeric = all(not c.isalpha() for t in surface for c in t)
        decade = kind == "date" and len(surface) == 1 and _DECADE.fullmatch(surface[0]) is not None
        # Short numbers and decades ("70s") read as measurements in other notes ("NSR 70s-80s").
        own = (numeric and digits < options.min_digits_anywhere) or decade or own_patient or surname_own
        if key not in found:
            found[key] = _Candidate(
                tokens,
                case_sensitive,
                document.patient_id,
                kind,
                document.doc_id,
                tag_id,
                type_,
                age,
                own,
                surname_own,
                folded,
            )

    for document in documents:
        for annotation in document:
            text = annotation.text.strip()
            if is_placeholder_tag(annotation):
                continue  # its words are the label of what an earlier de-identification hid
            kind = kind_of(annotation)
            surface = _tokens(text)
            if kind == "age":
                number = _AGE_NUMBER.search(text)
                if number and age_over(number.group(), 90):  # 90 itself stays 90 by design
                    add(surface, kind, document, annotation.id, annotation.type, age=True)
                continue
            if len(text) < options.min_length:
                continue
            if kind == "date":
                parsed = parse_date(text)
                if (
                    (parsed is not None and not parsed.identifying)
                    or text.lower() in DATE_WORDS
                    or names_no_day_of_a_year(text)
                ):
                    continue
                if _ORDINAL.fullmatch(text):
                    # A day alone ("the 2nd") is a date only beside its month: in other text
                    # it is a count ("2nd dose"). Looked for in the patient's surrogates only.
                    add(surface, kind, document, annotation.id, annotation.type, own_patient=True)
                    continue
            if kind in _JUDGED_KINDS and _ABBREVIATION_ONLY.fullmatch(text):
                continue  # "St." of "St. Agnes": the abbreviation alone names no place
            if kind == "department" and is_generic_department(text):
                continue
            if kind == "profession" and len(surface) == 1 and _common(surface, options):
                continue
            named = kind == "name"
            add(surface, kind, document, annotation.id, annotation.type, exact=named)
            if kind == "email" and "@" in text:
                local = text.split("@", 1)[0]
                if len(local) >= max(options.min_length, 4):
                    # The user name alone ("jsmith logged in") identifies as much as the address.
                    add(_tokens(local), kind, document, annotation.id, annotation.type)
            if named:
                # As written, and as another system writes it: "NUNEZ" for a tagged "Nuñez",
                # "Strauss" for "Strauß" (diacritics dropped by many record systems).
                for spelling in dict.fromkeys([text, without_diacritics(text)]):
                    spelt = partial(add, folded=spelling != text)
                    if spelling != text:
                        spelt(_tokens(spelling), kind, document, annotation.id, annotation.type, exact=True)
                    upper = [t.upper() for t in _tokens(spelling)]
                    spelt(upper, kind, document, annotation.id, annotation.type, exact=True)
                    _add_name_tokens(spelling, document, annotation.id, annotation.type, options, spelt)
    return list(found.values())


def _add_name_tokens(
    text: str,
    document: Document,
    tag_id: str,
    type_: str,
    options: LeakCheckOptions,
    add: Callable[..., None],
) -> None:
    """Each token of a name, alone: a rare one ("Quist") in any case ("quist"), one that is
    also a word ("Long") only as written or in capitals."""
    for token in name_tokens(text):
        if len(token) < options.min_length or is_title(token) or token.lower() in PARTICLES:
            continue
        lower = token.lower()
        rare = token.isalpha() and _zipf(lower) < 3.0
        for form in (token, token.upper()):
            add(_tokens(form), "name", document, tag_id, type_, exact=not rare)
        if not rare and surname_only(lower):
            # "Garcia", "Patel": in the patient's own notes, any case is the name.
            add([lower], "name", document, tag_id, type_, surname_own=True)


class _OutputIndex:
    """Tokens of the output documents, with where the looked-for (anchor) tokens occur."""

    def __init__(self, documents: list[Document], anchors: set[str], names: frozenset[str]) -> None:
        self.documents = documents
        self.names = names
        # Token offsets as machine integers, and lower-cased tokens made only where a looked-for
        # token occurs: a long note has millions of tokens, whose match objects and strings
        # would take gigabytes.
        self.starts: list[array[int]] = []
        self.ends: list[array[int]] = []
        self.tags: list[list[tuple[int, int, str]]] = []
        self.tag_starts: list[list[int]] = []
        self.where: dict[str, list[tuple[int, int]]] = {}
        self.where_in: dict[str, dict[str, list[tuple[int, int]]]] = {}
        # Tokens written with diacritics, by their spelling without ("nunez" for "Nuñez"): a
        # name tagged as a system without accents wrote it is still that name left with them.
        self.folded_where: dict[str, list[tuple[int, int]]] = {}
        self.folded_where_in: dict[str, dict[str, list[tuple[int, int]]]] = {}
        folded_anchors = {_folded(anchor) for anchor in anchors}
        self._eponyms: dict[int, SpanIndex] = {}
        for index, document in enumerate(documents):
            starts, ends = array("i"), array("i")
            patient = self.where_in.setdefault(document.patient_id, {})
            folded_patient = self.folded_where_in.setdefault(document.patient_id, {})
            for position, match in enumerate(_TOKEN.finditer(document.text)):
                starts.append(match.start())
                ends.append(match.end())
                token = match.group().lower()
                if token in anchors:
                    self.where.setdefault(token, []).append((index, position))
                    patient.setdefault(token, []).append((index, position))
                if not token.isascii() and (folded := _folded(token)) != token and folded in folded_anchors:
                    self.folded_where.setdefault(folded, []).append((index, position))
                    folded_patient.setdefault(folded, []).append((index, position))
            self.starts.append(starts)
            self.ends.append(ends)
            tags = sorted((a.start, a.end, kind_of(a)) for a in document if a.end > a.start)
            self.tags.append(tags)
            self.tag_starts.append([t[0] for t in tags])

    def lowered(self, index: int, start: int, size: int) -> tuple[str, ...]:
        """Tokens ``start .. start + size`` of output ``index``, lower-cased (all in range)."""
        if start < 0 or start + size > len(self.starts[index]):
            return ()
        return tuple(token.lower() for token in self.surface(index, start, size))

    def folded(self, index: int, start: int, size: int) -> tuple[str, ...]:
        """Tokens ``start .. start + size`` of output ``index`` without diacritics, case kept."""
        if start < 0 or start + size > len(self.starts[index]):
            return ()
        return tuple(without_diacritics(token) for token in self.surface(index, start, size))

    def surface(self, index: int, start: int, size: int) -> tuple[str, ...]:
        text, starts, ends = self.documents[index].text, self.starts[index], self.ends[index]
        return tuple(text[starts[i] : ends[i]] for i in range(start, start + size))

    def in_eponym(self, index: int, start: int, end: int) -> bool:
        if index not in self._eponyms:
            text = self.documents[index].text
            self._eponyms[index] = SpanIndex(m.span() for m in eponym_pattern().finditer(text))
        return self._eponyms[index].covers(start, end)

    def unit_not_initial(self, index: int, start: int, end: int) -> bool:
        return unit_not_initial(self.documents[index].text, start, end)

    def clinical_use(self, index: int, start: int, end: int, same_patient: bool) -> bool:
        return clinical_use(self.documents[index].text, start, end, same_patient, self.names)

    def reads_as_phi(self, index: int, start: int, end: int, kind: str, same_patient: bool) -> bool:
        """A vocabulary word ("Foley", "small", "Heart") is PHI only where its context says so;
        any other word (a rare name) always is."""
        text = self.documents[index].text
        if kind not in _JUDGED_KINDS or not is_vocabulary(text[start:end]):
            return True
        return reads_as_phi(text, start, end, kind, self.names, same_patient)

    def occurrences(self, token: str, patients: set[str] | None) -> list[tuple[int, int]]:
        """Where a (lower-cased) token occurs: everywhere, or in some patients' records."""
        return _places(self.where, self.where_in, token, patients)

    def folded_occurrences(self, token: str, patients: set[str] | None) -> list[tuple[int, int]]:
        """Where a token written with diacritics is ``token`` without them."""
        return _places(self.folded_where, self.folded_where_in, _folded(token), patients)

    def surrogate_tag(self, index: int, start: int, end: int) -> tuple[int, int, str] | None:
        """The output tag (start, end, kind) wholly containing ``[start, end)``, if any."""
        tags = self.tags[index]
        at = bisect_right(self.tag_starts[index], start)
        for tag in reversed(tags[max(0, at - 8) : at]):
            if tag[0] <= start and end <= tag[1]:
                return tag
        return None


def _places(
    where: dict[str, list[tuple[int, int]]],
    where_in: dict[str, dict[str, list[tuple[int, int]]]],
    token: str,
    patients: set[str] | None,
) -> list[tuple[int, int]]:
    if patients is None:
        return where.get(token, [])
    found: list[tuple[int, int]] = []
    for patient in patients:
        found.extend(where_in.get(patient, {}).get(token, ()))
    return found


def _folded(token: str) -> str:
    return without_diacritics(token).lower()


def _leak_kind(
    candidate: _Candidate,
    document: Document,
    tag: tuple[int, int, str] | None,
    start: int,
    end: int,
    index: _OutputIndex,
    doc_index: int,
    spelt_otherwise: bool = False,
) -> str | None:
    """Why a match of a candidate is a leak, or None when it is not one (``spelt_otherwise``:
    the match differs from the candidate only in its diacritics)."""
    same_patient = document.patient_id == candidate.patient_id
    if candidate.own_patient_only and not same_patient:
        return None
    if tag is None:
        if candidate.age or (candidate.own_patient_only and not candidate.surname_own):
            return None
        if candidate.kind == "name" and index.in_eponym(doc_index, start, end):
            return None
        if candidate.kind == "name" and index.unit_not_initial(doc_index, start, end):
            return None
        if len(candidate.tokens) == 1 and index.clinical_use(doc_index, start, end, same_patient):
            return None
        if (
            len(candidate.tokens) == 1
            and not candidate.surname_own
            and not index.reads_as_phi(doc_index, start, end, candidate.kind, same_patient)
        ):
            return None
        return "unreplaced text"
    if tag[2] != candidate.kind:
        return None
    if candidate.kind != "name" and (tag[0], tag[1]) != (start, end):
        return None  # "7/29" inside "7/29/2068" is another date, not this one
    if same_patient:
        return "surrogate repeats the patient's original"
    if candidate.folded or spelt_otherwise:
        return None
    if candidate.kind in STRICT_KINDS:
        return "surrogate repeats another patient's original"
    return None


def find_leaks(
    originals: Iterable[Document],
    outputs: Iterable[Document],
    options: LeakCheckOptions | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Leak]:
    """Every original PHI string found in the output, by the rules of this module.

    ``progress`` counts the looked-for strings, then the seven other rules (a long note's
    check takes a minute: the bar moves meanwhile).
    """
    options = options or LeakCheckOptions()
    # Both sides read with ASCII look-alikes: "O\u2019Brien" left in a note is the "O'Brien"
    # tagged elsewhere (the same length, so every offset found is one into the note as written);
    # and composed: "Nun\u0303ez" is the "Nu\u00f1ez" tagged elsewhere (offsets mapped back).
    written_originals = [ascii_document(d) for d in originals]
    written_outputs = [ascii_document(d) for d in outputs]
    originals_list = [composed_document(d)[0] for d in written_originals]
    composed_outputs = [composed_document(d) for d in written_outputs]
    outputs_list = [document for document, _ in composed_outputs]
    compositions = {document.doc_id: composed for document, composed in composed_outputs}
    originals, outputs = originals_list, outputs_list
    leaks: dict[tuple[str, int, int], Leak] = {}
    # Candidates sharing their tokens (a doctor seen in many patients' records) are looked up once.
    groups: dict[tuple[tuple[str, ...], bool], list[_Candidate]] = {}
    for candidate in leak_candidates(originals, options):
        groups.setdefault((candidate.tokens, candidate.case_sensitive), []).append(candidate)
    # Each group is looked up by its longest token (far fewer places to compare than "dr").
    anchors = {key: max(range(len(key[0])), key=lambda i: len(key[0][i])) for key in groups}
    names = frozenset(
        t.lower() for (tokens, _), members in groups.items() if members[0].kind == "name" for t in tokens
    )
    index = _OutputIndex(list(outputs), {tokens[i].lower() for (tokens, _), i in anchors.items()}, names)
    total = len(groups) + 7 + (options.site_lists is not None)
    step = max(1, len(groups) // 100)
    for number, ((tokens, case_sensitive), candidates) in enumerate(groups.items()):
        if progress is not None and number % step == 0:
            progress(number, total)
        # Short numbers are only looked for in their own patients' records.
        patients = {c.patient_id for c in candidates} if all(c.own_patient_only for c in candidates) else None
        anchor = anchors[(tokens, case_sensitive)]
        size = len(tokens)
        lowered = tuple(t.lower() for t in tokens)
        folded = tuple(without_diacritics(t) for t in tokens)
        as_written = index.occurrences(tokens[anchor].lower(), patients)
        spelt_otherwise = index.folded_occurrences(tokens[anchor], patients)
        if spelt_otherwise:  # rare: only tokens written with diacritics are indexed so
            seen = set(as_written)
            spelt_otherwise = [p for p in spelt_otherwise if p not in seen]
        for doc_index, position in [*as_written, *spelt_otherwise]:
            start_token = position - anchor
            if start_token < 0:
                continue
            if index.lowered(doc_index, start_token, size) == lowered and (
                not case_sensitive or index.surface(doc_index, start_token, size) == tokens
            ):
                otherwise = False
            else:
                # The same letters but for their diacritics ("Nunez" tagged, "NUÑEZ" left).
                otherwise = True
                written = index.folded(doc_index, start_token, size)
                if (written if case_sensitive else tuple(t.lower() for t in written)) != (
                    folded if case_sensitive else tuple(t.lower() for t in folded)
                ):
                    continue
            start = index.starts[doc_index][start_token]
            end = index.ends[doc_index][start_token + size - 1]
            tag = index.surrogate_tag(doc_index, start, end)
            document = index.documents[doc_index]
            for candidate in candidates:
                where = _leak_kind(candidate, document, tag, start, end, index, doc_index, otherwise)
                if where is not None:
                    key = (document.doc_id, start, end)
                    leaks.setdefault(
                        key,
                        Leak(
                            document.doc_id,
                            candidate.doc_id,
                            candidate.tag_id,
                            candidate.type,
                            where,
                            start,
                            end,
                        ),
                    )
    rules: list[Callable[[], list[Leak]]] = [
        lambda: reformatted_numbers(originals_list, outputs_list),
        lambda: untagged_old_ages(outputs_list),
        lambda: dates_written_another_way(originals_list, outputs_list),
        lambda: names_inside_words(originals_list, outputs_list),
        lambda: names_written_together(originals_list, outputs_list),
        lambda: short_tokens_in_context(originals_list, outputs_list),
        # A tag's surrogate holding a number or word of its own span (a name tag's "MRN 1234567").
        lambda: pieces_kept(originals_list, outputs_list, kind_of),
    ]
    if options.site_lists is not None:
        lists = options.site_lists
        rules.append(lambda: listed_phrases_left(outputs_list, lists, options.min_length))
    variants: list[Leak] = []
    for number, rule in enumerate(rules, start=len(groups)):
        if progress is not None:
            progress(number, total)
        variants += rule()
    if progress is not None:
        progress(total, total)
    found = [_as_written(leak, compositions) for leak in _one_per_place([*leaks.values(), *variants])]
    return with_original_offsets(found, written_originals, written_outputs)


def _as_written(leak: Leak, compositions: dict[str, ComposedText]) -> Leak:
    """A finding in a composed output note, at its place in the note as written."""
    composed = compositions.get(leak.doc_id)
    if composed is None or composed.starts is None:
        return leak
    return replace(leak, start=composed.to_written(leak.start), end=composed.to_written_end(leak.end))


def _one_per_place(leaks: list[Leak]) -> list[Leak]:
    """The widest finding where several overlap ("Hope Collier" over "Hope" and "Collier");
    overlapping findings become one place; in document order."""
    ordered = sorted(leaks, key=lambda leak: (leak.doc_id, leak.start, leak.start - leak.end))
    kept: list[Leak] = []
    for leak in ordered:
        if kept and kept[-1].doc_id == leak.doc_id and leak.start < kept[-1].end:
            if leak.end > kept[-1].end:  # partly outside: the place grows, so a mask covers it all
                kept[-1] = replace(kept[-1], end=leak.end)
            continue
        kept.append(leak)
    return kept


__all__ = ["Leak", "LeakCheckOptions", "LeakError", "find_leaks", "leak_error"]
