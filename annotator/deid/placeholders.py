"""Surrogates for the placeholders an earlier de-identification left (MIMIC-III's ``[**...**]``).

A tag over ``[**Known lastname 5678**]`` or ``[**Hospital1 18**] Hospital`` holds no PHI: the
placeholder's words are the label of what was hidden. Its surrogate is made from the label
(a surname for ``Last Name``, a given name for ``First Name``, a shifted date for
``[**2151-7-16**]``), not from those words, and the leak check does not look for them in the
output (``Known`` of ``Known lastname`` is no name; ``No Known Allergies`` is no leak).
The same placeholder gets the same surrogate throughout a patient's notes.
"""

from __future__ import annotations

import re

from annotator.core.annotation import Annotation
from annotator.core.placeholders import (
    HOSPITAL_WORD_AFTER,
    NAME_JOIN,
    NUMERIC_DATE,
    PLACEHOLDER,
    is_placeholder_label,
    placeholder_labels,
)

# One or more placeholders side by side (a name's parts), and what a hospital's leaves after it.
_PLACEHOLDER_RUN = re.compile(
    rf"{PLACEHOLDER.pattern}(?:{NAME_JOIN}{PLACEHOLDER.pattern})*(?P<tail>{HOSPITAL_WORD_AFTER.pattern})?"
)
# What each kind's surrogate is drawn like: the generators copy the shape of their text.
PROTOTYPES: dict[str, str] = {
    "hospital": "Mercy Hospital",
    "organization": "Northfield College",
    "department": "Medical Unit",
    "street": "12 Main Street",
    "city": "Springfield",
    "state": "Ohio",
    "country": "France",
    "location": "Springfield",
    "profession": "teacher",
    "phone": "555-555-0142",
    "email": "jane.doe@example.org",
    "url": "www.example.org",
    "ip": "10.0.0.1",
    "username": "abc12",
    "id": "1234567",
    "initials": "AB",
}


def is_placeholder(text: str) -> bool:
    """Whether ``text`` is a placeholder, or several side by side (with a hospital's last word)."""
    if "[**" not in text or _PLACEHOLDER_RUN.fullmatch(text.strip()) is None:
        return False
    return all(is_placeholder_label(label) for label in placeholder_labels(text))


def is_placeholder_tag(annotation: Annotation) -> bool:
    """Whether a tag is over a placeholder: an earlier de-identification's, or the mask this
    tool writes for the tag's type (``[**MEDICALRECORD**]``: an export de-identified again)."""
    core = annotation.text.strip()
    return core == f"[**{annotation.type}**]" or is_placeholder(core)


def tail(text: str) -> str:
    """What follows the last placeholder (`` Hospital`` of ``[**Hospital 1121**] Hospital``)."""
    match = _PLACEHOLDER_RUN.fullmatch(text.strip())
    return match.group("tail") or "" if match else ""


def numeric_date(text: str) -> str | None:
    """The shifted date a date placeholder still writes (``2151-7-16``), else ``None``."""
    found = placeholder_labels(text)
    if len(found) != 1 or not NUMERIC_DATE.fullmatch(found[0]):
        return None
    return found[0].strip("-").replace("-/", "/").replace("/-", "/")


def name_roles(text: str) -> list[str]:
    """For each placeholder of a name, which part it hid: ``first``, ``last`` or ``initial``."""
    roles = []
    for label in placeholder_labels(text):
        lowered = label.lower()
        if "initial" in lowered:
            roles.append("initial")
        elif "first" in lowered:
            roles.append("first")
        else:
            roles.append("last")
    return roles
