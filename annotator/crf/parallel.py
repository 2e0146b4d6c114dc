"""Tag many notes, or train several models, on several processes: the same results as one
process, sooner.

A tagger spends its time in Python (features, the rules) and in crfsuite, one core at a
time. A project of thousands of notes is split into shards of whole patients (a patient's
records are read together: names found in one are looked for in the others), each shard
tagged by :meth:`CrfTagger.predict_spans` in a worker process, exactly as one process would
tag it. Workers are started fresh (``spawn``), never forked: the GUI calls this from a
thread of a Qt application, and a forked copy of such a process can hang on a lock another
thread held. :func:`run_calls` runs a few long jobs the same way (cross-validation's
trainings), with their progress and a cancel shared with the workers.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import pickle
import queue
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

from annotator.core.document import Document
from annotator.errors import AnnotatorError

if TYPE_CHECKING:
    from annotator.crf.labels import Prediction
    from annotator.crf.tagger import CrfTagger

T = TypeVar("T")

# Below this much text a worker's start (imports, the model, the word lists: about a second
# and a half) costs more than sharing the work saves.
MIN_PARALLEL_CHARS = 400_000
# More shards than workers: a worker that finishes early takes another, and progress moves.
SHARDS_PER_WORKER = 8
MAX_AUTO_WORKERS = 4
# How often the waiting process looks at the cancel flag.
_POLL_SECONDS = 0.1


# A worker process starts by importing the program's main module. PHI Annotator's own entry
# points (the ``annotator`` command and its window, ``python -m annotator``) are safe to import
# and say so; a script of someone else's may not be (without an ``if __name__ ==
# "__main__"`` guard it would run itself again in every worker), so it gets one process
# unless it asks for more.
_auto_allowed = False


def allow_auto_workers() -> None:
    """Let :func:`auto_workers` choose several processes (called by the program's entry point)."""
    global _auto_allowed
    _auto_allowed = True


def auto_workers_allowed() -> bool:
    """Whether an entry point allowed choosing several processes (see above)."""
    return _auto_allowed


def auto_workers(documents: Sequence[Document]) -> int:
    """How many processes to tag ``documents`` with when the user does not say: one for a
    little text (or when no entry point allowed more), else one per core (at most
    :data:`MAX_AUTO_WORKERS`)."""
    if not _auto_allowed or sum(len(d.text) for d in documents) < MIN_PARALLEL_CHARS:
        return 1
    return max(1, min(os.cpu_count() or 1, MAX_AUTO_WORKERS))


def patient_shards(documents: Sequence[Document], count: int) -> list[list[Document]]:
    """Whole patients in at most ``count`` shards of about equal text, largest patients first."""
    patients: dict[str, list[Document]] = {}
    for document in documents:
        patients.setdefault(document.patient_id, []).append(document)
    shards: list[list[Document]] = [[] for _ in range(max(1, min(count, len(patients))))]
    sizes = [0] * len(shards)
    for records in sorted(patients.values(), key=lambda r: -sum(len(d.text) for d in r)):
        smallest = sizes.index(min(sizes))
        shards[smallest] += records
        sizes[smallest] += sum(len(d.text) for d in records)
    return [shard for shard in shards if shard]


def document_shards(documents: Sequence[Document], count: int) -> list[list[Document]]:
    """Documents in at most ``count`` shards of about equal text (for work done note by note)."""
    shards: list[list[Document]] = [[] for _ in range(max(1, min(count, len(documents))))]
    sizes = [0] * len(shards)
    for document in sorted(documents, key=lambda d: -len(d.text)):
        smallest = sizes.index(min(sizes))
        shards[smallest].append(document)
        sizes[smallest] += len(document.text)
    return [shard for shard in shards if shard]


#: Work done on one shard in a worker: (the tagger, the shard's documents, an argument) to
#: results by document id. A module-level function, so that a worker can import it.
ShardTask = Callable[["CrfTagger", list[Document], Any], dict[str, T]]

_worker_model: bytes = b""
_worker_tagger: CrfTagger | None = None


# Ctrl-C and SIGTERM wait while the workers start: a worker started by a process that dies while
# it hands the worker its start-up data reads half of it, and prints a traceback.
_HELD = frozenset({signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    if not hasattr(signal, "pthread_sigmask"):  # not on Windows: nothing to hold there
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)  # a held signal is raised now


def _release_signals() -> None:
    """A worker inherits the held signals: it takes them again once it has started."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


def _start_worker(model: bytes) -> None:
    # Only kept here: opened with the first shard, so that a model that fails to open fails
    # that shard (and the caller) instead of every worker that the pool would start anew.
    global _worker_model
    _release_signals()
    _worker_model = model
    threading.Thread(target=_exit_with_parent, daemon=True).start()


def _exit_with_parent() -> None:
    """End this worker when the process that started it ends.

    A parent killed (``kill``, a crash of the window) cannot stop its workers, and they never
    notice on their own: each holds the writing end of the queue it waits on, so they would
    sit idle, 200 MB each, until the machine restarts.
    """
    parent = multiprocessing.parent_process()
    if parent is not None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)


def _run_shard(job: tuple[int, ShardTask[T], list[Document], Any]) -> tuple[int, dict[str, T]]:
    global _worker_tagger
    index, task, documents, argument = job
    if _worker_tagger is None:
        _worker_tagger = pickle.loads(_worker_model)
    return index, task(_worker_tagger, documents, argument)


def map_shards(
    tagger: CrfTagger,
    shards: Sequence[list[Document]],
    task: ShardTask[T],
    argument: Any,
    workers: int,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    job: str = "pre-annotation",
) -> dict[str, T]:
    """``task`` on every shard, on ``workers`` processes (at most one per core); progress
    counts the characters of the shards done.

    Raises whatever a shard's task raised, and :class:`~annotator.errors.AnnotatorError`
    when a worker process dies (killed, out of memory); a cancel or an error stops every
    worker at once.
    """
    sizes = [sum(len(d.text) for d in shard) for shard in shards]
    total = sum(sizes) or 1
    results: dict[str, T] = {}
    done = 0

    def collect(index: int, shard_results: dict[str, T]) -> None:
        nonlocal done
        results.update(shard_results)
        done += sizes[index]
        if progress is not None:
            progress(min(done, total), total)

    pool = _pool(workers, len(shards), _start_worker, (pickle.dumps(tagger),))
    futures = _submit_all(
        pool, [(_run_shard, ((i, task, shard, argument),)) for i, shard in enumerate(shards)]
    )
    _collect(pool, futures, job, cancelled, collect)
    return results


def _submit_all(
    pool: ProcessPoolExecutor, calls: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]]
) -> list[Future[Any]]:
    """Submit every call. Submitting starts the workers: interrupted meanwhile (Ctrl-C, SIGTERM),
    the workers started are stopped and waited for, so that none is left starting up against
    the queues and locks the dying process removes (it printed a traceback)."""
    futures: list[Future[Any]] = []
    before = set(multiprocessing.active_children())
    try:
        with _signals_held():
            for function, arguments in calls:
                futures.append(pool.submit(function, *arguments))
    except BaseException:
        # A worker may be started but not yet the pool's (the signal came in between): every
        # process started meanwhile is stopped, or the exit would wait for it forever.
        started = set(multiprocessing.active_children()) - before
        _stop_workers(pool)
        for process in started:
            process.terminate()
        for process in started:
            process.join(timeout=5)
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    return futures


def _pool(
    workers: int, jobs: int, initializer: Callable[..., None], initargs: tuple[Any, ...]
) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        # More processes than cores only adds their memory (about 200 MB each): --workers 1000
        # would have started one per patient.
        max(1, min(workers, os.cpu_count() or 1, jobs)),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=initializer,
        initargs=initargs,
    )


def _collect(
    pool: ProcessPoolExecutor,
    futures: Sequence[Future[tuple[int, Any]]],
    job: str,
    cancelled: Callable[[], bool] | None,
    collect: Callable[[int, Any], None],
    tick: Callable[[], None] | None = None,
    cancel_event: Any = None,
) -> None:
    """Hand each finished ``(index, result)`` to ``collect`` until all are in; then shut the
    pool down. A cancel, an error or a dead worker stops every worker at once."""
    from annotator.crf.tagger import TrainingCancelled

    pending = set(futures)
    try:
        while pending:
            if cancelled is not None and cancelled():
                raise TrainingCancelled(f"{job} cancelled")
            finished, pending = wait(pending, timeout=_POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in finished:
                collect(*future.result())
            if tick is not None:
                tick()
    except BrokenProcessPool:
        raise AnnotatorError(
            f"a {job} process stopped before it finished (was it killed, or out of memory?); "
            "use one process (--workers 1) if it happens again"
        ) from None
    except BaseException:
        if cancel_event is not None:
            cancel_event.set()
        _stop_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _predict(
    tagger: CrfTagger, documents: list[Document], recall_bias: float | None
) -> dict[str, list[Prediction]]:
    return tagger.predict_spans(documents, recall_bias)


def predict_spans_in_parallel(
    tagger: CrfTagger,
    documents: Sequence[Document],
    recall_bias: float | None,
    workers: int,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> dict[str, list[Prediction]]:
    """:meth:`CrfTagger.predict_spans` over ``workers`` processes, whole patients to each."""
    shards = patient_shards(documents, workers * SHARDS_PER_WORKER)
    spans = map_shards(tagger, shards, _predict, recall_bias, workers, progress, cancelled)
    return {d.doc_id: spans[d.doc_id] for d in documents}


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop the workers now: a cancelled or failed run does not wait for their shards.

    The executor keeps its processes private (Python 3.14 adds ``terminate_workers``)."""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()


# A long job's own progress and the caller's cancel, shared with the workers at their start
# (a queue or an event cannot be handed to a task afterwards).
_progress_queue: Any = None
_cancel_event: Any = None


def _start_job_worker(progress_queue: Any, cancel_event: Any) -> None:
    global _progress_queue, _cancel_event
    _release_signals()
    _progress_queue, _cancel_event = progress_queue, cancel_event
    threading.Thread(target=_exit_with_parent, daemon=True).start()


def _run_call(index: int, function: Callable[..., T], arguments: tuple[Any, ...]) -> tuple[int, T]:
    def progress(done: int, total: int) -> None:
        _progress_queue.put((index, done, total))

    def cancelled() -> bool:
        return bool(_cancel_event.is_set())

    return index, function(*arguments, progress=progress, cancelled=cancelled)


def run_calls(
    calls: Sequence[tuple[Callable[..., T], tuple[Any, ...]]],
    workers: int,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    job: str = "training",
) -> list[T]:
    """``function(*arguments, progress=..., cancelled=...)`` for each call, on ``workers``
    processes (at most one per core); their results in the calls' order.

    For a few long jobs (a cross-validation's trainings): each call's own progress reaches
    ``progress`` as thousandths of all the calls together, and a cancel reaches every call
    through its ``cancelled``, then stops the workers. Errors as :func:`map_shards`.
    """
    context = multiprocessing.get_context("spawn")
    progress_queue = context.Queue()
    cancel_event = context.Event()
    fractions = [0.0] * len(calls)
    results: dict[int, T] = {}

    def collect(index: int, result: T) -> None:
        results[index] = result
        fractions[index] = 1.0

    def report() -> None:
        while True:
            try:
                index, done, total = progress_queue.get_nowait()
            except queue.Empty:
                break
            if fractions[index] < 1.0:
                fractions[index] = done / total if total else 0.0
        if progress is not None:
            progress(int(1000 * sum(fractions)), 1000 * len(calls))

    pool = _pool(workers, len(calls), _start_job_worker, (progress_queue, cancel_event))
    futures = _submit_all(
        pool, [(_run_call, (i, function, arguments)) for i, (function, arguments) in enumerate(calls)]
    )
    try:
        _collect(pool, futures, job, cancelled, collect, report, cancel_event)
    finally:
        progress_queue.close()
    return [results[index] for index in range(len(calls))]
