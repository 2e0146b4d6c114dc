"""How long a note the slow jobs take: pre-annotation and de-identification.

Reading, counting, validating and converting handle any file under the reader's size limit
(``annotator.io.xmlsafe.MAX_FILE_BYTES``) in a few seconds. Tagging a note and
de-identifying it take about 14 s and 6 s of CPU per million characters, and pre-annotation
about 60 MB of memory per million (``python -m tests.benchmarks.bench_longnote``, measured
on a 2-core machine). So a note longer than :data:`MAX_NOTE_CHARS` is refused by those two
jobs before any work, with one line naming it: within the limit both finish in under three
minutes and 1.5 GB, and a note so long is a corpus pasted into one record, better split.
"""

from __future__ import annotations

from collections.abc import Iterable

from annotator.core.document import Document
from annotator.errors import InputError

MAX_NOTE_CHARS = 10_000_000


def refuse_long_notes(documents: Iterable[Document], job: str) -> None:
    """Raise an InputError naming the first document longer than :data:`MAX_NOTE_CHARS`."""
    for document in documents:
        if len(document.text) > MAX_NOTE_CHARS:
            raise InputError(
                f"note {document.doc_id} is {len(document.text):,} characters long, over the "
                f"{MAX_NOTE_CHARS:,} that {job} takes (split the note into its records)",
                document.origin.path,
            )
