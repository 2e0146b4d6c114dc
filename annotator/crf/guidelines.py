"""Which PHI a project's gold standard tags: the model suggests only that.

PHI Annotator's guidelines follow i2b2 2014 (``guidelines/``): every age, weekdays, and
professions are PHI. Gold standards built to HIPAA Safe Harbor alone, as the PhysioNet deid
corpus is, tag ages only over 89 and neither weekdays nor professions; the PhysioNet gold also
tags a place by its name alone (``CALVERT`` of ``CALVERT HOSPITAL``). The bundled model learnt
from both kinds of notes; on a Safe Harbor project its i2b2 suggestions are work to reject
(on the PhysioNet training patients, in the first fold of cross-validation, 50 of the default
recipe's 105 wrong suggestions were weekdays and ages under 90).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.guidelines import GUIDELINE_TITLES, GUIDELINES, I2B2_2014, SAFE_HARBOR
from annotator.crf.labels import Prediction
from annotator.errors import UsageError

__all__ = [
    "GUIDELINES",
    "GUIDELINE_TITLES",
    "I2B2_2014",
    "SAFE_HARBOR",
    "check_guideline",
    "follow_guideline",
    "tag_guideline_gaps",
]

# Safe Harbor names "all ages over 89"; younger ones are not PHI.
OLDEST_UNTAGGED_AGE = 89
_WEEKDAYS = re.compile(
    r"(?i)(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\.?"
    r"(?:[ \t]*(?:,|and|or|&|-|/)[ \t]*(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\.?)*"
)
# A season alone ("in the summer months") dates nothing to the day: untagged by the PhysioNet
# gold both times its training patients name one.
_SEASON = re.compile(r"(?i)spring|summer|autumn|fall|winter")
_NUMBER = re.compile(r"\d+")
# An age said with its unit or its label (``58 YO``, ``74y old``, ``67 y.o.``, ``age: 45``), and
# a weekday spelt out: what i2b2 tags and a Safe Harbor gold leaves untagged.
_AGE_PHRASE = re.compile(
    r"(?i)\b(?:aged?[ \t]*:?[ \t]*(\d{1,3})\b|(\d{1,3})[ \t]*-?[ \t]*(?:yo\b|y/o|y\.o\b|yr?s?\.?[ -]?old\b|years?[ -]old\b))"
)
# A Safe Harbor gold tags the name of a place, not the word saying what kind it is: on the
# PhysioNet training patients "hospital", "hosp", "campus" and "rehab" after a tagged name were
# untagged 48 times and tagged twice ("memorial", "regional" are tagged, as part of the name).
_FACILITY_WORD = r"[ \t]+(?:hospital|hosp|campus|rehab|medical[ \t]+center|med[ \t]+center|nursing[ \t]+home)"
_TRAILING_FACILITY_WORD = re.compile(rf"(?i){_FACILITY_WORD}\.?\Z")
_FACILITY_KINDS = frozenset({"HOSPITAL", "ORGANIZATION", "LOCATION-OTHER"})
_FACILITY_AFTER = re.compile(rf"(?i){_FACILITY_WORD}\b")
# Types whose gold pieces, a space apart, are one name.
_JOINED_TYPES = frozenset({"DOCTOR", "PATIENT", "LOCATION-OTHER", "PHONE"})
# Safe Harbor names geographic units smaller than a state, not states or countries: the
# PhysioNet gold of patients 1-110 leaves all ten it writes alone untagged (`CALIFORNIA`,
# `Florida`, `ENGLAND`, `BAHAMAS`) and tags a state only inside a place's name (`U Maryland`).
_NOT_SAFE_HARBOR_KINDS = frozenset({"PROFESSION", "STATE", "COUNTRY"})
_WEEKDAY_WORD = re.compile(r"(?i)\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|tues|thurs)\b")


def check_guideline(name: str) -> str:
    if name not in GUIDELINES:
        raise UsageError(f"unknown guideline {name!r}: choose one of {', '.join(GUIDELINES)}")
    return name


def follow_guideline(text: str, predictions: Iterable[Prediction], guideline: str) -> list[Prediction]:
    """The predictions the guideline tags (all of them under i2b2 2014), with its boundaries."""
    if check_guideline(guideline) == I2B2_2014:
        return list(predictions)
    return [
        _without_facility_word(text, p)
        for p in predictions
        if _tagged_under_safe_harbor(text[p.start : p.end], p.type)
    ]


def _without_facility_word(text: str, prediction: Prediction) -> Prediction:
    """A place's name without the generic word after it: ``CALVERT`` of ``CALVERT HOSPITAL``."""
    if prediction.type not in _FACILITY_KINDS:
        return prediction
    match = _TRAILING_FACILITY_WORD.search(text, prediction.start, prediction.end)
    if match is None or match.start() == prediction.start:
        return prediction
    return replace(prediction, end=match.start())


def _tagged_under_safe_harbor(span: str, kind: str) -> bool:
    if kind in _NOT_SAFE_HARBOR_KINDS:
        return False
    if kind == "AGE":
        numbers = _NUMBER.findall(span)
        # A spelt-out age ("ninety-two") is left to the annotator.
        # By length first: int() of a run over 4,300 digits raises ValueError.
        return not numbers or len(numbers[0].lstrip("0")) > 3 or int(numbers[0]) > OLDEST_UNTAGGED_AGE
    if kind == "DATE":
        return _WEEKDAYS.fullmatch(span.strip()) is None and _SEASON.fullmatch(span.strip()) is None
    return True


def tag_guideline_gaps(document: Document) -> Document:
    """A Safe Harbor gold note made fit to train an i2b2 model: its gaps tagged, its spans ours.

    An age of 89 or under said with its unit or label (only the number is tagged, as our
    guidelines say) and a weekday spelt out are PHI to us and left untagged by a Safe Harbor
    gold; learnt as they are, they would teach the model that ages are no PHI, which costs it
    ages on notes of a kind it never saw. They get AGE and DATE tags here, on a copy.

    The PhysioNet gold also tags word by word (``LAUREL`` and ``REGIONAL``, ``mary``,
    ``theresa`` and ``kondouli``) and leaves out the word for a place's kind (``CALVERT`` of
    ``CALVERT HOSPITAL``). Our guidelines tag a name as one span and a hospital with its word
    (``Calder Hospital``); a model that learnt both ways cut ``Hospital`` off 189 times on a
    synthetic style it never saw. Here the pieces of one name become one span, and a place
    before a facility word a HOSPITAL that ends after it.
    """
    text = document.text
    spans = _i2b2_spans(document)
    gaps: list[tuple[int, int, str]] = []
    for match in _AGE_PHRASE.finditer(text):
        group = 1 if match.group(1) else 2
        start, end = match.span(group)
        if int(match.group(group)) <= OLDEST_UNTAGGED_AGE and not document.overlapping(start, end):
            gaps.append((start, end, "AGE"))
    for match in _WEEKDAY_WORD.finditer(text):
        if not document.overlapping(match.start(), match.end()):
            gaps.append((match.start(), match.end(), "DATE"))
    if not gaps and spans == list(document.annotations):
        return document
    copy = Document(document.doc_id, text, spans, document.origin)
    for start, end, kind in sorted(gaps):
        copy.add(
            Annotation(id=copy.new_id(), tag=kind, type=kind, start=start, end=end, text=text[start:end])
        )
    return copy


def _between_pieces(gap: str, previous_length: int) -> bool:
    """Whether two pieces of a name lie this far apart: a space, or an initial's period and a space."""
    if previous_length == 1 and gap[:1] == ".":
        gap = gap[1:]
    return 0 < len(gap) <= 2 and gap.isspace()


def _i2b2_spans(document: Document) -> list[Annotation]:
    """The gold's annotations with the pieces of a name joined and hospitals given their word."""
    text = document.text
    joined: list[Annotation] = []
    piece_length = 0  # of the last piece joined, for an initial's period
    for annotation in sorted(document.annotations, key=lambda a: (a.start, a.end)):
        last = joined[-1] if joined else None
        if (
            last is not None
            and annotation.type == last.type in _JOINED_TYPES
            and _between_pieces(text[last.end : annotation.start], piece_length)
        ):
            joined[-1] = replace(last, end=annotation.end, text=text[last.start : annotation.end])
        else:
            joined.append(annotation)
        piece_length = annotation.end - annotation.start
    result = []
    for annotation in joined:
        facility = (
            _FACILITY_AFTER.match(text, annotation.end) if annotation.type == "LOCATION-OTHER" else None
        )
        if facility is not None:
            annotation = replace(
                annotation,
                tag="LOCATION",
                type="HOSPITAL",
                end=facility.end(),
                text=text[annotation.start : facility.end()],
            )
        result.append(annotation)
    return result
