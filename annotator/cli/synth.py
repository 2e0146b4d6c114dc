"""``annotator synth OUT``: write a synthetic corpus (gold, two annotators, pre-annotations)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from annotator.cli.common import add_json_flag, format_table, print_json, progress_bar
from annotator.errors import UsageError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "synth",
        help="generate a synthetic annotated corpus (all data invented)",
        description=(
            "Generate longitudinal synthetic clinical notes with gold PHI annotations (i2b2 2014 "
            "scheme), two simulated annotators' versions and model-style pre-annotations, written "
            "as OUT/{gold,annotator_a,annotator_b,preannotated}/PPP-RR.xml. The same seed always "
            "gives the same corpus."
        ),
    )
    parser.add_argument("out", type=Path, metavar="OUT", help="output folder (must be empty or absent)")
    parser.add_argument(
        "--patients", type=int, default=10, metavar="N", help="number of patients (default 10)"
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    parser.add_argument("--force", action="store_true", help="write into a folder that is not empty")
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from annotator.core.schema import load_schema
    from annotator.core.statistics import corpus_statistics
    from annotator.synth.generator import MAX_PATIENTS, generate_corpus, write_corpus

    out: Path = args.out
    if not 1 <= args.patients <= MAX_PATIENTS:
        raise UsageError(f"--patients must be between 1 and {MAX_PATIENTS}")
    if out.exists() and not out.is_dir():
        raise UsageError("exists and is not a folder", out)
    if out.is_dir() and any(out.iterdir()) and not args.force:
        raise UsageError("folder is not empty (use --force to write into it anyway)", out)
    with progress_bar("generating") as update:
        corpus = generate_corpus(args.patients, args.seed, progress=update)
    with progress_bar("writing") as update:
        write_corpus(corpus, out, progress=update)
    schema = load_schema("i2b2-2014")
    versions = corpus.versions()
    result: dict[str, Any] = {
        "out": str(out),
        "seed": args.seed,
        "patients": corpus.patients,
        "documents": len(corpus.gold),
        "annotations": {name: sum(len(d) for d in docs) for name, docs in versions.items()},
        "gold": corpus_statistics(corpus.gold, schema),
    }
    if args.json:
        print_json(result)
        return 0
    gold = result["gold"]
    print(
        f"Wrote {result['documents']} documents of {result['patients']} patients (seed {args.seed}) to {out}"
    )
    print(
        format_table(
            ["folder", "documents", "annotations"],
            [[name, len(docs), result["annotations"][name]] for name, docs in versions.items()],
        )
    )
    print()
    print(f"gold: {gold['tokens']:,} tokens, {gold['per_document']['annotations']:.1f} PHI per document")
    rows = [[c["category"], c["count"]] for c in gold["categories"]]
    print(format_table(["category", "gold count"], rows))
    return 0
