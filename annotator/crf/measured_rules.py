"""Patterns precise enough on real notes to stand without the model's agreement.

Most rules are weighed by the model (:mod:`annotator.crf.evidence`): on real nursing notes a
rule alone was right 4-55 % of the time. The few below were measured apart, on every match
in the PhysioNet deid corpus's training patients (1-110, 1,884 notes), and were right every
time; the model, which sees them rarely, often gives them less than the gate:

========================  =======  =====  ====================================
pattern                   matches  right  example
========================  =======  =====  ====================================
apostrophe year           14       14     ``s/p MI '92``, ``CABG '95``
date heading a line       13       13     ``3-24-17 B:``, ``10-15-19 csru note``
phone number, spaced      20       20     ``212- 476- 8356``, ``301 944-5032``
========================  =======  =====  ====================================

(``tests/benchmarks/bench_realnotes.py --rules`` measures them again.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from annotator.crf.labels import Prediction

MEASURED_ORIGIN = "measured-rule"
MEASURED_CONFIDENCE = 0.95

# "'92" but not "'90s" or a quotation ('ok').
_APOSTROPHE_YEAR = re.compile(r"(?<![\w'])'(\d{2})(?![\d'\w])(?!\s*s\b)")
# A date opening a line ("3-24-17 B:"): notes are headed by the day they were written.
_LINE_HEAD_DATE = re.compile(r"(?m)^[ \t]*((\d{1,2})[-/](\d{1,2})[-/](?:\d{4}|\d{2}))(?![\w/-])")
# Area code, exchange and line split by spaces and hyphens ("212- 476- 8356", "(301) 944 5032").
_SPACED_PHONE = re.compile(
    r"(?<![\w/.-])(\(?\d{3}\)?(?:[ \t]*-[ \t]*|[ \t]+)\d{3}(?:[ \t]*-[ \t]*|[ \t]+)\d{4})(?![\w/-])"
)


def _plausible_month_day(first: int, second: int) -> bool:
    return (1 <= first <= 12 and 1 <= second <= 31) or (1 <= first <= 31 and 1 <= second <= 12)


def _matches(text: str) -> Iterator[tuple[str, int, int]]:
    for match in _APOSTROPHE_YEAR.finditer(text):
        yield "DATE", match.start(1), match.end(1)
    for match in _LINE_HEAD_DATE.finditer(text):
        if _plausible_month_day(int(match.group(2)), int(match.group(3))):
            yield "DATE", match.start(1), match.end(1)
    for match in _SPACED_PHONE.finditer(text):
        yield "PHONE", match.start(1), match.end(1)


def measured_rule_predictions(text: str, allowed: set[str] | None = None) -> list[Prediction]:
    """Every match, in text order (the patterns cannot overlap one another)."""
    return sorted(
        (
            Prediction(kind, start, end, MEASURED_CONFIDENCE, MEASURED_ORIGIN)
            for kind, start, end in _matches(text)
            if allowed is None or kind in allowed
        ),
        key=lambda p: (p.start, p.end),
    )


def add_measured_spans(
    text: str, predictions: list[Prediction], allowed: set[str] | None = None
) -> list[Prediction]:
    """``predictions`` with each measured match that overlaps none of them."""
    return add_where_free(predictions, measured_rule_predictions(text, allowed))


def add_where_free(predictions: list[Prediction], found: Iterable[Prediction]) -> list[Prediction]:
    """``predictions`` with each of ``found`` that overlaps none of them, in text order."""
    taken = [(p.start, p.end) for p in predictions]
    added = [f for f in found if not any(start < f.end and f.start < end for start, end in taken)]
    if not added:
        return predictions
    return sorted([*predictions, *added], key=lambda p: (p.start, p.end))
