"""CSV cells that a spreadsheet shows but never runs.

A cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is taken for a
formula by spreadsheets (CSV injection: ``=HYPERLINK(...)`` in a note id sends whoever clicks
it elsewhere). Cells holding text from the user's files (note and patient ids, dates,
annotator and label names) are written with an apostrophe before such a start, which
spreadsheets show as text. Numbers we format ourselves never go through it, so a negative
kappa stays a number.
"""

from __future__ import annotations

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def inert_cell(value: str) -> str:
    """The cell as it is, or with an apostrophe before a formula start."""
    return "'" + value if value.startswith(_FORMULA_START) else value
