""" "Next by priority": the window opens the waiting note the model is least sure of."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.core.document import Document
from annotator.core.project import Project
from annotator.crf.default_model import load_default_model
from annotator.crf.uncertainty import note_uncertainty
from annotator.io.i2b2 import write_i2b2
from annotator.io.workstate import IN_PROGRESS, WorkState
from tests.gui.conftest import make_window, show

NOTES = {
    "600-01": "Mr. Quentin Abernathy was seen on 12/3 by Dr. Yusupova at Lakeside.\n",
    "600-02": "Follow up in two weeks. No change in medications.\n",
    "601-01": "Call Ms. Okonkwo-Reyes at 555-0199 re: MRN 88231, Ward 4B, Bldg Q.\n",
    "602-01": "Patient doing well. Vitals stable. Continue current plan.\n",
}


def _project(root: Path) -> Project:
    project = Project.create(root, "Priority", annotators=["alice", "bob"])
    for doc_id, text in NOTES.items():
        write_i2b2(Document(doc_id, text), project.source_dir / f"{doc_id}.xml")
    return project


def _by_doubt() -> list[str]:
    tagger = load_default_model()
    scores = [note_uncertainty(tagger, Document(doc_id, text)) for doc_id, text in NOTES.items()]
    return [s.doc_id for s in sorted(scores, key=lambda s: -s.per_token)]


def test_next_by_priority_opens_the_highest_ranked_unclaimed_note(qtbot: QtBot, tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    order = _by_doubt()
    # Bob started the note the model is least sure of: it is claimed, alice is not sent there.
    state = WorkState.load(project)
    state.set_status(order[0], "bob", IN_PROGRESS)
    state.save()
    main = make_window(qtbot, project.root)
    show(qtbot, main)
    assert main.session.doc_id is None
    qtbot.mouseClick(main.next_priority_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: main.session.doc_id is not None, timeout=10000)
    assert main.session.doc_id == order[1]
    assert [e.doc_id for e in main.priority.queue.entries] == order[1:]
    assert main.priority.queue.claimed == [order[0]]
    # The note just opened is started now: the menu action goes on to the next one.
    main.actions_by_name["next_priority"].trigger()
    assert main.session.doc_id == order[2]
    assert order[2] in main.statusBar().currentMessage()
    main.session.close()


def test_next_by_priority_says_so_when_nothing_is_left(qtbot: QtBot, tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    state = WorkState.load(project)
    for doc_id in NOTES:
        state.set_status(doc_id, "bob", IN_PROGRESS)
    state.save()
    main = make_window(qtbot, project.root)
    show(qtbot, main)
    main.actions_by_name["next_priority"].trigger()
    assert main.session.doc_id is None
    assert "No notes left" in main.statusBar().currentMessage()
