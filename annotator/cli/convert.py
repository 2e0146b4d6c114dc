"""``annotator convert IN OUT --to FORMAT``: convert annotation files between formats."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.common import add_json_flag, add_output_option, announce_written, existing_path, print_json
from annotator.errors import UsageError
from annotator.io.capacity import DESCRIPTIONS, Kind, parse_kinds


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from annotator.io.format_names import FORMAT_DESCRIPTIONS as FORMATS

    names = ", ".join(f"{name} ({description})" for name, description in FORMATS.items())
    parser = subparsers.add_parser(
        "convert",
        help="convert annotation files between formats (i2b2, MAE, brat, JSONL, inline 2006, CoNLL, PhysioNet), or import notes (an EHR table) into a project",
        description=(
            "Convert a file or a folder of annotation files. Every input is read before anything "
            "is written, so a bad input file stops the conversion with nothing written. The input "
            f"is never overwritten. Formats: {names}."
        ),
    )
    parser.add_argument(
        "input", type=existing_path, metavar="IN", help="a file or a folder (sub-folders are not searched)"
    )
    # OUT may also be given as the second word (the older spelling), as in `convert IN OUT`.
    parser.add_argument("positional_output", nargs="?", type=Path, metavar="OUT", help=argparse.SUPPRESS)
    add_output_option(parser, "OUT", "a folder (or a file for one-file formats)", required=False)
    from annotator.io.format_names import READ_ONLY, WRITE_ONLY

    writable = sorted(name for name in FORMATS if name not in READ_ONLY)
    readable = sorted(name for name in FORMATS if name not in WRITE_ONLY)
    parser.add_argument("--to", required=True, choices=writable, help="the format to write")
    parser.add_argument(
        "--from", dest="source", choices=readable, help="the input format (default: detected)"
    )
    parser.add_argument(
        "--schema",
        metavar="NAME",
        help="the tag set: it gives each TYPE its category (brat, JSONL, inline 2006), MAE files their "
        "task and brat its labels; a bundled name, a .toml file, a MAE / MedTator task (.dtd, .yaml, "
        ".json) or a brat annotation.conf (default: the task or annotation.conf found with the input, "
        "in its folder or up to two above, else i2b2-2014)",
    )
    parser.add_argument(
        "--drop",
        metavar="KIND[,KIND]",
        type=_kinds,
        default=frozenset(),
        help="let these kinds go where the target format cannot hold them (without it, such a "
        "conversion is refused with each kind and its count): "
        + "; ".join(f"{kind.value}: {text}" for kind, text in DESCRIPTIONS.items())
        + "; or all",
    )
    add_json_flag(parser)
    table = parser.add_argument_group(
        "EHR exports (--from table: a CSV, TSV or JSON Lines file, one note per row)",
        "Notes become documents PPP-RR: patients numbered in order of first appearance, each "
        "patient's notes by date; notes-index.csv beside them maps each back to its row (beside a "
        "one-file output, OUT's name with .notes-index.csv).",
    )
    table.add_argument(
        "--text-column",
        default="text",
        metavar="NAME",
        help="the note text (default: text; a name is also found in another case: MIMIC's TEXT)",
    )
    table.add_argument("--id-column", metavar="NAME", help="the note's id in the EHR")
    table.add_argument(
        "--patient-column", metavar="NAME", help="the patient's id (notes of one patient form a group)"
    )
    table.add_argument("--date-column", metavar="NAME", help="the note's date (orders a patient's notes)")
    table.add_argument(
        "--name-column",
        action="append",
        default=[],
        metavar="NAME",
        help="a column of the patient's names (repeat for first and last): site-lists.tsv beside the notes "
        "lists them, and they are suggested and leak-checked in that patient's notes",
    )
    parser.add_argument("--force", action="store_true", help="overwrite existing output files")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from annotator.workflows.convert import ConvertRequest, LossError, convert

    if (args.output is None) == (args.positional_output is None):
        raise UsageError("give the output once: -o OUT (or OUT after IN)")
    output = args.output or args.positional_output
    from annotator.io.notetable import NoteColumns

    columns = NoteColumns(
        args.text_column, args.id_column, args.patient_column, args.date_column, tuple(args.name_column)
    )
    request = ConvertRequest(
        args.input, output, args.to, args.source, args.schema, args.force, columns, args.drop
    )
    try:
        result = convert(request)
    except LossError as error:
        if args.json:
            print_json({"converted": False, "to": args.to, "cannot_hold": error.lost})
        raise
    for note in result.notes:
        print(f"warning: {note.message()}", file=sys.stderr)
    if args.json:
        print_json(
            {
                "converted": True,
                "to": args.to,
                "documents": result.documents,
                "schema": result.schema,
                "dropped": result.dropped,
                "written": [str(path) for path in result.written],
            }
        )
    else:
        print(f"{result.documents} document(s) converted to {args.to}")
        if result.dropped:
            dropped = ", ".join(f"{kind}: {count}" for kind, count in result.dropped.items())
            print(f"dropped (as --drop allowed): {dropped}")
    if len(result.written) > 1 and Path(output).resolve() in {path.resolve() for path in result.written}:
        # A one-file output with the table's note index beside it: name each file.
        for path in result.written:
            announce_written(path, "file")
    else:
        announce_written(output, f"{len(result.written)} file(s)")
    return 0


def _kinds(text: str) -> frozenset[Kind]:
    try:
        return parse_kinds(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
