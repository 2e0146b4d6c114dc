"""An annotator's keys on a big project, beside an older commit: what each key costs at scale.

Run: ``QT_QPA_PLATFORM=offscreen python -m tests.benchmarks.bench_scale [--baseline REV]
[--patients N] [--rounds N]``.

The project: ``annotator synth`` with 570 patients (2,030 notes, model pre-annotations),
two annotators (alice has working copies of 1,000 notes, bob of all), plus a long note
(300,000 characters, 5,000 tags, a third of them pending) and a note with 2,000 pending
suggestions. Each side (this tree, and ``REV``'s ``annotator`` package extracted to a
temporary folder) is measured in fresh processes, alternating, ``--rounds`` times; each
figure is the best of the rounds (the machine is shared). Times are the main thread's CPU
milliseconds (``time.process_time``) and wall milliseconds, from the key event sent to
the window (real key events through the widgets and the window's shortcuts) until the
event loop has nothing left to do.

* open the project: the workspace, the window and its first note, painted;
* Ctrl+PgDown: the next note (median of 60, from the first note on);
* a type key on a selected free word of the long note (median of 40);
* Ctrl+Z on the long note (median of 20);
* Ctrl+Shift+A (annotate all) on a word the long note holds 3,000 times, and its Apply;
* Enter on a suggestion (after F8) in the 2,000-suggestion note (median of 100).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).resolve()
# The commit before the scale fixes (the document list's quadratic fill and per-edit measure).
BASELINE = "975d6e6"
WORDS = (
    "patient",
    "reports",
    "pain",
    "stable",
    "follow",
    "with",
    "denies",
    "fever",
    "plan",
    "the",
    "and",
    "Smith",
    "Boston",
    "clinic",
    "seen",
    "today",
    "history",
    "of",
    "Mercy",
    "Hospital",
)
TYPES = ("PATIENT", "DOCTOR", "DATE", "HOSPITAL", "CITY", "PHONE", "AGE", "MEDICALRECORD")


def build_project(root: Path, patients: int) -> Path:
    """The synthetic project with alice, bob, the long note and the 2,000-suggestion note."""
    from annotator.core.document import Document
    from annotator.core.schema import load_schema
    from annotator.io.i2b2 import write_i2b2

    project = root / "proj"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "annotator",
            "synth",
            "--patients",
            str(patients),
            "--seed",
            "1",
            str(project),
        ],
        cwd=REPOSITORY,
        check=True,
        capture_output=True,
    )
    for name, folder, limit in (("alice", "annotator_a", 1000), ("bob", "annotator_b", None)):
        copies = project / "annotations" / name
        copies.mkdir(parents=True, exist_ok=True)
        for file in sorted((project / folder).glob("*.xml"))[:limit]:
            shutil.copy(file, copies / file.name)
    settings = project / "project.toml"
    settings.write_text(settings.read_text().replace("annotators = []", 'annotators = ["alice", "bob"]'))
    schema = load_schema()

    def note(doc_id: str, chars: int, tags: int, pending_every: int, seed: int) -> tuple[str, Document]:
        rng = random.Random(seed)
        lines: list[str] = []
        size = 0
        while size < chars:
            line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14)))
            lines.append(line)
            size += len(line) + 1
        text = "\n".join(lines)[:chars]
        document = Document(doc_id, text)
        step = len(text) // tags
        for i in range(tags):
            start = i * step
            while start < len(text) and not text[start].isalpha():
                start += 1
            end = start
            while end < len(text) and text[end].isalpha():
                end += 1
            if end > start:
                kind = TYPES[i % len(TYPES)]
                document.add(
                    document.make_annotation(
                        schema.category_of(kind), kind, start, end, pending=i % pending_every == 0
                    )
                )
        return text, document

    text, long_note = note("999-01", 300_000, 5000, 3, 7)
    write_i2b2(Document("999-01", text), project / "source" / "999-01.xml")
    write_i2b2(long_note, project / "annotations" / "alice" / "999-01.xml")
    text, suggested = note("999-02", 120_000, 2000, 1, 8)
    write_i2b2(Document("999-02", text), project / "source" / "999-02.xml")
    write_i2b2(suggested, project / "preannotated" / "999-02.xml")
    return project


def measure(project: Path) -> dict[str, Any]:
    """One round, in this process, on a copy of ``project``: CPU and wall ms per step."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from annotator.gui.main_window import MainWindow
    from annotator.gui.qt_timers import qt_timers
    from annotator.session.annotation_session import AnnotationSession
    from annotator.session.workspace import Workspace

    app = QApplication.instance() or QApplication(sys.argv[:1])
    control = Qt.KeyboardModifier.ControlModifier
    results: dict[str, Any] = {}

    def idle() -> None:
        for _ in range(3):
            app.processEvents()

    def timed(action: Callable[[], object]) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        idle()
        return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000

    def record(name: str, pairs: list[tuple[float, float]]) -> None:
        results[name] = {
            "wall": statistics.median(p[0] for p in pairs),
            "cpu": statistics.median(p[1] for p in pairs),
        }

    built: list[MainWindow] = []

    def open_project() -> None:
        window = MainWindow(AnnotationSession(Workspace.open(project, "alice"), timers=qt_timers()))
        window.ask_recovery = lambda doc_id: False
        window.confirm_close = lambda: "save"
        window.open_document("100-01")
        window.show()
        window.activateWindow()
        window.repaint()
        built.append(window)

    record("open the project (window and first note)", [timed(open_project)])
    window = built[0]
    view = window.view
    view.setFocus()
    idle()

    def key(k: Qt.Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> Callable[[], None]:
        return lambda: QTest.keyClick(view, k, modifiers)

    record("Ctrl+PgDown (next note)", [timed(key(Qt.Key.Key_PageDown, control)) for _ in range(60)])
    window.open_document("999-01")
    view.setFocus()
    idle()
    document = window.session.document
    assert document is not None
    text = document.text
    free: list[tuple[int, int]] = []
    position = 1000
    while len(free) < 40 and position < len(text) - 30:
        start = text.find(" ", position) + 1
        end = text.find(" ", start)
        if end > start and not document.overlapping(start, end) and text[start:end].isalpha():
            free.append((start, end))
        position = start + 5000
    typed = []
    for start, end in free:
        view.select_span(start, end)
        idle()
        typed.append(timed(key(Qt.Key.Key_P)))
    record("type key on a selection (long note)", typed)
    record("Ctrl+Z (long note)", [timed(key(Qt.Key.Key_Z, control)) for _ in range(20)])
    # Annotate all of a word the long note holds ~3,000 times (a HOSPITAL tag on "Mercy").
    at = text.find("Mercy")
    while document.overlapping(at, at + 5):
        at = text.find("Mercy", at + 1)
    view.select_span(at, at + 5)
    QTest.keyClick(view, Qt.Key.Key_H)
    idle()
    shift = Qt.KeyboardModifier.ShiftModifier
    record("Ctrl+Shift+A on a word found 3,000 times (preview)", [timed(key(Qt.Key.Key_A, control | shift))])
    dialog = window.last_dialog
    record("  its Apply (3,000 tags, one undo step)", [timed(dialog.apply_button.click)])
    window.activateWindow()
    view.setFocus()
    idle()
    window.open_document("999-02")
    view.setFocus()
    idle()
    accepted = []
    for _ in range(100):
        QTest.keyClick(view, Qt.Key.Key_F8)
        idle()
        accepted.append(timed(key(Qt.Key.Key_Return)))
    record("Enter on a suggestion (2,000-suggestion note)", accepted)
    window.close()
    return results


def run_side(package_root: Path | None, project: Path) -> dict[str, Any]:
    """One round in a fresh process (``package_root`` first on the path: an older tree)."""
    copy = Path(tempfile.mkdtemp(prefix="bench-scale-")) / "proj"
    shutil.copytree(project, copy)
    environment = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=tempfile.mkdtemp())
    environment["PYTHONPATH"] = str(package_root or REPOSITORY)
    try:
        finished = subprocess.run(
            [sys.executable, str(SCRIPT), "--worker", str(copy)],
            cwd=package_root or REPOSITORY,
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        shutil.rmtree(copy.parent, ignore_errors=True)
    lines = [line for line in finished.stdout.splitlines() if line.startswith("{")]
    if finished.returncode != 0 or not lines:
        raise RuntimeError(f"round failed: {finished.stderr.strip().splitlines()[-3:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help=f"commit to compare with (default {BASELINE})")
    parser.add_argument("--patients", type=int, default=570, help="synthetic patients (default 570)")
    parser.add_argument("--rounds", type=int, default=2, help="processes per side (default 2)")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.worker is not None:
        print(json.dumps(measure(arguments.worker)))
        return 0
    sys.path.insert(0, str(REPOSITORY))
    from tests.benchmarks.bench_gui import extract

    with tempfile.TemporaryDirectory() as folder:
        began = time.perf_counter()
        project = build_project(Path(folder), arguments.patients)
        notes = len(list((project / "source").glob("*.xml")))
        print(f"project: {notes:,} notes, 2 annotators, made in {time.perf_counter() - began:.0f} s")
        (Path(folder) / "old").mkdir()
        old = extract(arguments.baseline, Path(folder) / "old")
        sides: dict[str, Path | None] = {"this tree": None}
        if old is not None:
            sides = {f"before ({arguments.baseline})": old, "this tree": None}
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in sides}
        for _ in range(arguments.rounds):
            for name, root in sides.items():
                runs[name].append(run_side(root, project))
    names = list(sides)
    print(f"best of {arguments.rounds} processes per side; CPU ms (wall ms), medians unless one-off")
    print(f"{'':50s}" + "".join(f"{name:>28s}" for name in names))
    for step in runs[names[-1]][0]:
        cells = []
        for name in names:
            cpu = min(run[step]["cpu"] for run in runs[name])
            wall = min(run[step]["wall"] for run in runs[name])
            cells.append(f"{cpu:10.1f} ({wall:7.1f} wall)")
        print(f"{step:50s}" + "".join(f"{c:>28s}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
