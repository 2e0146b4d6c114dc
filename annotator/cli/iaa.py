"""``annotator iaa``: agreement between two or more annotators' folders, optionally against gold."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from annotator.cli.common import (
    announce_written,
    existing_path,
    format_table,
    print_json,
    refuse_one_path_twice,
    refuse_report_targets,
    score_text,
)
from annotator.cli.evaluate import add_scoring_options, scoring_request

NAME = "iaa"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        NAME,
        help="inter-annotator agreement (pairwise P/R/F1, per category, F1 matrix, kappa, each vs gold)",
        description=(
            "Pairwise agreement between annotator folders (each pair scored on the documents both "
            "have, either one as reference), F1 per category, an F1 matrix, Cohen's kappa on tokens, "
            "and with --gold each annotator against gold and their average. --html writes all of it "
            "with every pair's documents, worst first."
        ),
    )
    parser.add_argument(
        "folders",
        nargs="+",
        type=existing_path,
        metavar="DIR",
        help="annotator folders (2 or more; sub-folders are not searched)",
    )
    parser.add_argument("--gold", type=existing_path, help="gold folder (sub-folders are not searched)")
    add_scoring_options(parser)
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    output.add_argument("--csv", metavar="FILE", help="write the pairwise rows as CSV")
    output.add_argument(
        "--html", metavar="FILE", help="write a self-contained HTML report (per category, per document)"
    )
    parser.add_argument("--force", action="store_true", help="replace an existing --csv or --html file")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from annotator.adjudication.versions import refuse_repeated_folders
    from annotator.evaluation.iaa_report import (
        INTERVAL_NOTE,
        average_rows,
        average_text,
        pair_rows,
        per_category_f1_rows,
        render_iaa_html,
    )
    from annotator.io.outputs import plan_files
    from annotator.workflows.iaa import IaaRequest, inter_annotator_agreement
    from annotator.workflows.notes import NoteKind

    # An annotator folder given twice, or given as gold too, would agree with itself.
    refuse_repeated_folders(args.folders)
    refuse_one_path_twice([*(("an annotator folder", f) for f in args.folders), ("--gold", args.gold)])
    refuse_report_targets(args.csv, args.html, force=args.force)
    request = IaaRequest(tuple(args.folders), args.gold, scoring_request(args))
    outcome = inter_annotator_agreement(request)
    report, names = outcome.report, outcome.names
    for note in outcome.notes:
        if note.kind is NoteKind.TEXT_DIFFERS:
            print(f"annotator iaa: note: {note.detail}: skipped {note.message()}", file=sys.stderr)
        else:
            print(f"annotator iaa: note: {note.message()}", file=sys.stderr)
    if args.json:
        print_json(report.to_dict())
        return 0
    headers, rows = pair_rows(report)
    if args.csv:
        _write_csv(Path(args.csv), headers, rows + average_rows(report), request.inputs)
        announce_written(args.csv)
        return 0
    if args.html:
        from annotator.workflows.evaluate import now_text

        compared = [(name, str(folder)) for name, folder in zip(names, args.folders, strict=True)]
        if args.gold:
            compared.append(("gold", str(args.gold)))
        page = render_iaa_html(report, compared=compared, generated=now_text())
        plan = plan_files([Path(args.html)], inputs=request.inputs, force=True)
        plan.publish_text(Path(args.html), page)
        announce_written(args.html)
        return 0
    matrix = report.matrix()
    out = [
        f"match {report.options.match}, level {report.options.level}",
        format_table(headers, rows),
        "",
        "F1 per category:",
        format_table(*per_category_f1_rows(report)),
        "",
        "F1 matrix (symmetric):",
        format_table(
            ["", *names],
            [[name, *[score_text(v) for v in row]] for name, row in zip(names, matrix, strict=True)],
        ),
        f"\naverage pairwise F1: {score_text(report.average_pairwise_f1())}",
    ]
    if report.versus_gold:
        out.append(f"average of annotators vs gold: {average_text(report)}")
    out.append("F1 is the primary agreement measure for spans; kappa counts every token, PHI or not.")
    out.append(INTERVAL_NOTE)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def _write_csv(path: Path, headers: list[str], rows: list[list[str]], inputs: Sequence[Path]) -> None:
    import csv
    import io

    from annotator.io.csv_cells import inert_cell
    from annotator.io.outputs import plan_files

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    for reference, predicted, *scores in rows:  # annotator names are folder names
        writer.writerow([inert_cell(reference), inert_cell(predicted), *scores])
    plan_files([path], inputs=inputs, force=True).publish_text(path, buffer.getvalue())
