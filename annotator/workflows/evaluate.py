"""Evaluate: score a system (or an annotator) folder against a gold folder, and export it.

``clean`` mode pairs the documents by id and scores them with the engine (P/R/F, kappa);
``i2b2`` mode reproduces the official 2014 tables. :func:`export_report` writes either
result as JSON, CSV or HTML, the same bytes from the CLI and the GUI.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.errors import InputError, UsageError, printable_path
from annotator.evaluation.official import (
    OfficialFilter,
    OfficialRun,
    official_warnings,
    parse_official,
    read_official_sides,
    score_official,
)
from annotator.evaluation.official_verbose import in_script_order, verbose_orders
from annotator.io.xmlsafe import read_bytes
from annotator.workflows.inputs import require_documents
from annotator.workflows.notes import Cancelled, Note, NoteKind, Progress, check_cancel
from annotator.workflows.scoring import ScoringRequest

# The official mode is timed against the original script: the clean engine, its readers and
# the report writers are imported where they are used, not on every i2b2-mode run.
if TYPE_CHECKING:
    from annotator.evaluation.engine import DocumentPair, EvaluationResult, Options

OFFICIAL_SCHEMA = "phi-annotator/i2b2-tables/1"
OFFICIAL_CSV_COLUMNS = (
    "documents",
    "tp",
    "fp",
    "fn",
    "macro_precision",
    "macro_precision_sd",
    "macro_recall",
    "macro_recall_sd",
    "macro_f1",
    "micro_precision",
    "micro_recall",
    "micro_f1",
)


class EvaluationMode(Enum):
    CLEAN = "clean"
    I2B2 = "i2b2"


class ReportFormat(Enum):
    JSON = "json"
    CSV = "csv"
    HTML = "html"


@dataclass(frozen=True)
class EvaluateRequest:
    """Score ``predicted`` against ``reference`` (folders of i2b2 files, paired by name)."""

    reference: Path
    predicted: Path
    mode: EvaluationMode = EvaluationMode.CLEAN
    scoring: ScoringRequest = field(default_factory=ScoringRequest)
    #: i2b2 mode only: the official script's --filter/--invert/--conjunctive
    official_filter: OfficialFilter | None = None


@dataclass
class EvaluateResult:
    """A clean-mode ``evaluation`` (with its ``pairs``) or the official ``runs``; and notes."""

    mode: EvaluationMode
    evaluation: EvaluationResult | None = None
    pairs: list[DocumentPair] = field(default_factory=list)
    runs: list[OfficialRun] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    #: per run (``sys_id``), the documents in the order the official ``-v`` lists them
    document_orders: dict[str, list[str]] = field(default_factory=dict)
    #: the official script's WARNING lines (printed on stdout before its tables)
    official_warnings: str = ""
    #: two files were compared: the script prints only the per-document blocks then
    documents_only: bool = False
    #: what was compared (an HTML report names both, and when it was made)
    reference: Path | None = None
    predicted: Path | None = None
    #: what was read: a report is never written onto or inside it
    inputs: tuple[Path, ...] = ()


def evaluate(
    request: EvaluateRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> EvaluateResult:
    """Run one evaluation.

    Raises
    ------
    UsageError: a side is not a folder, or i2b2 mode is asked for with scoring choices.
    InputError: a file cannot be read.
    """
    inputs = (Path(request.reference), Path(request.predicted))
    two_files = inputs[0].is_file() and inputs[1].is_file()
    for flag, path in (("gold", request.reference), ("system", request.predicted)):
        if not Path(path).is_dir() and not two_files:
            raise UsageError(f"--{flag} must be a folder (or both sides files)", path)
        if two_files:
            continue
        if request.mode is EvaluationMode.I2B2:
            require_official_documents(Path(path), flag)
        else:
            require_documents(Path(path))
    if request.official_filter is not None and request.mode is not EvaluationMode.I2B2:
        raise UsageError("--i2b2-filter, --invert and --conjunctive apply to --mode i2b2")
    if request.mode is EvaluationMode.I2B2:
        if not request.scoring.is_default:
            raise UsageError(
                "--mode i2b2 computes the official tables only; --match, --level, --filter, --map, "
                "--exclude and --beta apply to --mode clean"
            )
        if two_files:  # the script's file form: gold read first, one run, per-document blocks only
            gold_docs = [parse_official(read_bytes(inputs[0]), inputs[0])]
            system_docs = [parse_official(read_bytes(inputs[1]), inputs[1])]
            runs = score_official(gold_docs, system_docs, chosen=request.official_filter)
        else:
            gold_docs, system_docs = read_official_sides(request.reference, request.predicted)
            scored = score_official(gold_docs, system_docs, chosen=request.official_filter)
            runs = in_script_order(Path(request.predicted), scored)
        _refuse_no_common_document(runs, Path(request.reference), Path(request.predicted))
        _report(progress, 1, 1)
        orders = verbose_orders(runs)
        return EvaluateResult(
            request.mode,
            runs=runs,
            document_orders=orders,
            official_warnings=(request.official_filter.warnings() if request.official_filter else "")
            + official_warnings(gold_docs, system_docs),
            documents_only=two_files,
            reference=Path(request.reference),
            predicted=Path(request.predicted),
            inputs=inputs,
        )
    options = request.scoring.options()
    from annotator.evaluation.engine import evaluate_pairs
    from annotator.evaluation.loading import load_pairs, refuse_unscorable

    loaded = load_pairs(request.reference, request.predicted, request.scoring.mapping_chain())
    refuse_unscorable(loaded.text_differs, loaded.pairs, request.reference, request.predicted)
    _report(progress, 1, 2)
    check_cancel(cancelled, "evaluation")
    notes = [Note(NoteKind.TEXT_DIFFERS, doc_id) for doc_id in loaded.text_differs]
    if loaded.only_reference:
        notes.append(Note(NoteKind.ONLY_REFERENCE, count=len(loaded.only_reference)))
    if loaded.only_predicted:
        notes.append(Note(NoteKind.ONLY_PREDICTED, count=len(loaded.only_predicted)))
    notes.extend(request.scoring.exclusion_notes(loaded.labels))
    evaluation = evaluate_pairs(loaded.pairs, options)
    evaluation.skipped = list(loaded.skipped)
    _report(progress, 2, 2)
    return EvaluateResult(
        request.mode,
        evaluation,
        loaded.pairs,
        notes=notes,
        reference=Path(request.reference),
        predicted=Path(request.predicted),
        inputs=inputs,
    )


def clean_official_layout(pairs: list[DocumentPair], options: Options) -> list[tuple[str, EvaluationResult]]:
    """Clean-mode results for the six blocks of the official layout (Token, Strict, Relaxed;
    then the same on the HIPAA subset), labelled as the official script labels them."""
    from annotator.core.mapping import load_mapping
    from annotator.evaluation.engine import evaluate_pairs

    hipaa = load_mapping("hipaa")
    hipaa_pairs = [
        replace(
            pair,
            reference=[i for i in pair.reference if hipaa.keeps(i.category, i.type)],
            predicted=[i for i in pair.predicted if hipaa.keeps(i.category, i.type)],
        )
        for pair in pairs
    ]
    blocks = []
    for prefix, subset in (("", pairs), ("HIPAA ", hipaa_pairs)):
        for match, label in (("token", "Token"), ("strict", "Strict"), ("relaxed", "Relaxed")):
            result = evaluate_pairs(subset, replace(options, match=match), details=False)
            blocks.append((f"{prefix}{label}", result))
    return blocks


def require_official_documents(folder: Path, flag: str) -> None:
    """The script reads the system folder's names ending in ``xml`` (``100-01.axml`` too) and
    every entry of the gold folder: a system folder without any such name prints nothing at
    all there, and is refused here like any folder without documents; so is a gold folder
    without a name ending in xml or XML."""
    from annotator.io.corpus import no_documents

    names = os.listdir(folder)
    if flag == "system" and not any(name.endswith("xml") for name in names):
        raise no_documents(folder)
    # A gold folder with no name ending in xml (a project's root, say) is refused with the
    # same words as everywhere, where the script would crash on its first sub-folder.
    if flag == "gold" and not any(name.lower().endswith("xml") for name in names):
        raise no_documents(folder)


def _refuse_no_common_document(runs: list[OfficialRun], gold: Path, system: Path) -> None:
    """The official script scores only documents both sides have: with none, its tables are
    all nan and 0, which reads like a result. Refused, naming both folders."""
    if any(table.n for run in runs for table in run.tables[:1]):
        return
    raise InputError(
        f"no document in common with --gold {printable_path(gold)} (documents are paired by file "
        "name; --mode i2b2 scores only documents both sides have)",
        system,
    )


def _report(progress: Progress | None, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


@dataclass(frozen=True)
class ExportRequest:
    """Write ``result`` to ``path``; PHI text goes in only with ``include_text``."""

    path: Path
    format: ReportFormat
    include_text: bool = False
    title: str = "PHI evaluation report"


def export_report(result: EvaluateResult, request: ExportRequest) -> Path:
    """Write a report of an evaluation (replacing an earlier report at that path)."""
    from annotator.evaluation.report import render_html, write_csv, write_json
    from annotator.io.outputs import plan_files

    plan = plan_files([request.path], inputs=result.inputs, force=True)
    if result.mode is EvaluationMode.I2B2:
        if request.format is ReportFormat.HTML:
            raise UsageError("--html is available with --mode clean")
        text = (
            official_json(result.runs) if request.format is ReportFormat.JSON else official_csv(result.runs)
        )
        plan.publish_text(request.path, text)
        return request.path
    evaluation = result.evaluation
    if evaluation is None:
        raise UsageError("nothing to export: run the evaluation first")
    if request.format is ReportFormat.JSON:
        plan.publish_text(request.path, write_json(evaluation, None, request.include_text))
    elif request.format is ReportFormat.CSV:
        plan.publish_text(request.path, write_csv(evaluation, None, request.include_text))
    else:
        compared = [
            (role, str(path))
            for role, path in (("reference", result.reference), ("predicted", result.predicted))
            if path is not None
        ]
        page = render_html(
            evaluation, request.title, request.include_text, compared=compared, generated=now_text()
        )
        plan.publish_text(request.path, page)
    return request.path


def now_text() -> str:
    """When a report was made, as it says so: ``2026-03-01 09:30 CET``."""
    return dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z").strip()


def official_tables(runs: list[OfficialRun]) -> dict[str, object]:
    return {
        "schema": OFFICIAL_SCHEMA,
        "runs": [{"sys_id": run.sys_id, "tables": [table.to_dict() for table in run.tables]} for run in runs],
    }


def official_json(runs: list[OfficialRun]) -> str:
    return json.dumps(official_tables(runs), indent=2) + "\n"


def official_csv(runs: list[OfficialRun]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["table", *OFFICIAL_CSV_COLUMNS])
    for run in runs:
        for table in run.tables:
            data = table.to_dict()
            writer.writerow([data["label"], *(data[column] for column in OFFICIAL_CSV_COLUMNS)])
    return buffer.getvalue()
