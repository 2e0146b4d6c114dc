"""Crash tests for the write-ahead journal: a real annotation window in a child process,
driven by real key events, SIGKILLed at a random moment; every edit it acknowledged before
the kill must come back when the document is reopened (the journal line is written before
the edit is shown; only its fsync is left to the background thread).

The default run makes a few trials; ``pytest -m soak`` makes 200 (about 4 minutes).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from annotator.core.project import Project
from annotator.io.i2b2 import read_i2b2
from annotator.io.journal import journal_path, read_journal
from annotator.session.annotation_session import AnnotationSession
from annotator.session.timers import ManualTimers
from annotator.session.workspace import Workspace
from tests.gui.conftest import make_project

REPO = Path(__file__).resolve().parents[2]
# Autosave is pushed an hour away: only the journal can save these edits.
CHILD = textwrap.dedent(
    """
    import random, re, sys, time
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication
    from annotator.gui.main_window import MainWindow
    from annotator.gui.qt_timers import qt_timers
    from annotator.session.annotation_session import AnnotationSession
    from annotator.session.workspace import Workspace

    app = QApplication([])
    session = AnnotationSession(Workspace.open(sys.argv[1], "alice"), autosave_delay=3600, timers=qt_timers())
    window = MainWindow(session)
    window.ask_recovery = lambda doc_id: True
    window.resize(1280, 720)
    window.show()
    window.open_document("200-01")
    app.processEvents()
    rng = random.Random(int(sys.argv[2]))
    text = session.document.text
    taken = [(a.start, a.end) for a in session.document.annotations]
    words = [m.span() for m in re.finditer(r"[A-Za-z]{4,}", text)
             if not any(s < m.end() and m.start() < e for s, e in taken)]
    print("ready", flush=True)
    for start, end in words:
        window.view.select_span(start, end)
        QTest.keyClick(window.view, "r")
        app.processEvents()
        print(f"ack {start} {end} {time.monotonic()}", flush=True)
        QTest.qWait(rng.randint(0, 40))
    print("done", flush=True)
    time.sleep(60)
    """
)


def _trial(project: Project, seed: int) -> tuple[int, int]:
    """One kill; returns (edits acknowledged early enough, of them recovered)."""
    rng = random.Random(seed)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(project.root), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=REPO,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    time.sleep(rng.uniform(0.0, 0.8))
    killed_at = time.monotonic()
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    acked = []
    for line in child.stdout.read().splitlines():
        if line.startswith("ack "):
            _, start, end, at = line.split()
            if float(at) <= killed_at:
                acked.append((int(start), int(end)))
    working = project.annotations_dir("alice") / "200-01.xml"
    read_i2b2(working)  # the saved file always parses
    read_journal(journal_path(working))  # and so does the journal (a torn last line is dropped)
    session = AnnotationSession(Workspace.open(project.root, "alice"), timers=ManualTimers())
    document = session.open_document("200-01", ask_recovery=lambda doc_id: True)
    spans = {(a.start, a.end) for a in document.annotations}
    recovered = sum(1 for span in acked if span in spans)
    session.save()
    session.close()
    return len(acked), recovered


def _run(tmp_path: Path, trials: int) -> None:
    acknowledged = recovered = 0
    for seed in range(trials):
        project = make_project(tmp_path / f"p{seed}")
        got = _trial(project, seed)
        acknowledged += got[0]
        recovered += got[1]
    print(f"{trials} kills: {acknowledged} edits acknowledged before the kill, {recovered} recovered")
    assert recovered == acknowledged
    assert acknowledged > 0  # the kills did land after some edits


def test_killed_window_loses_no_acknowledged_edit(tmp_path: Path) -> None:
    _run(tmp_path, 4)


@pytest.mark.soak
def test_killed_window_loses_no_acknowledged_edit_200_trials(tmp_path: Path) -> None:
    _run(tmp_path, 200)
