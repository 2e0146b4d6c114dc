"""``annotator adjudicate``: auto-merge annotators' versions into gold files, report the rest."""

from __future__ import annotations

import argparse
import re
import sys

from annotator.cli.common import (
    add_json_flag,
    add_output_option,
    announce_written,
    format_table,
    print_json,
    progress_bar,
    refuse_one_path_twice,
    shown,
)

NAME = "adjudicate"
MAX_OFFSETS_SHOWN = 8


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        NAME,
        help="merge two or more annotators' folders into gold files (agreements auto-accepted)",
        description=(
            "Pair the annotators' files by name, align their tags into units, auto-accept the "
            "agreements, add missed-PHI candidates, and write GOLD_DIR/<doc>.xml with a decision log "
            "beside it. Units that need a person are reported per document (offsets, no text); "
            "resolve them with `annotator gui --adjudicate`."
        ),
    )
    parser.add_argument(
        "folders",
        nargs="+",
        metavar="DIR",
        help="annotator folders (two or more; their *.xml files, sub-folders are not searched)",
    )
    add_output_option(parser, "GOLD_DIR", "gold folder to write")
    parser.add_argument(
        "--auto-agreements",
        choices=("unanimous", "majority", "off"),
        default="unanimous",
        help="auto-accept exact agreements of all versions (default), of a majority, or nothing",
    )
    parser.add_argument(
        "--adjudicator",
        type=_adjudicator_name,
        default=None,
        metavar="NAME",
        help="name recorded on gold tags (default: the name the windows remember, else the login name)",
    )
    parser.add_argument(
        "--scope",
        choices=("patient", "corpus"),
        default="patient",
        help="where to look for text annotated elsewhere (missed-PHI candidates)",
    )
    parser.add_argument("--no-candidates", action="store_true", help="do not look for missed-PHI candidates")
    parser.add_argument(
        "--suggestions", metavar="DIR", help="pre-annotated folder: model tags no one kept become candidates"
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="redo documents already finalised, and overwrite gold files no adjudication wrote",
    )
    add_json_flag(parser)
    parser.set_defaults(func=run)


# What an XML 1.0 attribute cannot hold: refused here, not reported later as a character of
# the first document (which would point at the note, not at the option).
_NOT_XML_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _adjudicator_name(value: str) -> str:
    """argparse type: a name that a gold file can record."""
    found = _NOT_XML_CHAR.search(value)
    if found is not None:
        raise argparse.ArgumentTypeError(
            f"character U+{ord(found.group()):04X} cannot be stored in a gold file"
        )
    if not value.strip():
        raise argparse.ArgumentTypeError("an empty name")
    return value


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from annotator.adjudication.decisions import AutoAccept
    from annotator.adjudication.versions import refuse_repeated_folders
    from annotator.workflows.adjudicate import AdjudicateRequest, adjudicate

    # An annotator's own folder as the suggestions would pass as a model run: no candidates.
    refuse_repeated_folders(args.folders)
    refuse_one_path_twice(
        [*(("an annotator folder", f) for f in args.folders), ("--suggestions", args.suggestions)]
    )

    request = AdjudicateRequest(
        folders=tuple(Path(f) for f in args.folders),
        gold_dir=args.output,
        auto=AutoAccept(args.auto_agreements),
        adjudicator=args.adjudicator,
        scope=args.scope,
        candidates=not args.no_candidates,
        suggestions=Path(args.suggestions) if args.suggestions else None,
        force=args.force,
    )
    with progress_bar("reading, then adjudicating", percent=True) as update:
        outcome = adjudicate(request, progress=update)
    report, gold_dir = outcome.report, request.gold_dir
    if args.json:
        print_json(report.to_dict())
        return 0
    for note in outcome.notes:
        print(f"warning: {note.message()}", file=sys.stderr)
    rows = []
    for document in report.documents:
        offsets = ", ".join(f"{u['start']}-{u['end']}" for u in document.unresolved_units[:MAX_OFFSETS_SHOWN])
        extra = len(document.unresolved_units) - MAX_OFFSETS_SHOWN
        if extra > 0:
            offsets += f" (+{extra})"
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(document.unresolved.items()))
        rows.append(
            [
                document.doc_id,
                document.status,
                document.units,
                document.resolved,
                document.units - document.resolved,
                kinds or "-",
                offsets or "-",
            ]
        )
    print(
        format_table(
            ["document", "status", "units", "resolved", "open", "open by kind", "open offsets"], rows
        )
    )
    totals = report.to_dict()["totals"]
    assert isinstance(totals, dict)
    written = sum(document.status == "written" for document in report.documents)
    kept = len(report.documents) - written
    print(
        f"\n{totals['documents']} documents ({written} written, {kept} left untouched), "
        f"{totals['resolved']} of {totals['units']} units resolved, {totals['unresolved']} left for the adjudicator"
    )
    if written:
        announce_written(gold_dir, f"{written} gold file(s) and their decision logs")
    if kept:
        # Finalised documents and gold files no adjudication wrote are never replaced silently.
        print(
            f"annotator adjudicate: {'nothing written: ' if not written else ''}{kept} gold file(s) in "
            f"{shown(gold_dir)} exist already (finalised, or not written by adjudication) and were left "
            "untouched; use --force to redo them",
            file=sys.stderr,
        )
        if not written:
            return 1
    return 0
