"""The tagger's own belief about each token, so rules become candidates the model weighs.

Post-processing rules (patterns, label and phrase rules, name lists, trusted terms) propose
spans the CRF did not label. On notes our generators wrote they were right; on real nursing
notes most were wrong ("BP STABLE" as a name, "1900-0700" as a phone number): measured on the
PhysioNet corpus's training patients, rule-made spans were right 28-55 % of the time where the
CRF's own spans were right 97 % of the time. So a rule's span is kept only where the CRF gives
at least :data:`RULE_GATE` probability to PHI on one of its tokens: the rule then settles the
boundary or the type of what the model already suspects, and cannot create PHI out of a word
the model is sure is clinical language.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import replace

from annotator.crf.labels import Prediction
from annotator.crf.layout_rules import LAYOUT_ORIGIN
from annotator.crf.measured_rules import MEASURED_ORIGIN
from annotator.crf.phi_memory import MEMORY_ORIGIN
from annotator.crf.tokenizer import Token

# P(PHI) a rule's span needs on at least one of its tokens. Chosen by 3-fold cross-validation
# on the PhysioNet deid corpus's training patients (1-110); see docs/preannotation.md.
RULE_GATE = 0.05
# Origins of spans the CRF made itself (possibly trimmed, cut or joined by a rule).
MODEL_ORIGINS = frozenset({"crf", "cut-by-rule", "name-cut", "merged", "no-calendar-date", "fax-context"})
# A name or place found in another record of the patient, of words no dictionary knows
# (``suzette``, ``Certusi``): it stands where it recurs (:func:`annotator.crf.postprocess.postprocess_patient`).
RARE_PATIENT_TERM_ORIGIN = "trusted-patient-rare"
# A phrase of the site's own lists (:mod:`annotator.crf.site_lists`): the site says it is PHI.
SITE_LIST_ORIGIN = "site-list"
# Origins whose spans stand without the model: measured on real notes to be right on their own
# (:mod:`annotator.crf.measured_rules`, :mod:`annotator.crf.phi_memory`, rare patient terms), a
# record layout's fields (:mod:`annotator.crf.layout_rules`), or the site's word.
SELF_STANDING_ORIGINS = frozenset(
    {MEASURED_ORIGIN, MEMORY_ORIGIN, RARE_PATIENT_TERM_ORIGIN, SITE_LIST_ORIGIN, LAYOUT_ORIGIN}
)
STANDING_ORIGINS = MODEL_ORIGINS | SELF_STANDING_ORIGINS


class PhiEvidence:
    """P(PHI) = 1 - P(O) of every token of a note, by position."""

    def __init__(self) -> None:
        self._starts = array("q")
        self._ends = array("q")
        self._phi = array("f")
        self._wordlike = array("b")

    def extend(self, tokens: Sequence[Token], p_outside: Iterable[float]) -> None:
        """Add tokens (in text order, after those already added) with their P(O)."""
        phi = array("f", [1.0 - outside for outside in p_outside])
        if len(phi) != len(tokens):
            raise ValueError(f"{len(tokens)} tokens but {len(phi)} probabilities")
        self._starts.extend([token.start for token in tokens])
        self._ends.extend([token.end for token in tokens])
        self._phi.extend(phi)
        self._wordlike.extend([token.text[:1].isalnum() for token in tokens])

    def peak(self) -> float:
        """The highest P(PHI) of any token of the note (0 for a note without tokens)."""
        return max(self._phi, default=0.0)

    def strongest(self, start: int, end: int) -> float:
        """The highest P(PHI) of a token overlapping ``[start, end)`` (0 when none does)."""
        index = bisect.bisect_right(self._starts, start) - 1
        if index < 0 or self._ends[index] <= start:
            index += 1
        best = 0.0
        while index < len(self._starts) and self._starts[index] < end:
            best = max(best, self._phi[index])
            index += 1
        return best

    def admits(self, prediction: Prediction, threshold: float = RULE_GATE) -> bool:
        """Whether a span stands: the model made it, or believes in PHI somewhere inside it."""
        return (
            prediction.origin in STANDING_ORIGINS
            or self.strongest(prediction.start, prediction.end) >= threshold
        )

    def trimmed(self, prediction: Prediction, threshold: float = RULE_GATE) -> Prediction:
        """A rule's span without the tokens at either end the model is sure are no PHI.

        Name and place rules find where a name starts, but in lower-case or all-caps notes
        not where it ends ("dr kearns aware", "CALVERT HOSPITAL" where the site tags the
        name alone): the model's own belief sets the edges. It cuts between words, never inside
        one: a date the model suspects by its year keeps its month and day (``2072.05.31``),
        which cost 42 dates on a synthetic style left out of training.
        """
        if prediction.origin in STANDING_ORIGINS:
            return prediction
        index = bisect.bisect_right(self._starts, prediction.start) - 1
        if index < 0 or self._ends[index] <= prediction.start:
            index += 1
        inside = []
        while index < len(self._starts) and self._starts[index] < prediction.end:
            inside.append(index)
            index += 1
        kept = [i for i in inside if self._phi[i] >= threshold]
        if not kept:
            return prediction
        first, last = kept[0], kept[-1]
        # Never part of a word: "2083" of "2083.02.24", "kimor" of "kimor7".
        first = self._word_start(first, inside[0])
        last = self._word_end(last, inside[-1])
        if first == inside[0] and last == inside[-1]:
            return prediction
        start = max(prediction.start, self._starts[first])
        end = min(prediction.end, self._ends[last])
        return replace(prediction, start=start, end=end)

    def _word_start(self, index: int, lowest: int) -> int:
        """The first word token, from ``lowest`` on, of the unbroken run of characters ``index`` is in."""
        first = index
        while index > lowest and self._ends[index - 1] == self._starts[index]:
            index -= 1
            if self._wordlike[index]:
                first = index
        return first

    def _word_end(self, index: int, highest: int) -> int:
        """The last word token, up to ``highest``, of the unbroken run of characters ``index`` is in."""
        last = index
        while index < highest and self._starts[index + 1] == self._ends[index]:
            index += 1
            if self._wordlike[index]:
                last = index
        return last

    def gate(self, predictions: Iterable[Prediction], threshold: float = RULE_GATE) -> list[Prediction]:
        """The predictions :meth:`admits`, each :meth:`trimmed`."""
        return [self.trimmed(p, threshold) for p in predictions if self.admits(p, threshold)]
