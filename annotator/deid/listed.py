"""The leak check with a site's lists: a listed name or place left in the text is a leak.

The rest of the check looks for the strings the gold tagged; an occurrence the annotators
missed everywhere (a clinician named once, untagged) is invisible to it. The site's own lists
(:mod:`annotator.io.site_lists`: its staff, hospitals, local places, each patient's name) name
such PHI without the gold: a listed phrase in text the export left unchanged is a finding,
judged as the check judges any one-word match that is also a word ("Grace", "Harbor": only
where the context reads it as a name or a place; never inside an eponym or a clinical use).
"""

from __future__ import annotations

from annotator.core.document import Document
from annotator.core.span import SpanIndex
from annotator.deid.clinical_language import clinical_use, eponym_pattern, is_vocabulary, reads_as_phi
from annotator.deid.findings import Leak
from annotator.deid.surrogates import KINDS
from annotator.io.site_lists import SiteLists

LISTED_RULE = "listed by the site, left in the text"


def _short_place(phrase: str, type_name: str) -> bool:
    """A place under the length the check looks for, in capitals: the site's acronym of a
    hospital ("GH"); a two-letter name ("Al") is left out, too often a word ("AL" an a-line)."""
    return phrase.isupper() and KINDS.get(type_name, "location") != "name"


def listed_phrases_left(outputs: list[Document], lists: SiteLists, min_length: int = 3) -> list[Leak]:
    """Every listed phrase (the site's, and the note's patient's) of ``min_length`` characters
    or more, or a place's acronym, in untagged output text."""
    names = frozenset(
        word
        for table in (lists.site, *lists.patients.values())
        for phrase, type_name in table.phrases.items()
        if KINDS.get(type_name) == "name"
        for word in phrase.split()
    )
    leaks = []
    for document in outputs:
        text = document.text
        tags = SpanIndex((a.start, a.end) for a in document)
        eponyms: SpanIndex | None = None
        for type_name, start, end in lists.matches(text, document.patient_id):
            if tags.overlaps(start, end) or (
                end - start < min_length and not _short_place(text[start:end], type_name)
            ):
                continue
            words = text[start:end]
            if (" " not in words.strip() and is_vocabulary(words)) or lists.ambiguous(words):
                if eponyms is None:
                    eponyms = SpanIndex(m.span() for m in eponym_pattern().finditer(text))
                kind = KINDS.get(type_name, "location")
                if (
                    eponyms.covers(start, end)
                    or clinical_use(text, start, end, True, names)
                    or not reads_as_phi(text, start, end, kind, names, True)
                ):
                    continue
            leaks.append(Leak(document.doc_id, document.doc_id, "", type_name, LISTED_RULE, start, end))
    return leaks
