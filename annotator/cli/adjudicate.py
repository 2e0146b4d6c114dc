"""``annotator adjudicate``: auto-merge annotators' versions into gold files, report the rest."""

from __future__ import annotations

import argparse
import getpass
import sys

from annotator.cli.common import add_json_flag, format_table, print_json, progress_bar, require_documents

NAME = "adjudicate"
MAX_OFFSETS_SHOWN = 8


def _default_adjudicator() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no user database entry (containers)
        return "adjudicator"


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
    parser.add_argument("folders", nargs="+", metavar="DIR", help="annotator folders (two or more)")
    parser.add_argument("-o", "--output", required=True, metavar="GOLD_DIR", help="gold folder to write")
    parser.add_argument(
        "--auto-agreements",
        choices=("unanimous", "majority", "off"),
        default="unanimous",
        help="auto-accept exact agreements of all versions (default), of a majority, or nothing",
    )
    parser.add_argument("--adjudicator", default=None, help="name recorded on gold tags (default: user name)")
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


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from annotator.adjudication.corpus import adjudicate_corpus, prepare_corpus
    from annotator.errors import UsageError

    if len(args.folders) < 2:
        raise UsageError("adjudicate needs at least two annotator folders")
    gold_dir = Path(args.output)
    resolved_inputs = {Path(f).resolve() for f in args.folders}
    if gold_dir.resolve() in resolved_inputs:
        raise UsageError("the gold folder must not be one of the annotator folders", gold_dir)
    for folder in [*args.folders, *([args.suggestions] if args.suggestions else [])]:
        if not Path(folder).is_dir():
            raise UsageError("not a folder", folder)
    for folder in args.folders:
        require_documents(folder)
    with progress_bar("reading") as reading:
        prepared = prepare_corpus(
            args.folders,
            gold_dir,
            candidates=not args.no_candidates,
            scope=args.scope,
            suggestions_dir=args.suggestions,
            progress=reading,
        )
    with progress_bar("adjudicating") as adjudicating:
        report = adjudicate_corpus(
            prepared,
            adjudicator=args.adjudicator or _default_adjudicator(),
            auto=args.auto_agreements,
            force=args.force,
            progress=adjudicating,
        )
    if args.json:
        print_json(report.to_dict())
        return 0
    for doc_id, lacking in sorted(report.missing.items()):
        print(f"warning: document {doc_id} is missing from {', '.join(lacking)}; skipped", file=sys.stderr)
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
    print(
        f"\n{totals['documents']} documents, {totals['resolved']} of {totals['units']} units resolved, "
        f"{totals['unresolved']} left for the adjudicator; gold in {gold_dir}"
    )
    return 0
