"""``annotator convert IN OUT --to FORMAT``: convert annotation files between formats."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.common import add_output_option, announce_written, existing_path
from annotator.errors import UsageError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from annotator.io.format_names import FORMAT_DESCRIPTIONS as FORMATS

    names = ", ".join(f"{name} ({description})" for name, description in FORMATS.items())
    parser = subparsers.add_parser(
        "convert",
        help="convert annotation files between formats (i2b2, MAE, brat, JSONL, inline 2006, CoNLL)",
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
    parser.add_argument("--to", required=True, choices=sorted(FORMATS), help="the format to write")
    parser.add_argument(
        "--from", dest="source", choices=sorted(FORMATS), help="the input format (default: detected)"
    )
    parser.add_argument(
        "--schema",
        metavar="NAME",
        default="i2b2-2014",
        help="schema giving the category of each TYPE for brat, JSONL and inline 2006 input: a bundled name, a .toml file or a MAE .dtd task file (default: i2b2-2014)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite existing output files")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from annotator.workflows.convert import ConvertRequest, convert

    if (args.output is None) == (args.positional_output is None):
        raise UsageError("give the output once: -o OUT (or OUT after IN)")
    output = args.output or args.positional_output
    request = ConvertRequest(args.input, output, args.to, args.source, args.schema, args.force)
    result = convert(request)
    for note in result.notes:
        print(f"warning: {note.message()}", file=sys.stderr)
    print(f"{result.documents} document(s) converted to {args.to}")
    announce_written(output, f"{len(result.written)} file(s)")
    return 0
