"""Significance: approximate randomisation test of two systems against the same gold."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from annotator.errors import UsageError
from annotator.evaluation.engine import evaluate_pairs
from annotator.evaluation.loading import load_pairs, refuse_unscorable
from annotator.evaluation.significance import SignificanceReport, compare_systems
from annotator.evaluation.significance_limits import MAX_SEED, MAX_SHUFFLES
from annotator.workflows.notes import Cancelled, Progress, check_cancel
from annotator.workflows.scoring import ScoringRequest


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


def significance(
    request: SignificanceRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> SignificanceReport:
    """Overall and per-category tests, Bonferroni threshold ``alpha / tests``."""
    if not 1 <= request.shuffles <= MAX_SHUFFLES:
        raise UsageError(f"--shuffles must be from 1 to {MAX_SHUFFLES:,}")
    if not 0 <= request.seed <= MAX_SEED:
        raise UsageError(f"--seed must be from 0 to {MAX_SEED}")
    if not 0 < request.alpha < 1:
        raise UsageError("--alpha must be between 0 and 1")
    options = request.scoring.options()
    mapping = request.scoring.mapping_chain()
    results = []
    for done, folder in enumerate((request.system_a, request.system_b), start=1):
        check_cancel(cancelled, "significance test")
        loaded = load_pairs(request.gold, folder, mapping)
        refuse_unscorable(loaded.text_differs, loaded.pairs, request.gold, folder)
        pairs = loaded.pairs
        results.append(evaluate_pairs(pairs, options, details=False))
        if progress is not None:
            progress(done, 3)
    report = compare_systems(results[0], results[1], request.shuffles, request.seed, request.alpha)
    if progress is not None:
        progress(3, 3)
    return report
