"""Pairing folders of i2b2 files into :class:`DocumentPair` lists for the clean mode."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.mapping import Mapping
from annotator.errors import InputError, TextMismatchError, printable_path
from annotator.evaluation.engine import DocumentPair, DocumentResult, Item
from annotator.io.corpus import no_documents, read_corpus
from annotator.io.i2b2 import read_i2b2
from annotator.io.pairing import align_annotator_prefixes


@dataclass
class LoadedPairs:
    """Pairs ready to score, plus what could not be paired."""

    pairs: list[DocumentPair]
    skipped: list[str] = field(default_factory=list)
    only_reference: list[str] = field(default_factory=list)
    only_predicted: list[str] = field(default_factory=list)
    #: ids of the pairs left out because their TEXT differs (``skipped`` says it in words)
    text_differs: list[str] = field(default_factory=list)
    #: every ``(category, TYPE)`` of either side, before any mapping
    labels: set[tuple[str, str]] = field(default_factory=set)


def labels_of(documents: Iterable[Document]) -> set[tuple[str, str]]:
    """Every ``(category, TYPE)`` the documents' annotations use."""
    return {(a.tag, a.type.upper()) for document in documents for a in document.annotations}


def _items(annotations: Sequence[Annotation], mapping: Mapping | None) -> list[Item]:
    out = []
    for annotation in annotations:
        category, type_ = annotation.tag, annotation.type.upper()
        if mapping is not None:
            mapped = mapping.map(category, type_)
            if mapped is None:
                continue
            category, type_ = mapped[0], mapped[1].upper()
        out.append(Item(category, type_, annotation.start, annotation.end, annotation.text))
    return out


def pair_documents(
    reference: Sequence[Document],
    predicted: Sequence[Document],
    mapping: Mapping | None = None,
    intersection_only: bool = False,
) -> LoadedPairs:
    """Pair documents by id.

    A document present on one side only is scored against an empty other side (its items
    are all misses) unless ``intersection_only``. A pair whose TEXT differs is skipped and
    listed in ``skipped``.
    """
    ref_by_id = {d.doc_id: d for d in reference}
    pred_by_id = {d.doc_id: d for d in predicted}
    result = LoadedPairs([])
    result.labels = labels_of([*reference, *predicted])
    for doc_id in sorted(ref_by_id.keys() | pred_by_id.keys()):
        ref, pred = ref_by_id.get(doc_id), pred_by_id.get(doc_id)
        if ref is not None and pred is not None:
            if ref.text != pred.text:
                result.skipped.append(f"{doc_id}: reference and predicted TEXT differ")
                result.text_differs.append(doc_id)
                continue
            result.pairs.append(
                DocumentPair(
                    doc_id, ref.text, _items(ref.annotations, mapping), _items(pred.annotations, mapping)
                )
            )
        elif ref is not None:
            result.only_reference.append(doc_id)
            if not intersection_only:
                result.pairs.append(
                    DocumentPair(
                        doc_id, ref.text, _items(ref.annotations, mapping), [], predicted_present=False
                    )
                )
        elif pred is not None:
            result.only_predicted.append(doc_id)
            if not intersection_only:
                result.pairs.append(
                    DocumentPair(
                        doc_id, pred.text, [], _items(pred.annotations, mapping), reference_present=False
                    )
                )
    return result


def refuse_unscorable(
    text_differs: Sequence[str],
    pairs: Sequence[DocumentPair] | Sequence[DocumentResult],
    reference: str | Path,
    predicted: str | Path,
    sides: tuple[str, str] = ("gold", "system"),
) -> None:
    """Refuse a comparison where no document both sides have can be scored: all their TEXTs differ.

    Scores of 0 documents (or of one-sided documents only) would look like a result; when
    only some texts differ, the caller notes them and scores the rest.
    """
    if text_differs and not any(pair.reference_present and pair.predicted_present for pair in pairs):
        raise TextMismatchError(
            f"document {text_differs[0]}: TEXT differs between {sides[0]} {printable_path(reference)} and "
            f"{sides[1]} {printable_path(predicted)}, as in every document both have "
            f"({len(text_differs)}); nothing can be scored (are these the same notes?)"
        )


def read_folder(folder: str | Path) -> list[Document]:
    """Every ``*.xml`` document of a folder; an unreadable file raises a one-line error."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("not a folder", folder)
    return read_corpus(folder).documents


def load_pairs(
    reference_dir: str | Path,
    predicted_dir: str | Path,
    mapping: Mapping | None = None,
    intersection_only: bool = False,
) -> LoadedPairs:
    """Read two folders (or two files) and pair their documents (see :func:`pair_documents`).

    Two files are one pair whatever their names, as the official scorer takes them.
    """
    if Path(reference_dir).is_file() and Path(predicted_dir).is_file():
        reference, predicted = [read_i2b2(reference_dir)], [read_i2b2(predicted_dir)]
        predicted[0].doc_id = reference[0].doc_id
        return pair_documents(reference, predicted, mapping, intersection_only)
    reference = read_folder(reference_dir)
    predicted = read_folder(predicted_dir)
    align_annotator_prefixes([reference, predicted])
    # A side without documents is a wrong folder (often the corpus root), never a score of 0.
    for folder, documents in ((reference_dir, reference), (predicted_dir, predicted)):
        if not documents:
            raise no_documents(folder)
    return pair_documents(reference, predicted, mapping, intersection_only)
