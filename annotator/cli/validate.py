"""``annotator validate PATH...``: check i2b2 files, optionally realign their offsets."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from annotator.cli.common import add_json_flag, announce_written, existing_path, print_json, shown

if TYPE_CHECKING:
    from annotator.workflows.validate import FileCheck


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
        "paths",
        nargs="+",
        type=existing_path,
        metavar="PATH",
        help="files, or folders (searched for *.xml, sub-folders included)",
    )
    parser.add_argument(
        "--schema",
        metavar="NAME",
        help="check tags and TYPEs against this schema (a bundled name such as i2b2-2014, a .toml file "
        "or a MAE .dtd task file; 'none' for no schema check). Default: the schema the file's root "
        "names (<deIdi2b2>: i2b2-2014)",
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


def run(args: argparse.Namespace) -> int:
    from annotator.workflows.validate import ValidateRequest, validate

    request = ValidateRequest(tuple(args.paths), args.schema, args.realign, args.write)
    result = validate(request)
    if args.json:
        print_json({"files": [f.to_dict() for f in result.files], "summary": result.summary()})
        return 1 if result.errors else 0
    not_realigned = {note.subject: note for note in result.notes}
    for check in result.files:
        if str(check.path) in not_realigned:
            print(not_realigned.pop(str(check.path)).message())
        _print_file(check)
    line = f"{len(result.files)} file(s) checked: {result.errors} error(s), {result.warnings} warning(s)"
    if args.realign and args.write:
        line += f", {result.files_realigned} file(s) realigned"
    print(line)
    for check in result.files:
        if check.written:
            announce_written(check.path, "realigned file")
            links = check.realignment.other_links if check.realignment is not None else 0
            if links:
                print(
                    f"annotator: note: {shown(check.path)} had {links} other hard link(s); they keep "
                    "the text before the repair (a repair is a new file, renamed into place)",
                    file=sys.stderr,
                )
    return 1 if result.errors else 0


def _print_file(check: FileCheck) -> None:
    if check.realignment is not None:
        for repair in check.realignment.repairs:
            print(repair.one_line(check.path, written=check.written))
        for unresolved in check.realignment.unresolved:
            print(unresolved.one_line(check.path))
    for found in check.problems:
        print(found.one_line())
