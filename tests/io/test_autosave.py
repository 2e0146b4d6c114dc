"""Autosave and recovery, including a real process killed before it saves."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.history import AddAnnotation, History, RemoveAnnotation, ReplaceAnnotation
from annotator.io.autosave import AutosaveScheduler, AutosaveStore, recovery_path
from annotator.io.i2b2 import read_i2b2, write_i2b2

ROOT = Path(__file__).resolve().parents[2]
PREFIX = "Patient "
TEXT = PREFIX + "Marissa Jones, 54, seen 2067-03-04 by Dr. Kai Yamamoto at Boston General."

# The same edits run in the crashing process and, for the expected result, in the test.
EDITS = """
def make_edits(document, history, scheduler, store, path):
    text = document.text
    def span(needle):
        start = text.index(needle)
        return start, start + len(needle)
    clock = 0.0
    for tag, type_, needle in [("NAME", "DOCTOR", "Kai Yamamoto"), ("DATE", "DATE", "2067-03-04"),
                               ("LOCATION", "HOSPITAL", "Boston General")]:
        start, end = span(needle)
        history.push(AddAnnotation(document, document.make_annotation(tag, type_, start, end)))
        clock += 1.0
        scheduler.note_edit(clock)
    age = document.get("P1")
    history.push(ReplaceAnnotation(document, age, age.replace(comment="checked", type="AGE")))
    history.push(RemoveAnnotation(document, "P0"))
    scheduler.note_edit(clock + 1.0)
    start, end = span("Marissa")
    history.push(AddAnnotation(document, document.make_annotation("NAME", "PATIENT", start, end)))
    history.undo()
    history.redo()
    scheduler.note_edit(clock + 2.0)
    assert not scheduler.due(clock + 2.5)
    assert scheduler.due(clock + 5.0)
    store.save_recovery(document, path)
    scheduler.saved()
"""

CRASH_SCRIPT = (
    """
import os, signal, sys
from annotator.core.history import AddAnnotation, History, RemoveAnnotation, ReplaceAnnotation
from annotator.io.autosave import AutosaveScheduler, AutosaveStore
from annotator.io.i2b2 import read_i2b2
"""
    + EDITS
    + """
path = sys.argv[1]
document = read_i2b2(path)
make_edits(document, History(), AutosaveScheduler(), AutosaveStore(), path)
os.kill(os.getpid(), signal.SIGKILL)
"""
)


def write_note(tmp_path: Path) -> Path:
    document = Document("100-01", TEXT)
    document.add(document.make_annotation("NAME", "PATIENT", len(PREFIX), len(PREFIX + "Marissa Jones")))
    age = TEXT.index("54")
    document.add(document.make_annotation("AGE", "AGE", age, age + 2))
    path = tmp_path / "100-01.xml"
    write_i2b2(document, path)
    return path


def expected_after_edits(path: Path, tmp_path: Path) -> Document:
    namespace: dict[str, object] = {
        "AddAnnotation": AddAnnotation,
        "RemoveAnnotation": RemoveAnnotation,
        "ReplaceAnnotation": ReplaceAnnotation,
    }
    exec(EDITS, namespace)
    document = read_i2b2(path)
    copy = tmp_path / "copy" / path.name
    copy.parent.mkdir()
    copy.write_bytes(path.read_bytes())
    namespace["make_edits"](document, History(), AutosaveScheduler(), AutosaveStore(), copy)  # type: ignore[operator]
    return document


def annotations_of(document: Document) -> list[Annotation]:
    return sorted(document.annotations, key=lambda a: (a.start, a.end, a.id))


def test_killed_process_loses_nothing(tmp_path: Path) -> None:
    path = write_note(tmp_path)
    before = path.read_bytes()
    store = AutosaveStore()
    assert not store.has_recovery(path)
    result = subprocess.run(
        [sys.executable, "-c", CRASH_SCRIPT, str(path)], cwd=ROOT, capture_output=True, check=False
    )
    assert result.returncode == -signal.SIGKILL, result.stderr.decode()
    assert path.read_bytes() == before
    assert recovery_path(path).exists()
    assert store.has_recovery(path)
    recovered = store.load_recovery(path)
    expected = expected_after_edits(path, tmp_path)
    assert recovered.text == TEXT
    assert annotations_of(recovered) == annotations_of(expected)
    assert [(a.type, a.comment) for a in annotations_of(recovered)] == [
        ("PATIENT", ""),
        ("AGE", "checked"),
        ("DATE", ""),
        ("DOCTOR", ""),
        ("HOSPITAL", ""),
    ]
    # The recovered version is unsaved, and saving it writes the document, not the recovery.
    assert not recovered.is_pristine()
    assert recovered.origin.path == path
    write_i2b2(recovered, path)
    store.discard_recovery(path)
    assert annotations_of(read_i2b2(path)) == annotations_of(expected)
    assert not store.has_recovery(path)


def test_recovery_older_than_document_not_offered(tmp_path: Path) -> None:
    path = write_note(tmp_path)
    document = read_i2b2(path)
    document.add(document.make_annotation("NAME", "DOCTOR", TEXT.index("Kai"), TEXT.index("Kai") + 3))
    store = AutosaveStore()
    assert store.save_recovery(document, path)
    assert store.has_recovery(path)
    os.utime(recovery_path(path), ns=(1, 1))
    assert not store.has_recovery(path)


def test_recovery_equal_to_document_not_offered(tmp_path: Path) -> None:
    path = write_note(tmp_path)
    document = read_i2b2(path)
    store = AutosaveStore()
    # Unchanged: nothing written.
    assert not store.save_recovery(document, path)
    assert not recovery_path(path).exists()
    # Changed then changed back by undo: written, but the same content is not offered.
    history = History()
    history.push(RemoveAnnotation(document, "P0"))
    store.save_recovery(document, path)
    history.undo()
    store.save_recovery(document, path)
    assert recovery_path(path).exists()
    assert not store.has_recovery(path)


def test_recovery_offered_when_document_deleted(tmp_path: Path) -> None:
    path = write_note(tmp_path)
    document = read_i2b2(path)
    document.add(document.make_annotation("NAME", "DOCTOR", TEXT.index("Kai"), TEXT.index("Kai") + 3))
    AutosaveStore().save_recovery(document, path)
    path.unlink()
    assert AutosaveStore().has_recovery(path)
    assert len(AutosaveStore().load_recovery(path)) == 3


def test_provenance_survives_recovery(tmp_path: Path) -> None:
    path = write_note(tmp_path)
    document = read_i2b2(path)
    start = TEXT.index("Boston General")
    document.add(
        document.make_annotation(
            "LOCATION", "HOSPITAL", start, start + 14, source=Source.MODEL, confidence=0.75, pending=True
        )
    )
    store = AutosaveStore()
    store.save_recovery(document, path)
    recovered = store.load_recovery(path)
    model = [a for a in recovered if a.source is Source.MODEL]
    assert [(a.confidence, a.pending) for a in model] == [(0.75, True)]


def test_load_without_recovery_is_an_error(tmp_path: Path) -> None:
    path = write_note(tmp_path)
    with pytest.raises(Exception, match=r"no recovery file"):
        AutosaveStore().load_recovery(path)
    AutosaveStore().discard_recovery(path)  # nothing to discard is fine


@pytest.mark.parametrize(
    ("edits", "now", "due"),
    [
        ([], 100.0, False),
        ([0.0], 2.9, False),
        ([0.0], 3.0, True),
        ([0.0, 2.0], 4.0, False),
        ([0.0, 2.0], 5.0, True),
        ([float(t) for t in range(0, 31, 2)], 30.0, True),  # steady edits: max_wait forces it
        ([float(t) for t in range(0, 29, 2)], 29.0, False),
    ],
)
def test_scheduler_debounces(edits: list[float], now: float, due: bool) -> None:
    scheduler = AutosaveScheduler()
    for moment in edits:
        scheduler.note_edit(moment)
    assert scheduler.due(now) is due
    assert scheduler.pending is bool(edits)


def test_scheduler_remaining_and_saved() -> None:
    scheduler = AutosaveScheduler(delay=2.0, max_wait=10.0)
    assert scheduler.remaining(0.0) is None
    scheduler.note_edit(1.0)
    assert scheduler.remaining(1.5) == pytest.approx(1.5)
    scheduler.saved()
    assert not scheduler.pending and not scheduler.due(100.0)
    with pytest.raises(ValueError):
        AutosaveScheduler(delay=5.0, max_wait=1.0)
