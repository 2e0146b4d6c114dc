"""A site's own lists of names and places, read from its files (what they mean for tagging is
:mod:`annotator.crf.site_lists`, for the leak check :mod:`annotator.deid.listed`).

Two layouts:

* a file of ``TYPE<TAB>phrase`` lines, or ``TYPE<TAB>phrase<TAB>patient id`` for a phrase
  that is PHI in one patient's notes only (the patient's own name); ``#`` starts a comment;
* or a folder laid out as deid.pl's ``lists/``, read as deid.pl reads it: clinicians'
  first and last names (``doctor_first_names.txt``, ``doctor_last_names.txt``), hospitals
  (``stripped_hospitals.txt``), local places (``local_places_unambig.txt``,
  ``local_places_ambig.txt``) and each patient's names (``pid_patientname.txt``,
  ``id||||first||||last``). What a site put in an ``_ambig`` list it marked as also a word:
  such a phrase is :meth:`SiteLists.ambiguous`, weighed by its context like an English word.

The lists hold PHI: they are read at run time and never written into a model, a log, a
manifest or a message (their ``repr`` says how many phrases and a digest, not which).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from annotator.core.phrases import MAX_PHRASE_CHARS, compile_phrases
from annotator.core.schema import Schema
from annotator.errors import InputError, UnsafeInputError
from annotator.io.xmlsafe import read_bytes

# Bounds on what a list may hold: a wrong path (a dictionary, a corpus) fails fast.
MAX_LIST_BYTES = 16 * 1024 * 1024
MAX_ENTRIES = 200_000
# deid.pl's site-specific lists (its README names these six) and the type each holds.
DEID_PL_LISTS: dict[str, str] = {
    "doctor_first_names.txt": "DOCTOR",
    "doctor_last_names.txt": "DOCTOR",
    "stripped_hospitals.txt": "HOSPITAL",
    "local_places_unambig.txt": "CITY",
    "local_places_ambig.txt": "CITY",
}
DEID_PL_PATIENTS = "pid_patientname.txt"


def normal_patient_id(patient_id: str) -> str:
    """``007`` and ``7`` name one patient (files number them both ways)."""
    stripped = patient_id.strip()
    return str(int(stripped)) if stripped.isdigit() else stripped


@dataclass
class PhraseTable:
    """Lower-case phrase -> type, with a whole-word matcher built on first use."""

    phrases: dict[str, str] = field(default_factory=dict)
    _pattern: re.Pattern[str] | None = field(default=None, repr=False, compare=False)

    def add(self, phrase: str, type_name: str) -> None:
        self.phrases.setdefault(phrase.lower(), type_name)
        self._pattern = None

    def matches(self, text: str) -> Iterator[tuple[str, int, int]]:
        if not self.phrases:
            return
        if self._pattern is None:
            self._pattern = compile_phrases(self.phrases)
        for match in self._pattern.finditer(text):
            type_name = self.phrases.get(match.group().lower())
            if type_name is not None:
                yield type_name, match.start(), match.end()


@dataclass(eq=False)
class SiteLists:
    """The phrases a site lists: for every note, and per patient."""

    site: PhraseTable = field(default_factory=PhraseTable)
    patients: dict[str, PhraseTable] = field(default_factory=dict)
    #: lower-case phrases the site marked as also words (deid.pl's ``_ambig`` lists)
    marked_ambiguous: set[str] = field(default_factory=set)

    def ambiguous(self, phrase: str) -> bool:
        return phrase.lower() in self.marked_ambiguous

    def __len__(self) -> int:
        return len(self.site.phrases) + sum(len(t.phrases) for t in self.patients.values())

    def __repr__(self) -> str:
        return f"SiteLists({len(self)} phrases, sha256 {self.digest()[:16]})"

    def digest(self) -> str:
        """A digest of every entry: what says two runs used the same lists."""
        entries = [("", p, t) for p, t in self.site.phrases.items()] + [
            (patient, p, t) for patient, table in self.patients.items() for p, t in table.phrases.items()
        ]
        marked = sorted(self.marked_ambiguous)
        return hashlib.sha256(repr((sorted(entries), marked)).encode("utf-8")).hexdigest()

    def add(self, type_name: str, phrase: str, patient_id: str | None = None) -> None:
        if patient_id is None:
            self.site.add(phrase, type_name)
        else:
            self.patients.setdefault(normal_patient_id(patient_id), PhraseTable()).add(phrase, type_name)

    def matches(self, text: str, patient_id: str | None = None) -> Iterator[tuple[str, int, int]]:
        """(type, start, end) of every listed phrase in ``text``: the site's, then the patient's."""
        yield from self.site.matches(text)
        if patient_id is not None and (own := self.patients.get(normal_patient_id(patient_id))):
            yield from own.matches(text)


def read_site_lists(path: Path, schema: Schema) -> SiteLists:
    """A list file or a deid.pl ``lists/`` folder; ``InputError`` naming the file otherwise."""
    lists = SiteLists()
    if path.is_dir():
        known = [path / name for name in (*DEID_PL_LISTS, DEID_PL_PATIENTS) if (path / name).is_file()]
        if not known:
            raise InputError(
                "a site-lists folder holds deid.pl's lists (doctor_last_names.txt, stripped_hospitals.txt, "
                "local_places_unambig.txt, pid_patientname.txt, ...); none found",
                path,
            )
        for file in known:
            type_name = DEID_PL_LISTS.get(file.name, "PATIENT")
            if not schema.has_type(type_name):
                raise InputError(f"the schema has no type {type_name} for this list", file)
            if file.name == DEID_PL_PATIENTS:
                for number, line in _lines(file):
                    parts = line.split("||||")
                    if len(parts) < 2 or not parts[0].strip():
                        raise InputError(
                            f"line {number} is not 'patient id||||first name||||last name'", file
                        )
                    for name in parts[1:]:
                        _add_checked(lists, "PATIENT", name, parts[0], file, number)
            else:
                for number, line in _lines(file):
                    if _add_checked(lists, type_name, line, None, file, number) and "_ambig" in file.name:
                        lists.marked_ambiguous.add(" ".join(line.split()).lower())
        return lists
    for number, line in _lines(path):
        parts = line.split("\t")
        if len(parts) not in (2, 3):
            raise InputError(
                f"line {number} is not 'TYPE<tab>phrase' or 'TYPE<tab>phrase<tab>patient id'", path
            )
        type_name = parts[0].strip()
        if not schema.has_type(type_name):
            # Not quoted: a line written the wrong way round would put a name here.
            raise InputError(f"line {number}: its first column is not a type of the schema", path)
        patient = parts[2].strip() if len(parts) == 3 else None
        if patient == "":
            raise InputError(f"line {number}: the patient id is empty", path)
        _add_checked(lists, type_name, parts[1], patient, path, number)
    if not len(lists):
        raise InputError("the site list holds no phrase", path)
    return lists


def _lines(path: Path) -> Iterable[tuple[int, str]]:
    """Numbered non-blank lines that are not comments."""
    try:
        data = read_bytes(path, MAX_LIST_BYTES)
    except UnsafeInputError:
        raise InputError(f"over the {MAX_LIST_BYTES:,}-byte limit for a site list", path) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start})", path) from None
    count = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            count += 1
            if count > MAX_ENTRIES:
                raise InputError(f"more than {MAX_ENTRIES:,} entries", path)
            yield number, raw.rstrip("\r\n")


def _add_checked(
    lists: SiteLists, type_name: str, phrase: str, patient: str | None, path: Path, number: int
) -> bool:
    """Add one phrase; False for one too short to look for."""
    phrase = " ".join(phrase.split())
    letters = sum(c.isalpha() for c in phrase)
    if letters < 2 and not any(c.isdigit() for c in phrase):
        return False  # an initial alone ("K") would match every such letter
    if len(phrase) > MAX_PHRASE_CHARS:
        raise InputError(f"line {number}: a phrase is longer than {MAX_PHRASE_CHARS} characters", path)
    control = next((c for c in phrase if unicodedata.category(c) == "Cc"), None)
    if control is not None:
        # A NUL or other control character is damage, never in a note's name: the phrase
        # would silently match nothing.
        raise InputError(f"line {number}: a phrase holds the control character U+{ord(control):04X}", path)
    lists.add(type_name, phrase, patient)
    return True
