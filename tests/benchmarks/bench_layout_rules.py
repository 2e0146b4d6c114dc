"""Benchmark: record-layout fields on hostile text, a megabyte or so of each shape.

Run: ``python -m tests.benchmarks.bench_layout_rules``

Each text is one long run of what a layout pattern begins with (capitals, commas, underscores,
spaces after a degree) or a megabyte of real matches (caret and pipe headers, codes), with a
model span every ten characters to place the fields over. Prints the time to find the fields
and to place them; both must grow with the text, not with its square.
"""

from __future__ import annotations

import time

from annotator.crf.labels import Prediction
from annotator.crf.layout_rules import apply_layout_fields, layout_matches

TEXTS = {
    "capitals, 3 lines of 300,000": ("A" * 300_000 + "\n") * 3,
    "'ABC,' x 100,000": "ABC," * 100_000,
    "300,000 underscores, one job number": "_" * 300_000 + " XW277/90683",
    "300,000 spaces after a degree": "AB, M.D." + " " * 300_000 + "FB59",
    "20,000 caret headers": "EDVISIT^12345678^SMITH, JOHN^01/02/03^JONES, MARY\n" * 20_000,
    "20,000 visit headers": "OROZCO,KYLE   560-40-78-5\n" * 20_000,
    "15,000 pipe headers": "740215983 | NWMC | 20573184 | | 8830291 | 3/14/2004 12:00:00 AM | x\n" * 15_000,
    "30,000 x three codes": "CCL:FG:1879 5-0269342 BE249/3185 " * 30_000,
    "capitalised words before a state, no ZIP": "Aaaa Bbbb Cccc MA " * 60_000,
    "60,000 towns, states and ZIP codes": "Lowell, MA 01852\n" * 60_000,
    "a line header, its hospital 100,000 times": "027716413 FMH\n5823104\n4/11/1998 12:00:00 AM\n"
    + "FMH " * 100_000,
    "15,000 pipe headers, each its hospital": "".join(
        f"740215983 | {chr(65 + i % 26)}{chr(65 + i // 26 % 26)}{chr(65 + i // 676 % 26)}MC | 20573184 | | 8830291"
        " | 3/14/2004 12:00:00 AM | x\n"
        for i in range(15_000)
    ),
    "'Batch :' x 100,000": "Batch :\n" * 100_000,
    "30,000 placeholders, names and others": "Dr. [**Last Name (STitle) 12**] on [**2151-7-16**] at [**Hospital1 18**]\n"
    * 10_000,
    "'[**' x 300,000, never closed": "[**" * 300_000,
    "30,000 names, each after a word, on one line": "seen by [**Last Name (NamePattern1) 1**] " * 30_000,
    "100,000 name placeholders side by side": "[**First Name 1**] " * 100_000,
}


def main() -> int:
    print(f"{'text':<44}{'MB':>6}{'fields':>9}{'spans':>9}{'find s':>8}{'place s':>9}")
    for name, text in TEXTS.items():
        predictions = [Prediction("DATE", i, i + 3, 0.9) for i in range(0, len(text), 10)]
        started = time.perf_counter()
        fields = list(layout_matches(text))
        found = time.perf_counter()
        apply_layout_fields(text, predictions)
        placed = time.perf_counter()
        print(
            f"{name:<44}{len(text) / 1e6:>6.2f}{len(fields):>9,}{len(predictions):>9,}"
            f"{found - started:>8.2f}{placed - found:>9.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
