"""Suggestions on dictated reports: what the bundled model proposes on a note style it never learnt.

Run: ``DICTATED_REPORTS=/path/to/reports.csv python -m tests.benchmarks.bench_dictated
[--text-column transcription] [--guideline safe-harbor] [--recall-bias T] [--show TYPE,...]``.

The reports are a CSV/TSV or JSON Lines table, one report per row, read with the EHR-export
reader (``annotator convert --from table``), e.g. the public MTSamples transcriptions (operative
notes, consultations, letters with ``Dr. X`` and ``ABCD General Hospital`` as placeholders).
They are read from ``$DICTATED_REPORTS`` or ``--reports`` and never copied; without them the
benchmark says so and stops.

There is no gold, so the figures are what a reviewer reads: suggestions per type, per 100
reports, and by the rule or model that made them. ``--show`` prints each suggestion of the
given types with the words around it, one per line, to judge them one by one (the twentieth
round read every name and place suggestion this way: docs/preannotation.md). Point it at
public text only: it prints note text.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from annotator.core.guidelines import GUIDELINES, I2B2_2014
from annotator.crf.default_model import load_default_model
from annotator.errors import InputError
from annotator.io.notetable import NoteColumns, read_note_table

REPORTS_ENV = "DICTATED_REPORTS"
CONTEXT = 40


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reports", type=Path, default=os.environ.get(REPORTS_ENV))
    parser.add_argument("--text-column", default="transcription")
    parser.add_argument("--guideline", choices=GUIDELINES, default=I2B2_2014)
    parser.add_argument("--recall-bias", type=float, default=None)
    parser.add_argument("--show", default="", help="comma-separated types whose suggestions to print")
    args = parser.parse_args(argv)
    if args.reports is None or not Path(args.reports).is_file():
        print(f"skipped: set {REPORTS_ENV} (or --reports) to a CSV or JSON Lines table of reports")
        return 0
    try:
        reports = read_note_table(args.reports, NoteColumns(text=args.text_column))
    except InputError as error:
        print(f"{args.reports}: {error.message}", file=sys.stderr)
        return 2
    tagger = load_default_model()
    tagger.guideline = args.guideline
    started = time.process_time()
    predictions = tagger.predict_spans(reports, args.recall_bias)
    seconds = time.process_time() - started
    by_type: Counter[str] = Counter()
    by_origin: Counter[str] = Counter()
    shown = {kind.strip() for kind in args.show.split(",") if kind.strip()}
    for report in reports:
        for prediction in predictions.get(report.doc_id, []):
            by_type[prediction.type] += 1
            by_origin[prediction.origin or "crf"] += 1
            if prediction.type in shown:
                text = report.text
                around = text[max(0, prediction.start - CONTEXT) : prediction.end + CONTEXT].replace(
                    "\n", " "
                )
                found = text[prediction.start : prediction.end]
                print(f"{report.doc_id}\t{prediction.type}\t{prediction.origin}\t{found!r}\t{around!r}")
    total = sum(by_type.values())
    characters = sum(len(report.text) for report in reports)
    print(
        f"{len(reports)} reports, {characters:,} characters, guideline {args.guideline}, "
        f"recall bias {args.recall_bias}: {total} suggestions "
        f"({100 * total / max(1, len(reports)):.1f} per 100 reports), {seconds:.1f} s CPU"
    )
    print("by type:   " + ", ".join(f"{kind} {count}" for kind, count in by_type.most_common()))
    print("by origin: " + ", ".join(f"{origin} {count}" for origin, count in by_origin.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
