"""The CLI and the GUI reach the same workflow functions, and so write the same bytes."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

import annotator.workflows.deidentify
import annotator.workflows.evaluate
import annotator.workflows.preannotate
import annotator.workflows.train
from annotator.cli.main import main
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.gui import export_dialog, reports_dialog
from annotator.gui.export_dialog import ExportDialog
from annotator.gui.model_actions import ModelActions
from annotator.gui.reports_dialog import ReportsDialog
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.session.suggestions import SuggestionOutcome
from annotator.workflows.synth import SynthRequest, synthesize


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def project(tmp_path: Path) -> Project:
    corpus = synthesize(SynthRequest(tmp_path / "synth", patients=2, seed=5))
    project = Project.create(tmp_path / "p", "Faces", annotators=["annotator_a"])
    for path in (corpus.out / "gold").glob("*.xml"):
        shutil.copy(path, project.gold_dir / path.name)
        document = read_i2b2(path)
        write_i2b2(Document(document.doc_id, document.text), project.source_dir / path.name)
    shutil.copytree(corpus.out / "annotator_a", project.annotations_dir("annotator_a"), dirs_exist_ok=True)
    return project


class _Spy:
    """Wraps a workflow function: records each request, then runs the real function."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> None:
        self.requests: list[Any] = []
        real: Callable[..., Any] = getattr(module, name)

        def spy(request: Any, *args: Any, **kwargs: Any) -> Any:
            self.requests.append(request)
            return real(request, *args, **kwargs)

        monkeypatch.setattr(module, name, spy)


def test_gui_dialogs_call_the_workflow_functions_themselves() -> None:
    assert vars(reports_dialog)["evaluate"] is annotator.workflows.evaluate.evaluate
    assert vars(reports_dialog)["export_report"] is annotator.workflows.evaluate.export_report
    assert vars(export_dialog)["deidentify"] is annotator.workflows.deidentify.deidentify


def test_evaluation_report_is_the_same_from_both_faces(
    qtbot: QtBot, project: Project, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, predicted = project.gold_dir, project.annotations_dir("annotator_a")
    assert main(["evaluate", "--gold", str(gold), "--system", str(predicted), "--exclude", "DATE",
                 "--filter", "hipaa", "--match", "token", "--json"]) == 0  # fmt: skip
    from_cli = capsys.readouterr().out
    dialog = ReportsDialog(project)
    qtbot.addWidget(dialog)
    dialog.set_folders(gold, predicted)
    dialog.exclude_edit.setText("DATE")
    dialog.hipaa_check.setChecked(True)
    dialog.match_combo.setCurrentText("token")
    assert dialog.evaluate()
    dialog.export("json", tmp_path / "gui.json")
    assert (tmp_path / "gui.json").read_text(encoding="utf-8") == from_cli


def test_deidentified_copy_is_the_same_from_both_faces(
    qtbot: QtBot, project: Project, tmp_path: Path
) -> None:
    assert main(["deidentify", str(project.gold_dir), "-o", str(tmp_path / "cli"), "--seed", "11"]) == 0
    dialog = ExportDialog(project)
    qtbot.addWidget(dialog)
    dialog.out_edit.setText(str(tmp_path / "gui"))
    dialog.seed_edit.setText("11")
    with qtbot.waitSignal(dialog.exported, timeout=30_000):
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    assert _tree(tmp_path / "gui") == _tree(tmp_path / "cli")


def test_training_and_preannotation_run_the_same_workflows(
    qtbot: QtBot, project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trains = _Spy(monkeypatch, annotator.workflows.train, "train")
    preannotations = _Spy(monkeypatch, annotator.workflows.preannotate, "preannotate")
    window = QWidget()
    qtbot.addWidget(window)
    actions = ModelActions(
        window, project, lambda: None, lambda document, suggestions: SuggestionOutcome(document.doc_id)
    )
    actions.training_iterations = 8
    with qtbot.waitSignal(actions.finished, timeout=60_000):
        actions.retrain_action.trigger()
    cli_model = tmp_path / "cli.model"
    assert main(["train", str(project.gold_dir), "-o", str(cli_model), "--iterations", "8"]) == 0
    assert [(r.gold_dir, r.iterations) for r in trains.requests] == [(project.gold_dir, 8)] * 2
    # The two models differ only in their creation time: pre-annotate with the same one.
    shutil.copy(actions.model_path, cli_model)

    # Nobody has started the source documents: the GUI pre-annotates all of them.
    shutil.rmtree(project.annotations_dir("annotator_a"))
    with qtbot.waitSignal(actions.finished, timeout=60_000):
        actions.preannotate_all_action.trigger()
    out = tmp_path / "cli-pre"
    assert main(["preannotate", str(cli_model), str(project.source_dir), "-o", str(out)]) == 0
    assert len(preannotations.requests) == 2
    assert _tree(out) == _tree(project.preannotations_dir) and _tree(out)
