"""Retrain as you go: after every N newly finished notes, a new model in the background.

N is the project's ``retrain_every`` (0: never). Notes count when this annotator marks them
done in this window. The training runs in a child process (see
:mod:`annotator.workflows.retrain`) watched by a worker thread, so the window never waits
for it; when it ends, the new model is in ``models/crf.model``, the queue "Next by priority"
serves is the one ranked with it, and the notes not started yet have the new model's
suggestions. A permanent status-bar field says what the model is doing. Quitting the window
cancels a running retrain (the child is killed; the old model stays).

Signals
-------
swapped(object)     a retrain ended and its model is in use (the RetrainResult)
message(str)        what happened, for the status bar's message area
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from annotator.gui.elided_label import ElidedLabel
from annotator.gui.priority_queue import PriorityQueue
from annotator.gui.workers import JobThread
from annotator.io.workstate import DONE
from annotator.session.annotation_session import AnnotationSession
from annotator.workflows.notes import Cancelled, Progress
from annotator.workflows.retrain import RetrainRequest, RetrainResult, retrain_in_child


class RetrainAsYouGo(QObject):
    """Counts finished notes and retrains in the background every ``retrain_every`` of them.

    Parameters
    ----------
    parent:
        The window.
    session:
        Whose notes are finished, in which project.
    queue:
        The window's queue, given the newly ranked one after each retrain.
    field:
        The status-bar field it writes to.
    """

    swapped = Signal(object)
    message = Signal(str)

    def __init__(
        self, parent: QObject, session: AnnotationSession, queue: PriorityQueue, field: ElidedLabel
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.queue = queue
        self.field = field
        project = session.workspace.project
        self.every = 0 if project.plain_folder else project.retrain_every
        # Notes done before this window opened are not "newly" finished.
        self._done = (
            {d for d, status in session.statuses().items() if status == DONE} if self.every else set()
        )
        self.finished_since = 0
        self.worker: JobThread | None = None
        self.last: RetrainResult | None = None
        session.entry_changed.connect(self._on_session_entry_changed)
        self.field.setText(f"Model: retrains every {self.every} finished notes" if self.every else "")

    @property
    def running(self) -> bool:
        return self.worker is not None

    def _on_session_entry_changed(self, doc_id: str) -> None:
        # The recorded status (a dictionary look-up): this runs after every edit.
        session = self.session
        if not self.every or doc_id in self._done or session.state.status(doc_id, session.annotator) != DONE:
            return
        self._done.add(doc_id)
        self.finished_since += 1
        if self.finished_since >= self.every and not self.running:
            self.start()

    def start(self) -> None:
        """Retrain now (in the background); counting starts again from zero."""
        if self.running:
            return
        self.finished_since = 0
        # The child reads the files: the statuses and the finished notes must be on disk first
        # (the work state is otherwise written a moment later, and edits at the next save).
        self.session.flush_state()
        if self.session.workspace.dirty():
            self.session.save()
        request = RetrainRequest(self.session.workspace.project, self.session.annotator)

        def job(_progress: Progress, cancelled: Cancelled) -> RetrainResult:
            return retrain_in_child(request, cancelled)

        self.worker = JobThread(job, self)
        self.worker.succeeded.connect(self._on_worker_succeeded)
        self.worker.errored.connect(self._on_worker_errored)
        self.field.setText("Model: retraining on the finished notes…")
        self.worker.start()

    def cancel(self) -> None:
        """Stop a running retrain and wait for its thread (the window is closing)."""
        worker = self.worker
        if worker is None:
            return
        # Its last signal must not reach a window being torn down.
        worker.succeeded.disconnect(self._on_worker_succeeded)
        worker.errored.disconnect(self._on_worker_errored)
        worker.cancel()
        worker.wait()
        self.worker = None

    def _done_with_worker(self) -> None:
        if self.worker is not None:
            self.worker.wait()
            self.worker.deleteLater()
            self.worker = None

    def _on_worker_succeeded(self, result: RetrainResult) -> None:
        self._done_with_worker()
        self.last = result
        self.queue.set_queue(result.queue)
        self.field.setText(f"Model: retrained on {result.documents} notes")
        self.message.emit(
            f"Model retrained on {result.documents} finished notes in {result.seconds:.0f} s: queue "
            f"re-ranked, suggestions refreshed for {len(result.refreshed)} notes not started."
        )
        self.swapped.emit(result)
        if self.finished_since >= self.every:
            self.start()  # more notes were finished meanwhile

    def _on_worker_errored(self, reason: str) -> None:
        self._done_with_worker()
        self.field.setText("Model: not retrained")
        self.message.emit(f"Model not retrained: {reason}")
