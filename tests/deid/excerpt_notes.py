"""Three short notes we wrote in the style of the PhysioNet nursing notes, and their surrogates.

``python -m tests.deid.excerpt_notes`` prints the side-by-side table shown in
docs/deidentification.md; ``tests/deid/test_docs_excerpt.py`` keeps the two equal. The notes
hold the forms of issue 29 (a date in parts, a night-shift range, an impossible date, a
two-digit year, places in capitals and in parts, a hospital abbreviation, nurses and
relatives by first name); none of them is real.
"""

from __future__ import annotations

from annotator.core.document import Document
from annotator.deid.export import deidentify_documents
from annotator.deid.surrogates import DeidOptions
from tests.deid.builders import note

LOC = "LOCATION-OTHER"
NOTES = (
    note(
        "901-01", "Nursing Progress Note\n", ("21", "DATE"), " ", ("Apr", "DATE"), ", ", ("21", "DATE"),
        " 0700->1930\nS/O: transferred from ", ("Good", LOC), " ", ("Sam", LOC), " on ", ("4/19", "DATE"),
        ". Son, ", ("Ed", "PATIENT"), ", updated.\nPLAN: transfer to ", ("Quartermain", LOC), " 2 when bed avail.",
    ),
    note(
        "902-01", "nursing progress note\n", ("1", "DATE"), "->", ("2", "DATE"), " ", ("nov", "DATE"), ", ",
        ("96", "DATE"), "\nPT ADMITTED FROM ", ("UNION", LOC), " HOSP. ON ", ("2/31/14", "DATE"),
        ", PMHX CVA IN ", ("94", "DATE"), ".\nTRANSFERED TO ", ("GH", LOC), " FOR CATH. NP ", ("CAROL", "DOCTOR"),
        " AWARE.",
    ),
    note(
        "903-01", "pt stated it was ", ("july", "DATE"), " ", ("29th", "DATE"), ". daughter ", ("clara", "PATIENT"),
        " called\nfrom ", ("Hagerstown", LOC), ". dr. ", ("o'halloran", "DOCTOR"), " aware. cabg '", ("79", "DATE"),
        ", redo ", ("7/30/20", "DATE"), ".",
    ),
)  # fmt: skip
SEED = 29


def surrogates() -> list[Document]:
    return deidentify_documents(list(NOTES), DeidOptions(seed=SEED)).documents


def table() -> str:
    """A Markdown table: each note's lines, original beside surrogate."""
    rows = ["| note | original | surrogate |", "| --- | --- | --- |"]
    for original, new in zip(NOTES, surrogates(), strict=True):
        for index, (before, after) in enumerate(
            zip(original.text.split("\n"), new.text.split("\n"), strict=True)
        ):
            label = original.doc_id if index == 0 else ""
            rows.append(f"| {label} | `{before}` | `{after}` |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(table(), end="")
