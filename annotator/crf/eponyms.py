"""Eponyms are no PHI: the surname in ``Kelly clamp``, ``Bard-Parker blade``, ``Berry's ligament``.

Operative and procedure notes name instruments, manoeuvres, positions and structures after
people (``Metzenbaum scissors``, ``Trendelenburg position``, ``Hasson technique``); a model
that learnt names from nursing notes and letters reads ``Kelly``, ``Joseph`` or ``Maryland``
there as a person or a place. A span is an eponym when a clinical head noun follows it
(``surrogates/eponym_heads.txt``, the list the leak check reads) or ends it in lower case
(``Epstein curette``, ``sharp curette``), or is one word after a head noun and ``of`` (``knot
of Henry``, ``circle of Willis``), and no title stands before it (``Dr. Kelly``).

Measured (twentieth round): of 36,192 gold spans (PhysioNet patients 1-110, the 1,882
synthetic training notes, five i2b2 2014 notes) none is so placed; on 401 dictated MTSamples
reports it removed 46 spans the bundled model suggested, on 193 others 21, none of them PHI.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from annotator.core.resources import resource_path
from annotator.crf.labels import Prediction

# "Dr. Kelly clamped", "Mr Blake drain care": after a title the word is the person.
_TITLE_BEFORE = re.compile(r"(?i:\b(?:dr|doctor|mr|mrs|ms|miss|prof|professor|sister|nurse)\.?)[ \t]+$")
# The head may follow a hyphenated partner ("Kelly-Descemet punch"), a "-type" ("Kocher-type
# clamp") or a possessive; "cell#" and "line:" are fields.
# A head noun before a room is a hospital's service ("GH cath lab", "Shock Trauma drain
# clinic"): the name before it is the hospital's.
_AFTER = (
    r"(?:-[A-Z][\w'’]*)*(?:-type)?(?:['’]s?)?[ \t]+(?:{heads})\b(?![#:])"
    r"(?![ \t]+(?i:labs?|laboratory|unit|suite|room|clinic|ward|department|dept|cent(?:er|re))\b)"
)
_SURNAME_LETTERS = 3


@cache
def eponym_heads() -> tuple[str, ...]:
    """The head nouns, longest first (one per line in ``surrogates/eponym_heads.txt``)."""
    lines = resource_path("surrogates", "eponym_heads.txt").read_text(encoding="utf-8").splitlines()
    heads = {line.strip().lower() for line in lines if line.strip() and not line.startswith("#")}
    return tuple(sorted(heads, key=lambda head: (-len(head), head)))


@cache
def _head_after() -> re.Pattern[str]:
    return re.compile(_AFTER.format(heads="|".join(map(re.escape, eponym_heads()))), re.IGNORECASE)


# Anatomy names its eponyms after "of" too ("knot of Henry", "loop of Henle", "circle of
# Willis", "pouch of Douglas"): a head noun, or one of these, before "of".
_OF_HEADS = ("loop", "sphincter", "circle", "islets", "islet", "bundle", "organ", "ampulla", "angle",
             "tetralogy", "knot", "crypts", "fossa", "foramen", "tubercle", "nucleus", "column")  # fmt: skip


@cache
def _head_of() -> re.Pattern[str]:
    heads = "|".join(map(re.escape, (*eponym_heads(), *_OF_HEADS)))
    return re.compile(rf"\b(?:{heads})[ \t]+of[ \t]+(?:the[ \t]+)?$", re.IGNORECASE)


@cache
def _head_last() -> re.Pattern[str]:
    # Lower case only: "Kellie Burr" is a person, "matchstick burr" a drill.
    return re.compile(r"[ \t](?:{})$".format("|".join(map(re.escape, eponym_heads()))))


def is_eponym(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` names an instrument, sign or structure, not a person or place."""
    span = text[start:end]
    if any(c.isdigit() for c in span):
        return False
    words = re.findall(r"[A-Za-z'’]+", span)
    # "GH cath lab" is a hospital's initials; an eponym is a surname.
    if not words or len(words[-1]) < _SURNAME_LETTERS:
        return False
    if _TITLE_BEFORE.search(text, max(0, start - 12), start):
        return False
    return bool(
        _head_after().match(text, end)
        or _head_last().search(span)
        or (len(words) == 1 and _head_of().search(text, max(0, start - 40), start))
    )


def drop_eponyms(
    text: str, predictions: Iterable[Prediction], known_origins: frozenset[str] = frozenset()
) -> list[Prediction]:
    """``predictions`` without the eponyms (:func:`is_eponym`).

    A phrase of two words or more from ``known_origins`` (places the training gold or the
    site's lists hold whole) stays: an eponym is one surname, and such a phrase names a place
    even before a clinical noun (the PhysioNet gold tags one before ``scale``).
    """
    return [
        p
        for p in predictions
        if (p.origin in known_origins and len(text[p.start : p.end].split()) > 1)
        or not is_eponym(text, p.start, p.end)
    ]
