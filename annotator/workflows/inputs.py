"""Checking a job's input paths before any work: one clear line naming the path."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.errors import SchemaError, UsageError
from annotator.io.corpus import is_document_file, list_document_files, no_documents

if TYPE_CHECKING:  # imported where used: checking folders should not load the schema readers
    from annotator.core.schema import Schema


def require_folder(path: Path) -> Path:
    if not Path(path).is_dir():
        raise UsageError("not a folder", path)
    return Path(path)


def require_documents(path: Path) -> Path:
    """A folder holding at least one ``.xml`` document (else a one-line input error)."""
    folder = require_folder(path)
    if not list_document_files(folder):
        raise no_documents(folder)
    return folder


def document_files(
    paths: Iterable[Path],
    recursive: bool = False,
    once: bool = True,
) -> list[Path]:
    """The files named and the ``*.xml`` files of the folders named.

    ``recursive`` searches sub-folders too (hidden ones skipped); ``once`` lists a file
    named twice once; a folder without any document is an error (:func:`no_documents`).
    """
    files: list[Path] = []
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found = _recursive_files(path) if recursive else list_document_files(path)
            if not found:
                raise no_documents(path, recursive)
        else:
            found = [path]
        for file in found:
            key = file.resolve()
            if key not in seen or not once:
                seen.add(key)
                files.append(file)
    return files


def _recursive_files(folder: Path) -> list[Path]:
    named = sorted(
        p
        for p in folder.rglob("*.xml")
        if not any(part.startswith((".", "~")) for part in p.relative_to(folder).parts)
    )
    return [p for p in named if is_document_file(p)]


def schema_by_name(name: str) -> Schema:
    """A bundled schema name, a schema ``.toml`` file or a MAE ``.dtd`` task file."""
    from annotator.core.schema import load_schema
    from annotator.io.mae import read_mae_dtd

    try:
        return read_mae_dtd(name) if name.endswith(".dtd") else load_schema(name)
    except SchemaError as error:
        raise UsageError(error.message, error.path) from None
