"""``annotator validate PATH...``: check i2b2 files, optionally realign their offsets."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.common import add_json_flag, existing_path, print_json
from annotator.core.schema import Schema, load_schema
from annotator.errors import AnnotatorError, InputError, SchemaError, UsageError
from annotator.io.mae import read_mae_dtd
from annotator.io.realign import RealignResult, realign_file
from annotator.io.validate import Problem, problem, validate_file

# Problems that --realign may be able to repair.
_OFFSET_CODES = {"text-mismatch", "offset-beyond-text"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check annotation files (i2b2 XML) and report every problem",
        description=(
            "Check i2b2 XML files: well-formedness, encoding, structure, ids, offsets, the text "
            "attribute, the schema and overlaps. One line per problem, never the note text. "
            "Exit 0 when clean (warnings allowed), 1 when problems are found, 2 on usage errors."
        ),
    )
    parser.add_argument(
        "paths", nargs="+", type=existing_path, metavar="PATH", help="files, or folders (searched for *.xml)"
    )
    parser.add_argument(
        "--schema",
        metavar="NAME",
        help="check tags and TYPEs against this schema (a bundled name such as i2b2-2014, a .toml file or a MAE .dtd task file)",
    )
    parser.add_argument(
        "--realign",
        action="store_true",
        help="find the right offsets of tags whose text does not match (UTF-16 or CRLF counting)",
    )
    parser.add_argument(
        "--write", action="store_true", help="with --realign: save the repaired files (atomically)"
    )
    add_json_flag(parser)
    parser.set_defaults(func=run)


def collect_files(paths: list[Path]) -> list[Path]:
    """The files named, and the *.xml files under the folders named (hidden files skipped)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(
                p
                for p in path.rglob("*.xml")
                if p.is_file() and not any(part.startswith((".", "~")) for part in p.relative_to(path).parts)
            )
            if not found:
                raise InputError("no .xml documents in the folder", path)
            files.extend(found)
        else:
            files.append(path)
    return files


def run(args: argparse.Namespace) -> int:
    if args.write and not args.realign:
        raise UsageError("--write only makes sense with --realign")
    schema: Schema | None = None
    if args.schema:
        try:
            schema = read_mae_dtd(args.schema) if args.schema.endswith(".dtd") else load_schema(args.schema)
        except SchemaError as error:
            raise UsageError(error.message, error.path) from None
    files = collect_files(list(args.paths))
    report: list[dict[str, object]] = []
    errors = warnings = written = 0
    for path in files:
        problems = validate_file(path, schema)
        result: RealignResult | None = None
        offsets_wrong = any(p.code in _OFFSET_CODES for p in problems)
        if args.realign and offsets_wrong and not _realignable(problems) and not args.json:
            print(f"{path}: not realigned: fix the other errors of this file first")
        if args.realign and offsets_wrong and _realignable(problems):
            try:
                result = realign_file(path, write=False)
                if args.write and result.repairs:
                    result = realign_file(path, write=True)
                    written += 1
                    problems = validate_file(path, schema)
            except AnnotatorError as error:
                problems.append(problem(path, "not-well-formed", error.message))
        errors += sum(p.is_error for p in problems)
        warnings += sum(not p.is_error for p in problems)
        if args.json:
            entry: dict[str, object] = {"path": str(path), "problems": [p.to_dict() for p in problems]}
            if result is not None:
                entry["repairs"] = [r.to_dict() for r in result.repairs]
                entry["unresolved"] = [u.to_dict() for u in result.unresolved]
                entry["written"] = bool(args.write and result.repairs)
            report.append(entry)
        else:
            _print_file(path, problems, result, bool(args.write))
    summary = {"files": len(files), "errors": errors, "warnings": warnings, "files_realigned": written}
    if args.json:
        print_json({"files": report, "summary": summary})
    else:
        line = f"{len(files)} file(s) checked: {errors} error(s), {warnings} warning(s)"
        if args.realign:
            line += f", {written} file(s) realigned" if args.write else ""
        print(line)
    return 1 if errors else 0


def _realignable(problems: list[Problem]) -> bool:
    # A file that does not parse, or whose structure is broken, is never rewritten.
    return not any(
        (p.code not in _OFFSET_CODES and p.is_error and p.tag_id is None)
        or p.code in ("duplicate-id", "bad-offset", "missing-offset")
        for p in problems
    )


def _print_file(path: Path, problems: list[Problem], result: RealignResult | None, written: bool) -> None:
    out = sys.stdout
    if result is not None:
        for repair in result.repairs:
            print(repair.one_line(path, written=written), file=out)
        for unresolved in result.unresolved:
            print(unresolved.one_line(path), file=out)
    for found in problems:
        print(found.one_line(), file=out)
