"""``annotator gui`` and ``annotator demo`` from the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from annotator.cli.main import main
from annotator.core.project import Project
from annotator.io.autosave import AutosaveStore
from annotator.io.i2b2 import read_i2b2, write_i2b2


def test_gui_screenshot_renders_a_png_and_exits_zero(
    qtbot: QtBot, project: Project, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "shot.png"
    code = main(
        [
            "gui",
            str(project.root),
            "--annotator",
            "alice",
            "--screenshot",
            str(target),
            "--document",
            "200-02",
            "--theme",
            "dark",
        ]
    )
    assert code == 0
    assert capsys.readouterr().err == f"annotator: screenshot written to {target}\n"
    image = QImage(str(target))
    assert image.width() >= 800 and image.height() >= 500
    # Dark theme: the window background is dark.
    assert image.pixelColor(5, image.height() // 2).lightness() < 100


def test_gui_unknown_document_is_a_usage_error(
    qtbot: QtBot, project: Project, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "gui",
            str(project.root),
            "--annotator",
            "alice",
            "--screenshot",
            str(tmp_path / "x.png"),
            "--document",
            "999-01",
        ]
    )
    assert code == 2
    assert "999-01" in capsys.readouterr().err


def test_gui_without_display_prints_a_hint_not_a_traceback(project: Project) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    result = subprocess.run(
        [sys.executable, "-m", "annotator", "gui", str(project.root), "--annotator", "alice"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert result.returncode == 1
    assert "--screenshot" in result.stderr and "QT_QPA_PLATFORM=offscreen" in result.stderr
    assert "Traceback" not in result.stderr


def test_demo_no_gui_sets_up_the_project_and_prints_statistics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "demo"
    assert main(["demo", "--no-gui", "--dest", str(dest)]) == 0
    out = capsys.readouterr().out
    assert str(dest) in out and "documents" in out
    assert (dest / "project.toml").is_file()


def test_gui_adjudicate_screenshot_goes_to_the_adjudication_window(
    qtbot: QtBot, project: Project, tmp_path: Path
) -> None:
    from annotator.core.document import Document

    text = read_i2b2(project.source_dir / "200-01.xml").text
    for name, type_name in (("a", "PATIENT"), ("b", "DOCTOR")):
        document = Document("200-01", text)
        start = text.index("John Smith")
        document.add(document.make_annotation("NAME", type_name, start, start + len("John Smith")))
        (tmp_path / name).mkdir()
        write_i2b2(document, tmp_path / name / "200-01.xml")
    target = tmp_path / "adjudication.png"
    code = main(
        [
            "gui",
            "--adjudicate",
            str(tmp_path / "a"),
            str(tmp_path / "b"),
            "-o",
            str(tmp_path / "gold"),
            "--screenshot",
            str(target),
        ]
    )
    assert code == 0
    assert QImage(str(target)).width() >= 600


def test_gui_adjudicate_needs_an_output_folder(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gui", "--adjudicate", str(project.source_dir), str(project.source_dir)]) == 2
    assert "-o GOLD_DIR" in capsys.readouterr().err


def test_gui_view_the_window_does_not_have_is_a_usage_error(
    project: Project, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "shot.png"
    argv = ["gui", str(project.root), "--annotator", "alice", "--screenshot", str(target)]
    # side-by-side is the adjudication window's: the main window used to be rendered instead.
    assert main([*argv, "--view", "side-by-side"]) == 2
    said = capsys.readouterr().err.strip()
    assert "side-by-side" in said and "--adjudicate" in said and len(said.splitlines()) == 1
    # The other way round: the adjudication window has no dashboard.
    versions = [str(project.source_dir), str(project.source_dir)]
    assert main(["gui", "--adjudicate", *versions, "-o", str(tmp_path / "gold"), "--screenshot", str(target),
                 "--view", "dashboard"]) == 2  # fmt: skip
    said = capsys.readouterr().err.strip()
    assert "--view dashboard" in said and "main or side-by-side" in said and len(said.splitlines()) == 1
    assert not target.exists() and not (tmp_path / "gold").exists()


def test_gui_screenshot_of_an_unreadable_file_fails_cleanly(project: Project, tmp_path: Path) -> None:
    folder = tmp_path / "single"
    folder.mkdir()
    broken = folder / "500-01.xml"
    broken.write_bytes(b"<?xml version='1.0'?><deid><TEXT><![CDATA[unfinished")
    before = sorted(p.name for p in folder.iterdir())
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "annotator",
            "gui",
            str(broken),
            "--annotator",
            "qa",
            "--screenshot",
            str(tmp_path / "shot.png"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "500-01.xml" in lines[0] and "Traceback" not in result.stderr
    assert sorted(p.name for p in folder.iterdir()) == before
    assert broken.read_bytes().endswith(b"unfinished")


def test_gui_screenshot_records_nothing_and_keeps_recovery_files(project: Project, tmp_path: Path) -> None:
    before = (project.root / "project.toml").read_bytes()
    code = main(["gui", str(project.root), "--annotator", "dave", "--screenshot", str(tmp_path / "a.png")])
    assert code == 0
    # A look changes nothing: dave is not added to project.toml, no working copy is made (the
    # note then read as started, and left out of his queue).
    assert (project.root / "project.toml").read_bytes() == before
    assert not project.annotations_dir("dave").exists()
    working = project.annotations_dir("alice") / "200-01.xml"
    working.parent.mkdir(parents=True, exist_ok=True)
    working.write_bytes((project.source_dir / "200-01.xml").read_bytes())
    recovery = working.with_name(".200-01.xml.autosave")
    edited = read_i2b2(working)
    start = edited.text.index("Marissa")
    edited.add(edited.make_annotation("NAME", "DOCTOR", start, start + len("Marissa")))
    write_i2b2(edited, recovery)
    assert AutosaveStore().has_recovery(working)
    assert (
        main(["gui", str(project.root), "--annotator", "alice", "--screenshot", str(tmp_path / "b.png")]) == 0
    )
    assert recovery.exists()
    assert not (project.state_dir / "state.json").exists()
    assert not working.with_name(".200-01.xml.lock").exists()


def test_exception_in_a_slot_is_reported_in_one_line_without_its_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from annotator.gui.app import _report_internal_error

    try:
        raise ValueError("Patient John Smith")
    except ValueError as error:
        _report_internal_error(ValueError, error, error.__traceback__)
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "annotator gui: internal error (ValueError); run with --debug for the traceback"
    ]


@pytest.mark.parametrize("view", ["dashboard", "export", "preannotation"])
def test_report_screenshots_render_and_leave_the_project_as_it_was(
    qtbot: QtBot, project: Project, tmp_path: Path, view: str
) -> None:
    from tests.gui.test_export_findings import gold_with_missed_name

    gold_with_missed_name(project)
    # Opened once before, as by a screenshot, so the snapshot below has the working copy.
    assert (
        main(["gui", str(project.root), "--annotator", "alice", "--screenshot", str(tmp_path / "a.png")]) == 0
    )
    before = {p: p.read_bytes() for p in project.root.rglob("*") if p.is_file()}
    target = tmp_path / f"{view}.png"
    argv = ["gui", str(project.root), "--annotator", "alice", "--screenshot", str(target), "--view", view]
    assert main([*argv, "--document", "200-01"]) == 0
    image = QImage(str(target))
    assert image.width() >= 400 and image.height() >= 150
    after = {p: p.read_bytes() for p in project.root.rglob("*") if p.is_file()}
    assert after == before  # no journal, no export, no rejection file, nothing
