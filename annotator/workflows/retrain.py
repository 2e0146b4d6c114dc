"""Retrain as you go: learn from the finished notes, re-rank the queue, refresh waiting suggestions.

After every ``retrain_every`` newly finished notes (a project setting) the window calls
:func:`retrain_in_child`: a child process trains the tagger on the gold standard and on every
note an annotator marked done (their reviewed tags; pending suggestions are not teaching
material), saves it as the project's ``models/crf.model`` (atomically: the old model stays
until the new one is whole), ranks the annotator's queue with it, and rewrites the
pre-annotations of the notes nobody has started, so they open with the new model's
suggestions. Notes already started keep theirs: nobody's work, and nobody's record of what
they were shown, is changed.

Why a process and not a thread: crfsuite holds the interpreter lock for seconds at a time
while it trains (measured: the longest pause of a 5 ms ticker thread was 1.9 s during a
20-iteration L-BFGS run on the demo's 41 notes), which would freeze the window's key
handling. The child is a fresh interpreter (``python -m annotator.workflows.retrain``: no copy
of the window's state or threads), polled every 50 ms, and killed at once when the job is
cancelled (the window quits).

Training uses L-BFGS with :data:`RETRAIN_ITERATIONS` iterations (the full ``annotator
train`` runs 60): the model is replaced again after the next few notes anyway.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from annotator.core.atomic import atomic_write
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.crf.tagger import CrfTagger
from annotator.errors import AnnotatorError, UsageError
from annotator.io.i2b2 import read_i2b2
from annotator.io.workstate import DONE, WorkState
from annotator.workflows.notes import Cancelled, Progress, WorkflowCancelled, check_cancel
from annotator.workflows.preannotate import preannotate, project_request
from annotator.workflows.queue import PROJECT_MODEL, QueueRequest, QueueResult, build_queue

RETRAIN_ITERATIONS = 30


@dataclass(frozen=True)
class RetrainRequest:
    """Retrain ``project``'s tagger for ``annotator``'s queue."""

    project: Project
    annotator: str
    iterations: int = RETRAIN_ITERATIONS


@dataclass
class RetrainResult:
    model: Path
    documents: int
    queue: QueueResult
    refreshed: list[str] = field(default_factory=list)
    seconds: float = 0.0


def finished_documents(project: Project) -> list[Document]:
    """The gold notes, and every note an annotator marked done that has no gold yet."""
    documents: dict[str, Document] = {}
    for path in sorted(project.gold_dir.glob("*.xml")):
        try:
            documents[path.stem] = read_i2b2(path)
        except AnnotatorError:
            continue  # an unreadable gold note is reported by validate, not trained on
    state = WorkState.load(project)
    for annotator in project.annotators:
        for doc_id, status in sorted(state.statuses(annotator).items()):
            copy = project.annotations_dir(annotator) / f"{doc_id}.xml"
            if status != DONE or doc_id in documents or not copy.is_file():
                continue
            try:
                document = read_i2b2(copy)
            except AnnotatorError:
                continue
            reviewed = [a for a in document.annotations if not a.pending]
            documents[doc_id] = Document(doc_id, document.text, reviewed)
    return list(documents.values())


def retrain(
    request: RetrainRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> RetrainResult:
    """Train on the finished notes, save the model, rank the queue, refresh waiting suggestions."""
    started = time.perf_counter()
    project = request.project
    documents = finished_documents(project)
    if not documents:
        raise UsageError("no finished notes to learn from yet (no gold, nothing marked done)")
    tagger = CrfTagger(project.schema, algorithm="lbfgs", max_iterations=request.iterations)
    tagger.train(documents, progress, cancelled)
    check_cancel(cancelled, "retraining")
    model = project.models_dir / PROJECT_MODEL
    model.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(model, tagger.to_bytes())
    queue = build_queue(QueueRequest(project, request.annotator, model), cancelled=cancelled, tagger=tagger)
    waiting = project_request(project, model)
    refreshed = preannotate(waiting, cancelled=cancelled).documents if waiting.inputs else []
    return RetrainResult(
        model, len(documents), queue, [d.doc_id for d in refreshed], time.perf_counter() - started
    )


def _child_main() -> int:
    """``python -m annotator.workflows.retrain``: a pickled request on stdin, a pickled
    ``(kind, payload)`` on stdout (both ends are this module, in processes of one user)."""
    # The window the annotator types in comes first: this process gets the CPU time left over.
    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)
    request = pickle.load(sys.stdin.buffer)
    try:
        answer: tuple[str, object] = ("ok", retrain(request))
    except AnnotatorError as error:
        answer = ("error", error.one_line())
    except Exception as error:  # a bug: its kind, never note text
        answer = ("error", f"internal error ({type(error).__name__})")
    sys.stdout.buffer.write(pickle.dumps(answer))
    sys.stdout.buffer.flush()
    return 0


def retrain_in_child(
    request: RetrainRequest, cancelled: Cancelled | None = None, poll_seconds: float = 0.05
) -> RetrainResult:
    """:func:`retrain` in a child process; terminated at once when ``cancelled()`` turns True.

    Raises
    ------
    WorkflowCancelled
        It was cancelled (the child was killed; the old model is still in place).
    AnnotatorError
        The child failed (its one-line reason).
    """
    with tempfile.TemporaryFile() as output:
        command = [sys.executable, "-m", "annotator.workflows.retrain"]
        if shutil.which("nice"):
            # Niced from its first instruction (its own os.nice comes after the imports).
            command = ["nice", "-n", "19", *command]
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=output,
            stderr=subprocess.DEVNULL,
        )
        try:
            assert process.stdin is not None
            process.stdin.write(pickle.dumps(request))
            process.stdin.close()
            while process.poll() is None:
                if cancelled is not None and cancelled():
                    raise WorkflowCancelled("retraining cancelled; the model was not replaced")
                time.sleep(poll_seconds)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        output.seek(0)
        try:
            kind, payload = pickle.load(output)
        except (EOFError, pickle.UnpicklingError):
            raise AnnotatorError(
                f"the retraining process ended without a result (exit {process.returncode})"
            ) from None
    if kind != "ok":
        raise AnnotatorError(str(payload))
    result: RetrainResult = payload
    return result


if __name__ == "__main__":
    # Run the imported module's copy, so what is pickled names annotator.workflows.retrain
    # classes (not __main__ ones the parent cannot find).
    from annotator.workflows.retrain import _child_main as child_main

    sys.exit(child_main())
