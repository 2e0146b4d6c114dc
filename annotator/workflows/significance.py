"""Significance: approximate randomisation test of two systems against the same gold."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.errors import InputError, TextMismatchError, UsageError, printable_path
from annotator.evaluation.engine import evaluate_pairs
from annotator.evaluation.loading import load_pairs, refuse_unscorable
from annotator.evaluation.significance import SignificanceReport, compare_systems
from annotator.evaluation.significance_limits import MAX_SEED, MAX_SHUFFLES
from annotator.workflows.notes import Cancelled, Note, NoteKind, Progress, check_cancel
from annotator.workflows.scoring import ScoringRequest

if TYPE_CHECKING:
    from annotator.evaluation.engine import DocumentPair


@dataclass(frozen=True)
class SignificanceRequest:
    """Is the F1 difference of ``system_a`` and ``system_b`` against ``gold`` significant?"""

    gold: Path
    system_a: Path
    system_b: Path
    shuffles: int = 9999
    seed: int = 0
    alpha: float = 0.05
    scoring: ScoringRequest = field(default_factory=ScoringRequest)


@dataclass
class SignificanceResult:
    """The tests, and notes: documents left out (their TEXT differs from gold's), exclusions
    that matched nothing."""

    report: SignificanceReport
    notes: list[Note] = field(default_factory=list)


def significance(
    request: SignificanceRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> SignificanceResult:
    """Overall and per-category tests, Bonferroni threshold ``alpha / tests``."""
    if not 1 <= request.shuffles <= MAX_SHUFFLES:
        raise UsageError(f"--shuffles must be from 1 to {MAX_SHUFFLES:,}")
    if not 0 <= request.seed <= MAX_SEED:
        raise UsageError(f"--seed must be from 0 to {MAX_SEED}")
    if not 0 < request.alpha < 1:
        raise UsageError("--alpha must be between 0 and 1")
    options = request.scoring.options()
    mapping = request.scoring.mapping_chain()
    loaded = []
    notes: list[Note] = []
    for done, folder in enumerate((request.system_a, request.system_b), start=1):
        check_cancel(cancelled, "significance test")
        pairs = load_pairs(request.gold, folder, mapping)
        refuse_unscorable(pairs.text_differs, pairs.pairs, request.gold, folder)
        _refuse_nothing_in_common(pairs.pairs, pairs.text_differs, request.gold, folder)
        notes += [Note(NoteKind.TEXT_DIFFERS, doc_id, detail=str(folder)) for doc_id in pairs.text_differs]
        loaded.append(pairs)
        if progress is not None:
            progress(done, 3)
    # A document one system cannot be scored on (its TEXT differs from gold's) or has no file
    # for is left out of both: the test compares the two systems on the same documents or not
    # at all (a system half done would otherwise differ by the notes it has not reached).
    unscorable = {doc_id for pairs in loaded for doc_id in pairs.text_differs}
    present = [{p.doc_id for p in pairs.pairs if p.predicted_present} for pairs in loaded]
    gold_ids = {p.doc_id for p in loaded[0].pairs if p.reference_present}
    for folder, has in zip((request.system_a, request.system_b), present, strict=True):
        lacking = len(gold_ids - has - unscorable)
        if lacking:
            notes.append(Note(NoteKind.NOT_IN_BOTH_SYSTEMS, str(folder), count=lacking))
    both = present[0] & present[1]
    kept = [[p for p in pairs.pairs if p.doc_id not in unscorable and p.doc_id in both] for pairs in loaded]
    if not all(any(p.reference_present and p.predicted_present for p in pairs) for pairs in kept):
        if not unscorable:
            raise InputError(
                "the two systems have no gold document in common (documents are paired by file name)",
                request.system_b,
            )
        raise TextMismatchError(
            f"no document can be scored for both systems: {len(unscorable)} document(s) have a TEXT "
            f"other than gold's {printable_path(request.gold)} in one of them (are these the same notes?)"
        )
    results = [evaluate_pairs(pairs, options, details=False) for pairs in kept]
    report = compare_systems(results[0], results[1], request.shuffles, request.seed, request.alpha)
    if progress is not None:
        progress(3, 3)
    labels = loaded[0].labels | loaded[1].labels
    return SignificanceResult(report, notes + request.scoring.exclusion_notes(labels))


def _refuse_nothing_in_common(
    pairs: Sequence[DocumentPair], text_differs: Sequence[str], gold: Path, system: Path
) -> None:
    """A system that shares no file name with gold is a wrong folder, not a score of 0."""
    if text_differs or any(p.reference_present and p.predicted_present for p in pairs):
        return
    raise InputError(
        f"no document in common with gold {printable_path(gold)} (documents are paired by file name)",
        system,
    )
