"""``annotator iaa``: agreement between two or more annotators' folders, optionally against gold."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from annotator.cli.common import existing_path, format_table, print_json
from annotator.cli.evaluate import add_scoring_options, scoring_request

NAME = "iaa"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        NAME,
        help="inter-annotator agreement (pairwise P/R/F1, F1 matrix, kappa, each vs gold)",
        description=(
            "Pairwise agreement between annotator folders (each pair scored on the documents both "
            "have, either one as reference), an F1 matrix, Cohen's kappa on tokens, and with --gold "
            "each annotator against gold and their average."
        ),
    )
    parser.add_argument(
        "folders", nargs="+", type=existing_path, metavar="DIR", help="annotator folders (2 or more)"
    )
    parser.add_argument("--gold", type=existing_path, help="gold folder")
    add_scoring_options(parser)
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    output.add_argument("--csv", metavar="FILE", help="write the pairwise rows as CSV")
    parser.set_defaults(func=run)


def _score(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:.4f}"


def run(args: argparse.Namespace) -> int:
    from annotator.workflows.iaa import IaaRequest, inter_annotator_agreement

    request = IaaRequest(tuple(args.folders), args.gold, scoring_request(args))
    outcome = inter_annotator_agreement(request)
    report, names = outcome.report, outcome.names
    for note in outcome.notes:
        print(f"annotator iaa: note: {note.detail}: skipped {note.message()}", file=sys.stderr)
    if args.json:
        print_json(report.to_dict())
        return 0
    beta = report.options.beta
    headers = ["reference", "predicted", "docs", "tp", "fp", "fn", "precision", "recall", "f1", "kappa"]
    if beta != 1.0:
        headers.append(f"f{beta:g}")
    rows = []
    for item in [*report.pairs, *report.versus_gold]:
        micro = item.result.micro
        row = [
            item.reference,
            item.predicted,
            str(len(item.result.documents)),
            str(micro.tp),
            str(micro.fp),
            str(micro.fn),
            _score(micro.precision),
            _score(micro.recall),
            _score(micro.f1),
            _score(item.result.kappa_labelled.kappa),
        ]
        if beta != 1.0:
            row.append(_score(micro.f_beta(beta)))
        rows.append(row)
    if args.csv:
        _write_csv(Path(args.csv), headers, rows)
        return 0
    out = [
        f"match {report.options.match}, level {report.options.level}",
        format_table(headers, rows),
        "",
        "F1 matrix (symmetric):",
    ]
    matrix = report.matrix()
    out.append(
        format_table(
            ["", *names], [[name, *[_score(v) for v in row]] for name, row in zip(names, matrix, strict=True)]
        )
    )
    out.append(f"\naverage pairwise F1: {_score(report.average_pairwise_f1())}")
    average = report.average_versus_gold()
    if average:
        out.append(
            "average of annotators vs gold: "
            + ", ".join(f"{key} {_score(value)}" for key, value in average.items())
        )
    out.append("F1 is the primary agreement measure for spans; kappa counts every token, PHI or not.")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def _write_csv(path: Path, headers: list[str], rows: list[list[str]]) -> None:
    import csv
    import io

    from annotator.io.outputs import plan_files

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows(rows)
    plan_files([path], force=True).publish_text(path, buffer.getvalue())
