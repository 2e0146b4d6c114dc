"""Which PHI a project's gold standard tags: the model suggests only that.

PHI Annotator's guidelines follow i2b2 2014 (``guidelines/``): every age, weekdays, and
professions are PHI. Gold standards built to HIPAA Safe Harbor alone, as the PhysioNet deid
corpus is, tag ages only over 89 and neither weekdays nor professions. The bundled model learnt
from both kinds of notes; on a Safe Harbor project its i2b2 suggestions are work to reject
(on the PhysioNet training patients, in the first fold of cross-validation, 50 of the default
recipe's 105 wrong suggestions were weekdays and ages under 90).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from annotator.crf.labels import Prediction
from annotator.errors import UsageError

I2B2_2014 = "i2b2-2014"
SAFE_HARBOR = "safe-harbor"
GUIDELINES = (I2B2_2014, SAFE_HARBOR)
GUIDELINE_TITLES = {
    I2B2_2014: "i2b2 2014: every age, weekdays, professions",
    SAFE_HARBOR: "HIPAA Safe Harbor: ages over 89, no weekdays or professions",
}
# Safe Harbor names "all ages over 89"; younger ones are not PHI.
OLDEST_UNTAGGED_AGE = 89
_WEEKDAYS = re.compile(
    r"(?i)(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\.?"
    r"(?:[ \t]*(?:,|and|or|&|-|/)[ \t]*(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\.?)*"
)
_NUMBER = re.compile(r"\d+")


def check_guideline(name: str) -> str:
    if name not in GUIDELINES:
        raise UsageError(f"unknown guideline {name!r}: choose one of {', '.join(GUIDELINES)}")
    return name


def follow_guideline(text: str, predictions: Iterable[Prediction], guideline: str) -> list[Prediction]:
    """The predictions the guideline tags (all of them under i2b2 2014)."""
    if check_guideline(guideline) == I2B2_2014:
        return list(predictions)
    return [p for p in predictions if _tagged_under_safe_harbor(text[p.start : p.end], p.type)]


def _tagged_under_safe_harbor(span: str, kind: str) -> bool:
    if kind == "PROFESSION":
        return False
    if kind == "AGE":
        numbers = _NUMBER.findall(span)
        # A spelt-out age ("ninety-two") is left to the annotator.
        return not numbers or int(numbers[0]) > OLDEST_UNTAGGED_AGE
    if kind == "DATE":
        return _WEEKDAYS.fullmatch(span.strip()) is None
    return True
