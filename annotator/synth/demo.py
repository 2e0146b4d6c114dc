"""The bundled demo project: about ten synthetic patients, ready to annotate and adjudicate.

``resources/demo`` holds its output of :func:`build_demo_project` (rebuild it with
``python -m annotator.synth.demo``). :func:`ensure_demo_project` copies it to a user data
folder the first time, so the bundled copy itself is never edited.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from annotator.core.document import Document
from annotator.core.project import PROJECT_FILE, Project
from annotator.core.resources import resource_path
from annotator.errors import StorageError
from annotator.synth.demo_histories import simulate_demo_histories
from annotator.synth.generator import generate_corpus, write_documents

DEMO_DIR = resource_path("demo")
DEMO_NAME = "Demo"
DEMO_ANNOTATORS = ("alice", "bob")
DEMO_PATIENTS = 10
DEMO_SEED = 2014


def default_demo_location() -> Path:
    """``$XDG_DATA_HOME/phi-annotator/demo``, or ``~/.local/share/phi-annotator/demo``."""
    data_home = os.environ.get("XDG_DATA_HOME") or ""
    base = Path(data_home) if os.path.isabs(data_home) else Path.home() / ".local" / "share"
    return base / "phi-annotator" / "demo"


def build_demo_project(dest: str | Path, seed: int = DEMO_SEED, patients: int = DEMO_PATIENTS) -> Project:
    """Create the demo project in ``dest`` (which must not hold a project yet).

    Layout (annotator.core.project): ``source/`` the notes with empty TAGS,
    ``preannotations/`` model suggestions, ``annotations/alice`` and ``annotations/bob`` the
    two simulated annotators, ``gold/`` the reference.
    """
    # Two rare types per patient: ten patients then show every type of the scheme.
    corpus = generate_corpus(patients, seed, annotator_names=DEMO_ANNOTATORS, rare_per_patient=2)
    project = Project.create(dest, DEMO_NAME, "i2b2-2014", list(DEMO_ANNOTATORS))
    jobs: list[tuple[Document, Path]] = []
    for gold in corpus.gold:
        jobs.append((Document(gold.doc_id, gold.text), project.source_dir / f"{gold.doc_id}.xml"))
        jobs.append((gold, project.gold_dir / f"{gold.doc_id}.xml"))
    for name, documents in zip(DEMO_ANNOTATORS, (corpus.annotator_a, corpus.annotator_b), strict=True):
        jobs.extend((d, project.annotations_dir(name) / f"{d.doc_id}.xml") for d in documents)
    jobs.extend((d, project.preannotations_dir / f"{d.doc_id}.xml") for d in corpus.preannotated)
    write_documents(jobs)
    return project


def ensure_demo_project(dest: Path | None = None) -> Path:
    """Copy the bundled demo project to ``dest`` unless a project is already there.

    Parameters
    ----------
    dest:
        Where the demo project should live; :func:`default_demo_location` when omitted.

    Returns
    -------
    Path
        The demo project's folder.
    """
    dest = Path(dest) if dest is not None else default_demo_location()
    if (dest / PROJECT_FILE).is_file():
        return dest
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise StorageError("exists and is not a demo project; choose another folder", dest)
    if not (DEMO_DIR / PROJECT_FILE).is_file():
        raise StorageError("the bundled demo project is missing from this installation", DEMO_DIR)
    staging: Path | None = None
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        # Copy beside the target, then rename: an interrupted copy never looks like a project.
        staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
        shutil.copytree(DEMO_DIR, staging, dirs_exist_ok=True)
        # Simulated sessions of the demo's annotators, for the effort report to show.
        simulate_demo_histories(staging)
        if dest.exists():
            dest.rmdir()
        os.replace(staging, dest)
    except OSError as error:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        raise StorageError(f"cannot create the demo project: {error.strerror}", dest) from None
    return dest


if __name__ == "__main__":
    if DEMO_DIR.exists():
        shutil.rmtree(DEMO_DIR)
    built = build_demo_project(DEMO_DIR)
    print(f"demo project written to {built.root}")
