"""``annotator significance``: approximate randomisation test of two systems against gold."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from annotator.cli.common import (
    add_json_flag,
    existing_path,
    format_table,
    print_json,
    refuse_one_path_twice,
    score_text,
)
from annotator.cli.evaluate import add_scoring_options, scoring_request
from annotator.evaluation.significance_limits import MAX_SEED, MAX_SHUFFLES

NAME = "significance"


def _bounded(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from low to high (out of range is a usage error)."""

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
        if not low <= number <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high:,}, not {value}")
        return number

    parse.__name__ = "whole number"  # argparse names the type in its own messages
    return parse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        NAME,
        help="is the F1 difference of two systems/annotators against gold significant?",
        description=(
            "Approximate randomisation (document-level swaps, seeded) of SYS_A and SYS_B against "
            "GOLD, overall and per category, with Bonferroni-corrected threshold alpha / tests."
        ),
    )
    parser.add_argument(
        "--gold", type=existing_path, required=True, help="gold folder (sub-folders are not searched)"
    )
    parser.add_argument("system_a", type=existing_path, metavar="SYS_A", help="first system folder")
    parser.add_argument("system_b", type=existing_path, metavar="SYS_B", help="second system folder")
    parser.add_argument(
        "--shuffles",
        type=_bounded(1, MAX_SHUFFLES),
        default=9999,
        help=f"number of shuffles, 1 to {MAX_SHUFFLES:,} (default 9999; p is then resolved to about "
        "1/shuffles, and 1e-6 is far below any useful threshold)",
    )
    parser.add_argument(
        "--seed", type=_bounded(0, MAX_SEED), default=0, help=f"random seed, 0 to {MAX_SEED} (default 0)"
    )
    parser.add_argument(
        "--alpha", type=float, default=0.05, help="family-wise significance level (default 0.05)"
    )
    add_scoring_options(parser)
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from annotator.errors import printable_path
    from annotator.workflows.notes import NoteKind
    from annotator.workflows.significance import SignificanceRequest, significance

    refuse_one_path_twice([("--gold", args.gold), ("SYS_A", args.system_a), ("SYS_B", args.system_b)])
    request = SignificanceRequest(
        args.gold, args.system_a, args.system_b, args.shuffles, args.seed, args.alpha, scoring_request(args)
    )
    outcome = significance(request)
    report = outcome.report
    for note in outcome.notes:
        if note.kind is NoteKind.TEXT_DIFFERS:
            where = printable_path(note.detail)
            print(
                f"annotator significance: note: {note.message()} in {where}; left out for both systems",
                file=sys.stderr,
            )
        else:
            print(f"annotator significance: note: {note.message()}", file=sys.stderr)
    if args.json:
        print_json(report.to_dict())
        return 0

    rows = []
    for test in report.tests:
        rows.append(
            [
                test.name,
                score_text(test.counts_a.f1),
                score_text(test.counts_b.f1),
                score_text(test.difference),
                score_text(test.p_value),
                "yes" if test.p_value < report.threshold else "no",
            ]
        )
    print(format_table(["test", "F1 A", "F1 B", "|diff|", "p", "significant"], rows))
    print(
        f"\n{report.shuffles} shuffles, seed {report.seed}; Bonferroni threshold "
        f"{report.alpha:g} / {len(report.tests)} = {report.threshold:.4g}"
    )
    return 0
