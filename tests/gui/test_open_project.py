"""File > Open builds the next window through the callable the app injects (no import circle)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMainWindow
from pytestqt.qtbot import QtBot

from annotator.core.project import Project
from annotator.gui import app
from annotator.gui.main_window import MainWindow
from annotator.gui.theme import ThemeName
from tests.gui.conftest import make_project


def test_open_goes_through_the_injected_callable(
    qtbot: QtBot, project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = make_project(tmp_path / "other")
    opened: list[tuple[Path, str, ThemeName]] = []

    def open_project(path: Path, annotator: str, theme: ThemeName) -> QMainWindow:
        opened.append((path, annotator, theme))
        return app.build_window(path, annotator, theme=theme, ask=False)

    window = app.build_window(project.root, "alice", ask=False)
    qtbot.addWidget(window)
    window.open_project = open_project  # the app's own callable, recorded
    # The folder chooser is a native modal dialog: answer it with the other project.
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args: str(other.root))
    window.actions_by_name["open"].trigger()
    assert opened == [(other.root, "alice", "light")]
    successor = window.successor
    qtbot.addWidget(successor)
    assert isinstance(successor, MainWindow) and successor.session.workspace.project.root == other.root
    assert successor.actions_by_name["open"].isEnabled()
    successor.close()


def test_a_window_without_open_project_offers_no_open(qtbot: QtBot, project: Project) -> None:
    window = app.build_window(project.root, "alice", ask=False)
    qtbot.addWidget(window)
    assert window.actions_by_name["open"].isEnabled()
    bare = MainWindow(window.session)
    qtbot.addWidget(bare)
    assert not bare.actions_by_name["open"].isEnabled()
    window.close()


@pytest.mark.parametrize("shared", [True, False], ids=["shared-folder", "private-folder"])
def test_a_listed_annotator_without_a_folder_opens_and_gets_one(
    qtbot: QtBot, project: Project, shared: bool
) -> None:
    # project.toml lists "dave" (as the app itself writes new names), but nobody made his folder.
    project.annotators.append("dave")
    project.save()
    annotations = project.root / "annotations"
    annotations.chmod(0o2775 if shared else 0o700)
    assert not (annotations / "dave").exists()
    window = app.build_window(project.root, "dave", document="200-01")
    qtbot.addWidget(window)
    assert window.session.doc_id == "200-01"
    dave = annotations / "dave"
    assert (dave / "200-01.xml").is_file()
    assert dave.stat().st_mode & 0o7777 == (0o2775 if shared else 0o700)
    assert (dave / "200-01.xml").stat().st_mode & 0o777 == (0o664 if shared else 0o600)
    # Tagging and saving work in the new folder like anywhere else.
    document = window.session.document
    assert document is not None
    window.view.select_span(0, len("Patient"))
    window.view.tag_key_pressed.emit("OTHER")
    window.save()
    assert "OTHER" in (dave / "200-01.xml").read_text(encoding="utf-8")
    assert Project.open(project.root).annotators == ["alice", "dave"]
    window.close()
