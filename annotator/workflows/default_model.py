"""Rebuild the bundled default pre-annotation model: ``python -m annotator.workflows.default_model``.

One command, fixed seeds, fixed parameters: the same code and the same pinned Faker give the
same training notes and the same crfsuite model. It trains on the three synthetic note styles
(``annotator synth`` style A, and the independently written styles B and C) and, given the
PhysioNet deid corpus (``$PHYSIONET_DEID``), its training patients 1-110, with public features
only, so the model's features name no rare word of its training notes, and writes
``resources/models/phi-default.model`` (or ``-o PATH``). Its PHI memory holds the real notes'
surrogate places and clinicians (``resources/models/MODEL_CARD.md``). No user's data is in it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from annotator.core.atomic import atomic_write
from annotator.core.document import Document
from annotator.crf.build_vocabulary import LAST_TRAINING_PATIENT
from annotator.crf.default_model import default_model_path
from annotator.crf.guidelines import tag_guideline_gaps
from annotator.crf.phi_memory import PhiMemory
from annotator.crf.tagger import TRAINING_ALGORITHM, TRAINING_ITERATIONS, CrfTagger
from annotator.io.physionet import read_physionet
from annotator.synth.generator import generate_corpus

PHYSIONET_ENV = "PHYSIONET_DEID"

# (style, seed, patients): seeds apart from the benchmarks' (all below 100), so their test
# notes are never in the bundled model's training data. Every style written so far is in: the
# more ways of writing notes the model has seen, the better it does on one it has not
# (``bench_crossstyle --leave-one-style-out`` measures this recipe on a style left out).
TRAINING_CORPORA: tuple[tuple[str, int, int], ...] = (("a", 101, 150), ("b", 102, 250), ("c", 103, 150))
ITERATIONS = TRAINING_ITERATIONS
# The build date is not recorded: the same command gives the same file.
BUILD_DATE = "reproducible-build"


def training_notes(scale: float = 1.0, physionet: Path | None = None) -> list[Document]:
    """The gold notes of every training corpus (``scale`` shrinks them, for tests).

    ``physionet``: the PhysioNet deid folder; its training patients (1-110) join the synthetic
    notes, with what their Safe Harbor gold leaves untagged and our i2b2 guidelines tag
    tagged (:func:`~annotator.crf.guidelines.tag_guideline_gaps`). Its test
    patients (111-163) are never read here.
    """
    notes = synthetic_training_notes(scale)
    if physionet is not None:
        notes += fitted_real_training_notes(physionet, scale)
    return notes


def synthetic_training_notes(scale: float = 1.0) -> list[Document]:
    """The synthetic styles' gold notes the bundled model learns (``annotator train --with-synthetic`` too)."""
    notes: list[Document] = []
    for style, seed, patients in TRAINING_CORPORA:
        notes += generate_corpus(patients=max(2, round(patients * scale)), seed=seed, style=style).gold
    return notes


def fitted_real_training_notes(physionet: Path, scale: float = 1.0) -> list[Document]:
    """:func:`real_training_notes` as the bundled model learns them: under our guidelines."""
    return [tag_guideline_gaps(note) for note in real_training_notes(physionet, scale)]


def real_training_notes(physionet: Path, scale: float = 1.0) -> list[Document]:
    """The PhysioNet corpus's training patients (1-110; ``scale`` shrinks them, for tests)."""
    real = [d for d in read_physionet(physionet) if int(d.patient_id) <= LAST_TRAINING_PATIENT]
    return real[: max(2, round(len(real) * scale))]


def build_default_model(
    out: Path, scale: float = 1.0, iterations: int = ITERATIONS, physionet: Path | None = None
) -> CrfTagger:
    """Train the default model on the synthetic styles (and real notes) and write it to ``out``.

    The model remembers the places and clinicians of the real notes (their surrogates: no
    one's PHI), not those of the synthetic ones, which were wrong more often than right on
    real notes (:mod:`annotator.crf.phi_memory`).
    """
    tagger = CrfTagger(algorithm=TRAINING_ALGORITHM, max_iterations=iterations, remember_phi=False)
    metadata = tagger.train(training_notes(scale, physionet))
    if physionet is not None:
        tagger.memory = PhiMemory.learn(real_training_notes(physionet, scale), tagger.schema)
    metadata.created = BUILD_DATE
    atomic_write(out, tagger.to_bytes())
    return tagger


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m annotator.workflows.default_model", description=__doc__)
    parser.add_argument("-o", "--output", type=Path, default=default_model_path(), help="model file to write")
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the training corpora (tests)")
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument(
        "--physionet",
        type=Path,
        default=os.environ.get(PHYSIONET_ENV),
        help=f"the PhysioNet deid 1.1 folder (default: ${PHYSIONET_ENV}); the bundled model is built with it",
    )
    args = parser.parse_args(argv)
    if args.physionet is None:
        print(
            f"note: no PhysioNet corpus (--physionet or ${PHYSIONET_ENV}): synthetic notes only",
            file=sys.stderr,
        )
    tagger = build_default_model(args.output, args.scale, args.iterations, args.physionet)
    metadata = tagger.metadata
    assert metadata is not None  # trained above
    size = args.output.stat().st_size
    print(
        f"default model: {metadata.documents} notes, {metadata.tokens:,} tokens, {metadata.annotations:,} "
        f"annotations, remembers {len(tagger.memory):,} phrases; {size / 1e6:.1f} MB written to {args.output}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
