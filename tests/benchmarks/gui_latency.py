"""Key-to-repaint latency of one tag edit, and the cold open of a long record, in one process.

Run by :mod:`tests.benchmarks.bench_gui`, once on this tree and once on an older commit's
``annotator`` package (extracted to a temporary folder and put first on ``PYTHONPATH``), so
both are measured the same way in the same run. It uses only API both have: the session,
the main window, its note view and table. Prints one JSON line.

The record: ~200,000 characters on 3,030 lines with 5,000 tags (a third pending), written as
an i2b2 file; the edit journal, per-type colours and the adaptive layout are on (defaults).

* cold open: the file not read ahead (read, parse, lock, view, table), to the painted window;
* one tag edit, key to repaint: a type key pressed on a selected free word (a real key event
  to the note), then the event loop run until it is idle: what Qt repaints for the edit (the
  changed lines of the note, the table, the document list, the status bar, the current
  annotation's panel), including work it defers to zero-delay timers;
* the same edit with the old benchmark's forced repaint: the whole note and the whole table
  painted again synchronously (with every other widget the edit made dirty), whether or not
  they changed: an upper bound, and the figure the earlier benchmark reported.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

CHARS = 200_000
ANNOTATIONS = 5_000
WORDS = ("patient", "reports", "pain", "stable", "follow", "with", "denies", "fever", "plan", "the", "and")
TYPES = ("PATIENT", "DOCTOR", "DATE", "HOSPITAL", "CITY", "PHONE", "AGE", "MEDICALRECORD")


def long_record_xml(folder: Path) -> tuple[str, list[tuple[int, int]]]:
    """Write 900-01.xml (the long record) and 900-02.xml (short); the long text's free words."""
    from annotator.core.document import Document
    from annotator.core.schema import load_schema
    from annotator.io.i2b2 import write_i2b2

    rng = random.Random(7)
    lines, size = [], 0
    while size < CHARS:
        line = " ".join(rng.choice(WORDS) for _ in range(11))
        lines.append(line)
        size += len(line) + 1
    text = "\n".join(lines)[:CHARS]
    document = Document("900-01", text)
    schema = load_schema()
    step = len(text) // ANNOTATIONS
    for i in range(ANNOTATIONS):
        start = i * step
        while start < len(text) and not text[start].isalpha():
            start += 1
        end = start
        while end < len(text) and text[end].isalpha():
            end += 1
        type_name = TYPES[i % len(TYPES)]
        document.add(
            document.make_annotation(schema.category_of(type_name), type_name, start, end, pending=i % 3 == 0)
        )
    write_i2b2(document, folder / "900-01.xml")
    write_i2b2(Document("900-02", "A short second record.\n"), folder / "900-02.xml")
    free: list[tuple[int, int]] = []
    position = 50
    while len(free) < 400 and position < len(text) - 20:
        start = text.find(" ", position) + 1
        end = text.find(" ", start)
        if not document.overlapping(start, end) and text[start:end].isalpha():
            free.append((start, end))
        position = start + 400
    return text, free


class PaintWatcher(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.painted = False
        self.paints = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.painted = True
            self.paints += 1
        return False


def run_until_idle(app: QApplication, anything: PaintWatcher) -> None:
    """Process events until a pass paints nothing more (zero-delay timers, update requests)."""
    quiet = 0
    while quiet < 2:
        before = anything.paints
        app.processEvents()
        quiet = quiet + 1 if anything.paints == before else 0


def settle(app: QApplication, watcher: PaintWatcher) -> None:
    watcher.painted = False
    deadline = time.perf_counter() + 5
    while not watcher.painted and time.perf_counter() < deadline:
        app.processEvents()
    app.processEvents()


def open_window(app: QApplication, folder: Path) -> tuple[Any, PaintWatcher]:
    """A shown 1400x860 main window on ``folder``, the short record open, and its note's watcher."""
    from annotator.gui.main_window import MainWindow
    from annotator.gui.qt_timers import qt_timers
    from annotator.session.annotation_session import AnnotationSession
    from annotator.session.workspace import Workspace

    window = MainWindow(AnnotationSession(Workspace.open(folder, "bench"), timers=qt_timers()))
    window.ask_recovery = lambda doc_id: False
    window.resize(1400, 860)
    window.open_document("900-02")
    window.show()
    watcher = PaintWatcher()
    window.view.viewport().installEventFilter(watcher)
    settle(app, watcher)
    return window, watcher


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure(edits: int, opens: int) -> dict[str, object]:
    import annotator

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    folder = Path(tempfile.mkdtemp(prefix="gui-latency-"))
    _, free = long_record_xml(folder)
    window, watcher = open_window(app, folder)
    session = window.session

    cold: list[float] = []
    cold_cpu: list[float] = []
    for _ in range(opens):
        window.open_document("900-02")
        settle(app, watcher)
        session.workspace.documents.pop("900-01", None)
        session.workspace._prefetched.clear()
        time.sleep(0.05)
        began, began_cpu = time.perf_counter(), time.thread_time()
        window.open_document("900-01")
        window.repaint()  # the whole window, synchronously: what the user sees
        cold.append((time.perf_counter() - began) * 1000)
        cold_cpu.append((time.thread_time() - began_cpu) * 1000)
        settle(app, watcher)

    view, table = window.view, window.table.table
    view.setFocus()
    anything = PaintWatcher()
    app.installEventFilter(anything)
    work: list[float] = []
    cpu: list[float] = []
    forced: list[float] = []
    forced_cpu: list[float] = []
    for number, (start, end) in enumerate(free[: 2 * edits]):
        view.select_span(start, end)
        settle(app, watcher)
        run_until_idle(app, anything)
        began, began_cpu = time.perf_counter(), time.thread_time()
        QTest.keyClick(view, Qt.Key.Key_P)  # PATIENT's key, through the note's own key handling
        if number % 2:
            view.viewport().repaint()
            table.viewport().repaint()
            forced.append((time.perf_counter() - began) * 1000)
            forced_cpu.append((time.thread_time() - began_cpu) * 1000)
        else:
            run_until_idle(app, anything)
            work.append((time.perf_counter() - began) * 1000)
            cpu.append((time.thread_time() - began_cpu) * 1000)
        app.processEvents()
    document = session.document
    tagged = sum(
        1 for s, _ in free[: 2 * edits] if document is not None and any(a.start == s for a in document.at(s))
    )
    session.workspace.documents.clear()
    session.close()
    window.close()
    return {
        "package": str(Path(annotator.__file__).parent),
        "cold_open_ms": cold,
        "cold_open_cpu_ms": cold_cpu,
        "edit_ms": work,
        "edit_cpu_ms": cpu,
        "edit_median_ms": statistics.median(work),
        "edit_p95_ms": percentile(work, 0.95),
        "forced_ms": forced,
        "forced_cpu_ms": forced_cpu,
        "tagged": tagged,
    }


def main() -> int:
    edits = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    opens = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp())
    print(json.dumps(measure(edits, opens)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
