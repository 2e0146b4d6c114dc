"""The model suggestions an annotator rejected, so that pre-annotating again does not bring them back.

Kept per annotator in the project's state folder, ``.annotator/rejected/<annotator>.json``::

    {"version": 1, "documents": {"110-01": [[16, 26, "DATE"], [40, 56, "PATIENT"]]}}

Offsets and types only, never the text. Written atomically when the session saves its state;
a file that cannot be read is refused with its name (as the work state is), never silently
reset, since dropping it would bring every rejected suggestion back.

API
---
``RejectedSuggestions.load(project, annotator)``
``.spans(doc_id) -> set[tuple[int, int]]``: where suggestions were rejected (any type).
``.add(doc_id, start, end, type_name)`` / ``.discard(...)``: a rejection, or its undo.
``.count(doc_id)``, ``.save()`` (only when something changed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

from annotator.core.atomic import atomic_write_text
from annotator.core.project import Project
from annotator.errors import InputError

REJECTED_FOLDER: Final = "rejected"

Rejection = tuple[int, int, str]


def rejections_path(project: Project, annotator: str) -> Path:
    return project.state_dir / REJECTED_FOLDER / f"{annotator}.json"


def _read(path: Path) -> dict[str, set[Rejection]]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise InputError(
            f"cannot read the rejected suggestions ({error}); fix or move the file away", path
        ) from None
    documents = raw.get("documents") if isinstance(raw, dict) else None
    if not isinstance(documents, dict):
        raise InputError("rejected suggestions: unexpected structure; fix or move the file away", path)
    found: dict[str, set[Rejection]] = {}
    for doc_id, entries in documents.items():
        if not isinstance(entries, list):
            raise InputError(f"rejected suggestions of document {doc_id} are not a list", path)
        for entry in entries:
            if (
                not isinstance(entry, list)
                or len(entry) != 3
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in entry[:2])
                or not isinstance(entry[2], str)
            ):
                raise InputError(f"rejected suggestions of document {doc_id}: bad entry", path)
            found.setdefault(str(doc_id), set()).add((entry[0], entry[1], entry[2]))
    return found


class RejectedSuggestions:
    """One annotator's rejected suggestions, by document.

    Parameters
    ----------
    path:
        The file (use :meth:`load`); ``None`` keeps them in memory only (a single file opened
        on its own has no project state folder to write to).
    """

    def __init__(self, path: Path | None, documents: dict[str, set[Rejection]] | None = None) -> None:
        self.path = path
        self._documents = documents or {}
        self._changed = False

    @classmethod
    def load(cls, project: Project, annotator: str) -> RejectedSuggestions:
        path = rejections_path(project, annotator)
        return cls(path, _read(path))

    def spans(self, doc_id: str) -> set[tuple[int, int]]:
        return {(start, end) for start, end, _ in self._documents.get(doc_id, ())}

    def count(self, doc_id: str) -> int:
        return len(self._documents.get(doc_id, ()))

    def add(self, doc_id: str, start: int, end: int, type_name: str) -> None:
        self._documents.setdefault(doc_id, set()).add((start, end, type_name))
        self._changed = True

    def discard(self, doc_id: str, start: int, end: int, type_name: str) -> None:
        entries = self._documents.get(doc_id)
        if entries is not None and (start, end, type_name) in entries:
            entries.discard((start, end, type_name))
            if not entries:
                del self._documents[doc_id]
            self._changed = True

    def save(self) -> None:
        """Write the file if anything changed (atomically)."""
        if not self._changed or self.path is None:
            return
        documents = {doc: sorted(map(list, entries)) for doc, entries in sorted(self._documents.items())}
        atomic_write_text(self.path, json.dumps({"version": 1, "documents": documents}) + "\n")
        self._changed = False
