"""Leak-check rule for a tagged name left inside another string: glued into a user name or a
file name ("mariagarcia@", "OraHendrickson", "hendrickson_ora.pdf", "hendrickson99"), or
in the plural ("the Hendricksons", "the GARCIAS").

The whole-token search of :mod:`annotator.deid.leakcheck` finds none of these: each is one
token that is not the name. Only what a name of the original notes makes is looked for:
its parts run together in order or reversed, with initials ("mgarcia", "garciam"), and its
rare parts alone in the plural, or next to digits or an underscore. Strings that are English
words ("edward" + "s") or words of clinical notes ("stent" + "s") are left out, so the rule
adds findings only where a name is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise, permutations

from annotator.core.document import Document
from annotator.core.english import zipf
from annotator.core.span import SpanIndex
from annotator.deid.clinical_language import clinical_words, surname_only
from annotator.deid.findings import Leak
from annotator.deid.names import PARTICLES, is_title, name_tokens, without_diacritics
from annotator.deid.surrogates import kind_of

# Runs of letters joined by "." or "_" ("hendrickson_ora", "maria.garcia").
_DOTTED = re.compile(r"(?<![^\W\d_])[^\W\d_]+(?:[._][^\W\d_]+)+")
_PIECE = re.compile(r"[^\W\d_]+")
# Shorter strings made of a name's parts ("ali" + "s") are too often something else.
_SHORTEST_JOINED = 6
_SHORTEST_PART_ALONE = 4


@dataclass(frozen=True)
class _Wanted:
    document: Document
    tag_id: str
    type: str
    rule: str
    own_patient: bool


def _not_a_word(text: str) -> bool:
    """Neither English nor a word of clinical notes ("stents", "lytes" for a Stent, a Lyte)."""
    return zipf(text) < 3.0 and text not in clinical_words()


def _plurals(part: str) -> list[str]:
    return [part + "es"] if part.endswith(("s", "x", "z", "ch", "sh")) else [part + "s"]


def _joined_forms(parts: list[str]) -> set[str]:
    """A name's parts run together: in either order, each part whole or as its initial."""
    forms: set[str] = set()
    for first, second in permutations(parts, 2):
        forms.update({first + second, first[0] + second, first + second[0]})
    if len(parts) > 2:
        forms.add("".join(parts))
        forms.add("".join(p[0] for p in parts[:-1]) + parts[-1])
    return {f for f in forms if len(f) >= _SHORTEST_JOINED and _not_a_word(f) and f not in parts}


def _name_parts(text: str) -> list[str]:
    """The name's parts in lower case, titles and particles left out; with diacritics
    dropped too when it has any ("nunez" beside "nuñez": many systems write it so)."""
    parts = [
        t.lower() for t in name_tokens(text) if t.isalpha() and not is_title(t) and t.lower() not in PARTICLES
    ]
    return list(dict.fromkeys([*parts, *(without_diacritics(p) for p in parts)]))


def _wanted(originals: list[Document]) -> tuple[dict[str, _Wanted], dict[str, _Wanted]]:
    """What to look for: strings a whole match names, and parts glued to digits or "_"."""
    whole: dict[str, _Wanted] = {}
    glued: dict[str, _Wanted] = {}
    for document in originals:
        for annotation in document:
            if kind_of(annotation) != "name":
                continue
            parts = _name_parts(annotation.text)
            source = (document, annotation.id, annotation.type)
            for form in _joined_forms(parts):
                whole.setdefault(form, _Wanted(*source, "name glued to other text", False))
            for part in parts:
                if len(part) < _SHORTEST_PART_ALONE:
                    continue
                # A rare name is looked for everywhere; a surname that wordfreq counts as a
                # word only because people are called so ("garcia"), in its patient's notes.
                rare, own = _not_a_word(part), surname_only(part)
                if not (rare or own):
                    continue
                for plural in _plurals(part):
                    if _not_a_word(plural):
                        whole.setdefault(plural, _Wanted(*source, "name in the plural", own and not rare))
                glued.setdefault(part, _Wanted(*source, "name glued to other text", own and not rare))
    return whole, glued


def _glued_to_digits(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    return any(c == "_" or c.isdigit() for c in before + after)


def names_written_together(originals: list[Document], outputs: list[Document]) -> list[Leak]:
    """Tagged names left glued into another string, or in the plural, outside any output tag."""
    whole, glued = _wanted(originals)
    if not whole and not glued:
        return []
    alone = whole.keys() | glued.keys()
    leaks: list[Leak] = []

    def report(document: Document, found: _Wanted | None, span: tuple[int, int], tags: SpanIndex) -> None:
        if found is None or (found.own_patient and found.document.patient_id != document.patient_id):
            return
        if not tags.overlaps(*span):
            source = found.document
            leaks.append(Leak(document.doc_id, source.doc_id, found.tag_id, found.type, found.rule, *span))

    for document in outputs:
        text = document.text
        # Runs of letters that are wanted alone: found by a set, at C speed, so that only the
        # few notes and places that hold one are looked at.
        hits = alone.intersection(_PIECE.findall(text.lower()))
        dotted = list(_DOTTED.finditer(text))
        if not hits and not dotted:
            continue
        tags = SpanIndex((a.start, a.end) for a in document)
        for word in sorted(hits):
            for match in re.finditer(rf"(?<![^\W\d_]){re.escape(word)}(?![^\W\d_])", text, re.IGNORECASE):
                if word in whole:
                    report(document, whole[word], match.span(), tags)
                elif _glued_to_digits(text, *match.span()):
                    report(document, glued[word], match.span(), tags)
        for match in dotted:
            # Pieces joined by "." or "_": whole ("garcia.maria"), or two of them
            # ("hendrickson_ora" of "hendrickson_ora.pdf").
            joined = re.sub(r"[._]", "", match.group()).lower()
            if joined in whole:
                report(document, whole[joined], match.span(), tags)
                continue
            pieces = list(_PIECE.finditer(text, *match.span()))
            for first, second in pairwise(pieces):
                pair = (first.group() + second.group()).lower()
                report(document, whole.get(pair), (first.start(), second.end()), tags)
    return leaks
