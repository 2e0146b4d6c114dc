"""Synth: a synthetic corpus (gold, two simulated annotators, pre-annotations), all invented."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from annotator.core.document import Document
from annotator.core.project import PROJECT_FILE, Project
from annotator.core.schema import load_schema
from annotator.core.statistics import corpus_statistics
from annotator.errors import UsageError
from annotator.io.outputs import FolderMode, plan_folder, publishing
from annotator.io.publish import job_identity
from annotator.synth.generator import (
    FOLDERS,
    MAX_PATIENTS,
    STYLES,
    SyntheticCorpus,
    generate_corpus,
    write_corpus,
    write_documents,
)
from annotator.workflows.notes import Cancelled, Progress, check_cancel

#: The corpus folder of model suggestions (the project's pre-annotations).
PREANNOTATED = "preannotated"
#: What a corpus folder holds: ``--force`` replaces a folder of these only.
SYNTH_ENTRIES = (*FOLDERS, "source", PROJECT_FILE)


@dataclass(frozen=True)
class SynthRequest:
    """Write ``patients`` patients' notes (seeded) to ``out`` (empty or absent unless ``force``)."""

    out: Path
    patients: int = 10
    seed: int = 0
    force: bool = False
    #: "a" (the main generator), "b" or "c" (styles B and C, for measuring generalisation)
    style: str = "a"


@dataclass
class SynthResult:
    out: Path
    seed: int
    style: str
    patients: int
    documents: int
    annotations: dict[str, int]
    #: document counts per folder (gold, annotator_a, ...)
    folders: dict[str, int]
    gold: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "out": str(self.out),
            "seed": self.seed,
            "style": self.style,
            "patients": self.patients,
            "documents": self.documents,
            "annotations": self.annotations,
            "gold": self.gold,
        }


def write_synth_project(corpus: SyntheticCorpus, out: Path, seed: int) -> None:
    """Make the corpus folder a project ``annotator gui`` opens: ``project.toml`` and ``source/``.

    ``source/`` holds the notes with empty TAGS (what an annotator starts from); the model
    suggestions are the corpus's ``preannotated/`` folder. The simulated annotators' and gold
    folders stay where every command expects them.
    """
    project = Project(out, f"Synthetic corpus (seed {seed})", "i2b2-2014", preannotations=PREANNOTATED)
    project.source_dir.mkdir(parents=True, exist_ok=True)
    write_documents(
        [
            (Document(gold.doc_id, gold.text), project.source_dir / f"{gold.doc_id}.xml")
            for gold in corpus.gold
        ]
    )
    project.save()


def synthesize(
    request: SynthRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> SynthResult:
    """Generate, then write ``out/{gold,annotator_a,annotator_b,preannotated}/PPP-RR.xml``.

    Progress restarts for each phase (generating, then writing).
    """
    if not 1 <= request.patients <= MAX_PATIENTS:
        raise UsageError(f"--patients must be between 1 and {MAX_PATIENTS}")
    if request.style not in STYLES:
        raise UsageError(f"--style must be one of {', '.join(STYLES)}")
    # Replaced whole: written into an older corpus, --force left its other patients' notes
    # beside the new ones (patient 101 two people). Only an earlier corpus is replaced.
    plan = plan_folder(
        request.out,
        mode=FolderMode.REPLACE,
        force=request.force,
        job=job_identity(request),
        replaces_names=SYNTH_ENTRIES,
    )
    corpus = generate_corpus(request.patients, request.seed, progress=progress, style=request.style)
    check_cancel(cancelled, "synthetic corpus")
    with publishing(plan) as staged:
        write_corpus(corpus, staged(request.out), progress=progress)
        write_synth_project(corpus, staged(request.out), request.seed)
    versions = corpus.versions()
    return SynthResult(
        out=request.out,
        seed=request.seed,
        style=request.style,
        patients=corpus.patients,
        documents=len(corpus.gold),
        annotations={name: sum(len(d) for d in docs) for name, docs in versions.items()},
        folders={name: len(docs) for name, docs in versions.items()},
        gold=corpus_statistics(corpus.gold, load_schema("i2b2-2014")),
    )
