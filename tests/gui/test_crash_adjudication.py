"""Crash tests for the adjudication window: a real window in a child process, decisions made
with real key events, SIGKILLed at a random moment; every decision it acknowledged before the
kill is in the decision log when the corpus is reopened (the line is written before the
decision is shown).

The default run makes a few trials; ``pytest -m soak`` makes 200.
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

from annotator.adjudication.corpus import prepare_corpus
from annotator.adjudication.decisions import log_path, read_log
from annotator.synth.generator import generate_corpus, write_corpus

REPO = Path(__file__).resolve().parents[2]
CHILD = textwrap.dedent(
    """
    import random, sys, time
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication
    from annotator.adjudication.corpus import prepare_corpus
    from annotator.gui.adjudication.window import AdjudicationWindow

    app = QApplication([])
    root = sys.argv[1]
    prepared = prepare_corpus([f"{root}/annotator_a", f"{root}/annotator_b"], f"{root}/gold-{sys.argv[2]}")
    window = AdjudicationWindow(prepared, adjudicator="dana")
    window.resize(1280, 720)
    window.show()
    window.activateWindow()
    window.note_view.setFocus()
    app.processEvents()
    rng = random.Random(int(sys.argv[2]))
    print("ready", flush=True)
    for doc_id in prepared.doc_ids:
        window.open_document(doc_id)
        app.processEvents()
        while window.current_unit is not None and not window.session.is_resolved(window.current_unit.id):
            unit = window.current_unit
            QTest.keyClick(window.note_view, rng.choice([Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_X]))
            app.processEvents()
            if window.session.is_resolved(unit.id):
                print(f"ack {doc_id} {unit.id} {time.monotonic()}", flush=True)
            QTest.qWait(rng.randint(0, 30))
    print("done", flush=True)
    time.sleep(60)
    """
)


@pytest.fixture(scope="module")
def versions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("adjudication-crash")
    write_corpus(generate_corpus(patients=3, seed=12), root)
    return root


def _trial(root: Path, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(root), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        cwd=REPO,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    time.sleep(rng.uniform(0.05, 1.5))
    killed_at = time.monotonic()
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    acked = []
    for line in child.stdout.read().splitlines():
        if line.startswith("ack "):
            _, doc_id, unit_id, at = line.split()
            if float(at) <= killed_at:
                acked.append((doc_id, unit_id))
    gold = root / f"gold-{seed}"
    prepared = prepare_corpus([root / "annotator_a", root / "annotator_b"], gold)
    recovered = 0
    for doc_id, unit_id in acked:
        read_log(log_path(gold, doc_id))  # every log parses (a torn last line is dropped)
        session = prepared.open_session(doc_id, "dana")
        recovered += session.is_resolved(unit_id)
    return len(acked), recovered


def _run(root: Path, trials: int) -> None:
    acknowledged = recovered = 0
    for seed in range(trials):
        got = _trial(root, seed)
        acknowledged += got[0]
        recovered += got[1]
    print(f"{trials} kills: {acknowledged} decisions acknowledged before the kill, {recovered} recovered")
    assert recovered == acknowledged
    assert acknowledged > 0


def test_killed_adjudication_window_loses_no_acknowledged_decision(versions: Path) -> None:
    _run(versions, 3)


@pytest.mark.soak
def test_killed_adjudication_window_loses_no_decision_200_trials(versions: Path) -> None:
    _run(versions, 200)
