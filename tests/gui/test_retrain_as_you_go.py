"""Retrain as you go: a background retrain never blocks the keys, swaps the model in, and stops on quit."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from annotator.core.document import Document
from annotator.core.project import Project
from annotator.crf.tagger import CrfTagger
from annotator.gui.main_window import MainWindow
from annotator.io.i2b2 import write_i2b2
from annotator.synth.generator import generate_corpus
from annotator.workflows.retrain import RetrainResult, finished_documents
from tests.gui.conftest import make_window, show

# What this guards: a retrain never blocks the window (a blocked GUI thread costs hundreds of
# milliseconds per edit). Blocked or not is judged against the same edits with no retrain
# running, timed on the same machine in the same window: the retrain child (niced, on the other
# core) still slows the window's core, by 2.3 times on this 2-vCPU machine (9.9 ms idle, 23 ms
# during), and CPU-bound CI machines measured a 16.9 ms median during the retrain. So the median
# edit must fit two 60 Hz frames, or three times the idle median where that is more. The 120 Hz
# budget with no retrain (8.3 ms) is the GUI benchmark's.
EDIT_BUDGET_MS = 33.4


def _budget_ms(idle_ms: list[float]) -> float:
    """The median edit allowed while a retrain runs, given the same edits with none running."""
    return max(EDIT_BUDGET_MS, 3 * statistics.median(idle_ms))


@pytest.fixture(scope="module")
def notes() -> list[Document]:
    return generate_corpus(patients=3, seed=11).gold


def _project(root: Path, notes: list[Document]) -> Project:
    project = Project.create(root, "As you go", annotators=["alice"])
    project.retrain_every = 1
    project.save()
    for document in notes[:3]:
        write_i2b2(document, project.gold_dir / f"{document.doc_id}.xml")
    for document in notes:
        write_i2b2(Document(document.doc_id, document.text), project.source_dir / f"{document.doc_id}.xml")
    return Project.open(root)


def _finish_first_waiting(qtbot: QtBot, main: MainWindow, notes: list[Document]) -> tuple[str, list[float]]:
    """Finish the first waiting note (which starts a retrain), after a few edits timed with
    no retrain running: the machine's baseline."""
    doc_id = notes[-1].doc_id  # not in gold: learnt from alice's version once done
    main.open_document(doc_id)
    show(qtbot, main)
    assert not main.retrainer.running
    document = main.session.document
    assert document is not None
    idle = [_tag_word_ms(qtbot, main, *span) for span in _free_words(document.text, _taken(document), 6)]
    qtbot.keyClick(main.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert main.session.status(doc_id) == "done"
    return doc_id, idle


def _taken(document: Document) -> list[tuple[int, int]]:
    return [(a.start, a.end) for a in document.annotations]


def _tag_word_ms(qtbot: QtBot, main: MainWindow, start: int, end: int) -> float:
    """One tag edit by a real key event, to an idle event loop; milliseconds."""
    app = QApplication.instance()
    assert app is not None
    main.view.select_span(start, end)
    began = time.perf_counter()
    qtbot.keyClick(main.view, "r")  # DOCTOR
    app.processEvents()
    return (time.perf_counter() - began) * 1000


def _free_words(text: str, taken: list[tuple[int, int]], count: int) -> list[tuple[int, int]]:
    import re

    spans = []
    for match in re.finditer(r"[a-z]{4,}", text):
        if all(match.end() <= s or e <= match.start() for s, e in taken):
            spans.append(match.span())
        if len(spans) == count:
            break
    return spans


def test_keys_are_handled_while_the_model_retrains(
    qtbot: QtBot, tmp_path: Path, notes: list[Document]
) -> None:
    project = _project(tmp_path / "p", notes)
    main = make_window(qtbot, project.root)
    doc_id, idle = _finish_first_waiting(qtbot, main, notes)
    assert main.retrainer.running  # one finished note: retrain_every = 1
    assert "retraining" in main.retrainer.field.text()
    document = main.session.document
    assert document is not None and document.doc_id == doc_id
    times = []
    for start, end in _free_words(document.text, _taken(document), 6):
        times.append(_tag_word_ms(qtbot, main, start, end))
        assert any(a.start == start and a.type == "DOCTOR" for a in document.annotations)
    assert main.retrainer.running  # every edit above was made during the retrain
    assert statistics.median(times) <= _budget_ms(idle), (times, idle)
    main.close()  # cancels the retrain: the child is killed, no model is written
    assert main.retrainer.worker is None
    assert not (project.models_dir / "crf.model").exists()


@pytest.mark.slow
def test_a_finished_retrain_swaps_the_model_and_the_queue(
    qtbot: QtBot, tmp_path: Path, notes: list[Document]
) -> None:
    project = _project(tmp_path / "p", notes)
    main = make_window(qtbot, project.root)
    with qtbot.waitSignal(main.retrainer.swapped, timeout=120_000) as swapped:
        doc_id, idle = _finish_first_waiting(qtbot, main, notes)
        # Edits all through the retrain (the child's start, training, ranking, refreshing).
        document = main.session.document
        assert document is not None
        words = _free_words(document.text, _taken(document), 200)
        times = []
        while main.retrainer.running and words:
            times.append(_tag_word_ms(qtbot, main, *words.pop(0)))
            qtbot.wait(250)
    assert len(times) >= 4, times
    assert statistics.median(times) <= _budget_ms(idle), (times, idle)
    result: RetrainResult = swapped.args[0]
    assert result.queue is not None
    model = CrfTagger.load(project.models_dir / "crf.model")
    assert model.metadata is not None
    assert model.metadata.documents == result.documents == len(finished_documents(project)) == 4
    assert main.priority.queue is result.queue
    assert doc_id not in [e.doc_id for e in result.queue.entries]
    assert sorted(result.refreshed) == sorted(e.doc_id for e in result.queue.entries)
    assert main.retrainer.field.text() == "Model: retrained on 4 notes"
    assert "re-ranked" in main.statusBar().currentMessage()
    # "Next by priority" now serves the new ranking's first note.
    main.actions_by_name["next_priority"].trigger()
    assert main.session.doc_id == result.queue.entries[0].doc_id
    main.close()
