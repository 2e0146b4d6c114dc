"""``annotator synth OUT``: write a synthetic corpus (gold, two annotators, pre-annotations)."""

from __future__ import annotations

import argparse
from pathlib import Path

from annotator.cli.common import (
    add_json_flag,
    announce_written,
    format_table,
    print_json,
    progress_bar,
    shown,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "synth",
        help="generate a synthetic annotated corpus (all data invented)",
        description=(
            "Generate longitudinal synthetic clinical notes with gold PHI annotations (i2b2 2014 "
            "scheme), two simulated annotators' versions and model-style pre-annotations, written "
            "as OUT/{gold,annotator_a,annotator_b,preannotated}/PPP-RR.xml. OUT is also a project "
            "(project.toml, source/ with the bare notes): `annotator gui OUT` opens it with the "
            "pre-annotations as suggestions. The same seed always gives the same corpus."
        ),
    )
    parser.add_argument("out", type=Path, metavar="OUT", help="output folder (must be empty or absent)")
    parser.add_argument(
        "--patients", type=int, default=10, metavar="N", help="number of patients (default 10)"
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    parser.add_argument(
        "--style",
        choices=("a", "b", "c"),
        default="a",
        help="note style: a (default), or b and c, styles written independently, for measuring "
        "how models and checks generalise (c: test-only, written blind to a, b and the tagger)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace an earlier corpus in OUT (never a folder of other files)",
    )
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from annotator.workflows.synth import SynthRequest, synthesize

    with progress_bar("generating, then writing", percent=True) as update:
        result = synthesize(
            SynthRequest(args.out, args.patients, args.seed, args.force, args.style), progress=update
        )
    announce_written(args.out, "synthetic corpus (a project: annotator gui opens it)")
    if args.json:
        print_json(result.to_dict())
        return 0
    gold = result.gold
    print(
        f"Wrote {result.documents} documents of {result.patients} patients (seed {args.seed}, style {args.style}) to "
        f"{shown(args.out)}; open it with: annotator gui {shown(args.out)}"
    )
    print(
        format_table(
            ["folder", "documents", "annotations"],
            [[name, count, result.annotations[name]] for name, count in result.folders.items()],
        )
    )
    print()
    print(f"gold: {gold['tokens']:,} tokens, {gold['per_document']['annotations']:.1f} PHI per document")
    rows = [[c["category"], c["count"]] for c in gold["categories"]]
    print(format_table(["category", "gold count"], rows))
    return 0
