"""The names and one-line descriptions of the file formats, without their readers and writers.

``annotator --help`` and every subcommand build the whole argument parser, ``convert``'s
choices included; importing :mod:`annotator.io.formats` for that would load every reader and
writer (a tenth of a second) on each run of every command. The registry there must list the
same formats (a test checks it).
"""

from __future__ import annotations

FORMAT_DESCRIPTIONS: dict[str, str] = {
    "i2b2": "i2b2 2014 standoff XML",
    "mae": "MAE 2 / MedTator XML (spans in UTF-16 units)",
    "brat": "brat standoff (.txt + .ann)",
    "inline2006": "i2b2 2006 inline PHI",
    "jsonl": "JSONL spans",
    "conll": "CoNLL BIO tokens (export only)",
    "physionet": "PhysioNet deid records (id.text) with id-phi.phrase or id.deid",
    "table": "an EHR export: CSV, TSV or JSON Lines, one note per row (read only)",
    "project": "a project folder: project.toml and source/ (write only)",
}

# What each format can only be: read (an EHR table) or written (CoNLL, a project).
READ_ONLY: frozenset[str] = frozenset({"table"})
WRITE_ONLY: frozenset[str] = frozenset({"conll", "project"})
