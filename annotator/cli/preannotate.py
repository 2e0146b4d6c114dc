"""``annotator preannotate MODEL IN -o OUT``: add model suggestions to notes, keeping every tag."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from annotator.cli.common import add_json_flag, existing_path, print_json
from annotator.errors import UsageError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "preannotate",
        help="pre-annotate notes with a trained CRF tagger",
        description=(
            "Tag IN (an i2b2 XML file or a folder of them) with the tagger MODEL and write the notes with "
            "the model's suggestions to OUT (a file for a file, a folder for a folder). Suggestions carry "
            'source="model", a confidence and pending="yes". Existing annotations are never changed or '
            "removed; a suggestion overlapping one is dropped. IN is never overwritten."
        ),
    )
    parser.add_argument(
        "model", type=existing_path, metavar="MODEL", help="model file from 'annotator train'"
    )
    parser.add_argument(
        "input", type=existing_path, metavar="IN", help="an i2b2 XML file or a folder of them"
    )
    parser.add_argument(
        "-o", "--output", type=Path, required=True, metavar="OUT", help="output file or folder"
    )
    parser.add_argument(
        "--recall-bias",
        type=float,
        default=None,
        metavar="T",
        help="relabel tokens whose probability of being no PHI is under T (0 < T <= 0.999) to their best PHI label",
    )
    parser.add_argument("--force", action="store_true", help="overwrite existing files in OUT")
    add_json_flag(parser)
    parser.set_defaults(func=run)


def _targets(source: Path, output: Path) -> tuple[list[Path], list[Path]]:
    from annotator.io.corpus import list_document_files

    if source.is_dir():
        if output.exists() and not output.is_dir():
            raise UsageError("IN is a folder, so OUT must be a folder", output)
        if output.resolve() == source.resolve():
            raise UsageError("OUT is the input folder; pre-annotation never overwrites its input", output)
        inputs = list_document_files(source)
        if not inputs:
            raise UsageError("no .xml files", source)
        return inputs, [output / p.name for p in inputs]
    target = output / source.name if output.is_dir() else output
    if target.resolve() == source.resolve():
        raise UsageError("OUT is the input file; pre-annotation never overwrites its input", output)
    return [source], [target]


def run(args: argparse.Namespace) -> int:
    from annotator.crf.preannotation import add_suggestions, suggest
    from annotator.crf.tagger import MARGINAL_CEILING, CrfTagger
    from annotator.io.i2b2 import read_i2b2, write_i2b2

    if args.recall_bias is not None and not 0 < args.recall_bias <= MARGINAL_CEILING:
        raise UsageError(f"--recall-bias must be in (0, {MARGINAL_CEILING}]")
    inputs, outputs = _targets(args.input, args.output)
    existing = [p for p in outputs if p.exists()]
    if existing and not args.force:
        raise UsageError(
            f"{len(existing)} output file(s) exist already (use --force to overwrite)", existing[0]
        )
    tagger = CrfTagger.load(args.model)
    # Read everything first: a bad input file stops the run before anything is written.
    documents = [read_i2b2(p) for p in inputs]

    from tqdm import tqdm

    bar = tqdm(
        total=len(documents), desc="pre-annotating", unit="doc", disable=None, file=sys.stderr, leave=False
    )

    def update(done: int, total: int) -> None:
        bar.n = done
        bar.refresh()

    try:
        results = suggest(tagger, documents, args.recall_bias, progress=update)
    finally:
        bar.close()
    per_document = []
    for result, target in zip(results, outputs, strict=True):
        add_suggestions(result.document, result.kept)
        write_i2b2(result.document, target)
        per_document.append(
            {
                "document": result.document.doc_id,
                "output": str(target),
                "suggestions": len(result.kept),
                "dropped": result.dropped,
            }
        )
    report: dict[str, Any] = {
        "model": str(args.model),
        "recall_bias": args.recall_bias,
        "documents": len(results),
        "suggestions": sum(len(r.kept) for r in results),
        "dropped_overlapping": sum(r.dropped for r in results),
        "per_document": per_document,
    }
    if args.json:
        print_json(report)
    else:
        print(
            f"pre-annotated {report['documents']} document(s): {report['suggestions']} suggestions added, "
            f"{report['dropped_overlapping']} dropped for overlapping existing annotations"
        )
    return 0
