"""``annotator deidentify GOLD_DIR -o OUT_DIR``: a masked or surrogate de-identified copy."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.cli.common import (
    add_json_flag,
    add_output_option,
    announce_written,
    existing_path,
    format_table,
    print_json,
    progress_bar,
    refuse_special_output,
    shown,
)

if TYPE_CHECKING:
    from annotator.deid.export import DeidReport
    from annotator.deid.leakcheck import LeakCheckOptions
    from annotator.deid.surrogates import DeidOptions


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "deidentify",
        help="write a de-identified copy of a gold folder (masks or realistic surrogates)",
        description=(
            "Replace every annotated PHI of GOLD_DIR by a mask or a realistic surrogate and write "
            "the notes to OUT_DIR as i2b2 XML with the tags moved to the new text. Surrogates are "
            "consistent per patient (PPP-RR file names): one date shift, one name map. The export "
            "is checked for surviving original PHI and written all or nothing (exit 1 on a leak, "
            "naming the documents; --json lists every finding, --review shows them in context, "
            "--allow passes reviewed ones, --on-leak mask masks them). Dates that cannot be read "
            "safely are masked and listed for review."
        ),
    )
    parser.add_argument(
        "gold_dir",
        type=Path,
        metavar="GOLD_DIR",
        help="folder of gold i2b2 XML files (sub-folders are not searched)",
    )
    add_output_option(parser, "OUT_DIR", "output folder (new or empty)")
    parser.add_argument(
        "--method", choices=("mask", "surrogate"), default="surrogate", help="default: surrogate"
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="the surrogates' seed, to redo an export (default: a random one, kept only in the audit "
        "map); a secret: with it anyone can redraw every date shift and undo it",
    )
    parser.add_argument(
        "--map",
        type=Path,
        metavar="MAP.json",
        help="also write the original -> surrogate audit map here (it contains PHI; keep it private)",
    )
    parser.add_argument(
        "--mask-style",
        choices=("brackets", "chars"),
        default="brackets",
        help="[**TYPE**] or same-length characters",
    )
    parser.add_argument(
        "--mask-char", default="X", metavar="X", help="character for --mask-style chars (default X)"
    )
    parser.add_argument(
        "--min-leak-length",
        type=int,
        default=3,
        metavar="N",
        help="shortest original string the leak check looks for (default 3)",
    )
    parser.add_argument(
        "--on-leak",
        choices=("refuse", "mask"),
        default="refuse",
        help="when the leak check finds original PHI: refuse to write (default) or mask every finding",
    )
    parser.add_argument(
        "--allow",
        type=Path,
        metavar="ALLOW.json",
        help='reviewed "not PHI here" decisions (text + scope document/patient/corpus) that let '
        "findings pass; format in docs/deidentification.md",
    )
    parser.add_argument(
        "--review",
        type=Path,
        metavar="REVIEW.json",
        help="also write every finding with the note text around it, private (0600), outside the "
        "output and gold folders: it CONTAINS PHI, for the data owner only",
    )
    add_site_lists_option(parser)
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace a non-empty OUT_DIR holding an earlier export (its .xml notes only), and existing "
        "--map/--review files",
    )
    add_json_flag(parser)
    parser.set_defaults(func=run)


def deid_options(args: argparse.Namespace) -> DeidOptions:
    """The de-identification options given on the command line (also used by ``batch``)."""
    from annotator.deid.surrogates import DeidOptions

    return DeidOptions(
        method=args.method,
        seed=args.seed,
        mask_style=args.mask_style,
        mask_char=args.mask_char,
        min_leak_length=args.min_leak_length,
    )


def add_site_lists_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--site-lists",
        type=existing_path,
        metavar="LISTS",
        help="the site's own names and places (as in 'annotator preannotate', i2b2 2014 types): a listed "
        "phrase left in the text is a finding, whether the gold tagged it or not",
    )


def leak_options(args: argparse.Namespace) -> LeakCheckOptions | None:
    """The leak check's options the command line changes (None: the defaults)."""
    from annotator.workflows.deidentify import site_leak_options

    return site_leak_options(args.site_lists, "i2b2-2014", deid_options(args))


def leak_summary(report: DeidReport) -> str:
    """What the leak check found and what became of it, in one phrase that never contradicts
    itself ("no original PHI found" only when it found none)."""
    done = []
    if report.leaks_masked:
        done.append(f"{report.leaks_masked} finding(s) masked and checked again")
    if report.leaks_allowed:
        done.append(f"{report.leaks_allowed} passed by the allow file")
    return ", ".join(done) + ", no other original PHI found" if done else "no original PHI found"


def run(args: argparse.Namespace) -> int:
    from annotator.deid.leakcheck import LeakError
    from annotator.workflows.deidentify import DeidentifyRequest, deidentify

    refuse_special_output(args.map, args.review)
    options = deid_options(args)
    try:
        with progress_bar("de-identifying", percent=True) as update:
            report = deidentify(
                DeidentifyRequest(
                    args.gold_dir,
                    args.output,
                    options,
                    args.map,
                    args.force,
                    leak_options=leak_options(args),
                    on_leak=args.on_leak,
                    allow_path=args.allow,
                    review_path=args.review,
                ),
                progress=update,
            )
    except LeakError as error:
        if not args.json:
            raise
        # A refusal the data owner can act on: every finding, with its rule, never the text.
        print_json(
            {
                "written": False,
                "error": error.one_line(),
                "findings": [leak.to_dict() for leak in error.leaks],
                "review_path": str(args.review) if args.review else None,
            }
        )
        return 1
    # Every file written is announced on stderr, whatever stdout holds (the summary or the JSON).
    announce_written(report.out_dir, "de-identified notes")
    if report.map_path:
        announce_written(report.map_path, "audit map (holds the original PHI)")
    if report.review_path:
        announce_written(report.review_path, "review file (holds PHI)")
    if args.json:
        print_json(report.to_dict())
        return 0
    print(
        f"{report.documents} documents of {report.patients} patients written to {shown(report.out_dir)} "
        f"({report.method}, {report.seconds:.1f} s); leak check: {leak_summary(report)}"
    )
    print(format_table(["type", "replaced"], sorted(report.replaced.items())))
    if report.review_path:
        print(f"review file written to {shown(report.review_path)}: it contains PHI, keep it private")
    if report.review:
        print(
            f"\n{len(report.review)} annotation(s) masked for review (their text could not be replaced safely):"
        )
        rows = [(r["doc_id"], r["id"], r["type"], r["start"], r["end"], r["reason"]) for r in report.review]
        print(format_table(["document", "tag", "type", "start", "end", "reason"], rows))
    if report.map_path:
        print(
            f"\naudit map written to {shown(report.map_path)}: it contains the original PHI, keep it private"
        )
    return 0
