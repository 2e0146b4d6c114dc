"""The de-identified export: surrogates or masks for a corpus, checked, written all or nothing.

:func:`deidentify_documents` works in memory (the GUI preview uses it);
:func:`export_deidentified` reads a gold folder, writes every output file to a temporary
folder beside the target, reads each back to check it is valid i2b2 XML with
``text == TEXT[start:end]``, runs the leak check, and only then moves the folder into place.
A failure at any step leaves the target as it was.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotator.core.atomic import atomic_write_text
from annotator.core.document import Document
from annotator.core.limits import refuse_long_notes
from annotator.core.span import offsets_problem
from annotator.deid.allowlist import AllowEntry, read_allow_file, without_allowed
from annotator.deid.dates import DateShift
from annotator.deid.leak_actions import mask_findings, write_review
from annotator.deid.leakcheck import Leak, LeakCheckOptions, LeakError, find_leaks, leak_error
from annotator.deid.rewrite import Replaced, mask_text, rewrite_document
from annotator.deid.surrogates import (
    CorpusContext,
    DeidOptions,
    PatientSurrogates,
    Surrogate,
    with_secret_seed,
)
from annotator.errors import AnnotatorError, InputError, UsageError
from annotator.io.corpus import no_documents, read_corpus
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.io.outputs import FolderMode, OutputPlan, plan_folder, publishing

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]
MAP_WARNING = (
    "This file contains the original PHI next to its surrogates. Keep it with the gold "
    "standard under the same protection; never share it with the de-identified notes."
)


class ExportCancelled(AnnotatorError):
    """The user cancelled the export; nothing was written."""


@dataclass
class DeidResult:
    """De-identified documents with what was replaced in each."""

    documents: list[Document]
    replaced: dict[str, list[Replaced]]
    shifts: dict[str, DateShift] = field(default_factory=dict)

    def review(self) -> list[dict[str, Any]]:
        """Annotations masked for review (doc id, tag id, type, output offsets, reason)."""
        return [
            {
                "doc_id": doc_id,
                "id": r.new.id,
                "type": r.new.type,
                "start": r.new.start,
                "end": r.new.end,
                "reason": r.review,
            }
            for doc_id, items in self.replaced.items()
            for r in items
            if r.review
        ]

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for items in self.replaced.values():
            for r in items:
                counts[r.original.type] = counts.get(r.original.type, 0) + 1
        return dict(sorted(counts.items()))


@dataclass
class DeidReport:
    """What an export did; no PHI in it."""

    method: str
    seed: int | None  # None: a secret seed was drawn, written in the audit map only
    out_dir: str
    documents: int
    patients: int
    replaced: dict[str, int]
    review: list[dict[str, Any]]
    leaks: list[Leak]
    seconds: float
    map_path: str | None = None
    leaks_masked: int = 0
    leaks_allowed: int = 0
    review_path: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "seed": self.seed,
            "out_dir": self.out_dir,
            "documents": self.documents,
            "patients": self.patients,
            "replaced": self.replaced,
            "review": self.review,
            "leaks": [leak.to_dict() for leak in self.leaks],
            "seconds": round(self.seconds, 3),
            "map_path": self.map_path,
            "leaks_masked": self.leaks_masked,
            "leaks_allowed": self.leaks_allowed,
            "review_path": self.review_path,
        }


def _check_cancel(cancelled: Cancelled | None) -> None:
    if cancelled is not None and cancelled():
        raise ExportCancelled("export cancelled; nothing was written")


def deidentify_documents(
    documents: list[Document],
    options: DeidOptions,
    context: CorpusContext | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> DeidResult:
    """Surrogates (or masks) for documents, one consistent mapping per patient.

    Parameters
    ----------
    documents:
        The original documents; patients come from their ``PPP-RR`` ids.
    context:
        Original values of the whole corpus to avoid (built from ``documents`` if omitted;
        pass the full corpus's context when de-identifying only part of it).
    """
    if options.method not in ("surrogate", "mask"):
        raise UsageError(f"unknown method {options.method!r} (surrogate or mask)")
    if options.mask_style not in ("brackets", "chars") or len(options.mask_char) != 1:
        raise UsageError("mask style must be brackets or chars, and the mask character one character")
    refuse_long_notes(documents, "de-identification")
    options = with_secret_seed(options)
    context = context or CorpusContext.from_documents(documents)
    patients: dict[str, list[Document]] = {}
    for document in sorted(documents, key=lambda d: (d.patient_id, d.record, d.doc_id)):
        patients.setdefault(document.patient_id, []).append(document)
    result = DeidResult([], {})
    done, total = 0, len(documents)
    for patient_id, records in patients.items():
        replace: Callable[[Any], Surrogate]
        surrogates: PatientSurrogates | None = None
        if options.method == "mask":

            def replace(a: Any) -> Surrogate:
                return Surrogate(mask_text(a, options.mask_style, options.mask_char))
        else:
            surrogates = PatientSurrogates(patient_id, records, options, context)
            result.shifts[patient_id] = surrogates.shift
            replace = surrogates.surrogate
        for document in records:
            _check_cancel(cancelled)
            if surrogates is not None:
                surrogates.begin_document(document)
            new, replaced = rewrite_document(document, replace)
            result.documents.append(new)
            result.replaced[document.doc_id] = replaced
            done += 1
            if progress is not None:
                progress(done, total)
    return result


def leak_findings(
    documents: list[Document],
    options: DeidOptions,
    context: CorpusContext | None = None,
    leak_options: LeakCheckOptions | None = None,
    allowed: Sequence[AllowEntry] = (),
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> list[Leak]:
    """The findings an export of ``documents`` would stop on, without writing anything.

    The same de-identification and leak check as :func:`export_deidentified` (findings an
    allow entry covers pass), in memory: what the export dialog runs again after each fix.
    """
    check_originals(documents)
    result = deidentify_documents(documents, options, context, progress, cancelled)
    check = leak_options or LeakCheckOptions(min_length=options.min_leak_length)
    leaks, _ = without_allowed(
        find_leaks(documents, result.documents, check), result.documents, list(allowed)
    )
    return leaks


def audit_map(result: DeidResult, options: DeidOptions) -> dict[str, Any]:
    """Original -> surrogate per patient, with every occurrence (doc id, tag id, offsets)."""
    patients: dict[str, Any] = {}
    for document in result.documents:
        entry = patients.setdefault(document.patient_id, {"date_shift": None, "replacements": {}})
        shift = result.shifts.get(document.patient_id)
        entry["date_shift"] = shift.to_dict() if shift else None
        for r in result.replaced[document.doc_id]:
            key = (r.original.type, r.original.text, r.new.text)
            item = entry["replacements"].setdefault(
                key,
                {"type": r.original.type, "original": r.original.text, "surrogate": r.new.text,
                 "review": r.review, "note": r.note, "occurrences": []},
            )  # fmt: skip
            item["occurrences"].append(
                {"doc_id": document.doc_id, "id": r.original.id, "start": r.original.start,
                 "end": r.original.end, "new_start": r.new.start, "new_end": r.new.end}
            )  # fmt: skip
    for entry in patients.values():
        entry["replacements"] = list(entry["replacements"].values())
    return {"warning": MAP_WARNING, "method": options.method, "seed": options.seed, "patients": patients}


def check_originals(documents: list[Document]) -> None:
    for document in documents:
        for annotation in document:
            problem = offsets_problem(annotation.start, annotation.end, len(document.text))
            if problem is not None:
                raise InputError(f"tag {annotation.id} {problem}", document.origin.path)
            if document.text[annotation.start : annotation.end] != annotation.text:
                raise InputError(
                    f"tag {annotation.id} at {annotation.start}-{annotation.end}: text attribute does not "
                    "match TEXT[start:end]; run 'annotator validate' first",
                    document.origin.path,
                )


def _check_paths(
    gold_dir: Path,
    out_dir: Path,
    private: dict[str, Path | None],
    force: bool,
    inputs: list[Path],
    job: str,
) -> OutputPlan:
    # The audit map and the review file hold PHI: never beside the notes that are shared.
    for what, path in private.items():
        if path is None:
            continue
        target = path.resolve()
        if target.is_relative_to(out_dir.resolve()) or target.is_relative_to(gold_dir.resolve()):
            raise UsageError(f"the {what} holds PHI: write it outside the output and gold folders", path)
        if target.is_dir():
            raise UsageError(f"the {what} path is a folder; give a file name", path)
    paths = [p.resolve() for p in private.values() if p is not None]
    if len(set(paths)) != len(paths):
        raise UsageError("the audit map and the review file need two different paths")
    # The notes, the audit map and the review file are published together, or none of them.
    return plan_folder(
        out_dir,
        mode=FolderMode.REPLACE,
        force=force,
        inputs=inputs,
        protected=[gold_dir],
        protected_clash="refusing to write the export into (or around) the gold folder",
        job=job,
        private=[p for p in private.values() if p is not None],
        replaces=(".xml",),  # the de-identified notes: all an export writes into its folder
    )


def export_deidentified(
    gold_dir: str | Path,
    out_dir: str | Path,
    options: DeidOptions,
    map_path: str | Path | None = None,
    force: bool = False,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    leak_options: LeakCheckOptions | None = None,
    on_leak: str = "refuse",
    allow_path: str | Path | None = None,
    review_path: str | Path | None = None,
    job: str = "",
) -> DeidReport:
    """De-identify every document of ``gold_dir`` into ``out_dir``, all or nothing.

    Findings of the leak check that an entry of ``allow_path`` covers pass; the others stop
    the export (``on_leak="refuse"``) or are masked in the output (``"mask"``). With
    ``review_path`` every remaining finding is also written there in context: a private
    (0600) file holding PHI, for the data owner. The notes, the audit map and the review
    file are published together; on a refusal the review file alone is written (it says
    what to review). ``job`` identifies the request (a killed run of the same job is
    finished and replaced without ``force``).

    Raises
    ------
    UsageError: the paths are unsafe (output in the gold folder, non-empty without ``force``).
    InputError: a gold file is unreadable or its offsets are wrong.
    LeakError: original PHI was found in the output (the documents are named).
    """
    started = time.perf_counter()
    given_seed = options.seed
    options = with_secret_seed(options)  # the one seed of the notes and the audit map
    gold_dir, out_dir = Path(gold_dir), Path(out_dir)
    map_file = Path(map_path) if map_path is not None else None
    review_file = Path(review_path) if review_path is not None else None
    if on_leak not in ("refuse", "mask"):
        raise UsageError(f"unknown leak action {on_leak!r} (refuse or mask)")
    if not gold_dir.is_dir():
        raise InputError("not a folder", gold_dir)
    inputs = [gold_dir, *([Path(allow_path)] if allow_path is not None else [])]
    private = {"audit map": map_file, "review file": review_file}
    plan = _check_paths(gold_dir, out_dir, private, force, inputs, job)
    allowed = read_allow_file(allow_path) if allow_path is not None else []
    documents = read_corpus(gold_dir).documents
    if not documents:
        raise no_documents(gold_dir)
    check_originals(documents)
    total = 1000  # in thousandths: replacing 30%, writing and reading back 20%, the leak check 50%

    def phase(first: float, share: float) -> Progress:
        def report(done: int, of: int) -> None:
            if progress is not None:
                progress(round(total * (first + share * done / max(of, 1))), total)

        return report

    result = deidentify_documents(documents, options, progress=phase(0, 0.3), cancelled=cancelled)
    check = leak_options or LeakCheckOptions(min_length=options.min_leak_length)
    written: list[Document] = []
    leaks: list[Leak] = []
    sources = {document.doc_id: document.origin.path for document in documents}
    try:
        with publishing(plan) as staged:
            staging = staged(out_dir)
            writing = phase(0.3, 0.2)
            for done, document in enumerate(result.documents, start=1):
                _check_cancel(cancelled)
                path = staging / f"{document.doc_id}.xml"
                write_i2b2(document, path)
                try:
                    written.append(_verified_as(path, document))
                except AnnotatorError as error:
                    # The staging path means nothing to the user: name the note it came from.
                    source = sources.get(document.doc_id) or gold_dir
                    raise AnnotatorError(
                        f"its de-identified copy cannot be read back: {error.message}", source
                    ) from None
                writing(done, len(result.documents))
            found = find_leaks(documents, written, check, phase(0.5, 0.5))
            leaks, passed = without_allowed(found, written, allowed)
            if leaks and on_leak == "refuse":
                raise leak_error(leaks)
            if review_file is not None:
                write_review(staged(review_file), leaks, written)
            if leaks:
                written = _mask_staged(staging, documents, written, leaks, options, check, allowed)
                follow_masks(result, written)
            if map_file is not None:
                text = json.dumps(audit_map(result, options), indent=1, ensure_ascii=False) + "\n"
                atomic_write_text(staged(map_file), text)
    except LeakError:
        if review_file is not None and leaks:
            # A refusal publishes nothing but its own report: the findings, for the data owner.
            write_review(review_file, leaks, written)
        raise
    return DeidReport(
        method=options.method,
        seed=given_seed,  # a drawn seed is a key to the PHI: the report, often shared, never shows it
        out_dir=str(out_dir),
        documents=len(documents),
        patients=len({d.patient_id for d in documents}),
        replaced=result.counts(),
        review=result.review(),
        leaks=leaks,
        seconds=time.perf_counter() - started,
        map_path=str(map_file) if map_file is not None else None,
        leaks_masked=len(leaks),
        leaks_allowed=len(passed),
        review_path=str(review_file) if review_file is not None else None,
    )


def _mask_staged(
    staging: Path,
    originals: list[Document],
    written: list[Document],
    leaks: list[Leak],
    options: DeidOptions,
    check: LeakCheckOptions,
    allowed: list[AllowEntry],
) -> list[Document]:
    """Mask every finding in the staged files, read them back, and check them again."""
    masked = mask_findings(written, leaks, options.mask_style, options.mask_char)
    changed = {leak.doc_id for leak in leaks}
    final = []
    for document in masked:
        if document.doc_id in changed:
            path = staging / f"{document.doc_id}.xml"
            write_i2b2(document, path)
            document = _verified_as(path, document)
        final.append(document)
    # A mask never brings PHI back, but the promise is "checked", so check again.
    remaining, _ = without_allowed(find_leaks(originals, final, check), final, allowed)
    if remaining:
        raise leak_error(remaining)
    return final


def follow_masks(result: DeidResult, final: list[Document]) -> None:
    """Tags moved by masking: the audit map and the review list give their final offsets."""
    for document in final:
        moved = {a.id: a for a in document}
        items = result.replaced.get(document.doc_id, [])
        result.replaced[document.doc_id] = [
            Replaced(r.original, moved.get(r.new.id, r.new), r.review, r.note) for r in items
        ]


def _verified(path: Path) -> Document:
    """Read an output file back; every tag must point at its text."""
    return verified(read_i2b2(path))


def _verified_as(path: Path, document: Document) -> Document:
    """Read an output file back and check it; when it holds exactly ``document`` (as it should),
    keep the one in memory and let the copy go: a long note's copy is hundreds of megabytes,
    and the leak check then looks at what the file holds either way."""
    back = _verified(path)
    if back.text == document.text and back.annotations == document.annotations:
        return document
    return back


def verified(document: Document) -> Document:
    """An output document whose every tag points at its text (else an error naming the tag)."""
    path = document.origin.path
    for annotation in document:
        if document.text[annotation.start : annotation.end] != annotation.text:
            raise AnnotatorError(f"output tag {annotation.id} does not match TEXT[start:end]", path)
    return document
