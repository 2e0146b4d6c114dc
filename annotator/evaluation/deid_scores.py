"""The PhysioNet deid corpus's own measure: spans found by any overlap, and tag-blind tokens.

deid's ``stat.pm`` (Neamatullah et al. 2008) counts a gold PHI span as found when any
predicted span overlaps it (recall), and a predicted span as right when it overlaps any gold
span (positive predictive value). Types are ignored, and so is one-to-one pairing: a name
found as two pieces is one span found. Tag-blind token figures count ``\\w+`` tokens: a token
is gold PHI when it lies inside a gold span, predicted PHI when a predicted span overlaps it.

These are the figures the issue tracker and docs/preannotation.md quote for real notes; the
i2b2 2014 measures (:mod:`annotator.evaluation.engine`) stay the measure on i2b2-style data.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_WORD = re.compile(r"\w+")

Spans = Sequence[tuple[int, int]]


@dataclass
class DeidCounts:
    """Counts summed over notes; the figures are properties."""

    gold_spans: int = 0
    gold_found: int = 0
    predicted_spans: int = 0
    predicted_right: int = 0
    token_tp: int = 0
    token_fp: int = 0
    token_fn: int = 0

    def __iadd__(self, other: DeidCounts) -> DeidCounts:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self

    @property
    def span_recall(self) -> float:
        return _ratio(self.gold_found, self.gold_spans)

    @property
    def span_ppv(self) -> float:
        return _ratio(self.predicted_right, self.predicted_spans)

    @property
    def token_precision(self) -> float:
        return _ratio(self.token_tp, self.token_tp + self.token_fp)

    @property
    def token_recall(self) -> float:
        return _ratio(self.token_tp, self.token_tp + self.token_fn)

    @property
    def token_f1(self) -> float:
        p, r = self.token_precision, self.token_recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> dict[str, float | int]:
        figures = {
            "span_recall": self.span_recall,
            "span_ppv": self.span_ppv,
            "token_precision": self.token_precision,
            "token_recall": self.token_recall,
            "token_f1": self.token_f1,
        }
        counts = {name: getattr(self, name) for name in self.__dataclass_fields__}
        return {**figures, **counts}


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else float("nan")


class _Intervals:
    """Sorted spans, to ask whether any overlaps a range in O(log n)."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(s for s in spans if s[0] < s[1])
        self._starts = [s for s, _ in ordered]
        # The furthest end among the spans up to each index: overlap needs only the prefix.
        self._reach: list[int] = []
        furthest = -1
        for _, end in ordered:
            furthest = max(furthest, end)
            self._reach.append(furthest)

    def overlaps(self, start: int, end: int) -> bool:
        index = bisect.bisect_left(self._starts, end) - 1
        return index >= 0 and self._reach[index] > start


def score_note(text: str, gold: Spans, predicted: Spans) -> DeidCounts:
    """The counts of one note (spans are ``(start, end)``, end-exclusive)."""
    gold_index = _Intervals(gold)
    predicted_index = _Intervals(predicted)
    counts = DeidCounts(
        gold_spans=len(gold),
        gold_found=sum(predicted_index.overlaps(s, e) for s, e in gold),
        predicted_spans=len(predicted),
        predicted_right=sum(gold_index.overlaps(s, e) for s, e in predicted),
    )
    inside = _Intervals(gold)
    for match in _WORD.finditer(text):
        start, end = match.span()
        is_gold = _within(gold, start, end) if inside.overlaps(start, end) else False
        is_predicted = predicted_index.overlaps(start, end)
        if is_gold and is_predicted:
            counts.token_tp += 1
        elif is_predicted:
            counts.token_fp += 1
        elif is_gold:
            counts.token_fn += 1
    return counts


def _within(spans: Spans, start: int, end: int) -> bool:
    return any(s <= start and end <= e for s, e in spans)
