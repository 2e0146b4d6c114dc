"""Acting on leak-check findings: mask them in the output, or show them to the data owner.

:func:`mask_findings` replaces every finding in the output notes (``--on-leak mask``): a
finding inside a surrogate masks the whole tag, one in untagged text is masked where it
stands (it stays untagged: its type is only the type of the tag it repeats).
:func:`write_review` writes the private review file (``--review FILE``), the one output of
the tool that holds note text on purpose.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from annotator.core.annotation import Annotation
from annotator.core.atomic import atomic_write_text
from annotator.core.document import Document
from annotator.deid.allowlist import finding_text
from annotator.deid.findings import Leak
from annotator.deid.rewrite import mask_text, rewrite_document
from annotator.deid.surrogates import Surrogate

REVIEW_WARNING = (
    "This file shows each leak-check finding in the text around it: it contains PHI. Keep it "
    "with the gold standard under the same protection and delete it once the findings are "
    "resolved. To let a finding that is not PHI pass, add its allow entry to an allow file "
    "(--allow FILE)."
)
_FINDING = "leak-finding-"


def mask_findings(
    outputs: list[Document], leaks: list[Leak], style: str = "brackets", char: str = "X"
) -> list[Document]:
    """The output notes with every finding masked; tags moved to the new text."""
    by_doc: dict[str, list[Leak]] = {}
    for leak in leaks:
        by_doc.setdefault(leak.doc_id, []).append(leak)
    masked = []
    for document in outputs:
        found = by_doc.get(document.doc_id)
        masked.append(document if not found else _masked(document, found, style, char))
    return masked


def _masked(document: Document, leaks: list[Leak], style: str, char: str) -> Document:
    # Findings become annotations of their own; where one overlaps a tag, rewrite_document
    # makes them one region, replaced by the mask of the longest (the tag, for a surrogate).
    regions = [
        Annotation(
            f"{_FINDING}{n}", "PHI", leak.type, leak.start, leak.end, document.text[leak.start : leak.end]
        )
        for n, leak in enumerate(leaks)
    ]
    flagged = [(leak.start, leak.end) for leak in leaks]

    def replace(annotation: Annotation) -> Surrogate:
        if any(s < annotation.end and annotation.start < e for s, e in flagged):
            return Surrogate(mask_text(annotation, style, char))
        return Surrogate(annotation.text)

    combined = Document(document.doc_id, document.text, [*document, *regions])
    new, _ = rewrite_document(combined, replace)
    kept = [a for a in new if not a.id.startswith(_FINDING)]
    return Document(document.doc_id, new.text, kept, new.origin)


def review_entries(leaks: list[Leak], outputs: list[Document], context: int = 60) -> list[dict[str, Any]]:
    """Each finding with its text and the text around it, and the allow entry that would pass it."""
    by_id = {d.doc_id: d for d in outputs}
    entries = []
    for leak in leaks:
        document = by_id.get(leak.doc_id)
        text = document.text if document is not None else ""
        found = finding_text(leak, by_id)
        entries.append(
            {
                **leak.to_dict(),
                "text": found,
                "before": text[max(0, leak.start - context) : leak.start],
                "after": text[leak.end : leak.end + context],
                "allow": {"text": found, "scope": "document", "document": leak.doc_id},
            }
        )
    return entries


def write_review(path: str | Path, leaks: list[Leak], outputs: list[Document]) -> None:
    """The private (0600) review file: every finding in context, for the data owner only."""
    path = Path(path)
    if path.exists():
        os.chmod(path, 0o600)  # the atomic write keeps the mode of the file it replaces
    data = {"warning": REVIEW_WARNING, "findings": review_entries(leaks, outputs)}
    atomic_write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
