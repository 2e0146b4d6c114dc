"""``annotator train GOLD_DIR -o MODEL``: train the CRF pre-annotation tagger from gold."""

from __future__ import annotations

import argparse
from typing import Any

from annotator.cli.common import (
    add_json_flag,
    add_output_option,
    announce_written,
    existing_path,
    format_table,
    positive_int,
    print_json,
    progress_bar,
    refuse_special_output,
    score_text,
)
from annotator.core.guidelines import GUIDELINES, I2B2_2014


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train the CRF pre-annotation tagger from a gold folder",
        description=(
            "Train the CRF tagger on the i2b2 XML files of GOLD_DIR and save it as MODEL. With --cv K, "
            "first run K-fold cross-validation split by patient and report strict entity precision, "
            "recall and F1 per type, and the precision/recall curve over recall-bias thresholds."
        ),
    )
    parser.add_argument(
        "gold",
        type=existing_path,
        metavar="GOLD_DIR",
        help="folder of gold i2b2 XML files (sub-folders are not searched)",
    )
    add_output_option(parser, "MODEL", "model file to write (an existing one only with --force)")
    parser.add_argument("--force", action="store_true", help="overwrite an existing model file")
    parser.add_argument(
        "--cv", type=int, default=0, metavar="K", help="run K-fold cross-validation by patient first"
    )
    parser.add_argument(
        "--schema", default="i2b2-2014", metavar="NAME", help="tag set to learn (default i2b2-2014)"
    )
    parser.add_argument(
        "--mapping",
        default=None,
        metavar="NAME",
        help="map the gold's annotations into the schema first (resources/mappings)",
    )
    parser.add_argument(
        "--iterations", type=int, default=None, metavar="N", help="training iterations (default 60, L-BFGS)"
    )
    parser.add_argument(
        "--no-postprocess", action="store_true", help="score the CRF without the post-processing rules"
    )
    parser.add_argument(
        "--keep-private-features",
        action="store_true",
        help="let the model name rare words of the gold (names, record numbers) and remember the places and "
        "clinicians it tagged, to find them again: never share such a model",
    )
    parser.add_argument(
        "--with-synthetic",
        action="store_true",
        help="also learn from the synthetic notes the bundled default model learnt from (three note "
        "styles): a small gold starts where the bundled model stands; each training takes about 15 minutes more",
    )
    parser.add_argument(
        "--guideline",
        choices=GUIDELINES,
        default=I2B2_2014,
        help="what your gold tags: i2b2-2014 (the default) or safe-harbor (ages over 89 only, no weekdays or "
        "professions); cross-validation suggests only that, and with --with-synthetic the model learns one "
        "convention (preannotate with the same --guideline)",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        metavar="N",
        help="with --cv, train the folds and the final model on N processes at once, at most one per core "
        "(the same models and figures; default: one per core, up to 4)",
    )
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from annotator.workflows.train import TrainRequest, train

    refuse_special_output(args.output)
    request = TrainRequest(
        gold_dir=args.gold,
        model=args.output,
        schema=args.schema,
        mapping=args.mapping,
        iterations=args.iterations,
        cv_folds=args.cv,
        postprocess=not args.no_postprocess,
        keep_private_features=args.keep_private_features,
        force=args.force,
        with_synthetic=args.with_synthetic,
        guideline=args.guideline,
        workers=args.workers,
    )
    # Training reads the notes, then runs its iterations: not one unit, so the bar shows a
    # percentage (on one process it restarts once after cross-validation, whose folds it
    # follows smoothly; on several, the folds and the final model move it together).
    description = f"{args.cv}-fold cross-validation and training" if args.cv else "training"
    with progress_bar(description, percent=True) as update:
        result = train(request, progress=update)
    report = result.to_dict()
    if args.json:
        print_json(report)
        return 0
    if args.cv:
        _print_cv(report["cross_validation"])
    metadata = result.metadata
    synthetic = f" and {result.synthetic_documents} synthetic notes" if result.synthetic_documents else ""
    print(
        f"trained on {result.documents} gold documents{synthetic}, {metadata.tokens} tokens, "
        f"{metadata.annotations} annotations ({len(metadata.labels)} labels)"
    )
    announce_written(result.model, "model")
    if metadata.private_features:
        remembered = f"; it remembers {len(result.memory)} place and clinician names" if result.memory else ""
        print(
            f"the model's features name rare words of the gold (--keep-private-features){remembered}: "
            "do not share it"
        )
    for note in result.notes:
        print(note.message())
    return 0


def _print_cv(cv: dict[str, Any]) -> None:
    def row(name: str, counts: dict[str, Any]) -> list[object]:
        return [
            name,
            counts["tp"],
            counts["fp"],
            counts["fn"],
            *(_num(counts[k]) for k in ("precision", "recall", "f1")),
        ]

    rows = [row(label, counts) for label, counts in cv["per_type"].items()]
    rows.append(row("micro", cv["micro"]))
    print(f"{cv['folds']}-fold cross-validation by patient (strict entity match, type level)")
    print(format_table(["type", "tp", "fp", "fn", "precision", "recall", "f1"], rows))
    print()
    print("recall bias (relabel O tokens with P(O) < T): strict entity and tag-blind token scores")
    keys = ("precision", "recall", "f1", "token_precision", "token_recall")
    curve = [
        ["none" if p["threshold"] is None else p["threshold"], *(_num(p[k]) for k in keys)]
        for p in cv["recall_bias_curve"]
    ]
    print(format_table(["T", "precision", "recall", "f1", "token precision", "token recall"], curve))
    print()


def _num(value: object) -> object:
    return score_text(value) if value is None or isinstance(value, float) else value
