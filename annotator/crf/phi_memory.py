"""The names and places a site's gold standard tagged, looked for again in new notes.

A site's notes name the same hospitals, wards and clinicians again and again ("GH",
"Holy Cross", "kernan"), and a shareable model cannot learn them: its features name public
words only, so a hospital's name is just a rare word to it. The memory keeps each name or
place phrase the training gold tagged, with how often its occurrences in the training notes
were tagged; a phrase tagged at least :data:`PLACE_SHARE` (places) or :data:`NAME_SHARE`
(clinicians) of the time is PHI wherever it appears again.

Measured by 3-fold cross-validation on the PhysioNet deid corpus's training patients
(1-110, memory learnt from two folds, applied to the third, spans the tagger had missed):
places 36 right and 0 wrong, clinicians 5 right and 0 wrong. Not remembered: patients' and
relatives' names (4 right, 6 wrong: they belong to one patient), their street addresses and
ZIP codes (a home, not a place the site shares), dates (10 right, 13 wrong),
and anything learnt from synthetic notes (states, names and hospitals our generators write:
70 right, 96 wrong on the real notes), so the bundled model remembers its real notes only.

The memory holds PHI strings of its training notes: only a model whose features may name
them (``private_features``) or one trained on notes with no one's PHI (the bundled model:
synthetic notes and the corpus's surrogates) carries one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import Any

from annotator.core.document import Document
from annotator.core.phrases import MAX_PHRASE_CHARS, compile_phrases
from annotator.core.schema import Schema
from annotator.crf.eponyms import eponym_heads
from annotator.crf.features import is_public
from annotator.crf.labels import Prediction
from annotator.crf.measured_rules import add_where_free

MEMORY_ORIGIN = "memory"
MEMORY_CONFIDENCE = 0.9
PLACE_SHARE = 0.5
NAME_SHARE = 0.8
# Places and clinicians recur across a site's patients; a patient's or relative's name belongs
# to one patient (the tagger spreads it through that patient's notes itself).
PLACE_CATEGORY = "LOCATION"
CLINICIAN_TYPES = frozenset({"DOCTOR"})
# A street address or a ZIP code is a patient's home, not a place the site's notes share:
# like a patient's name it belongs to one patient (and a private model would keep it).
PERSONAL_PLACE_TYPES = frozenset({"STREET", "ZIP"})
# Annotations this close (only spaces between them) make one phrase: "Holy" + "Cross".
_JOIN_GAP = 2
# A model file is untrusted input: bound what its memory may hold.
MAX_PHRASES = 100_000


class PhiMemory:
    """Lower-case phrase -> schema type, with a matcher over new text."""

    def __init__(self, phrases: Mapping[str, str] | None = None) -> None:
        self.phrases: dict[str, str] = dict(phrases or {})
        self._pattern: re.Pattern[str] | None = None

    def __len__(self) -> int:
        return len(self.phrases)

    def __bool__(self) -> bool:
        return bool(self.phrases)

    # -- learning --------------------------------------------------------------------
    @classmethod
    def learn(cls, documents: Sequence[Document], schema: Schema) -> PhiMemory:
        """The phrases of ``documents``' name and place annotations tagged often enough."""
        tagged: Counter[str] = Counter()
        kinds: dict[str, Counter[str]] = {}
        for document in documents:
            for phrase, type_name in _tagged_phrases(document, schema):
                tagged[phrase] += 1
                kinds.setdefault(phrase, Counter())[type_name] += 1
        if not tagged:
            return cls()
        seen: Counter[str] = Counter()
        matcher = compile_phrases(tagged)
        for document in documents:
            seen.update(match.group().lower() for match in matcher.finditer(document.text))
        phrases = {}
        for phrase, count in tagged.items():
            type_name = kinds[phrase].most_common(1)[0][0]
            if type_name in CLINICIAN_TYPES and " " not in phrase and is_public(phrase):
                # "price", "walker": a clinician's name that is also a word is a word elsewhere.
                continue
            share = PLACE_SHARE if schema.category_of(type_name) == PLACE_CATEGORY else NAME_SHARE
            if count >= share * max(seen[phrase], count):
                phrases[phrase] = type_name
        return cls(phrases)

    # -- use -------------------------------------------------------------------------
    def predictions(self, text: str, allowed: set[str] | None = None) -> list[Prediction]:
        """Every remembered phrase in ``text`` (whole words, any case)."""
        if not self.phrases:
            return []
        if self._pattern is None:
            self._pattern = compile_phrases(self.phrases)
        found = []
        for match in self._pattern.finditer(text):
            type_name = self.phrases.get(match.group().lower())
            if type_name in CLINICIAN_TYPES and eponym_after().match(text, match.end()):
                continue  # "Murphy sign", "Foley catheter"
            if type_name is not None and (allowed is None or type_name in allowed):
                found.append(
                    Prediction(type_name, match.start(), match.end(), MEMORY_CONFIDENCE, MEMORY_ORIGIN)
                )
        return found

    def add_to(
        self, text: str, predictions: list[Prediction], allowed: set[str] | None = None
    ) -> list[Prediction]:
        """``predictions`` with each remembered phrase that overlaps none of them."""
        return add_where_free(predictions, self.predictions(text, allowed))

    # -- files -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"version": 1, "phrases": dict(sorted(self.phrases.items()))}

    @classmethod
    def from_json(cls, data: object, schema: Schema) -> PhiMemory:
        """Read what :meth:`to_json` wrote; ``ValueError`` for anything else."""
        if (
            not isinstance(data, dict)
            or data.get("version") != 1
            or not isinstance(data.get("phrases"), dict)
        ):
            raise ValueError("PHI memory is not a version-1 phrase table")
        phrases = data["phrases"]
        if len(phrases) > MAX_PHRASES:
            raise ValueError(f"PHI memory holds more than {MAX_PHRASES:,} phrases")
        for phrase, type_name in phrases.items():
            if (
                not isinstance(type_name, str)
                or not schema.has_type(type_name)
                or not phrase
                or len(phrase) > MAX_PHRASE_CHARS
                or phrase != phrase.lower()
            ):
                raise ValueError(
                    "PHI memory holds an entry that is not a lower-case phrase and a schema type"
                )
        return cls(phrases)


def _tagged_phrases(document: Document, schema: Schema) -> Iterator[tuple[str, str]]:
    """(lower-case phrase, type) of each run of adjacent same-type name or place annotations."""
    spans = sorted(
        (a.start, a.end, a.type)
        for a in document.annotations
        if schema.has_type(a.type)
        and a.type not in PERSONAL_PLACE_TYPES
        and (a.type in CLINICIAN_TYPES or schema.category_of(a.type) == PLACE_CATEGORY)
    )
    text = document.text
    run: list[int] | None = None
    run_type = ""
    for start, end, type_name in [*spans, (-1, -1, "")]:
        if (
            run is not None
            and type_name == run_type
            and 0 <= start - run[1] <= _JOIN_GAP
            and not text[run[1] : start].strip()
        ):
            run[1] = max(run[1], end)
            continue
        if run is not None:
            phrase = text[run[0] : run[1]].lower()
            if _rememberable(phrase):
                yield phrase, run_type
        run, run_type = ([start, end], type_name) if start >= 0 else (None, "")


@cache
def eponym_after() -> re.Pattern[str]:
    """A possessive and a noun that makes the surname before it clinical vocabulary ("Murphy
    sign", "Foley catheter"; the leak check's list, ``surrogates/eponym_heads.txt``)."""
    alternatives = "|".join(re.escape(head) for head in eponym_heads())
    return re.compile(rf"(?:['’]s?)?\s+(?:{alternatives})\b", re.IGNORECASE)


def _rememberable(phrase: str) -> bool:
    letters = sum(c.isalpha() for c in phrase)
    return letters >= 2 and len(phrase) <= MAX_PHRASE_CHARS and "\n" not in phrase
