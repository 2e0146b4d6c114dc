""" "Next by priority": open the waiting note the tagger is least sure of.

The queue (:func:`annotator.workflows.queue.build_queue`) is ranked in a worker thread the
first time it is asked for, and again whenever the model changes (:meth:`set_queue` takes a
queue ranked elsewhere, e.g. by the background retrain). Before a note is opened, who has
started what is read again from the work state, so a note another annotator claimed since
the ranking, or one this annotator started from the list, is passed over.

Signals
-------
message(str)    what happened, for the status bar
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from annotator.errors import AnnotatorError
from annotator.gui.workers import run_with_progress
from annotator.session.annotation_session import AnnotationSession
from annotator.workflows.notes import Cancelled, Progress
from annotator.workflows.queue import QueueRequest, QueueResult, build_queue, waiting_notes


class PriorityQueue(QObject):
    """The window's ranked queue of waiting notes.

    Parameters
    ----------
    parent:
        The window (the progress dialog's parent).
    session:
        Whose notes, in which project.
    open_document:
        Opens a note in the window; False when it could not.
    """

    message = Signal(str)

    def __init__(
        self, parent: QWidget, session: AnnotationSession, open_document: Callable[[str], bool]
    ) -> None:
        super().__init__(parent)
        self._parent = parent
        self.session = session
        self._open_document = open_document
        self.queue: QueueResult | None = None

    def set_queue(self, queue: QueueResult) -> None:
        """Use a queue ranked elsewhere (after the model changed)."""
        self.queue = queue

    def rank(self) -> QueueResult | None:
        """Rank the waiting notes now (in a worker, behind a progress dialog); None if cancelled."""
        workspace = self.session.workspace
        request = QueueRequest(workspace.project, self.session.annotator)

        def job(progress: Progress, cancelled: Cancelled) -> QueueResult:
            return build_queue(request, progress, cancelled)

        ok, result = run_with_progress(self._parent, "Ranking the notes by the model's uncertainty…", job)
        if not ok:
            self.message.emit(f"Not ranked: {result}" if result else "Ranking cancelled.")
            return None
        self.queue = result
        return self.queue

    def next_doc_id(self) -> str | None:
        """The highest-ranked note still waiting (ranking first if needed)."""
        workspace = self.session.workspace
        if workspace.project.plain_folder:
            self.message.emit("Next by priority needs a project (a plain folder has no queue).")
            return None
        queue = self.queue or self.rank()
        if queue is None:
            return None
        try:
            waiting, _claimed = waiting_notes(workspace.project, self.session.annotator)
        except AnnotatorError as error:
            self.message.emit(f"Cannot read who started what: {error.one_line()}")
            return None
        still = set(waiting) - {self.session.doc_id}
        for entry in queue.entries:
            if entry.doc_id in still:
                return entry.doc_id
        return None

    def open_next(self) -> str | None:
        """Open the highest-ranked waiting note; its id, or None when none is left."""
        doc_id = self.next_doc_id()
        if doc_id is None:
            if self.queue is not None:
                self.message.emit("No notes left in the queue: every note is started or claimed.")
            return None
        if not self._open_document(doc_id):
            return None
        entry = next(e for e in self.queue.entries if e.doc_id == doc_id) if self.queue else None
        if entry is not None:
            self.message.emit(
                f"Opened {doc_id}, number {entry.rank} of the queue "
                f"({1000 * entry.uncertainty:.2f} expected errors per 1,000 tokens)."
            )
        return doc_id
