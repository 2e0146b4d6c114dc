"""``annotator batch preannotate|deidentify|evaluate``: the same jobs over an archive, on a
dask.distributed cluster (a local one by default), partitioned by patient."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.cli.common import (
    add_json_flag,
    add_output_option,
    announce_written,
    existing_path,
    format_table,
    model_argument,
    print_json,
    progress_bar,
    refuse_one_path_twice,
)
from annotator.cli.deidentify import add_site_lists_option
from annotator.crf.guidelines import GUIDELINES, I2B2_2014
from annotator.errors import printable_path

if TYPE_CHECKING:
    from annotator.batch.jobs import BatchReport, BatchRun

EPILOG = (
    "Inputs: a folder of i2b2 XML files (PPP-RR.xml) or of JSON Lines shards (*.jsonl, many notes "
    "per file). Outputs: one part-NNNNN folder (XML) or part-NNNNN.jsonl shard per partition, each "
    "published atomically, and batch-manifest.json; --resume finishes a killed job. On a cluster, "
    "inputs and outputs must be on a file system every worker sees."
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "batch",
        help="pre-annotate, de-identify or score an archive on a dask cluster",
        description="Run pre-annotation, de-identification or scoring over an archive, partitioned by "
        "patient, on dask.distributed: --scheduler tcp://HOST:PORT uses a running cluster, "
        "otherwise a local cluster of --workers processes starts (listening on 127.0.0.1 only).",
        epilog=EPILOG,
    )
    jobs = parser.add_subparsers(dest="job", metavar="JOB", parser_class=type(parser), required=True)
    _register_preannotate(jobs)
    _register_deidentify(jobs)
    _register_evaluate(jobs)


def _add_cluster_options(parser: argparse.ArgumentParser, writes: bool = True) -> None:
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="address of a running dask scheduler")
    parser.add_argument(
        "--workers", type=int, default=2, metavar="N", help="processes of the local cluster (default 2)"
    )
    parser.add_argument(
        "--partition-size",
        type=int,
        default=200,
        metavar="N",
        help="about N documents per partition, whole patients (default 200)",
    )
    if writes:
        parser.add_argument("--resume", action="store_true", help="finish a killed job into the same OUT")
        parser.add_argument("--force", action="store_true", help="replace what OUT holds")
    add_json_flag(parser)


def _register_preannotate(jobs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = jobs.add_parser("preannotate", help="model suggestions for every note", description=EPILOG)
    parser.add_argument(
        "model",
        type=model_argument,
        metavar="MODEL",
        help="model file from 'annotator train', or 'default' for the bundled model",
    )
    parser.add_argument("input", type=existing_path, metavar="IN", help="folder of XML files or JSONL shards")
    add_output_option(parser, "OUT", "output folder")
    parser.add_argument(
        "--recall-bias", type=float, default=None, metavar="T", help="as in 'annotator preannotate'"
    )
    parser.add_argument(
        "--guideline", choices=GUIDELINES, default=I2B2_2014, help="as in 'annotator preannotate'"
    )
    parser.add_argument(
        "--site-lists", type=existing_path, metavar="LISTS", help="as in 'annotator preannotate'"
    )
    _add_cluster_options(parser)
    parser.set_defaults(func=run_preannotate)


def _register_deidentify(jobs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = jobs.add_parser(
        "deidentify", help="masked or surrogate copies, leak-checked per partition", description=EPILOG
    )
    parser.add_argument(
        "input", type=existing_path, metavar="IN", help="folder of gold XML files or JSONL shards"
    )
    add_output_option(parser, "OUT", "output folder")
    parser.add_argument(
        "--method", choices=("mask", "surrogate"), default="surrogate", help="default: surrogate"
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="the surrogates' seed, to redo a job byte for byte (default: a random one, kept only in the "
        "audit maps of --map-dir); a secret: with it anyone can redraw every date shift and undo it. "
        "--resume goes on with the job's seed: one given again must be the one its audit maps record",
    )
    parser.add_argument("--mask-style", choices=("brackets", "chars"), default="brackets")
    parser.add_argument("--mask-char", default="X", metavar="X")
    parser.add_argument("--min-leak-length", type=int, default=3, metavar="N")
    parser.add_argument(
        "--map-dir",
        type=Path,
        metavar="DIR",
        help="also write each partition's original -> surrogate audit map here (PHI: keep it private)",
    )
    parser.add_argument(
        "--on-leak",
        choices=("refuse", "mask"),
        default="refuse",
        help="when a partition's leak check finds original PHI: leave it unpublished (default) or "
        "mask every finding",
    )
    parser.add_argument(
        "--allow",
        type=Path,
        metavar="ALLOW.json",
        help='reviewed "not PHI here" decisions that let findings pass (as in annotator deidentify)',
    )
    parser.add_argument(
        "--review-dir",
        type=Path,
        metavar="DIR",
        help="write each partition's findings in context here (part-NNNNN.json; it CONTAINS PHI)",
    )
    add_site_lists_option(parser)
    _add_cluster_options(parser)
    parser.set_defaults(func=run_deidentify)


def _register_evaluate(jobs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from annotator.cli.evaluate import add_scoring_options

    parser = jobs.add_parser("evaluate", help="score a system against gold, partitioned", description=EPILOG)
    parser.add_argument("--gold", type=existing_path, required=True, help="folder of gold XML files")
    parser.add_argument("--system", type=existing_path, required=True, help="folder of system XML files")
    add_scoring_options(parser)
    parser.add_argument(
        "--include-text", action="store_true", help="put PHI text into the JSON disagreements"
    )
    _add_cluster_options(parser, writes=False)
    parser.set_defaults(func=run_evaluate)


def _batch_run(args: argparse.Namespace, progress: Callable[[int, int], None]) -> BatchRun:
    from annotator.batch.jobs import BatchRun, ClusterOptions

    return BatchRun(
        ClusterOptions(args.scheduler, args.workers, args.partition_size),
        resume=getattr(args, "resume", False),
        force=getattr(args, "force", False),
        progress=progress,
        on_dashboard=_announce_dashboard,
    )


def _announce_dashboard(link: str) -> None:
    print(f"dask dashboard: {link}", file=sys.stderr)


def _print_report(report: BatchReport, json_output: bool) -> int:
    if json_output:
        print_json(report.to_dict())
    else:
        done = report.partitions - len(report.failures)
        print(
            f"{report.job}: {done} of {report.partitions} partition(s) in {printable_path(report.out_dir or '')} "
            f"({report.resumed} done by an earlier run), {report.documents} document(s)"
            + (f" ({report.documents_this_run} this run)" if report.resumed else "")
            + f", {report.seconds:.1f} s"
        )
        if report.counts:
            print(format_table(["count", "value"], sorted(report.counts.items())))
    for note in report.notes:
        print(f"annotator batch: note: {note}", file=sys.stderr)
    for failure in report.failures:
        print(
            f"annotator batch: partition {failure.index:05d} not published: {failure.message}",
            file=sys.stderr,
        )
    if report.out_dir is not None:
        published = report.partitions - len(report.failures)
        announce_written(report.out_dir, f"{published} partition(s) and batch-manifest.json")
    return 1 if report.failures else 0


def run_preannotate(args: argparse.Namespace) -> int:
    from annotator.batch.jobs import batch_preannotate
    from annotator.crf.default_model import resolve_model

    with progress_bar("pre-annotating", unit="partition") as update:
        report = batch_preannotate(
            resolve_model(args.model),
            args.input,
            args.output,
            args.recall_bias,
            _batch_run(args, update),
            args.guideline,
            args.site_lists,
        )
    return _print_report(report, args.json)


def run_deidentify(args: argparse.Namespace) -> int:
    from annotator.batch.jobs import batch_deidentify
    from annotator.cli.deidentify import deid_options, leak_options

    # Both are written as part-NNNNN.json: in one folder, each audit map would replace its
    # partition's review.
    refuse_one_path_twice([("--map-dir", args.map_dir), ("--review-dir", args.review_dir)])
    with progress_bar("de-identifying", unit="partition") as update:
        report = batch_deidentify(
            args.input,
            args.output,
            deid_options(args),
            leak_options(args),
            args.map_dir,
            _batch_run(args, update),
            allow_path=args.allow,
            on_leak=args.on_leak,
            review_dir=args.review_dir,
        )
    code = _print_report(report, args.json)
    if args.map_dir is not None:
        announce_written(args.map_dir, "audit maps (they contain the original PHI, keep them private)")
    if args.review_dir is not None and any(args.review_dir.glob("part-*.json")):
        announce_written(args.review_dir, "leak reviews (they contain PHI, keep them private)")
    return code


def run_evaluate(args: argparse.Namespace) -> int:
    from annotator.batch.jobs import batch_evaluate
    from annotator.cli.evaluate import render_terminal, scoring_request
    from annotator.evaluation.report import write_json

    refuse_one_path_twice([("--gold", args.gold), ("--system", args.system)])
    with progress_bar("scoring", unit="partition") as update:
        score = batch_evaluate(args.gold, args.system, scoring_request(args), _batch_run(args, update))
    for note in score.notes:
        print(f"annotator batch evaluate: note: {note}", file=sys.stderr)
    if args.json:
        sys.stdout.write(write_json(score.result, None, args.include_text))
    else:
        print(render_terminal(score.result))
    return 0
