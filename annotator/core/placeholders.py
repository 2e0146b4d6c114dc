"""The placeholders an earlier de-identification leaves in a note (MIMIC-III's ``[**...**]``).

``[**2151-7-16**]``, ``[**Known lastname 5678**]``, ``[**Hospital1 18**]``: each stands where a
PHI was and names what it hid. The tagger types them by their label
(:mod:`annotator.crf.placeholder_rules`); de-identification draws their surrogates from the
label, never from its words (:mod:`annotator.deid.placeholders`).
"""

from __future__ import annotations

import re

# A label (and MIMIC's number) inside "[**" and "**]", on one line.
PLACEHOLDER = re.compile(r"\[\*\*([^\[\]\n*]{0,80})\*\*\]")
# "2151-7-16", "7-16", "2151", "5/2151", "-5-/2151": a date already shifted, written as numbers.
NUMERIC_DATE = re.compile(r"-?\d{1,4}-?(?:[-/]-?\d{1,4}){0,2}-?")
# Between two placeholders of one name ("[**Known lastname 1**],[**Known firstname 2**]").
NAME_JOIN = r"[ \t]*,?[ \t]*"
# The word for its kind a hospital's placeholder leaves after it ("[**Hospital 1121**] Hospital").
HOSPITAL_WORD_AFTER = re.compile(r"[ \t]+(?i:Hospital|Medical[ \t]+Center|Clinic|Infirmary)\b")


# The words MIMIC-III's labels are made of (with numbers: "Name6", "Hospital1", "(1)"). A
# bracket holding any other word ("[**John Smith**]") is no placeholder: it may hold PHI, and is
# tagged, replaced and leak-checked as any text is.
_LABEL_WORDS = frozenset(
    [
        "known",
        "patient",
        "lastname",
        "firstname",
        "first",
        "last",
        "name",
        "initial",
        "initials",
        "doctor",
        "dictator",
        "attending",
        "info",
        "stitle",
        "ptitle",
        "md",
        "ni",
        "un",
        "lf",
        "namepattern",
        "pattern",
        "nameis",
        "titles",
        "prefixes",
        "prefix",
        "pre",
        "female",
        "male",
        "hospital",
        "unit",
        "ward",
        "wardname",
        "location",
        "universities",
        "university",
        "college",
        "company",
        "street",
        "apartment",
        "address",
        "po",
        "box",
        "state",
        "country",
        "zip",
        "code",
        "telephone",
        "fax",
        "phone",
        "pager",
        "number",
        "e",
        "mail",
        "email",
        "url",
        "social",
        "security",
        "medical",
        "record",
        "serial",
        "identifier",
        "numeric",
        "job",
        "clip",
        "radiology",
        "provider",
        "age",
        "over",
        "month",
        "only",
        "day",
        "year",
        "digits",
        "date",
        "range",
        "holiday",
        "cc",
        "contact",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)
_LABEL_WORD = re.compile(r"[A-Za-z]+")


def is_placeholder_label(label: str) -> bool:
    """Whether ``label`` is one an earlier de-identification writes: made of its words and
    numbers only (``Known lastname 5678``, ``2151-7-16``, ``Telephone/Fax (1) 6789``, empty)."""
    return all(word.lower() in _LABEL_WORDS for word in _LABEL_WORD.findall(label))


def placeholder_labels(text: str) -> list[str]:
    """The labels of the placeholders in ``text``, in order."""
    return [match.group(1).strip() for match in PLACEHOLDER.finditer(text)]
