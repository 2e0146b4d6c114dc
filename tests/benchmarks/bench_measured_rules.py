"""Each measured pattern's precision on real notes: the PhysioNet deid corpus's training patients.

Run: ``PHYSIONET_DEID=/path/to/deid-1.1 python -m tests.benchmarks.bench_measured_rules
[--examples N]``. Without the corpus it says so and stops.

For every pattern of :mod:`annotator.crf.measured_rules` and every record-layout field of
:mod:`annotator.crf.layout_rules`, over patients 1-110 (never the test
patients): how many times it matches and how many matches overlap a gold PHI span (deid's
overlap measure), the gold read as our guidelines read it: with the weekdays and young ages it
leaves untagged, as training reads it (:func:`annotator.crf.guidelines.tag_guideline_gaps`). The standing patterns must be right on (nearly) every match; the weighed ones
are listed ungated, as their candidates: the model's gate, measured by cross-validation, is what
makes them precise (docs/preannotation.md). ``--examples`` prints the wrong matches' patterns'
names and positions (note id and offsets, never the note text).
"""

from __future__ import annotations

import argparse
import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from annotator.crf.guidelines import tag_guideline_gaps
from annotator.crf.layout_rules import LAYOUT_PATTERNS, layout_matches
from annotator.crf.measured_rules import (
    STANDING_PATTERNS,
    MeasuredMatch,
    standing_matches,
    weighed_candidates,
)
from annotator.io.physionet import read_physionet
from tests.benchmarks.bench_realnotes import PHYSIONET_ENV, split


def tally(
    notes: Iterable[tuple[str, str, list[tuple[int, int]]]], examples: int
) -> tuple[Counter[str], Counter[str], list[str]]:
    """Matches and right matches by pattern name, and up to ``examples`` wrong ones."""
    matches: Counter[str] = Counter()
    right: Counter[str] = Counter()
    wrong: list[str] = []
    for doc_id, text, gold in notes:
        found: list[tuple[MeasuredMatch, str]] = [
            *((m, "") for m in standing_matches(text)),
            *((m, " (weighed)") for m in weighed_candidates(text)),
            *((m, " (layout)") for m in layout_matches(text)),
        ]
        for match, group in found:
            name = match.pattern + group
            matches[name] += 1
            if any(start < match.end and match.start < end for start, end in gold):
                right[name] += 1
            elif len(wrong) < examples:
                wrong.append(f"{name}: {doc_id} [{match.start}, {match.end})")
    return matches, right, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_measured_rules", description=__doc__.split("\n\n")[0])
    parser.add_argument("--physionet", type=Path, default=os.environ.get(PHYSIONET_ENV))
    parser.add_argument("--examples", type=int, default=0, help="list this many wrong matches")
    args = parser.parse_args(argv)
    if args.physionet is None or not (args.physionet / "id.text").is_file():
        print(f"skipped: set {PHYSIONET_ENV} (or --physionet) to the PhysioNet deid 1.1 folder")
        return 0
    train, _ = split(read_physionet(args.physionet))
    ours = (tag_guideline_gaps(d) for d in train)
    notes = ((d.doc_id, d.text, [(a.start, a.end) for a in d.annotations]) for d in ours)
    matches, right, wrong = tally(notes, args.examples)
    print(f"PhysioNet deid, patients 1-110 ({len(train)} notes): every match of each pattern")
    print("(right: overlaps the gold, its weekdays and young ages tagged as our guidelines do)\n")
    print(f"{'pattern':<52}{'matches':>9}{'right':>8}{'precision':>11}")
    # A shape nursing notes never hold is printed with 0, not left out.
    for name in STANDING_PATTERNS:
        matches[name] += 0
    for name in LAYOUT_PATTERNS:
        matches[name + " (layout)"] += 0
    for name in sorted(matches, key=lambda n: (n.endswith("(weighed)"), n.endswith("(layout)"), n)):
        precision = f"{right[name] / matches[name]:>11.3f}" if matches[name] else f"{'-':>11}"
        print(f"{name:<52}{matches[name]:>9}{right[name]:>8}{precision}")
    for line in wrong:
        print("  wrong:", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
