"""``annotator consistency``: text annotated as PHI in one place but not in another."""

from __future__ import annotations

import argparse

from annotator.cli.common import add_json_flag, format_table, print_json

NAME = "consistency"
MAX_PLACES_SHOWN = 3


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        NAME,
        help="list unannotated occurrences of strings annotated as PHI elsewhere (exit 1 if any)",
        description=(
            "The post-adjudication check: every whole-word, case-insensitive occurrence of a string "
            "that is annotated as PHI elsewhere in the patient's records (or the corpus) but not "
            "where it occurs. Exit 1 when any is found, 0 when none. Note text is left out unless "
            "--include-text is given."
        ),
    )
    parser.add_argument("gold_dir", metavar="GOLD_DIR", help="folder of (gold) i2b2 files")
    parser.add_argument(
        "--scope", choices=("patient", "corpus"), default="patient", help="where to compare (default patient)"
    )
    parser.add_argument("--include-text", action="store_true", help="show the PHI text of each finding")
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from annotator.workflows.consistency import ConsistencyRequest, consistency

    outcome = consistency(ConsistencyRequest(Path(args.gold_dir), args.scope))
    findings, documents = outcome.findings, outcome.documents
    if args.json:
        print_json(
            {
                "scope": args.scope,
                "documents": documents,
                "includes_text": bool(args.include_text),
                "count": len(findings),
                "findings": [f.to_dict(include_text=args.include_text) for f in findings],
            }
        )
        return 1 if findings else 0
    if args.include_text:
        print("NOTE: this listing includes PHI text.\n")
    headers = ["document", "start", "end", "type", "annotated elsewhere"]
    if args.include_text:
        headers.append("text")
    rows = []
    for finding in findings:
        places = ", ".join(f"{e.doc_id}:{e.start}-{e.end}" for e in finding.annotated_at[:MAX_PLACES_SHOWN])
        if finding.annotated_count > MAX_PLACES_SHOWN:
            places += f" (+{finding.annotated_count - MAX_PLACES_SHOWN})"
        row: list[object] = [finding.doc_id, finding.start, finding.end, finding.type, places]
        if args.include_text:
            row.append(finding.text)
        rows.append(row)
    if rows:
        print(format_table(headers, rows))
    print(
        f"{len(findings)} unannotated occurrence{'s' if len(findings) != 1 else ''} of PHI annotated elsewhere "
        f"({documents} documents, scope {args.scope})"
    )
    return 1 if findings else 0
