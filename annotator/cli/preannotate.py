"""``annotator preannotate MODEL IN -o OUT``: add model suggestions to notes, keeping every tag.

MODEL ``default`` is the model bundled with PHI Annotator (for projects without gold yet).
"""

from __future__ import annotations

import argparse
import dataclasses

from annotator.cli.common import (
    add_json_flag,
    add_output_option,
    add_workers_argument,
    announce_written,
    existing_path,
    model_argument,
    print_json,
    progress_bar,
    refuse_special_output,
)
from annotator.crf.guidelines import GUIDELINES, I2B2_2014


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
        "model",
        type=model_argument,
        metavar="MODEL",
        help="model file from 'annotator train', or 'default' for the bundled model",
    )
    parser.add_argument(
        "input",
        type=existing_path,
        metavar="IN",
        help=(
            "an i2b2 XML file, a folder of them (sub-folders are not searched), or a project "
            "(its notes, with its guideline and site lists unless given)"
        ),
    )
    add_output_option(parser, "OUT", "output file or folder")
    parser.add_argument(
        "--recall-bias",
        type=float,
        default=None,
        metavar="T",
        help="relabel tokens whose probability of being no PHI is under T (0 < T <= 0.999) to their best PHI label",
    )
    parser.add_argument(
        "--guideline",
        choices=GUIDELINES,
        default=None,
        help=(
            "what your gold standard tags: i2b2-2014 (every age, weekdays, professions; the default, or a "
            "project's own) or safe-harbor (HIPAA Safe Harbor as the PhysioNet deid corpus: ages over 89 "
            "only, no weekdays, professions, states or countries); only that is suggested"
        ),
    )
    parser.add_argument(
        "--site-lists",
        type=existing_path,
        metavar="LISTS",
        help=(
            "the site's own names and places, suggested wherever they appear: a file of 'TYPE<tab>phrase' "
            "lines ('TYPE<tab>phrase<tab>patient id' for one patient's notes), or a deid.pl lists/ folder "
            "(doctor_last_names.txt, stripped_hospitals.txt, local_places_unambig.txt, pid_patientname.txt, ...)"
        ),
    )
    add_workers_argument(parser, "to tag with, whole patients each", "the suggestions are the same")
    parser.add_argument("--force", action="store_true", help="overwrite existing files in OUT")
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from annotator.crf.default_model import resolve_model
    from annotator.workflows.preannotate import files_request, preannotate

    refuse_special_output(args.output)
    model = resolve_model(args.model)
    request = files_request(
        model, args.input, args.output, args.recall_bias, args.force, args.guideline, args.site_lists
    )
    request = dataclasses.replace(request, workers=args.workers)
    with progress_bar("pre-annotating", percent=True) as update:  # it counts characters
        result = preannotate(request, progress=update)
    if args.json:
        print_json(result.to_dict())
    else:
        print(
            f"pre-annotated {len(result.documents)} document(s): {result.suggestions} suggestions added, "
            f"{result.dropped} dropped for overlapping existing annotations"
            + ("" if result.guideline == I2B2_2014 else f" (guideline: {result.guideline})")
            + (f"; site lists: {result.site_phrases:,} phrases" if result.site_phrases else "")
        )
        announce_written(args.output, f"{len(result.documents)} pre-annotated file(s)")
    return 0
