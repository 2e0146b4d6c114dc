"""Names where the note says whose name it is (part of :mod:`annotator.crf.format_rules`).

A label before the name (``Surname:``, ``Pt:``, ``RE:``, a relative: ``wife`` -> PATIENT;
``Referrer:``, ``Reported by``, ``Consultant:``, ``Signed``, ``Dr`` -> DOCTOR), a degree or a
role after it (``Neil L. Villa, MD``, ``Mark Nnamani - registrar`` -> DOCTOR), a relation after
it (``Xavier Bolton (son)`` -> PATIENT) or a letter's closing before it (``Yours sincerely,``
-> DOCTOR). A name is initials and capitalised words, as ``Name Name``, ``NAME NAME`` or
``SURNAME, Forename``; one of its words must be on a name list or rare in English.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from annotator.crf.features import zipf_bucket
from annotator.crf.lexicons import NAME_LEXICONS, default_lexicons

# A thing's name is no person's ("Model Name:  Sigma", "Drug name: Keppra").
_THINGS_NAMED = ("model", "device", "product", "drug", "brand", "generic", "trade", "study", "test", "procedure",
                 "file", "user", "facility", "hospital", "company", "practice", "plan", "program", "medication",
                 "unit", "ward", "clinic", "school", "employer", "business", "street", "lab")  # fmt: skip
_THING_NAME = "".join(rf"(?<!{thing}[ \t])" for thing in _THINGS_NAMED) + "name"
_PATIENT_LABELS = (
    r"surname|forenames?|first\s+name|last\s+name|family\s+name|given\s+names?|patient\s+name|patient|pt|"
    + _THING_NAME
    + "|re"
)
# Field labels that say the words after them are a name, whatever the words (a patient called Hope).
_NAME_FIELDS = r"surname|forenames?|first\s+name|last\s+name|family\s+name|given\s+names?|patient\s+name"
_RELATIVES = (
    r"wife|husband|partner|sister|brother|son|daughter|mother|father|friend|niece|neice|nephew|aunt|uncle|dtr|neighbou?r"
    r"|grand(?:son|daughter|mother|father)|step(?:son|daughter|mother|father)|cousin|fianc[ée]e?|nok"
)
_DOCTOR_LABELS = (
    r"referrer|referred\s+by|reported\s+by|verified\s+by|reviewed\s+by|dictated\s+by|signed(?:\s+by)?"
    r"|seen\s+by|consultant|anaesthetist|anesthesiologist|surgeon|registrar|attending|accepting|authori[sz]ed\s+by"
    r"|gp|pcp|cc|dr|doctor|resident|fellow|intern|assistant|referring|read\s+by|follow\s+up\s+with"
)
# Capitals and letters of Latin scripts with accents: "LÉVESQUE, Raphaël", "Massé".
_UPPER = "A-ZÀ-ÖØ-Þ"
_LETTER = "A-Za-zÀ-ÖØ-öø-ÿ"
# On one line: no gold span of either corpus crosses a line break ("Dr. X.\nTOURNIQUET TIME").
_INITIALS = rf"(?:[{_UPPER}]\.(?:[ \t]?[{_UPPER}]\.)*[ \t]?|[{_UPPER}][ \t])"
_WORD = rf"[{_UPPER}][{_LETTER}'’-]+"
# A sentence's article is no part of a name ("by Dr. X. The McIvor mouth gag").
_NAME_WORD = rf"(?!(?:The|THE|This|THIS)\b){_WORD}"
# The forename of "SURNAME, Forename": not a field ("Sanders, DOB") nor a place's first word
# ("Dr Naylor, Larchfield Surgery", "Hines, St. Agatha's").
_FORENAME = (
    rf"(?!(?:DOB|MRN|DOA|DOD|NHS|NHI|URN?|ID|Age|AGE|Sex|SEX|St|ST|Saint|Mercy|MERCY|Our|OUR|The|THE)\b){_WORD}"
    rf"(?![{_LETTER}'’-])"
    r"(?![ \t]+(?:[A-Z][a-z]+[ \t]+)?(?i:surgery|hospital|clinic|infirmary|practice|health|medical|cent(?:er|re)"
    r"|general|regional|memorial|community|rehabilitation|university|hospice)\b)(?![.’']\w)"
)
# One space between the words of a name: a wider gap separates fields ("MARK   Forename:").
_NAME_AFTER = (
    rf"[ \t]*(?:Dr\.?[ \t]+|DR\.?[ \t]+)?({_INITIALS}?{_NAME_WORD}(?:, {_FORENAME}|(?: {_INITIALS}?{_NAME_WORD}){{0,2}})"
    rf"(?: [A-Z]\.?(?![\w']))?)"
)
_CREDENTIALS = frozenset(
    [
        "rn",
        "md",
        "do",
        "phd",
        "np",
        "pa",
        "mbbs",
        "frcp",
        "frcpath",
        "frcs",
        "mrcp",
        "dds",
        "rgn",
        "lpn",
        "cnp",
        "aprn",
        "frcpc",
        "ccfp",
        "facp",
        "facs",
        "frcsc",
        "mrcgp",
        "fracp",
        "fracs",
        "facem",
        "mbchb",
        "gp",
        "ot",
        "pt",
    ]
)
_LEAD_WORDS = frozenset(
    {"signed", "seen", "dictated", "reviewed", "reported", "verified", "dear", "thanks", "regards", "copy",
     "cc", "attending", "consultant", "nurse", "resident", "registrar", "by", "dr", "from", "to", "per",
     "pharmacist", "physician", "surgeon", "therapist", "physio", "psychiatrist", "psychologist", "reconciled"}
)  # fmt: skip
_DEGREE = (
    r",?[ \t]+(?:MD|M\.D\.|DO|D\.O\.|PhD|NP|PA-C|FRCP\w*|FRACP|FRACS|FACEM|FRANZCP|MBBS|MBChB|MRCP|RN|RGN|LPN|APRN"
    r"|CNP|GP|OT|PT)\b(?![ \t]*:)"
)
_ROLES = (
    r"registrar|consultant|radiologist|pathologist|surgeon|anaesthetist|anesthesiologist|physician|resident"
    r"|fellow|intern|attending|nurse|midwife|physiotherapist|pharmacist|cardiologist|oncologist|neurologist"
    r"|psychiatrist|psychologist|therapist|social[ \t]+worker|dietitian|paramedic|podiatrist|optometrist"
)
_BARE_NAME = rf"(?<![\w.])({_INITIALS}?{_NAME_WORD}(?:, {_FORENAME}|(?: {_INITIALS}?{_NAME_WORD}){{0,2}}))"
_NAME_LABELS = (
    # "Neil L. Villa, MD": a name before a clinician's degree.
    ("DOCTOR", re.compile(rf"{_BARE_NAME}(?={_DEGREE})")),
    # "Mark Nnamani - registrar", "D.E. Obi (radiologist)": a name before a clinician's role.
    ("DOCTOR", re.compile(rf"{_BARE_NAME}(?=,?[ \t]*(?:-|–|\()?[ \t]*(?i:{_ROLES})\b)")),
    # "Xavier Bolton (son)": a name before a relation.
    ("PATIENT", re.compile(rf"{_BARE_NAME}(?=[ \t]*\((?i:{_RELATIVES})\))")),
    # A letter's signature: "Yours sincerely,\n\nM. Balogun".
    ("DOCTOR", re.compile(rf"(?i:\b(?:sincerely|regards|thanks),?)[ \t]*\n(?:[ \t]*\n)*[ \t]*{_BARE_NAME}")),
    ("PATIENT", re.compile(rf"(?i:\b(?:{_PATIENT_LABELS})\b[ \t]*:)" + _NAME_AFTER)),
    ("PATIENT", re.compile(rf"(?i:\b(?:{_NAME_FIELDS})\b[ \t]*:)" + _NAME_AFTER)),
    # "wife Mary", "son of L.E. Mac".
    ("PATIENT", re.compile(rf"(?i:\b(?:{_RELATIVES})\b(?:[ \t]+of)?)" + _NAME_AFTER)),
    ("DOCTOR", re.compile(rf"(?i:\b(?:{_DOCTOR_LABELS})\b\.?[ \t]*:?)" + _NAME_AFTER)),
)


_PLACE_BEFORE = re.compile(r"\b(?:in|near|to)[ \t]+$")
# A relation is no name, however it is spelt ("WIFE AND NEICE IN TO VISIT").
RELATIVE_WORD = re.compile(rf"(?i:{_RELATIVES})s?")
# Nor is a clinician's role ("Then Radiologist phoned").
ROLE_WORD = re.compile(rf"(?i:{_ROLES})s?")
_FIELD_PREFIX = rf"(?i:\b(?:{_NAME_FIELDS})"


def is_name_word(word: str) -> bool:
    """On a name list, or a capitalised word rare in English."""
    lexicons = default_lexicons()
    return any(lexicons.contains(name, word) for name in NAME_LEXICONS) or zipf_bucket(word.lower()) in (
        "0",
        "1",
        "2",
        "3",
    )


_LAST_WORD = re.compile(r"[ \t]+([A-Za-z]+)$")


def _without_trailing_words(text: str, start: int, end: int) -> int:
    """The end of an all-caps name cut before the common words it ran on into.

    In capitals a name and the words after it look alike: ``DR KLEIN HAD``, ``PER DR MADDEN
    PICC``, ``DAUGHTER VERONICA WHO``. A last word on no name list, common in English (Zipf 4
    or more) or clinicians' vocabulary, is no part of the name. Measured on the PhysioNet
    training patients 1-110: 241 such last words, none inside PHI; in the 1,882 synthetic
    training notes, 14 and 1 (``JIMMY HOPE``). Mixed case and ``SURNAME, Forename`` are left
    alone: there ``Valerie Winter`` and ``SUTTON, June`` are names.
    """
    span = text[start:end]
    if not span.isupper() or "," in span:
        return end
    lexicons = default_lexicons()
    while last := _LAST_WORD.search(text, start, end):
        word = last.group(1)
        if any(lexicons.contains(name, word) for name in NAME_LEXICONS) or not (
            zipf_bucket(word.lower()) >= "4"
            or any(lexicons.contains(other, word) for other in ("CLINICAL", "DEPARTMENT", "PROFESSION"))
        ):
            break
        end = start + len(text[start : last.start()].rstrip())
    return end


def name_spans(text: str) -> Iterator[tuple[str, int, int]]:
    for kind, pattern in _NAME_LABELS:
        field = pattern.pattern.startswith(_FIELD_PREFIX)
        for match in pattern.finditer(text):
            start, end = match.span(1)
            # "Shania Neilson RN": the credential is not part of the name.
            while (last := re.search(r"[ ,]+([A-Za-z]+)\.?$", text[start:end])) and last.group(
                1
            ).lower() in _CREDENTIALS:
                end = start + last.start()
            # "Signed Shania Neilson RN": a label word before a name is no part of it.
            while (first := re.match(r"([A-Za-z]+)[ \t]+(?=\S)", text[start:end])) and first.group(
                1
            ).lower() in _LEAD_WORDS:
                start += first.end()
            end = _without_trailing_words(text, start, end)
            words = re.findall(r"[A-Za-z'’-]{2,}", text[start:end])
            if kind == "DOCTOR" and _PLACE_BEFORE.search(text, max(0, start - 12), start):
                continue  # "Lives in Silverburgh, MD": a town and its state
            if words and all(w.lower() in _CREDENTIALS for w in words):
                continue  # "FRCPC (Surgeon)": a degree, not a name
            # The label says a name follows: one word that looks like a name is enough
            # ("Blessing Price"), a run of ordinary words is not ("Patient: Alert and ...").
            # A name field needs only capitalised words that are not common English ("Hope" is rare enough).
            if any(is_name_word(w) and not RELATIVE_WORD.fullmatch(w) for w in words) or (
                field and words and all(zipf_bucket(w.lower()) < "6" for w in words)
            ):
                yield kind, start, end
