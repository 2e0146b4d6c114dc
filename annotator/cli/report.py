"""``annotator report effort PROJECT``: what pre-annotation did to time and agreement."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.common import (
    add_json_flag,
    announce_written,
    existing_path,
    format_table,
    print_json,
    refuse_special_output,
    shown,
)

#: Bootstrap resamples: fewer give no stable 95% interval; more only cost time (the interval's
#: ends move by far less than the figures' precision).
MIN_RESAMPLES = 100
MAX_RESAMPLES = 1_000_000


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "report",
        help="reports on a project's work (effort: what pre-annotation did)",
        description="Reports on a project's recorded work.",
    )
    reports = parser.add_subparsers(dest="report", metavar="REPORT", required=True)
    effort = reports.add_parser(
        "effort",
        help="per annotator and PHI type: suggestions accepted, changed, rejected; time; agreement",
        description=(
            "From the edit histories the window keeps (PROJECT/.annotator/history/) and the active "
            "time it counted: per annotator and per PHI type, the model's suggestions shown, "
            "accepted, changed (boundary, type), rejected and left unreviewed, tags made by hand and "
            "those the model missed; active time per document, per 1,000 characters and per tag; "
            "agreement of kept suggestions (accepted or changed) and of hand-made tags with gold and with the other "
            "annotators; documents with and without suggestions compared, with bootstrap intervals "
            "by document. No note text is printed or written."
        ),
    )
    effort.add_argument("project", type=existing_path, metavar="PROJECT", help="the project folder")
    effort.add_argument("--html", type=Path, metavar="FILE", help="also write the report as an HTML page")
    effort.add_argument("--force", action="store_true", help="overwrite an existing HTML file")
    effort.add_argument(
        "--resamples",
        type=int,
        default=2000,
        metavar="N",
        help=f"bootstrap resamples, {MIN_RESAMPLES} to {MAX_RESAMPLES:,} (default 2000)",
    )
    add_json_flag(effort)
    effort.set_defaults(func=run_effort)


def run_effort(args: argparse.Namespace) -> int:
    from annotator.core.project import Project
    from annotator.errors import UsageError
    from annotator.evaluation.effort_report import effort_tables, render_effort_html
    from annotator.io.outputs import plan_files
    from annotator.workflows.effort import EffortRequest, effort_report

    if not MIN_RESAMPLES <= args.resamples <= MAX_RESAMPLES:
        raise UsageError(f"--resamples must be from {MIN_RESAMPLES} to {MAX_RESAMPLES:,}")
    refuse_special_output(args.html)
    project = Project.open(args.project)
    plan = None
    if args.html is not None:
        inputs = [project.source_dir, project.gold_dir, project.root / "annotations", project.state_dir]
        plan = plan_files([args.html], inputs=inputs, force=args.force)
    report = effort_report(EffortRequest(project, resamples=args.resamples))
    if plan is not None:
        plan.publish_text(args.html, render_effort_html(report))
    if args.json:
        print_json(report)
    elif not report["annotators"] and report["unreadable_histories"]:
        print(f"{project.name}: no readable edit history")
    elif not report["annotators"]:
        print(f"{project.name}: no edit histories yet (they are kept from the first edit made in the window)")
    else:
        print(f"{project.name}: what pre-annotation did (no note text)\n")
        for _name, title, headers, rows in effort_tables(report):
            print(f"{title}\n{format_table(headers, rows)}\n")
    for problem in report["unreadable_histories"]:
        # With --json, stdout holds one JSON document (the list is in it); said on stderr.
        print(f"left out, unreadable history: {shown(problem)}", file=sys.stderr if args.json else sys.stdout)
    if args.html is not None:
        announce_written(args.html, "effort report")
    return 0
