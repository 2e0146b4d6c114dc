"""Importing an EHR export: a CSV of N invented notes into a project, as a site starts.

Run: ``python -m tests.benchmarks.bench_import [NOTES]`` (default 20,000 notes of 20 lines,
about 36 MB). Prints the table's size, the seconds the whole ``annotator convert --to project``
takes (read, number, write every note, its index; each file written atomically and synced),
notes/s and the process's peak resident memory. No target: an import runs once per export;
the figure says what a site waits.
"""

from __future__ import annotations

import csv
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from annotator.io.notetable import NoteColumns
from annotator.workflows.convert import ConvertRequest, convert

WORDS = [
    "patient",
    "seen",
    "today",
    "bp",
    "stable",
    "lungs",
    "clear",
    "plan",
    "continue",
    "lasix",
    "follow",
    "up",
    "with",
    "team",
    "tomorrow",
    "afebrile",
    "overnight",
    "tolerating",
    "diet",
    "ambulating",
    "voiding",
    "qs",
    "pain",
    "controlled",
]


def write_table(path: Path, notes: int, seed: int = 1) -> None:
    chooser = random.Random(seed)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["ROW_ID", "SUBJECT_ID", "CHARTDATE", "TEXT"])
        for row in range(notes):
            text = "\n".join(" ".join(chooser.choice(WORDS) for _ in range(15)) for _ in range(20))
            writer.writerow([row, row // 20, f"2150-{row % 12 + 1:02d}-{row % 28 + 1:02d}", text])


def main(argv: list[str]) -> None:
    notes = int(argv[0]) if argv else 20_000
    with tempfile.TemporaryDirectory() as scratch:
        table = Path(scratch) / "notes.csv"
        write_table(table, notes)
        size = table.stat().st_size / 1e6
        columns = NoteColumns(text="TEXT", note_id="ROW_ID", patient="SUBJECT_ID", date="CHARTDATE")
        request = ConvertRequest(
            source=table, output=Path(scratch) / "project", to="project", columns=columns
        )
        started = time.perf_counter()
        result = convert(request)
        seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{notes:,} notes ({size:.0f} MB CSV): {seconds:.1f} s, {notes / seconds:,.0f} notes/s, "
        f"{len(result.written):,} files, peak RSS {peak:,.0f} MB"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
