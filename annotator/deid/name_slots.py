"""A name's slot from the words around it: a first name for a first name.

The tag type says whose name it is (a clinician, the patient, a relative), not which part of
it: nurses sign and are named by first name (``NP CAROL``, ``per carol wolfe``), relatives too
(``daughter Clara``), doctors by surname (``Dr. Walker``). Real notes also tag a name in parts
(``grace`` ``dudak``), so tags side by side are read as one name (first names first, as
written). One word alone takes its slot from the word before it (a title, a relation, a staff
role) and else from the name lists; the relation or title also gives the gender.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.deid.lists import known_first_names, known_surnames
from annotator.deid.names import NameMapper
from annotator.deid.tag_runs import Span, adjacent_runs, cut_into_tags, line_before

TITLES: dict[str, str] = {
    "dr": "any", "drs": "any", "doctor": "any", "mr": "male", "mrs": "female", "ms": "female", "miss": "female",
}  # fmt: skip
RELATIONS: dict[str, str] = {
    "son": "male", "daughter": "female", "wife": "female", "husband": "male", "sister": "female",
    "brother": "male", "niece": "female", "nephew": "male", "mother": "female", "father": "male",
    "mom": "female", "dad": "male", "aunt": "female", "uncle": "male", "grandson": "male",
    "granddaughter": "female", "grandmother": "female", "grandfather": "male", "girlfriend": "female",
    "boyfriend": "male", "fiance": "any", "fiancee": "female", "friend": "any", "partner": "any",
    "cousin": "any", "spouse": "any", "neighbor": "any", "neighbour": "any", "guardian": "any",
}  # fmt: skip
STAFF = frozenset(
    {"np", "rn", "pa", "nurse", "ho", "rrt", "rt", "resident", "fellow", "attending", "intern", "msw"}
)
_WORD_BEFORE = re.compile(r"(?P<word>[A-Za-z]+)\.?\s*(?:\(\?\)|[,:(])?\s*$")
# Tags of one name: blanks, an initial's dot, a comma ("Last, First"), a hyphen.
_NAME_GAP = re.compile(r"[ \t]+|[ \t]*[.,-][ \t]*")
RELATIVE_TYPE = "RelativeProxyName"


def slot_of(word: str, before: str) -> tuple[str | None, str | None]:
    """``(slot, gender)`` of a one-word name after ``before`` (None: no sign either way)."""
    match = _WORD_BEFORE.search(before)
    previous = match["word"].lower() if match else ""
    lowered = word.lower()
    first = lowered in known_first_names()
    last = lowered in known_surnames()
    if previous in TITLES:
        return "last", TITLES[previous]
    if previous in RELATIONS:
        return ("last" if last and not first else "first"), RELATIONS[previous]
    if previous in STAFF:
        return ("first" if first and not (last and previous == "dr") else "last"), None
    if first and not last:
        return "first", None
    if last and not first:
        return "last", None
    return None, None


def who(annotation: Annotation, before: str) -> str:
    """``clinician``, ``relative`` or ``patient``: whose name a tag holds (for the audit)."""
    match = _WORD_BEFORE.search(before)
    if dict(annotation.extra).get("physionet_type") == RELATIVE_TYPE or (
        match and match["word"].lower() in RELATIONS
    ):
        return "relative"
    return "clinician" if annotation.type.upper() == "DOCTOR" else "patient"


def _one_name(previous: str, between: str) -> bool:
    """Whether two name tags so placed are one name: a dot after an initial joins ("J. Smith"),
    after a word it ends a sentence ("Dr. Zelda Ostrowski. JQ initials": two people)."""
    return "." not in between or len(previous.strip()) == 1


def plan_names(document: Document, tags: Iterable[Annotation], mapper: NameMapper) -> dict[Span, str]:
    """Each name tag's surrogate, read with the tags beside it and the word before them."""
    planned: dict[Span, str] = {}
    text = document.text
    for run in adjacent_runs(text, tags, _NAME_GAP, longest=3, joins=_one_name):
        start, end = run[0][0], run[-1][1]
        phrase = text[start:end]
        slot, gender = slot_of(phrase, line_before(text, start, 30))
        spans = [(s - start, e - start) for s, e in run]
        planned.update(cut_into_tags(text, run, mapper.replace_tokens(phrase, slot, gender, spans)))
    return planned
