"""A site's own lists in tagging: its clinicians, hospitals, local places and patients' names.

No model learns the names a site writes most: its staff, its hospitals, the towns around it.
A site knows them (a staff directory, a list of hospitals, the patient's name in the record
system), and rule systems ask for them: deid.pl (the PhysioNet corpus's rule system) is
customised by replacing six lists, and its published figures were measured with them. The
lists (:mod:`annotator.io.site_lists`) make their phrases PHI wherever they appear:

* a listed phrase of several words, or a word rare in English, stands wherever it appears;
* a listed word common in English ("Grace", "Harbor", "Union"), or one the site marked
  ambiguous (deid.pl's ``_ambig`` lists), stands only where the model suspects PHI, as a
  weighed pattern does (:data:`~annotator.crf.measured_rules.WEIGHED_GATE`);
* a clinician's or patient's name before an eponym's noun is not taken ("Wilson's disease",
  "Foley catheter"), nor a word cut from a contraction ("don't").
"""

from __future__ import annotations

import re

from annotator.crf.cleanups import NAME_TYPES
from annotator.crf.evidence import SITE_LIST_ORIGIN
from annotator.crf.features import zipf_bucket
from annotator.crf.labels import Prediction
from annotator.crf.lexicons import default_lexicons
from annotator.crf.measured_rules import WEIGHED_GATE, Strength
from annotator.crf.phi_memory import eponym_after
from annotator.io.site_lists import SiteLists

SITE_CONFIDENCE = 0.95
_COMMON_BUCKETS = frozenset({"4", "5", "6", "7"})
# "don't", "can't": a listed "Don" cut from a contraction.
_CONTRACTION_AFTER = re.compile(r"['’](?!s\b)[a-z]", re.IGNORECASE)


def site_list_predictions(
    lists: SiteLists,
    text: str,
    patient_id: str | None = None,
    allowed: set[str] | None = None,
    strength: Strength | None = None,
) -> list[Prediction]:
    """Every listed phrase in ``text`` that stands (see the module's docstring), text order."""
    found: list[Prediction] = []
    for type_name, start, end in lists.matches(text, patient_id):
        if allowed is not None and type_name not in allowed:
            continue
        if type_name in NAME_TYPES and (
            eponym_after().match(text, end) or _CONTRACTION_AFTER.match(text, end)
        ):
            continue
        phrase = text[start:end].lower()
        if (
            (is_english_word(phrase) or lists.ambiguous(phrase))
            and strength is not None
            and strength(start, end) < WEIGHED_GATE
        ):
            continue  # an English word, or one the site marked ambiguous: where the model suspects PHI
        found.append(Prediction(type_name, start, end, SITE_CONFIDENCE, SITE_LIST_ORIGIN))
    return sorted(found, key=lambda p: (p.start, -p.end))


def add_site_phrases(
    lists: SiteLists,
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
    for listed in site_list_predictions(lists, text, patient_id, allowed, strength):
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
        and found.type in NAME_TYPES
        and listed.type in NAME_TYPES
    )


def is_english_word(phrase: str) -> bool:
    """One word common in English (Zipf 4 or more: "harbor", "grace", "union") or clinical
    vocabulary; not "towson", "kondouli" nor a phrase of several words."""
    if " " in phrase:
        return False
    return zipf_bucket(phrase) in _COMMON_BUCKETS or default_lexicons().contains("CLINICAL", phrase)
