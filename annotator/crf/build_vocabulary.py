"""Build ``resources/lexicons/clinical_words.txt``: the words clinicians write that are no PHI.

Public English frequencies (``wordfreq``) do not know the words of a nursing note: ``abg``,
``foley``, ``prbc``, ``vea``, ``dsd``, ``ngt`` are rare in public text, so the tagger took them for
rare words (names) and a shared model could not name them. This list is learnt from real notes:
a word that public English does not already know enters when it is written outside every PHI span in the notes of at least
:data:`MIN_PATIENTS` patients and at most :data:`MAX_PHI_SHARE` of its occurrences are PHI. A
word that many patients' notes share outside PHI tells nothing about any one patient, so the
list is safe to ship.

Run by a maintainer on the PhysioNet deid corpus's training patients only (1-110; 111-163
stay the untouched test)::

    python -m annotator.crf.build_vocabulary /path/to/deid-1.1
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

from annotator.core.document import Document
from annotator.crf.features import is_english_vocabulary
from annotator.crf.lexicons import LEXICON_DIR

MIN_PATIENTS = 3
MAX_PHI_SHARE = 0.2
LAST_TRAINING_PATIENT = 110
_WORD = re.compile(r"[^\W\d_]{2,}")
HEADER = (
    "# Words written outside PHI in the notes of at least {patients} patients of the PhysioNet deid\n"
    "# corpus's training patients (1-{last}), at most {share:.0%} of their occurrences PHI.\n"
    "# Made by annotator/crf/build_vocabulary.py; see SOURCES.md.\n"
)


def clinical_vocabulary(
    documents: Iterable[Document], min_patients: int = MIN_PATIENTS, max_phi_share: float = MAX_PHI_SHARE
) -> list[str]:
    """Lower-case words outside PHI in ``min_patients`` patients' notes, rarely PHI."""
    patients: dict[str, set[str]] = defaultdict(set)
    outside: Counter[str] = Counter()
    inside: Counter[str] = Counter()
    for document in documents:
        spans = sorted((a.start, a.end) for a in document.annotations)
        for match in _WORD.finditer(document.text):
            word = match.group().lower()
            if any(s < match.end() and match.start() < e for s, e in spans):
                inside[word] += 1
            else:
                outside[word] += 1
                patients[word].add(document.patient_id)
    return sorted(
        word
        for word, seen in patients.items()
        if len(seen) >= min_patients
        and inside[word] <= max_phi_share * (inside[word] + outside[word])
        and not is_english_vocabulary(word)
    )


def main(argv: list[str] | None = None) -> int:
    from annotator.io.physionet import read_physionet

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="the PhysioNet deid folder (id.text, id-phi.phrase)")
    parser.add_argument("-o", "--output", type=Path, default=LEXICON_DIR / "clinical_words.txt")
    args = parser.parse_args(argv)
    training = [d for d in read_physionet(args.corpus) if int(d.patient_id) <= LAST_TRAINING_PATIENT]
    words = clinical_vocabulary(training)
    header = HEADER.format(patients=MIN_PATIENTS, last=LAST_TRAINING_PATIENT, share=MAX_PHI_SHARE)
    args.output.write_text(header + "".join(f"{w}\n" for w in words), encoding="utf-8")
    print(f"{len(words)} words written to {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
