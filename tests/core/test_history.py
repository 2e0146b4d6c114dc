"""Undo and redo through commands."""

from __future__ import annotations

import pytest

from annotator.core.document import Document
from annotator.core.history import (
    AddAnnotation,
    CompositeCommand,
    History,
    RemoveAnnotation,
    ReplaceAnnotation,
)
from annotator.errors import AnnotatorError

TEXT = "Dr Lee saw Ora Smith."


def _setup() -> tuple[Document, History]:
    document = Document("1", TEXT)
    document.add(document.make_annotation("NAME", "DOCTOR", len("Dr "), len("Dr Lee")))
    return document, History()


def _state(document: Document) -> list[tuple[str, str, int, int]]:
    return [(a.id, a.type, a.start, a.end) for a in document]


def test_each_command_undoes_and_redoes() -> None:
    document, history = _setup()
    initial = _state(document)
    start = TEXT.index("Ora")
    history.push(AddAnnotation(document, document.make_annotation("NAME", "PATIENT", start, start + 9)))
    history.push(ReplaceAnnotation(document, document.get("P0"), document.get("P0").replace(type="PATIENT")))
    history.push(RemoveAnnotation(document, "P1"))
    final = _state(document)
    for _ in range(3):
        history.undo()
    assert _state(document) == initial
    for _ in range(3):
        history.redo()
    assert _state(document) == final


def test_new_edit_clears_redo() -> None:
    document, history = _setup()
    history.push(RemoveAnnotation(document, "P0"))
    history.undo()
    assert history.can_redo
    history.push(ReplaceAnnotation(document, document.get("P0"), document.get("P0").replace(comment="x")))
    assert not history.can_redo and history.undo_text == "edit"


def test_push_all_is_one_step() -> None:
    document, history = _setup()
    start = TEXT.index("Ora")
    first = document.make_annotation("NAME", "PATIENT", start, start + 3)
    second = document.make_annotation("NAME", "PATIENT", start + 4, start + 9, id="P9")
    history.push_all([AddAnnotation(document, first), AddAnnotation(document, second)], "annotate all")
    assert len(document) == 3 and history.undo_text == "annotate all"
    history.undo()
    assert len(document) == 1
    assert history.push_all([], "nothing") is None


def test_failing_composite_rolls_back() -> None:
    document, history = _setup()
    start = TEXT.index("Ora")
    good = AddAnnotation(document, document.make_annotation("NAME", "PATIENT", start, start + 9))
    clash = AddAnnotation(document, document.get("P0"))
    with pytest.raises(AnnotatorError):
        history.push(CompositeCommand([good, clash]))
    assert _state(document) == [("P0", "DOCTOR", 3, 6)]
    assert not history.can_undo


def test_limit_drops_the_oldest_steps() -> None:
    document, _ = _setup()
    history = History(limit=2)
    for comment in "abc":
        current = document.get("P0")
        history.push(ReplaceAnnotation(document, current, current.replace(comment=comment)))
    history.undo()
    history.undo()
    assert history.undo() is None and document.get("P0").comment == "a"


def test_changed_signal() -> None:
    document, history = _setup()
    calls: list[int] = []
    history.changed.connect(lambda: calls.append(1))
    history.push(RemoveAnnotation(document, "P0"))
    history.undo()
    history.redo()
    history.clear()
    assert len(calls) == 4
