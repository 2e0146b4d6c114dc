"""``annotator evaluate``: score a system (or an annotator) against a gold standard."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.cli.common import (
    announce_written,
    existing_path,
    format_table,
    print_json,
    refuse_one_path_twice,
    refuse_report_targets,
    score_text,
)
from annotator.errors import UsageError

if TYPE_CHECKING:
    from annotator.evaluation.engine import EvaluationResult
    from annotator.evaluation.official import OfficialFilter
    from annotator.workflows.scoring import ScoringRequest

NAME = "evaluate"


def add_scoring_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by evaluate, iaa and significance."""
    parser.add_argument(
        "--match",
        choices=("strict", "relaxed", "overlap", "token", "tagblind"),
        default="strict",
        help="how items are matched (default: strict)",
    )
    parser.add_argument(
        "--level", choices=("type", "category"), default="type", help="label level (default: type)"
    )
    parser.add_argument(
        "--filter", choices=("hipaa",), help="keep only the HIPAA subset (seed 001, IDNUM included)"
    )
    parser.add_argument("--map", metavar="NAME", help="apply a tag-set mapping (bundled name or TOML file)")
    parser.add_argument(
        "--exclude", metavar="T,...", help="drop these types (TYPE or CATEGORY/TYPE, comma-separated)"
    )
    parser.add_argument("--beta", type=float, default=1.0, help="also report F-beta with this beta (e.g. 10)")


def scoring_request(args: argparse.Namespace) -> ScoringRequest:
    """The scoring options as a request (shared by evaluate, iaa and significance)."""
    from annotator.workflows.scoring import ScoringRequest

    return ScoringRequest(
        match=args.match,
        level=args.level,
        beta=args.beta,
        exclude=tuple(args.exclude.split(",")) if args.exclude else (),
        hipaa=args.filter == "hipaa",
        mapping=args.map,
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        NAME,
        help="score a system or annotator against gold (i2b2 2014 tables or clean metrics)",
        description=(
            "Compare the files of SYSTEM with those of GOLD (i2b2 XML, paired by file name). "
            "--mode i2b2 reproduces the 42 tables of the official 2014 script exactly, quirks "
            "included; --mode clean (default) fixes them (see docs/evaluation.md)."
        ),
    )
    parser.add_argument(
        "--gold",
        type=existing_path,
        required=True,
        help="folder of gold files (sub-folders are not searched), or one file with --system one file",
    )
    parser.add_argument(
        "--system", type=existing_path, required=True, help="folder of system/annotator files (not recursive)"
    )
    parser.add_argument(
        "--mode", choices=("clean", "i2b2"), default="clean", help="metric semantics (default: clean)"
    )
    add_scoring_options(parser)
    official = parser.add_argument_group("the official script's experimental filters (--mode i2b2)")
    official.add_argument(
        "--i2b2-filter",
        metavar="F,...",
        help="the script's --filter: element names (NAME, DATE...) to keep in the Token, Strict and "
        "Relaxed tables (the HIPAA and per-category tables keep their own; see docs/evaluation.md)",
    )
    official.add_argument("--invert", action="store_true", help="the script's --invert (with --i2b2-filter)")
    official.add_argument(
        "--conjunctive", action="store_true", help="the script's --conjunctive (with --i2b2-filter)"
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    output.add_argument("--csv", metavar="FILE", help="write a CSV report")
    output.add_argument("--html", metavar="FILE", help="write a self-contained HTML report")
    output.add_argument("--format", choices=("table", "i2b2"), default="table", help="terminal output layout")
    parser.add_argument("--force", action="store_true", help="replace an existing --csv or --html file")
    parser.add_argument(
        "--include-text",
        action="store_true",
        help="put PHI text into the disagreement lists of --json and --html reports (the report says so; "
        "a --csv report holds scores only)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also per document: with --mode i2b2 the official script's -v blocks, otherwise a "
        "per-document table, worst first",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from annotator.evaluation.official import format_runs
    from annotator.evaluation.official_verbose import format_documents_only, format_runs_verbose
    from annotator.workflows.evaluate import (
        EvaluateRequest,
        EvaluationMode,
        ExportRequest,
        ReportFormat,
        clean_official_layout,
        evaluate,
        export_report,
        official_tables,
    )

    mode = EvaluationMode(args.mode)
    if mode is EvaluationMode.I2B2 and args.html:
        raise UsageError("--html is available with --mode clean")
    refuse_one_path_twice([("--gold", args.gold), ("--system", args.system)])
    refuse_report_targets(args.csv, args.html, force=args.force)
    request = EvaluateRequest(args.gold, args.system, mode, scoring_request(args), official_filter(args))
    outcome = evaluate(request)
    for note in outcome.notes:
        print(f"annotator evaluate: note: {note.message()}", file=sys.stderr)
    if args.include_text and not (args.json or args.html):
        print(
            "annotator evaluate: note: --include-text only adds PHI text to --json and --html reports; "
            "the terminal tables and a --csv report hold scores only",
            file=sys.stderr,
        )
    if args.csv or args.html:
        kind, path = (ReportFormat.CSV, args.csv) if args.csv else (ReportFormat.HTML, args.html)
        announce_written(export_report(outcome, ExportRequest(Path(path), kind, args.include_text)))
    elif mode is EvaluationMode.I2B2:
        if args.json:
            print_json(official_tables(outcome.runs))
        elif outcome.documents_only:
            sys.stdout.write(
                outcome.official_warnings + format_documents_only(outcome.runs, outcome.document_orders)
            )
        elif args.verbose:
            sys.stdout.write(
                outcome.official_warnings + format_runs_verbose(outcome.runs, outcome.document_orders)
            )
        else:
            sys.stdout.write(outcome.official_warnings + format_runs(outcome.runs))
    elif args.json:
        from annotator.evaluation.report import write_json  # clean mode only: not timed with i2b2

        assert outcome.evaluation is not None
        sys.stdout.write(write_json(outcome.evaluation, None, args.include_text))
    elif args.format == "i2b2":
        sys.stdout.write(format_clean_i2b2(clean_official_layout(outcome.pairs, request.scoring.options())))
    else:
        assert outcome.evaluation is not None
        print(render_terminal(outcome.evaluation, args.verbose))
    return 0


def official_filter(args: argparse.Namespace) -> OfficialFilter | None:
    """The script's filter options; as there, --invert and --conjunctive do nothing without a
    filter, and an empty filter is none."""
    from annotator.evaluation.official import OfficialFilter

    if args.i2b2_filter is None:
        if (args.invert or args.conjunctive) and args.mode != "i2b2":
            raise UsageError("--invert and --conjunctive apply to --mode i2b2 with --i2b2-filter")
        return None
    if args.mode != "i2b2":
        raise UsageError("--i2b2-filter applies to --mode i2b2")
    if not args.i2b2_filter:
        return None
    return OfficialFilter(tuple(args.i2b2_filter.split(",")), args.invert, args.conjunctive)


def render_terminal(result: EvaluationResult, per_document: bool = False) -> str:
    from annotator.evaluation.report import document_rows, score_headers, summary_rows

    options = result.options
    head = f"{len(result.documents)} documents, match {options.match}, level {options.level}"
    table = format_table(["scope", "name", *score_headers(options.beta)], summary_rows(result))
    kappa = result.kappa_labelled
    blind = result.kappa_tagblind
    interval = result.micro_f1_interval()
    lines = [
        head,
        table,
        "",
        *(
            [
                f"micro F1 95% interval: [{score_text(interval[0])}, {score_text(interval[1])}] "
                "(2,000 bootstrap resamples of the documents)"
            ]
            if interval is not None
            else []
        ),
        f"Cohen's kappa on {kappa.tokens} tokens (non-PHI tokens included): labelled {score_text(kappa.kappa)}, "
        f"tag-blind {score_text(blind.kappa)}",
    ]
    if per_document:
        headers = ["document", *score_headers(options.beta), "note"]
        lines += ["", "per document, worst first:", format_table(headers, document_rows(result))]
    return "\n".join(lines)


def format_clean_i2b2(blocks: list[tuple[str, EvaluationResult]]) -> str:
    """The official table layout filled with clean-mode numbers (corrected labels)."""
    return "".join(_i2b2_block(label, result) for label, result in blocks)


def _i2b2_block(label: str, result: EvaluationResult) -> str:
    import statistics

    def sd(values: list[float]) -> float:
        return statistics.pstdev(values) if values else math.nan

    precisions = [d.counts.precision for d in result.documents if d.counts.predicted]
    recalls = [d.counts.recall for d in result.documents if d.counts.reference]
    macro = result.macro()
    micro = result.micro
    row = "{:<25}{:<15}{:<15}{:<20}"

    def fmt(value: float, digits: int = 4) -> str:
        # The official layout's number style, but an undefined clean-mode score is "n/a".
        return score_text(value) if math.isnan(value) else format(float(value), f".{digits}")

    lines = [
        row.format(f"{label} ({len(result.documents)})", "Measure", "Macro (SD)", "Micro (Primary)"),
        "-" * 75,
        row.format(
            "Total",
            "Precision",
            f"{fmt(macro['precision'])} ({fmt(sd(precisions), 2)})",
            fmt(micro.precision),
        ),
        row.format("", "Recall", f"{fmt(macro['recall'])} ({fmt(sd(recalls), 2)})", fmt(micro.recall)),
        row.format("", "F1", fmt(macro["f1"]), fmt(micro.f1)),
        "",
        "",
    ]
    return "\n".join(lines) + "\n"
