"""``annotator train GOLD_DIR -o MODEL``: train the CRF pre-annotation tagger from gold."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from annotator.cli.common import (
    add_json_flag,
    existing_path,
    format_table,
    print_json,
    progress_bar,
    require_folder,
)
from annotator.errors import UsageError


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
    parser.add_argument("gold", type=existing_path, metavar="GOLD_DIR", help="folder of gold i2b2 XML files")
    parser.add_argument(
        "-o", "--output", type=Path, required=True, metavar="MODEL", help="model file to write"
    )
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
        "--iterations", type=int, default=None, metavar="N", help="training epochs (default 15)"
    )
    parser.add_argument(
        "--no-postprocess", action="store_true", help="score the CRF without the post-processing rules"
    )
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from annotator.core.document import Document
    from annotator.core.mapping import load_mapping
    from annotator.core.schema import load_schema
    from annotator.crf.crossval import cross_validate
    from annotator.crf.tagger import CrfTagger
    from annotator.io.corpus import read_corpus

    gold_dir = require_folder(args.gold)
    output: Path = args.output
    if output.is_dir():
        raise UsageError("is a folder; give the model file to write", output)
    if args.cv == 1 or args.cv < 0:
        raise UsageError("--cv needs at least 2 folds")
    if args.iterations is not None and args.iterations < 1:
        raise UsageError("--iterations must be at least 1")
    schema = load_schema(args.schema)
    documents: list[Document] = read_corpus(gold_dir).documents
    if not documents:
        raise UsageError("no .xml files", gold_dir)
    if args.mapping:
        mapping = load_mapping(args.mapping)
        documents = [Document(d.doc_id, d.text, mapping.map_annotations(d.annotations)) for d in documents]

    def make_tagger() -> CrfTagger:
        tagger = CrfTagger(schema, postprocess=not args.no_postprocess)
        if args.iterations is not None:
            tagger.max_iterations = args.iterations
        return tagger

    report: dict[str, Any] = {"gold": str(gold_dir), "model": str(output), "documents": len(documents)}
    if args.cv:
        with progress_bar(f"{args.cv}-fold cross-validation") as update:
            cv = cross_validate(documents, args.cv, make_tagger, progress=update)
        report["cross_validation"] = cv.to_dict()
    with progress_bar("training") as update:
        tagger = make_tagger()
        metadata = tagger.train(documents, progress=update)
    tagger.save(output)
    report["metadata"] = {k: v for k, v in metadata.to_dict().items() if k != "categories"}
    if args.json:
        print_json(report)
        return 0
    if args.cv:
        _print_cv(report["cross_validation"])
    print(
        f"trained on {metadata.documents} documents, {metadata.tokens} tokens, {metadata.annotations} annotations "
        f"({len(metadata.labels)} labels); model written to {output}"
    )
    if metadata.skipped_annotations:
        print(f"skipped {metadata.skipped_annotations} annotations whose type is not in schema {schema.name}")
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
    return "-" if value is None else value
