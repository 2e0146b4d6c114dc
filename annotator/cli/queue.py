"""``annotator queue PROJECT``: the notes an annotator has not started, most uncertain first."""

from __future__ import annotations

import argparse

from annotator.cli.common import (
    add_json_flag,
    add_workers_argument,
    existing_path,
    format_table,
    model_argument,
    positive_int,
    print_json,
    progress_bar,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "queue",
        help="list the notes an annotator has not started, the ones the model is least sure of first",
        description=(
            "Score every note ANNOTATOR has not started with the tagger and list them in the order "
            "they are best annotated: the highest mean least confidence per token first (whole "
            "patients together when the project sets queue_by_patient). Notes enough other "
            "annotators have started already (annotators_per_document) are left out as claimed."
        ),
    )
    parser.add_argument("project", type=existing_path, metavar="PROJECT", help="the project folder")
    parser.add_argument(
        "--model",
        type=model_argument,
        metavar="M",
        help="tagger model file, or 'default' (default: the project's models/crf.model, else the bundled model)",
    )
    parser.add_argument("--annotator", help="whose queue (default: the remembered annotator name)")
    parser.add_argument(
        "--limit", type=positive_int, default=None, metavar="N", help="show only the first N notes"
    )
    add_workers_argument(parser, "to score with", "the order is the same")
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from annotator.core.project import Project
    from annotator.crf.default_model import resolve_model
    from annotator.errors import UsageError
    from annotator.io.workstate import check_annotator_name, load_identity
    from annotator.workflows.queue import QueueRequest, build_queue

    project = Project.open(args.project)
    annotator = check_annotator_name(args.annotator) if args.annotator is not None else load_identity()
    if not annotator:
        raise UsageError("say whose queue with --annotator NAME (no remembered annotator name)")
    model = resolve_model(args.model) if args.model is not None else None
    with progress_bar("scoring") as update:
        result = build_queue(QueueRequest(project, annotator, model, args.workers), progress=update)
    entries = result.entries[: args.limit] if args.limit is not None else result.entries
    if args.json:
        data = result.to_dict()
        data["queue"] = data["queue"][: len(entries)]
        print_json(data)
        return 0
    print(f"queue of {annotator}: {len(result.entries)} note(s) not started, by {result.measure}")
    if entries:
        rows = [
            [e.rank, e.doc_id, e.tokens, f"{e.expected_errors:.2f}", f"{1000 * e.uncertainty:.2f}"]
            for e in entries
        ]
        print(format_table(["rank", "note", "tokens", "expected errors", "per 1,000 tokens"], rows))
    if result.claimed:
        print(f"left out, claimed by other annotators: {len(result.claimed)} note(s)")
    if result.unreadable:
        print(f"left out, unreadable: {', '.join(result.unreadable)}")
    return 0
