"""Tagging leak-check findings where the export reads them: in the gold files.

A refused export names places in the gold notes where original PHI would survive. Tagging
such a place in an annotator's working copy does not change what is exported, so the same
finding came back forever; here the tag goes into the gold document itself:

* a place nobody tagged gets a new tag (provenance ``adjudicated``, by the person fixing it);
* a pending suggestion at exactly that place is accepted instead of being covered by a
  second tag (no duplicate at one span);
* a place already tagged as reviewed needs nothing; a place that overlaps a different tag
  is refused with that tag named (its boundaries are the adjudicator's call).

Each fix is one undo step of the fixer's own history and is written at once (atomically,
under the document's lock), so the next check and the next export see it; undoing writes
the file back as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.history import AddAnnotation, Command, History, ReplaceAnnotation
from annotator.core.schema import Schema
from annotator.errors import AnnotatorError, StorageError
from annotator.io.i2b2 import write_i2b2
from annotator.io.locking import DocumentLock


class FixKind(Enum):
    TAGGED = "tagged"
    ACCEPTED = "accepted a pending suggestion"
    ALREADY = "already tagged"
    REFUSED = "not tagged"


@dataclass(frozen=True)
class GoldFix:
    """What one "Tag it" did, and the sentence that says so."""

    kind: FixKind
    doc_id: str
    message: str
    annotation: Annotation | None = None

    @property
    def changed(self) -> bool:
        return self.kind in (FixKind.TAGGED, FixKind.ACCEPTED)


class GoldFixes:
    """Fixes findings in the gold documents an export was refused on.

    Parameters
    ----------
    documents:
        The gold documents as the export read them (each knows its file); edited in place.
    schema:
        Gives a type its category when the finding's original tag cannot be found.
    who:
        Recorded on the tags added or accepted.
    """

    def __init__(self, documents: Sequence[Document], schema: Schema, who: str) -> None:
        self.documents = {d.doc_id: d for d in documents}
        self.schema = schema
        self.who = who
        self.history = History()
        self._undo_documents: list[str] = []

    def tag(
        self, doc_id: str, start: int, end: int, type_name: str, source_tag: tuple[str, str] = ("", "")
    ) -> GoldFix:
        """Tag ``[start, end)`` of gold ``doc_id`` as ``type_name`` (one undo step, saved).

        ``source_tag`` is ``(doc_id, tag_id)`` of the original tag the finding repeats, whose
        category is used.
        """
        document = self.documents.get(doc_id)
        if document is None:
            return GoldFix(FixKind.REFUSED, doc_id, f"No gold document {doc_id} to tag.")
        place = f"{doc_id} {start}-{end}"
        overlapping = document.overlapping(start, end)
        exact = [a for a in overlapping if (a.start, a.end) == (start, end)]
        command: Command
        if any(a.pending for a in exact):
            old = next(a for a in exact if a.pending)
            new = old.replace(pending=False, annotator=self.who)
            command = ReplaceAnnotation(document, old, new, f"accept {old.type}")
            kind, message = FixKind.ACCEPTED, f"Accepted the pending {old.type} tag at {place} in the gold."
        elif exact:
            return GoldFix(
                FixKind.ALREADY, doc_id, f"{place} is already tagged {exact[0].type} in the gold.", exact[0]
            )
        elif overlapping:
            other = overlapping[0]
            return GoldFix(
                FixKind.REFUSED,
                doc_id,
                f"Not tagged: {place} overlaps the gold tag {other.id} ({other.type} {other.start}-{other.end}); "
                "correct its boundaries in the adjudication window, or mark the finding not PHI.",
            )
        else:
            new = document.make_annotation(
                self._category(type_name, source_tag),
                type_name,
                start,
                end,
                source=Source.ADJUDICATED,
                annotator=self.who,
            )
            command = AddAnnotation(document, new)
            kind, message = FixKind.TAGGED, f"Tagged {place} as {type_name} in the gold."
        self.history.push(command)
        try:
            self._save(document)
        except AnnotatorError as error:
            self.history.undo()
            return GoldFix(FixKind.REFUSED, doc_id, f"Not tagged: {error.one_line()}")
        self._undo_documents.append(doc_id)
        return GoldFix(kind, doc_id, message, new)

    def undo(self) -> str | None:
        """Take the last fix back (and write the gold file again); what was undone, or None."""
        if not self.history.can_undo or not self._undo_documents:
            return None
        doc_id = self._undo_documents.pop()
        what = self.history.undo_text
        self.history.undo()
        self._save(self.documents[doc_id])
        return f"Undid {what} in {doc_id}."

    def _category(self, type_name: str, source_tag: tuple[str, str]) -> str:
        source_doc, tag_id = source_tag
        original = self.documents.get(source_doc)
        if original is not None and tag_id in original:
            found = original.get(tag_id)
            if found.type == type_name:
                return found.tag
        try:
            return self.schema.category_of(type_name)
        except AnnotatorError:
            return type_name

    def _save(self, document: Document) -> None:
        path = document.origin.path
        if path is None:
            raise StorageError(f"gold document {document.doc_id} has no file to save to")
        with DocumentLock(Path(path), self.who):
            write_i2b2(document, Path(path))
