"""A site's own lists: its clinicians, hospitals and local places, and each patient's name.

No model learns the names a site writes most: its staff, its hospitals, the towns around it.
A site knows them (a staff directory, a list of hospitals, the patient's name in the record
system), and rule systems ask for them: deid.pl (the PhysioNet corpus's rule system) is
customised by replacing six lists, and its published figures were measured with them. A
site's lists make the same phrases PHI wherever they appear:

* a file of ``TYPE<TAB>phrase`` lines, or ``TYPE<TAB>phrase<TAB>patient id`` for a phrase
  that is PHI in one patient's notes only (the patient's own name); ``#`` starts a comment;
* or a folder laid out as deid.pl's ``lists/``, read as deid.pl reads it: clinicians'
  first and last names (``doctor_first_names.txt``, ``doctor_last_names.txt``), hospitals
  (``stripped_hospitals.txt``), local places (``local_places_unambig.txt``,
  ``local_places_ambig.txt``) and each patient's names (``pid_patientname.txt``,
  ``id||||first||||last``).

A listed word that is also common in English ("Grace", "Harbor", "Union") stands only where
the model suspects PHI, as a weighed pattern does (:data:`~annotator.crf.measured_rules.WEIGHED_GATE`);
one that is no English word, or of several words, stands wherever it appears. A clinician's
or patient's name before an eponym's noun is not taken ("Wilson's disease", "Foley catheter"),
nor a word cut from a contraction ("don't").

The lists hold PHI: they are read at run time from the site's files and never written into
a model, a log or a message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from annotator.core.schema import Schema
from annotator.crf.evidence import SITE_LIST_ORIGIN
from annotator.crf.features import zipf_bucket
from annotator.crf.labels import Prediction
from annotator.crf.lexicons import default_lexicons
from annotator.crf.measured_rules import WEIGHED_GATE, Strength
from annotator.crf.phi_memory import MAX_PHRASE_CHARS, compile_phrases, eponym_after
from annotator.errors import InputError, UnsafeInputError
from annotator.io.xmlsafe import read_bytes

SITE_CONFIDENCE = 0.95
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
_COMMON_BUCKETS = frozenset({"4", "5", "6", "7"})
_NAME_TYPES = frozenset({"DOCTOR", "PATIENT"})
# "don't", "can't": a listed "Don" cut from a contraction.
_CONTRACTION_AFTER = re.compile(r"['’](?!s\b)[a-z]", re.IGNORECASE)


def normal_patient_id(patient_id: str) -> str:
    """``007`` and ``7`` name one patient (files number them both ways)."""
    stripped = patient_id.strip()
    return str(int(stripped)) if stripped.isdigit() else stripped


@dataclass
class PhraseTable:
    """Lower-case phrase -> type, with a whole-word matcher built on first use."""

    phrases: dict[str, str] = field(default_factory=dict)
    _pattern: re.Pattern[str] | None = field(default=None, repr=False)

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


@dataclass
class SiteLists:
    """The phrases a site lists: for every note, and per patient."""

    site: PhraseTable = field(default_factory=PhraseTable)
    patients: dict[str, PhraseTable] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.site.phrases) + sum(len(t.phrases) for t in self.patients.values())

    def add(self, type_name: str, phrase: str, patient_id: str | None = None) -> None:
        if patient_id is None:
            self.site.add(phrase, type_name)
        else:
            self.patients.setdefault(normal_patient_id(patient_id), PhraseTable()).add(phrase, type_name)

    def predictions(
        self,
        text: str,
        patient_id: str | None = None,
        allowed: set[str] | None = None,
        strength: Strength | None = None,
    ) -> list[Prediction]:
        """Every listed phrase in ``text`` that stands (see the module's docstring), text order."""
        tables = [self.site]
        if patient_id is not None and (own := self.patients.get(normal_patient_id(patient_id))):
            tables.append(own)
        found: list[Prediction] = []
        for table in tables:
            for type_name, start, end in table.matches(text):
                if allowed is not None and type_name not in allowed:
                    continue
                if type_name in _NAME_TYPES and (
                    eponym_after().match(text, end) or _CONTRACTION_AFTER.match(text, end)
                ):
                    continue
                phrase = text[start:end].lower()
                if _english_word(phrase) and strength is not None and strength(start, end) < WEIGHED_GATE:
                    continue  # an English word: only where the model suspects PHI
                found.append(Prediction(type_name, start, end, SITE_CONFIDENCE, SITE_LIST_ORIGIN))
        return sorted(found, key=lambda p: (p.start, -p.end))

    def add_to(
        self,
        text: str,
        predictions: list[Prediction],
        patient_id: str | None = None,
        allowed: set[str] | None = None,
        strength: Strength | None = None,
    ) -> list[Prediction]:
        """``predictions`` with the listed phrases: a listed phrase takes over the spans inside it
        ("Union" of "Union Hospital", a "Towson" the model took for a name), but for a name the
        model found whole (it read whose name it is); one that overlaps a span otherwise is left out."""
        result = list(predictions)
        for listed in self.predictions(text, patient_id, allowed, strength):
            overlapping = [p for p in result if p.start < listed.end and listed.start < p.end]
            if all(listed.start <= p.start and p.end <= listed.end for p in overlapping):
                if any(_same_name(p, listed) for p in overlapping):
                    continue  # a name found whole: the model read whose (a clinician's, a relative's)
                result = [p for p in result if p not in overlapping] + [listed]
        return sorted(result, key=lambda p: (p.start, p.end))


def _same_name(found: Prediction, listed: Prediction) -> bool:
    return (
        found.start == listed.start
        and found.end == listed.end
        and found.type in _NAME_TYPES
        and listed.type in _NAME_TYPES
    )


def _english_word(phrase: str) -> bool:
    """One word common in English (Zipf 4 or more: "harbor", "grace", "union") or clinical
    vocabulary; not "towson", "kondouli" nor a phrase of several words."""
    if " " in phrase:
        return False
    return zipf_bucket(phrase) in _COMMON_BUCKETS or default_lexicons().contains("CLINICAL", phrase)


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
                    _add_checked(lists, type_name, line, None, file, number)
        return lists
    for number, line in _lines(path):
        parts = line.split("\t")
        if len(parts) not in (2, 3):
            raise InputError(
                f"line {number} is not 'TYPE<tab>phrase' or 'TYPE<tab>phrase<tab>patient id'", path
            )
        type_name = parts[0].strip()
        if not schema.has_type(type_name):
            raise InputError(f"line {number}: {type_name[:40]!r} is not a type of the schema", path)
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
) -> None:
    phrase = " ".join(phrase.split())
    letters = sum(c.isalpha() for c in phrase)
    if letters < 2 and not any(c.isdigit() for c in phrase):
        return  # an initial alone ("K") would match every such letter
    if len(phrase) > MAX_PHRASE_CHARS:
        raise InputError(f"line {number}: a phrase is longer than {MAX_PHRASE_CHARS} characters", path)
    lists.add(type_name, phrase, patient)
