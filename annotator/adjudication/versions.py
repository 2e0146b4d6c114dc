"""Pairing the versions of each document across annotator folders, by file name."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from annotator.adjudication.units import check_same_text
from annotator.core.document import Document
from annotator.errors import InputError, UsageError, printable_path
from annotator.io.corpus import list_document_files
from annotator.io.i2b2 import read_i2b2
from annotator.io.pairing import pairing_keys

Progress = Callable[[int, int], None]


@dataclass
class VersionSet:
    """The documents of several annotator folders, paired by file name.

    Attributes
    ----------
    names: one name per folder (the folder name, made unique).
    folders: the folders, in the same order.
    documents: document id -> its versions, for documents at least two folders have: one per
        folder that has it, in the folders' order (see :meth:`names_of`).
    missing: document id -> names of the folders that lack it (documents not in all folders;
        those in ``documents`` are adjudicated from the versions there are, the others skipped).
    """

    names: list[str]
    folders: list[Path]
    documents: dict[str, list[Document]] = field(default_factory=dict)
    missing: dict[str, list[str]] = field(default_factory=dict)

    @property
    def doc_ids(self) -> list[str]:
        return sorted(self.documents)

    def names_of(self, doc_id: str) -> list[str]:
        """The names of the versions a document has, in the folders' order."""
        lacking = set(self.missing.get(doc_id, ()))
        return [name for name in self.names if name not in lacking]


def version_names(folders: Sequence[Path]) -> list[str]:
    """A distinct name per folder: its own name, its parent's too when names repeat."""
    # Names go into gold files and reports: a folder name's undecodable bytes are shown escaped.
    names = [printable_path(folder.resolve().name or str(folder)) for folder in folders]
    if len(set(names)) == len(names):
        return names
    names = [printable_path(f"{folder.resolve().parent.name}/{folder.resolve().name}") for folder in folders]
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return unique


def refuse_repeated_folders(folders: Sequence[str | Path]) -> None:
    """Refuse one folder given twice (also as another spelling or through a symlink).

    Its versions would agree with themselves on every tag, and unanimous auto-acceptance
    would write those fake agreements into the gold standard.
    """
    seen: dict[Path, Path] = {}
    for folder in folders:
        resolved = Path(folder).resolve()
        if resolved in seen:
            first = printable_path(seen[resolved])
            also = f" (also as {first})" if first != printable_path(Path(folder)) else ""
            raise UsageError(
                f"the same annotator folder is given twice{also}; give each annotator's folder once",
                Path(folder),
            )
        seen[resolved] = Path(folder)


def load_versions(
    folders: Sequence[str | Path],
    names: Sequence[str] | None = None,
    progress: Progress | None = None,
) -> VersionSet:
    """Read the annotator folders and pair their files by name.

    Every pair must share its TEXT (:class:`~annotator.errors.TextMismatchError`
    otherwise, naming the document, the versions and the first differing offset).

    Parameters
    ----------
    folders:
        Two or more folders of i2b2 files, one per annotator.
    names:
        Version names; default the folder names.
    progress:
        Called with (files read, files to read).
    """
    paths = [Path(folder) for folder in folders]
    if len(paths) < 2:
        raise UsageError("adjudication needs at least two annotator folders")
    refuse_repeated_folders(paths)
    for path in paths:
        if not path.is_dir():
            raise InputError("not a folder", path)
    labels = list(names) if names is not None else version_names(paths)
    by_stem = [{p.stem: p for p in list_document_files(path)} for path in paths]
    keys = pairing_keys([list(listing) for listing in by_stem])
    listings = [
        {key[stem]: p for stem, p in listing.items()} for key, listing in zip(keys, by_stem, strict=True)
    ]
    all_ids = sorted(set().union(*listings))
    versions = VersionSet(labels, paths)
    total = sum(len(listing) for listing in listings)
    done = 0
    for doc_id in all_ids:
        lacking = [labels[i] for i, listing in enumerate(listings) if doc_id not in listing]
        if lacking:
            versions.missing[doc_id] = lacking
        # Three annotators, one of whom did half the notes: the notes the other two did are
        # adjudicated from their two versions. One version alone is nobody's agreement.
        having = [
            (label, listing) for label, listing in zip(labels, listings, strict=True) if doc_id in listing
        ]
        if len(having) < 2:
            continue
        documents = [read_i2b2(listing[doc_id]) for _, listing in having]
        for document in documents:
            document.doc_id = doc_id  # without the annotator prefix, if pairing dropped one
            drop_pending(document)
        check_same_text(documents, [label for label, _ in having])
        versions.documents[doc_id] = documents
        done += len(documents)
        if progress is not None:
            progress(done, total)
    _refuse_nothing_in_common(versions, paths)
    return versions


def drop_pending(document: Document) -> None:
    """Leave out the suggestions nobody reviewed (``pending="yes"`` in a working copy).

    A model suggestion is no annotator's judgement: two copies still holding the same one
    would otherwise "agree" on it and put it in the gold as ``agreed_by`` both of them.
    """
    for annotation in [a for a in document.annotations if a.pending]:
        document.remove(annotation.id)


def _refuse_nothing_in_common(versions: VersionSet, paths: Sequence[Path]) -> None:
    """Refuse folders that share no file name: "0 documents" would look like a finished job."""
    if versions.documents or not versions.missing:
        return
    folders = ", ".join(printable_path(path) for path in paths)
    raise InputError(
        f"no document is in every one of the annotator folders {folders} (versions are paired by "
        "file name); nothing to adjudicate",
        paths[0],
    )
