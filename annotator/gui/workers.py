"""Long jobs off the GUI thread, behind a progress dialog with a Cancel button.

A job is a plain function ``job(progress, cancelled)`` (house rule: long jobs report
progress through a callback and check a cancel flag); :func:`run_with_progress` runs it in
a QThread and waits in a local event loop, so the window keeps painting.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEventLoop, QObject, Qt, QThread, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from annotator.errors import AnnotatorError

Job = Callable[[Callable[[int, int], None], Callable[[], bool]], Any]


class JobThread(QThread):
    """Runs one job; the result or a one-line error comes back through signals.

    Signals
    -------
    progressed(int, int)    done, total
    succeeded(object)       the job's return value
    errored(str)            a one-line reason (never note text)
    """

    progressed = Signal(int, int)
    succeeded = Signal(object)
    errored = Signal(str)

    def __init__(self, job: Job, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._job = job
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def run(self) -> None:
        try:
            result = self._job(self.progressed.emit, self._cancel.is_set)
        except AnnotatorError as error:
            self.errored.emit(error.one_line())
        except Exception as error:  # a bug must not kill the window, nor print note text
            self.errored.emit(f"internal error ({type(error).__name__})")
        else:
            self.succeeded.emit(result)


def run_with_progress(parent: QWidget | None, title: str, job: Job, delay_ms: int = 400) -> tuple[bool, Any]:
    """Run ``job`` in a thread, showing a progress dialog if it takes more than ``delay_ms``.

    Returns
    -------
    (ok, result)
        ``ok`` is False when the job was cancelled or failed (``result`` is then the
        reason, or None for a cancel).
    """
    thread = JobThread(job)
    dialog = QProgressDialog(title, "Cancel", 0, 0, parent)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(delay_ms)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    loop = QEventLoop()
    outcome: list[tuple[bool, Any]] = []

    def on_progress(done: int, total: int) -> None:
        dialog.setMaximum(total)
        dialog.setValue(done)

    def on_success(result: object) -> None:
        outcome.append((not thread._cancel.is_set(), result))
        loop.quit()

    def on_error(reason: str) -> None:
        outcome.append((False, reason))
        loop.quit()

    thread.progressed.connect(on_progress)
    thread.succeeded.connect(on_success)
    thread.errored.connect(on_error)
    dialog.canceled.connect(thread.cancel)
    thread.start()
    if not outcome:
        loop.exec()
    thread.wait()
    dialog.close()
    dialog.deleteLater()
    return outcome[0] if outcome else (False, None)
