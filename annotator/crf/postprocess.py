"""Post-processing of the tagger's spans, and a rules-only baseline tagger.

The rules follow the hybrid systems of seeds 002 and 003:

* rare categories with a fixed form (e-mail, URL, IP address, SSN, phone and fax numbers)
  are found by patterns, because a CRF sees too few of them to learn them;
* a *trusted* term (a name or hospital the tagger found with high confidence) is looked for
  everywhere else in the note, and names, doctors and hospitals also in the patient's
  other records (seed 003; seed 002's "repeated name" rule);
* a capitalised first name or surname from the census lists that sits right next to a
  name, or right after a title ("Dr.", "Mrs."), joins or becomes a name (seed 002);
* spans are trimmed to whole tokens without edge punctuation, so PHI glued to other
  characters (``70yoM``, ``MRN:123``) comes out on its own.

Rules add spans only where the tagger found nothing: they never override a prediction.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.schema import Schema, load_schema
from annotator.crf.cleanups import NAME_TYPES, clean_up
from annotator.crf.eponyms import drop_eponyms
from annotator.crf.evidence import RARE_PATIENT_TERM_ORIGIN, RULE_GATE, SITE_LIST_ORIGIN, PhiEvidence
from annotator.crf.features import LineModes, is_public, zipf_bucket
from annotator.crf.format_rules import (
    EMAIL_ADDRESS,
    SETTLING_ORIGIN,
    URL_WITH_SCHEME,
    apply_format_rules,
    drop_generic_places,
    drop_implausible_dates,
    strip_articles,
)
from annotator.crf.id_rules import IPV4, relabel_labelled_phones, relabel_short_phones
from annotator.crf.labels import Prediction
from annotator.crf.layout_rules import apply_layout_fields
from annotator.crf.lexicons import NAME_LEXICONS, Lexicons, default_lexicons
from annotator.crf.measured_rules import add_measured_spans, add_name_partners
from annotator.crf.phi_memory import MEMORY_ORIGIN, PhiMemory, eponym_after
from annotator.crf.placeholder_rules import without_placeholder_pieces
from annotator.crf.site_lists import add_site_phrases
from annotator.crf.tokenizer import Token, tokenize
from annotator.io.site_lists import SiteLists

RULE_CONFIDENCE = 0.99
# P(PHI) a name after a label ("WIFE SAID", "RE:SPOKES PERSON") needs on a line written in
# capitals, where its capital says nothing: by 3-fold cross-validation on PhysioNet patients
# 1-110, the 6 label names under it there were all wrong (typos and words on a surname list),
# and none of the 240 right ones was under it.
CAPITALS_LABEL_GATE = 0.3
LEXICON_CONFIDENCE = 0.6
TRUSTED_IN_NOTE = 0.8
TRUSTED_IN_PATIENT = 0.9

# Types whose strings are searched elsewhere in the note / in the patient's other records.
PROPAGATED_IN_NOTE = frozenset(
    {"PATIENT", "DOCTOR", "HOSPITAL", "USERNAME", "STREET", "CITY", "ORGANIZATION"}
)
PROPAGATED_IN_PATIENT = frozenset({"PATIENT", "DOCTOR", "HOSPITAL"})
# Phrases held whole by the training gold or the site's lists: never taken for an eponym.
KNOWN_PHRASE_ORIGINS = frozenset({MEMORY_ORIGIN, SITE_LIST_ORIGIN})
# wordfreq Zipf buckets of words rare enough in English to be taken for names.
RARE = frozenset({"0", "1", "2", "3"})

_PHONE = re.compile(
    r"(?<![\w-])(?:\(\d{3}\)\s*|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?:\s*(?:x|ext\.?)\s*\d{2,5})?(?![\w-])"
)
RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("EMAIL", EMAIL_ADDRESS),
    ("URL", URL_WITH_SCHEME),
    (
        "URL",
        re.compile(
            r"(?<![@\w.-])(?:[A-Za-z0-9-]+\.)+(?:com|org|net|edu|gov|io)\b(?:/[^\s<>\"]*[^\s<>\".,;:)])?"
        ),
    ),
    ("IPADDR", IPV4),
    ("SSN", re.compile(r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])")),
    ("PHONE", _PHONE),
)
_FAX_CONTEXT = re.compile(r"\bfax\b|\bfacsimile\b", re.IGNORECASE)
# A number's extension ("555-3632 X891", "4372 ext 319", "0780 x45."): PHI of its own, as our
# guidelines and the PhysioNet gold (its one extension) tag it, without its label.
_EXTENSION_LABEL = r"[ \t]*(?i:x|ext\.?|extn\.?|extension)[ \t]*"
_EXTENSION = re.compile(rf"{_EXTENSION_LABEL}(\d{{1,5}})\b(?![./-]\d)")
_EXTENSION_INSIDE = re.compile(rf"(?<=\d){_EXTENSION_LABEL}(\d{{1,5}})")
_TITLES = {
    "dr": "DOCTOR",
    "doctor": "DOCTOR",
    "mr": "PATIENT",
    "mrs": "PATIENT",
    "ms": "PATIENT",
    "miss": "PATIENT",
}
_EDGE = ".,;:!?\"'()[]{}<>/\\-_*#"
_CLOSING = {"(": ")", "[": "]", "{": "}", "<": ">"}
_OPENING = frozenset(_CLOSING)
_OPENING_OF = {v: k for k, v in _CLOSING.items()}


class _Taken:
    """Disjoint occupied ranges, sorted, so each overlap check costs O(log n) on long notes."""

    def __init__(self, predictions: Iterable[Prediction] = ()) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        for prediction in sorted(predictions, key=lambda p: p.start):
            self.add(prediction.start, prediction.end)

    def free(self, start: int, end: int) -> bool:
        index = bisect.bisect_right(self._starts, start)
        if index > 0 and self._ends[index - 1] > start:
            return False
        return not (index < len(self._starts) and self._starts[index] < end)

    def add(self, start: int, end: int) -> None:
        index = bisect.bisect_right(self._starts, start)
        self._starts.insert(index, start)
        self._ends.insert(index, end)


def rule_predictions(text: str, allowed: Iterable[str] | None = None) -> list[Prediction]:
    """Spans matched by the rare-category patterns (first pattern wins on overlap)."""
    allowed_set = set(allowed) if allowed is not None else None
    found: list[Prediction] = []
    taken = _Taken()
    for type_name, pattern in RULES:
        for match in pattern.finditer(text):
            start, end = match.span()
            kind = type_name
            # "fax" just before the number, with no other number in between.
            if kind == "PHONE" and _FAX_CONTEXT.search(re.split(r"\d", text[max(0, start - 25) : start])[-1]):
                kind = "FAX"
            if allowed_set is not None and kind not in allowed_set:
                continue
            if taken.free(start, end):
                found.append(Prediction(kind, start, end, RULE_CONFIDENCE, "rule"))
                taken.add(start, end)
    return found


def add_rule_spans(
    text: str, predictions: list[Prediction], allowed: Iterable[str] | None
) -> list[Prediction]:
    """Predictions plus every rule match that overlaps none of them."""
    result = list(predictions)
    taken = _Taken(result)
    for candidate in rule_predictions(text, allowed):
        if taken.free(candidate.start, candidate.end):
            result.append(candidate)
            taken.add(candidate.start, candidate.end)
    return result


def trim(text: str, predictions: Iterable[Prediction]) -> list[Prediction]:
    """Strip whitespace and edge punctuation (a closing ``.`` after an initial stays)."""
    trimmed = []
    for prediction in predictions:
        start, end = prediction.start, prediction.end
        while start < end and (text[start].isspace() or text[start] in _EDGE):
            if text[start] in _OPENING and _CLOSING[text[start]] in text[start:end]:
                break
            if text[start] == "'" and start + 1 < end and text[start + 1].isdigit():
                break  # '68: a two-digit year
            start += 1
        while end > start and (text[end - 1].isspace() or text[end - 1] in _EDGE):
            if text[end - 1] in _CLOSING.values() and _OPENING_OF[text[end - 1]] in text[start : end - 1]:
                break
            if text[end - 1] == "." and end - start >= 2 and text[end - 2].isalpha():
                # "J." or "Jr." or "Mass." keeps its period only when the word is short.
                word = text[start : end - 1].split()[-1] if text[start : end - 1].split() else ""
                if len(word) <= 3 and word[:1].isupper():
                    break
            end -= 1
        if end > start:
            trimmed.append(
                replace(prediction, start=start, end=end)
                if (start, end) != (prediction.start, prediction.end)
                else prediction
            )
    return trimmed


def _name_parts(term: str) -> list[str]:
    """Parts of a multi-word name that are rare enough in English to stand alone."""
    words = re.findall(r"[^\W\d_][\w'-]+", term)
    if len(words) < 2:
        return []
    return [w for w in words if len(w) >= 3 and w[0].isupper() and zipf_bucket(w.lower()) in RARE]


def trusted_terms(
    text: str, predictions: Iterable[Prediction], types: frozenset[str], threshold: float, with_parts: bool
) -> dict[str, tuple[str, float]]:
    """Strings of confident predictions -> (type, confidence); ambiguous strings are dropped."""
    terms: dict[str, tuple[str, float]] = {}
    conflicted: set[str] = set()
    for prediction in predictions:
        if prediction.type not in types or prediction.confidence < threshold:
            continue
        term = text[prediction.start : prediction.end]
        candidates = [term]
        if with_parts and prediction.type in NAME_TYPES:
            candidates += _name_parts(term)
        # The same name in capitals or in title case ("GATHONI" in a header, "Gathoni" in the text).
        candidates += [variant for c in candidates for variant in (c.upper(), c.title()) if variant != c]
        for candidate in candidates:
            if len(candidate) < 2 or not any(c.isalnum() for c in candidate):
                continue
            known = terms.get(candidate)
            if known is not None and known[0] != prediction.type:
                conflicted.add(candidate)
            elif known is None or known[1] < prediction.confidence:
                terms[candidate] = (prediction.type, prediction.confidence)
    for term in conflicted:
        terms.pop(term, None)
    return terms


_WORD_RUN = re.compile(r"\w+")


def propagate(
    text: str, predictions: list[Prediction], terms: Mapping[str, tuple[str, float]], origin: str
) -> list[Prediction]:
    """Tag every free occurrence of each trusted term (longer terms win where they overlap).

    All terms are found in one pass over the text (one alternation, longest first), so a
    long note with thousands of trusted terms costs one scan, not one per term.
    """
    # A term can match only where each of its words is a whole word of the text: one pass over
    # the text instead of one substring search per term (thousands in a long note).
    text_words = set(_WORD_RUN.findall(text))
    present = [term for term in terms if all(w in text_words for w in _WORD_RUN.findall(term))]
    if not present:
        return list(predictions)
    if all(_WORD_RUN.match(term) for term in present):
        return _propagate_by_first_word(text, predictions, terms, present, origin)
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(re.escape(t) for t in sorted(present, key=len, reverse=True)) + r")(?!\w)"
    )
    # Where the longest term at a position is taken, a shorter one there may still be free.
    by_prefix: dict[str, list[str]] = {}
    for term in sorted(present, key=len, reverse=True):
        by_prefix.setdefault(term[:2], []).append(term)
    result = list(predictions)
    taken = _Taken(result)
    position = 0
    while (match := pattern.search(text, position)) is not None:
        start = match.start()
        position = start + 1
        position = (
            _add_first_free(text, start, by_prefix[match.group()[:2]], terms, taken, result, origin)
            or position
        )
    return result


def _add_first_free(
    text: str,
    start: int,
    candidates: list[str],
    terms: Mapping[str, tuple[str, float]],
    taken: _Taken,
    result: list[Prediction],
    origin: str,
) -> int | None:
    """Add the first (longest) candidate written at ``start`` as a whole word and free; its end."""
    for term in candidates:
        end = start + len(term)
        if not text.startswith(term, start) or (
            end < len(text) and (text[end].isalnum() or text[end] == "_")
        ):
            continue
        if taken.free(start, end):
            type_name, confidence = terms[term]
            result.append(Prediction(type_name, start, end, confidence, origin))
            taken.add(start, end)
            return end
    return None


def _propagate_by_first_word(
    text: str,
    predictions: list[Prediction],
    terms: Mapping[str, tuple[str, float]],
    present: list[str],
    origin: str,
) -> list[Prediction]:
    """:func:`propagate` for terms that start with a word character, without a regex of them all.

    Such a term can only start where a word of the text starts, and that word is the term's
    first word: one dictionary look-up a word (an alternation of thousands of terms costs a
    try of each at every position).
    """
    by_first: dict[str, list[str]] = {}
    for term in sorted(present, key=len, reverse=True):
        first = _WORD_RUN.match(term)
        assert first is not None  # checked by the caller
        by_first.setdefault(first.group(), []).append(term)
    result = list(predictions)
    taken = _Taken(result)
    position = 0
    for word in _WORD_RUN.finditer(text):
        start = word.start()
        candidates = by_first.get(word.group())
        if candidates is None or start < position:
            continue
        position = _add_first_free(text, start, candidates, terms, taken, result, origin) or position
    return result


def name_lexicon_rule(
    text: str, tokens: Iterable[Token], predictions: list[Prediction], lexicons: Lexicons | None = None
) -> list[Prediction]:
    """Join census names adjacent to a predicted name; tag census names after a title."""
    lexicons = lexicons or default_lexicons()
    result = list(predictions)

    def is_rare_capitalised(word: str) -> bool:
        return len(word) >= 2 and word[0].isupper() and word.isalpha() and zipf_bucket(word.lower()) in RARE

    def is_listed(word: str) -> bool:
        return _capitalised_word(word) and lexicons.contains_any(NAME_LEXICONS, word)

    def is_name(token: Token) -> bool:
        return is_rare_capitalised(token.text) and is_listed(token.text)

    taken = _Taken(result)
    # Name predictions by where they end and start, to find the one next to a token.
    by_end = {p.end: i for i, p in enumerate(result) if p.type in NAME_TYPES}
    by_start = {p.start: i for i, p in enumerate(result) if p.type in NAME_TYPES}
    # The two tokens before the current one (tokens may be a stream: a long note's are).
    before: list[str] = ["", ""]
    for token in tokens:
        previous = before
        before = [previous[1], token.text]
        title = previous[0] if previous[1] == "." else previous[1]
        # After a title any capitalised word is a name: "Mr. Day", "Mrs. Long".
        after_title = title.lower() in _TITLES and _capitalised_word(token.text)
        if not taken.free(token.start, token.end):
            continue
        # An initial just before a predicted name joins it: "M. Balogun", "C HARDIE".
        if len(token.text) == 1 and token.text.isupper():
            gap = (
                2
                if text[token.end : token.end + 2] == ". "
                else 1
                if text[token.end : token.end + 1] == " "
                else 0
            )
            position = by_start.get(token.end + gap, -1) if gap else -1
            if position >= 0:
                prediction = result[position]
                result[position] = replace(prediction, start=token.start, origin="lexicon")
                del by_start[prediction.start]
                by_start[token.start] = position
                taken.add(token.start, token.end + gap)
            continue
        # Listed names join a predicted name whatever their frequency ("Rachelle Hope").
        joins = (
            token.start - 1 in by_end or token.end + 1 in by_start or token.start - 2 in by_end
        ) and is_listed(token.text)
        if not (after_title or is_name(token) or joins):
            continue
        # Right after a title: "Dr. Smith", "Mrs Jones", "Dr Eze" (any rare capitalised word).
        if after_title:
            result.append(
                Prediction(_TITLES[title.lower()], token.start, token.end, LEXICON_CONFIDENCE, "lexicon")
            )
            taken.add(token.start, token.end)
            by_end[token.end] = by_start[token.start] = len(result) - 1
            continue
        # Next to a predicted name, separated by one space only, or after a one-word name
        # and a comma ("HODGES, LATASHA"): extend that name.
        position = by_end.get(token.start - 1, -1)
        if position < 0 and text[token.start - 2 : token.start] == ", ":
            position = by_end.get(token.start - 2, -1)
            if position >= 0 and not text[result[position].start : result[position].end].isalpha():
                position = -1
        if position >= 0 and text[token.start - 1] == " ":
            prediction = result[position]
            result[position] = replace(prediction, end=token.end, origin="lexicon")
            del by_end[prediction.end]
            by_end[token.end] = position
            taken.add(token.start, token.end)
            continue
        position = by_start.get(token.end + 1, -1)
        if position >= 0 and text[token.end] == " ":
            prediction = result[position]
            result[position] = replace(prediction, start=token.start, origin="lexicon")
            del by_start[prediction.start]
            by_start[token.start] = position
            taken.add(token.start, token.end)
    return result


def _capitalised_word(word: str) -> bool:
    return len(word) >= 2 and word[0].isupper() and word.isalpha()


def relabel_fax(text: str, predictions: Iterable[Prediction], allowed: set[str] | None) -> list[Prediction]:
    """A phone number announced by "fax" is a FAX number."""
    if allowed is not None and "FAX" not in allowed:
        return list(predictions)
    result = []
    for prediction in predictions:
        if prediction.type == "PHONE":
            before = re.split(r"\d", text[max(0, prediction.start - 25) : prediction.start])[-1]
            if _FAX_CONTEXT.search(before):
                prediction = replace(prediction, type="FAX", origin="fax-context")
        result.append(prediction)
    return result


def split_extensions(text: str, predictions: Iterable[Prediction]) -> list[Prediction]:
    """A phone or fax number's extension as a PHONE span of its own, its label outside both.

    The model may take the extension into the number, leave it out, or find it alone.
    """
    result: list[Prediction] = []
    extensions: list[Prediction] = []
    for prediction in predictions:
        if prediction.type in ("PHONE", "FAX"):
            inside = _EXTENSION_INSIDE.search(text, prediction.start, prediction.end)
            if inside is not None and inside.end() == prediction.end and inside.start() > prediction.start:
                prediction = replace(prediction, end=inside.start())
                extensions.append(replace(prediction, type="PHONE", start=inside.start(1), end=inside.end(1)))
            else:
                after = _EXTENSION.match(text, prediction.end)
                if after is not None:
                    extensions.append(
                        replace(prediction, type="PHONE", start=after.start(1), end=after.end(1))
                    )
        result.append(prediction)
    if not extensions:
        return result
    kept = [p for p in result if not any(e.start < p.end and p.start < e.end for e in extensions)]
    return sorted([*kept, *extensions], key=lambda p: (p.start, p.end))


_NAME_GAP = re.compile(r"^(?: |, | [A-Z]\. | [A-Z] )$")


def merge_names(text: str, predictions: Iterable[Prediction]) -> list[Prediction]:
    """Join pieces of one name found separately ("Felicia" + "Dickerson", "Sonya R." + "Dvořák")."""
    merged: list[Prediction] = []
    for prediction in sorted(predictions, key=lambda p: (p.start, p.end)):
        if merged:
            last = merged[-1]
            if (
                last.type == prediction.type
                and last.type in NAME_TYPES
                and last.end <= prediction.start
                and _NAME_GAP.match(text[last.end : prediction.start])
            ):
                merged[-1] = replace(
                    last,
                    end=prediction.end,
                    confidence=min(last.confidence, prediction.confidence),
                    origin="merged",
                )
                continue
        merged.append(prediction)
    return merged


def postprocess_document(
    text: str,
    tokens: Iterable[Token],
    predictions: list[Prediction],
    allowed: Iterable[str] | None = None,
    evidence: PhiEvidence | None = None,
    memory: PhiMemory | None = None,
    site_lists: SiteLists | None = None,
    patient_id: str | None = None,
) -> list[Prediction]:
    """All single-note rules: trimming, patterns, name lexicon, trusted terms in the note.

    ``tokens``: the note's tokens in order, or only its capitalised words each with the two
    tokens before it (all the name rule reads). ``evidence``: the tagger's P(PHI) per token;
    a span a rule made stands only where the tagger suspects PHI (:mod:`annotator.crf.evidence`).
    Without it (the rules-only baseline) every rule span stands. ``memory``: the names and
    places the model's training gold tagged (:mod:`annotator.crf.phi_memory`); they and the
    patterns of :mod:`annotator.crf.measured_rules` stand without the model. ``site_lists``: the
    site's own names and places (:mod:`annotator.crf.site_lists`), those of patient
    ``patient_id`` too.
    """
    allowed_set = set(allowed) if allowed is not None else None
    predictions = without_placeholder_pieces(text, predictions)
    if evidence is not None and not predictions and evidence.peak() < RULE_GATE:
        # Every span a weighed rule could propose here would be weighed out: the model
        # suspects no token of the note (half the notes of a nursing corpus).
        return drop_eponyms(
            text,
            _add_self_standing(text, [], allowed_set, memory, evidence, site_lists, patient_id),
            KNOWN_PHRASE_ORIGINS,
        )
    names = allowed_set is None or bool(allowed_set & NAME_TYPES)
    tokens = tokens if isinstance(tokens, list) else list(tokens)
    result = strip_articles(text, trim(text, predictions))
    result = clean_up(text, drop_implausible_dates(text, drop_generic_places(text, result)))
    result = apply_format_rules(text, result, allowed_set)
    result = add_rule_spans(text, result, allowed_set)
    if names:
        result = name_lexicon_rule(text, tokens, result)
    result = relabel_labelled_phones(text, relabel_short_phones(text, result))
    result = split_extensions(text, relabel_fax(text, result, allowed_set))
    if evidence is not None:
        # Before trusted terms: a rule's false span must not spread through the note.
        result = evidence.gate(weigh_capitals_labels(text, result, evidence))
    terms = trusted_terms(text, result, PROPAGATED_IN_NOTE, TRUSTED_IN_NOTE, with_parts=True)
    result = propagate(text, result, terms, "trusted-note")
    if names:
        # Once more: a surname found by propagation takes its first name or initial along.
        result = name_lexicon_rule(text, tokens, result)
    if allowed_set is not None:
        result = [p for p in result if p.type in allowed_set]
    if evidence is not None:
        result = evidence.gate(result)
    # Last: whatever found it, a surname before "clamp" or "ligament" is an instrument's or a
    # structure's ("Kelly clamp", "Berry's ligament"), remembered and listed names too.
    return drop_eponyms(
        text,
        _add_self_standing(
            text, merge_names(text, result), allowed_set, memory, evidence, site_lists, patient_id
        ),
        KNOWN_PHRASE_ORIGINS,
    )


def weigh_capitals_labels(
    text: str, predictions: list[Prediction], evidence: PhiEvidence
) -> list[Prediction]:
    """Without the label names on all-capitals lines the model barely suspects
    (:data:`CAPITALS_LABEL_GATE`)."""
    kept = []
    lines = LineModes(text)
    for prediction in predictions:
        if (
            prediction.origin == SETTLING_ORIGIN
            and prediction.type in NAME_TYPES
            and evidence.strongest(prediction.start, prediction.end) < CAPITALS_LABEL_GATE
            and lines.of_span(prediction.start, prediction.end) == "U"
        ):
            continue
        kept.append(prediction)
    return kept


def _add_self_standing(
    text: str,
    predictions: list[Prediction],
    allowed: set[str] | None,
    memory: PhiMemory | None,
    evidence: PhiEvidence | None,
    site_lists: SiteLists | None = None,
    patient_id: str | None = None,
) -> list[Prediction]:
    """The site's listed phrases, remembered phrases, then measured patterns, where nothing
    was found."""
    strength = evidence.strongest if evidence is not None else None
    if site_lists is not None:
        predictions = add_site_phrases(site_lists, text, predictions, patient_id, allowed, strength)
    if memory:
        predictions = memory.add_to(text, predictions, allowed)
    # Last: a record layout's fields take their place over whatever was found there.
    found = add_name_partners(text, add_measured_spans(text, predictions, allowed, strength), allowed)
    return apply_layout_fields(text, found, allowed)


def postprocess_patient(
    texts: Mapping[str, str], predictions: Mapping[str, list[Prediction]]
) -> dict[str, list[Prediction]]:
    """Spread trusted names and hospitals across one patient's records.

    Parameters
    ----------
    texts, predictions:
        By document id, for the records of one patient.
    """
    pooled: dict[str, tuple[str, float]] = {}
    conflicted: set[str] = set()
    for doc_id, text in texts.items():
        for term, (type_name, confidence) in trusted_terms(
            text, predictions[doc_id], PROPAGATED_IN_PATIENT, TRUSTED_IN_PATIENT, with_parts=False
        ).items():
            known = pooled.get(term)
            if known is not None and known[0] != type_name:
                conflicted.add(term)
            elif known is None or known[1] < confidence:
                pooled[term] = (type_name, confidence)
    for term in conflicted:
        pooled.pop(term, None)
    # A term of words no dictionary knows stands wherever it recurs; one with a public word
    # ("Foley", "brown", "start") only where the model suspects it (see the tagger's gate).
    rare = {
        term: found
        for term, found in pooled.items()
        if not any(is_public(w.lower()) for w in _WORD_RUN.findall(term))
    }
    common = {term: found for term, found in pooled.items() if term not in rare}
    return {
        doc_id: drop_eponyms(
            text,
            merge_names(
                text,
                add_name_partners(
                    text,
                    propagate(
                        text,
                        _without_eponyms(
                            text, propagate(text, predictions[doc_id], rare, RARE_PATIENT_TERM_ORIGIN)
                        ),
                        common,
                        "trusted-patient",
                    ),
                ),
            ),
            KNOWN_PHRASE_ORIGINS,
        )
        for doc_id, text in texts.items()
    }


def _without_eponyms(text: str, predictions: list[Prediction]) -> list[Prediction]:
    """Drop a spread name that is an eponym here: the clinician Blake, not the "Blake drain"."""
    return [
        p
        for p in predictions
        if p.origin != RARE_PATIENT_TERM_ORIGIN
        or p.type not in NAME_TYPES
        or not eponym_after().match(text, p.end)
    ]


def predictions_to_annotations(
    document: Document, predictions: Iterable[Prediction], schema: Schema
) -> list[Annotation]:
    """Pending model annotations (new ids, not yet added to the document)."""
    annotations = []
    for prediction in predictions:
        if not schema.has_type(prediction.type):
            continue
        annotations.append(
            document.make_annotation(
                schema.category_of(prediction.type),
                prediction.type,
                prediction.start,
                prediction.end,
                source=Source.MODEL,
                confidence=round(prediction.confidence, 4),
                pending=True,
            )
        )
    return annotations


# -- the rules-only baseline ------------------------------------------------------------------
_BASELINE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "DATE",
        re.compile(
            r"(?<![\d/-])(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})|\d{1,2}-\d{1,2}-\d{2,4})(?![\d/-])"
        ),
    ),
    (
        "DATE",
        re.compile(
            r"\b(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?"
            r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b"
        ),
    ),
    (
        "AGE",
        re.compile(
            r"\b\d{1,3}(?=\s*(?:-\s*)?(?:y/?o\b|yo|y\.o\.|years?[\s-]*old|yr[\s-]*old))", re.IGNORECASE
        ),
    ),
    ("MEDICALRECORD", re.compile(r"(?<=MRN)[:#\s]*\d{5,10}\b|(?<=MRN: )\d{5,10}\b")),
    ("ZIP", re.compile(r"(?<=\b[A-Z]{2} )\d{5}(?:-\d{4})?\b")),
)


def rules_only_predictions(text: str, allowed: Iterable[str] | None = None) -> list[Prediction]:
    """The baseline: rare-category rules, date/age/MRN/ZIP patterns, names after titles."""
    allowed_set = set(allowed) if allowed is not None else None
    predictions = rule_predictions(text, allowed_set)
    for type_name, pattern in _BASELINE_PATTERNS:
        if allowed_set is not None and type_name not in allowed_set:
            continue
        taken = _Taken(predictions)
        for match in pattern.finditer(text):
            if taken.free(*match.span()):
                predictions.append(Prediction(type_name, match.start(), match.end(), RULE_CONFIDENCE, "rule"))
                taken.add(*match.span())
    predictions = trim(text, predictions)
    tokens = tokenize(text)
    predictions = name_lexicon_rule(text, tokens, predictions)
    if allowed_set is not None:
        predictions = [p for p in predictions if p.type in allowed_set]
    terms = trusted_terms(text, predictions, PROPAGATED_IN_NOTE, 0.0, with_parts=True)
    return sorted(propagate(text, predictions, terms, "trusted-note"), key=lambda p: (p.start, p.end))


def rules_only_tagger(document: Document, schema: Schema | None = None) -> list[Annotation]:
    """Pre-annotations from the rules alone (no training data needed): the baseline."""
    schema = schema or load_schema()
    return predictions_to_annotations(
        document, rules_only_predictions(document.text, {t.name for t in schema.types}), schema
    )
