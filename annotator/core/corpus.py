"""A folder of documents grouped by patient (``PPP-RR`` file names)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from annotator.core.document import Document
from annotator.errors import AnnotatorError


class Corpus:
    """Documents by id, with their patients' longitudinal record groups.

    Parameters
    ----------
    documents:
        The documents; ids must be unique.
    root:
        The folder they came from, if any.
    """

    def __init__(self, documents: Iterable[Document] = (), root: Path | None = None) -> None:
        self.root = root
        self._documents: dict[str, Document] = {}
        for document in documents:
            self.add(document)

    def add(self, document: Document) -> None:
        if document.doc_id in self._documents:
            raise AnnotatorError(f"two documents named {document.doc_id}", self.root)
        self._documents[document.doc_id] = document

    def __len__(self) -> int:
        return len(self._documents)

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._documents

    def __getitem__(self, doc_id: str) -> Document:
        try:
            return self._documents[doc_id]
        except KeyError:
            raise AnnotatorError(f"no document {doc_id!r} in the corpus", self.root) from None

    @property
    def documents(self) -> list[Document]:
        """Documents ordered by patient, then record number."""
        return sorted(self._documents.values(), key=lambda d: (d.patient_id, d.record, d.doc_id))

    @property
    def doc_ids(self) -> list[str]:
        return [d.doc_id for d in self.documents]

    def patients(self) -> dict[str, list[Document]]:
        """Each patient's records, in record order."""
        groups: dict[str, list[Document]] = {}
        for document in self.documents:
            groups.setdefault(document.patient_id, []).append(document)
        return groups

    def records_of(self, patient_id: str) -> list[Document]:
        return self.patients().get(patient_id, [])

    def annotation_count(self) -> int:
        return sum(len(d) for d in self._documents.values())
