"""``annotator evaluate``: score a system (or an annotator) against a gold standard."""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING

from annotator.cli.common import existing_path, format_table, print_json
from annotator.errors import UsageError

if TYPE_CHECKING:
    from annotator.core.mapping import Mapping
    from annotator.evaluation.engine import DocumentPair, EvaluationResult, Options

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


def build_mapping(args: argparse.Namespace) -> Mapping | None:
    """The exclude -> filter -> map chain the options ask for, or None."""
    from annotator.core.mapping import Mapping, load_mapping

    chain: list[Mapping] = []
    if getattr(args, "exclude", None):
        chain.append(Mapping.excluding(args.exclude.split(",")))
    if getattr(args, "filter", None):
        chain.append(load_mapping(args.filter))
    if getattr(args, "map", None):
        chain.append(load_mapping(args.map))
    if not chain:
        return None
    mapping = chain[0]
    for nxt in chain[1:]:
        mapping = mapping.compose(nxt)
    return mapping


def build_options(args: argparse.Namespace) -> Options:
    from annotator.evaluation.engine import Options

    if not args.beta > 0 or math.isinf(args.beta):
        raise UsageError(f"--beta must be a positive number, not {args.beta}")
    return Options(match=args.match, level=args.level, beta=args.beta)


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
    parser.add_argument("--gold", type=existing_path, required=True, help="folder of gold files")
    parser.add_argument(
        "--system", type=existing_path, required=True, help="folder of system/annotator files"
    )
    parser.add_argument(
        "--mode", choices=("clean", "i2b2"), default="clean", help="metric semantics (default: clean)"
    )
    add_scoring_options(parser)
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    output.add_argument("--csv", metavar="FILE", help="write a CSV report")
    output.add_argument("--html", metavar="FILE", help="write a self-contained HTML report")
    output.add_argument("--format", choices=("table", "i2b2"), default="table", help="terminal output layout")
    parser.add_argument(
        "--include-text",
        action="store_true",
        help="put PHI text into the disagreement lists (the report says so)",
    )
    parser.set_defaults(func=run)


def _require_folders(args: argparse.Namespace) -> None:
    for name in ("gold", "system"):
        path = getattr(args, name)
        if not path.is_dir():
            raise UsageError(f"--{name} must be a folder", path)


def run(args: argparse.Namespace) -> int:
    _require_folders(args)
    if args.mode == "i2b2":
        return _run_i2b2(args)
    return _run_clean(args)


def _run_i2b2(args: argparse.Namespace) -> int:
    from annotator.evaluation.official import evaluate_official_folders, format_runs

    if (
        args.match != "strict"
        or args.level != "type"
        or args.filter
        or args.map
        or args.exclude
        or args.beta != 1.0
    ):
        raise UsageError(
            "--mode i2b2 computes the official tables only; --match, --level, --filter, --map, "
            "--exclude and --beta apply to --mode clean"
        )
    if args.html:
        raise UsageError("--html is available with --mode clean")
    runs = evaluate_official_folders(args.gold, args.system)
    if args.json:
        print_json(
            {
                "schema": "phi-annotator/i2b2-tables/1",
                "runs": [
                    {"sys_id": run.sys_id, "tables": [table.to_dict() for table in run.tables]}
                    for run in runs
                ],
            }
        )
    elif args.csv:
        import csv
        import io

        from annotator.core.atomic import atomic_write_text

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        header = [
            "table",
            "documents",
            "tp",
            "fp",
            "fn",
            "macro_precision",
            "macro_precision_sd",
            "macro_recall",
            "macro_recall_sd",
            "macro_f1",
            "micro_precision",
            "micro_recall",
            "micro_f1",
        ]
        writer.writerow(header)
        for run in runs:
            for table in run.tables:
                data = table.to_dict()
                writer.writerow([data["label"]] + [data[h] for h in header[1:]])
        atomic_write_text(args.csv, buffer.getvalue())
    else:
        sys.stdout.write(format_runs(runs))
    return 0


def load_clean_pairs(args: argparse.Namespace) -> tuple[list[DocumentPair], list[str]]:
    from annotator.evaluation.loading import load_pairs

    loaded = load_pairs(args.gold, args.system, build_mapping(args))
    notes = list(loaded.skipped)
    if loaded.only_reference:
        notes.append(f"{len(loaded.only_reference)} gold document(s) have no system file (counted as missed)")
    if loaded.only_predicted:
        notes.append(
            f"{len(loaded.only_predicted)} system document(s) have no gold file (counted as spurious)"
        )
    return loaded.pairs, notes


def _run_clean(args: argparse.Namespace) -> int:
    from annotator.evaluation.engine import evaluate_pairs
    from annotator.evaluation.report import write_csv, write_html, write_json

    options = build_options(args)
    pairs, notes = load_clean_pairs(args)
    for note in notes:
        print(f"annotator evaluate: note: {note}", file=sys.stderr)
    if args.format == "i2b2" and not (args.json or args.csv or args.html):
        sys.stdout.write(format_clean_i2b2(pairs, options))
        return 0
    result = evaluate_pairs(pairs, options)
    result.skipped = [n for n in notes if "TEXT differ" in n]
    if args.json:
        sys.stdout.write(write_json(result, None, args.include_text))
    elif args.csv:
        write_csv(result, args.csv, args.include_text)
    elif args.html:
        write_html(result, args.html, include_text=args.include_text)
    else:
        print(render_terminal(result))
    return 0


def render_terminal(result: EvaluationResult) -> str:
    from annotator.evaluation.report import score_headers, summary_rows

    options = result.options
    head = f"{len(result.documents)} documents, match {options.match}, level {options.level}"
    table = format_table(["scope", "name", *score_headers(options.beta)], summary_rows(result))
    kappa = result.kappa_labelled
    blind = result.kappa_tagblind
    lines = [
        head,
        table,
        "",
        f"Cohen's kappa on {kappa.tokens} tokens (non-PHI tokens included): labelled {kappa.kappa:.4f}, "
        f"tag-blind {blind.kappa:.4f}",
    ]
    return "\n".join(lines)


def format_clean_i2b2(pairs: list[DocumentPair], options: Options) -> str:
    """The official table layout filled with clean-mode numbers (corrected labels)."""
    from dataclasses import replace

    from annotator.core.mapping import load_mapping
    from annotator.evaluation.engine import evaluate_pairs

    hipaa = load_mapping("hipaa")

    def hipaa_pairs() -> list[DocumentPair]:
        out = []
        for pair in pairs:
            out.append(
                replace(
                    pair,
                    reference=[i for i in pair.reference if hipaa.keeps(i.category, i.type)],
                    predicted=[i for i in pair.predicted if hipaa.keeps(i.category, i.type)],
                )
            )
        return out

    blocks = []
    hipaa_set = hipaa_pairs()
    for prefix, subset in (("", pairs), ("HIPAA ", hipaa_set)):
        for match, label in (("token", "Token"), ("strict", "Strict"), ("relaxed", "Relaxed")):
            result = evaluate_pairs(subset, replace(options, match=match), details=False)
            blocks.append(_i2b2_block(f"{prefix}{label}", result))
    return "".join(blocks)


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
        return format(float(value), f".{digits}")

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
