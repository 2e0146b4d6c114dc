"""Reading a folder of annotation files into a :class:`Corpus`."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.core.project import PROJECT_FILE, Project
from annotator.errors import AnnotatorError, InputError

# Listing a folder is what every command does first (the official scorer too, whose speed is
# measured): the document model and its reader load only when documents are read.
if TYPE_CHECKING:
    from annotator.core.corpus import Corpus
    from annotator.core.document import Document

DocumentReader = Callable[[Path], "Document"]


def list_document_files(folder: Path, pattern: str = "*.xml") -> list[Path]:
    """Annotation files directly in ``folder``, sorted, hidden and temporary files skipped.

    The pattern ignores case (``100-01.XML`` is a document): on Windows and macOS it always
    did, and on Linux an upper-case suffix was left out of scoring without a word."""
    lowered = pattern.lower()
    named = sorted(
        p
        for p in folder.iterdir()
        if fnmatch.fnmatchcase(p.name.lower(), lowered) and not p.name.startswith((".", "~"))
    )
    return [p for p in named if is_document_file(p)]


def is_document_file(path: Path) -> bool:
    """Whether a listed entry is a file to read: a folder is not; a link to nothing, a pipe, a
    socket or a device named like a note is an error (skipped, the note would be lost without
    a word; opened, a pipe would wait forever)."""
    if path.is_file():
        return True
    if path.is_dir():
        return False
    what = "a symbolic link to nothing" if not path.exists() else "a pipe, socket or device"
    raise InputError(f"is {what}, not a file", path)


def no_documents(folder: str | Path, recursive: bool = False, what: str = ".xml documents") -> InputError:
    """The one error every command gives for a folder without documents.

    It says where the command looked (sub-folders or not), so a user who pointed at the
    corpus root instead of ``gold/`` sees why nothing was found.
    """
    where = (
        "in this folder or its sub-folders"
        if recursive
        else "directly in this folder (sub-folders are not searched)"
    )
    folder = Path(folder)
    if (folder / PROJECT_FILE).is_file():
        project = Project(root=folder, name=folder.name)  # its layout only: the file is not read
        held = [path for path in (project.gold_dir, project.source_dir) if any(path.glob("*.xml"))]
        hint = " or ".join(str(path) for path in held) or str(project.source_dir)
        return InputError(f"no {what} {where}: this is a project; give {hint}", folder)
    if what == ".xml documents" and folder.is_dir() and any(folder.glob("*.ann")):
        # A brat folder: read (and checked) by convert, which takes every format.
        return InputError(
            f"no {what} {where}; it holds brat files (.ann): annotator convert --from brat reads and "
            "checks them, and converts them to i2b2 for this command",
            folder,
        )
    return InputError(f"no {what} {where}", folder)


def read_corpus(
    folder: str | Path,
    reader: DocumentReader | None = None,
    pattern: str = "*.xml",
    errors: list[AnnotatorError] | None = None,
) -> Corpus:
    """Read every document of a folder.

    Parameters
    ----------
    reader:
        Reads one file; the i2b2 reader by default.
    errors:
        When given, unreadable files are appended here and skipped; otherwise the first
        one raises.
    """
    from annotator.core.corpus import Corpus
    from annotator.io.i2b2 import read_i2b2

    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("not a folder", folder)
    reader = reader or read_i2b2
    corpus = Corpus(root=folder)
    for path in list_document_files(folder, pattern):
        try:
            corpus.add(reader(path))
        except AnnotatorError as error:
            if errors is None:
                raise
            errors.append(error)
    return corpus
