"""``annotator convert IN OUT --to FORMAT``: convert annotation files between formats."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.common import existing_path
from annotator.core.schema import Schema, load_schema
from annotator.errors import InputError, SchemaError, UsageError
from annotator.io.mae import read_mae_dtd


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from annotator.io.formats import FORMATS

    names = ", ".join(f"{f.name} ({f.description})" for f in FORMATS.values())
    parser = subparsers.add_parser(
        "convert",
        help="convert annotation files between formats (i2b2, MAE, brat, JSONL, inline 2006, CoNLL)",
        description=(
            "Convert a file or a folder of annotation files. Every input is read before anything "
            "is written, so a bad input file stops the conversion with nothing written. The input "
            f"is never overwritten. Formats: {names}."
        ),
    )
    parser.add_argument("input", type=existing_path, metavar="IN", help="a file or a folder")
    parser.add_argument("output", type=Path, metavar="OUT", help="a folder (or a file for one-file formats)")
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
    from annotator.io.formats import input_files, output_paths, read_documents, write_documents
    from annotator.io.validate import validate_document

    schema: Schema | None
    try:
        schema = read_mae_dtd(args.schema) if args.schema.endswith(".dtd") else load_schema(args.schema)
    except SchemaError as error:
        raise UsageError(error.message, error.path) from None
    warnings: list[str] = []
    documents = read_documents(args.input, args.source, schema, warnings)
    for document in documents:
        # A tag whose text does not match its offsets would be silently moved by formats
        # that re-slice the text: refuse, and point at validate --realign.
        errors = [p for p in validate_document(document) if p.is_error]
        if errors:
            raise InputError(f"{errors[0].one_line()} (nothing written; see annotator validate --realign)")
    targets = output_paths(documents, args.output, args.to)
    inputs = {p.resolve() for p in input_files(args.input, args.source or _detected(args.input))}
    clashing = [t for t in targets if t.resolve() in inputs]
    if clashing:
        raise UsageError("would overwrite an input file; choose another output", clashing[0])
    existing = [t for t in targets if t.exists()]
    if existing and not args.force:
        raise UsageError(
            f"{len(existing)} output file(s) exist already (use --force to overwrite)", existing[0]
        )
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    written = write_documents(documents, args.output, args.to)
    print(
        f"{len(documents)} document(s) converted to {args.to}: {len(written)} file(s) written under {args.output}"
    )
    return 0


def _detected(path: Path) -> str:
    from annotator.io.formats import detect_format

    return detect_format(path)
