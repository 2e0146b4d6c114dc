"""Validate: check i2b2 files and report every problem; optionally realign wrong offsets."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotator.core.schema import Schema
from annotator.errors import AnnotatorError, UsageError
from annotator.io.realign import RealignResult, realign_file
from annotator.io.validate import Problem, problem, validate_file
from annotator.workflows.inputs import document_files, schema_by_name
from annotator.workflows.notes import Cancelled, Note, NoteKind, Progress, check_cancel

#: ``--schema none``: check structure and offsets only, not tag names and TYPEs.
NO_SCHEMA = "none"
# Problems that realigning may be able to repair.
OFFSET_CODES = frozenset({"text-mismatch", "offset-beyond-text"})


@dataclass(frozen=True)
class ValidateRequest:
    """Check ``paths`` (files, or folders searched for ``*.xml``).

    ``realign`` finds the right offsets of tags whose text does not match; ``write`` saves
    the repaired files (atomically); ``schema`` checks tags and types against a schema.
    """

    paths: tuple[Path, ...]
    schema: str | None = None
    realign: bool = False
    write: bool = False


@dataclass
class FileCheck:
    """One file's problems (after any repair) and what realigning did."""

    path: Path
    problems: list[Problem]
    realignment: RealignResult | None = None
    written: bool = False

    def to_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"path": str(self.path), "problems": [p.to_dict() for p in self.problems]}
        if self.realignment is not None:
            entry["repairs"] = [r.to_dict() for r in self.realignment.repairs]
            entry["unresolved"] = [u.to_dict() for u in self.realignment.unresolved]
            entry["written"] = self.written
            if self.realignment.other_links:
                entry["other_hard_links"] = self.realignment.other_links
        return entry


@dataclass
class ValidateResult:
    files: list[FileCheck] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(p.is_error for f in self.files for p in f.problems)

    @property
    def warnings(self) -> int:
        return sum(not p.is_error for f in self.files for p in f.problems)

    @property
    def files_realigned(self) -> int:
        return sum(f.written for f in self.files)

    def summary(self) -> dict[str, int]:
        return {
            "files": len(self.files),
            "errors": self.errors,
            "warnings": self.warnings,
            "files_realigned": self.files_realigned,
        }


def validate(
    request: ValidateRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> ValidateResult:
    """Check every file; a file is only rewritten when realigning can repair it alone."""
    if request.write and not request.realign:
        raise UsageError("--write only makes sense with --realign")
    # No schema named: each file is checked against the one its root claims (deIdi2b2: i2b2
    # 2014); "none" switches schema checks off.
    schema: Schema | None = (
        schema_by_name(request.schema) if request.schema and request.schema != NO_SCHEMA else None
    )
    files = document_files(request.paths, recursive=True, once=False)
    result = ValidateResult()
    for done, path in enumerate(files, start=1):
        check_cancel(cancelled, "validation")
        result.files.append(_check_file(path, schema, request, result.notes))
        if progress is not None:
            progress(done, len(files))
    return result


def _check_file(path: Path, schema: Schema | None, request: ValidateRequest, notes: list[Note]) -> FileCheck:
    infer = request.schema is None
    check = FileCheck(path, validate_file(path, schema, infer_schema=infer))
    if not (request.realign and any(p.code in OFFSET_CODES for p in check.problems)):
        return check
    if not realignable(check.problems):
        notes.append(Note(NoteKind.NOT_REALIGNED, str(path)))
        return check
    try:
        check.realignment = realign_file(path, write=False)
        if request.write and check.realignment.repairs:
            check.realignment = realign_file(path, write=True)
            check.written = True
            check.problems = validate_file(path, schema, infer_schema=infer)
    except AnnotatorError as error:
        check.problems.append(problem(path, "not-well-formed", error.message))
    return check


def realignable(problems: list[Problem]) -> bool:
    """False when the file does not parse or its structure is broken: never rewrite those."""
    return not any(
        (p.code not in OFFSET_CODES and p.is_error and p.tag_id is None)
        or p.code in ("duplicate-id", "bad-offset", "missing-offset")
        for p in problems
    )
