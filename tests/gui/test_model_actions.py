"""The Model menu: retrain from gold, pre-annotate a document or every document not started.

Every job ends with a report of what it did (issue 26: the actions used to be silent).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QPushButton, QWidget
from pytestqt.qtbot import QtBot

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.crf.default_model import default_model_path
from annotator.gui.model_actions import ModelActions
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.session.suggestions import SuggestionOutcome, sort_suggestions
from annotator.synth.generator import generate_corpus
from annotator.workflows.preannotate import not_started_documents


@pytest.fixture(scope="module")
def synthetic() -> list[Document]:
    return generate_corpus(patients=3, seed=21).gold


def _project(root: Path, documents: list[Document]) -> Project:
    project = Project.create(root, "Model test", annotators=["alice"])
    for document in documents[:5]:
        write_i2b2(document, project.gold_dir / f"{document.doc_id}.xml")
    for document in documents:
        write_i2b2(Document(document.doc_id, document.text), project.source_dir / f"{document.doc_id}.xml")
    return project


class _Window:
    """The window's part: sorts the suggestions like the session does, adds nothing."""

    def __init__(
        self, qtbot: QtBot, project: Project, document: Document | None, annotator: str | None = "alice"
    ) -> None:
        self.widget = QWidget()
        qtbot.addWidget(self.widget)
        self.document = document
        self.applied: list[tuple[Document, list[Annotation]]] = []
        self.actions = ModelActions(self.widget, project, lambda: self.document, self._apply, annotator)
        self.actions.training_iterations = 8

    def _apply(self, document: Document, suggestions: list[Annotation]) -> SuggestionOutcome:
        outcome = sort_suggestions(document, suggestions, set())
        self.applied.append((document, outcome.added))
        return outcome


def test_menu_offers_the_three_actions_and_needs_a_model(
    qtbot: QtBot, tmp_path: Path, synthetic: list[Document]
) -> None:
    window = _Window(qtbot, _project(tmp_path / "p", synthetic), None)
    menu = window.actions.menu()
    titles = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert titles == [
        "Pre-annotate this document",
        "Pre-annotate the documents not started",
        "Recall bias",
        "Suggest what the gold tags",
        "Site lists",
        "Retrain from gold",
        "Retrain with the bundled model's synthetic notes too",
    ]
    assert window.actions.recall_bias is None
    window.actions.bias_actions[0.95].trigger()
    assert window.actions.recall_bias == 0.95 and not window.actions.bias_actions[None].isChecked()
    window.actions.bias_actions[None].trigger()
    assert window.actions.recall_bias is None
    menu.aboutToShow.emit()
    # No model of its own: the bundled default model is offered (no document open: not this one).
    assert not window.actions.preannotate_document_action.isEnabled()
    assert window.actions.preannotate_all_action.isEnabled()
    # The menu counts the documents the list shows as not started (alice has opened none).
    assert window.actions.preannotate_all_action.text() == (
        f"Pre-annotate the {len(synthetic)} documents nobody has started (bundled default model)"
    )
    assert window.actions.tagging_model == default_model_path()
    assert window.actions.retrain_action.isEnabled()


def test_the_guideline_chosen_in_the_menu_decides_what_is_suggested(
    qtbot: QtBot, tmp_path: Path, synthetic: list[Document]
) -> None:
    text = "Pt seen on Monday by Dr Xavier Quell. His mother is 92 years old.\n"
    window = _Window(qtbot, _project(tmp_path / "p", synthetic), Document("g1", text))
    actions = window.actions
    assert actions.guideline == "i2b2-2014" and actions.guideline_actions["i2b2-2014"].isChecked()
    actions.menu().aboutToShow.emit()
    suggested: list[set[str]] = []
    for guideline in ("i2b2-2014", "safe-harbor"):
        actions.guideline_actions[guideline].trigger()
        assert actions.guideline == guideline
        with qtbot.waitSignal(actions.finished, timeout=60_000):
            actions.preannotate_document_action.trigger()
        suggested.append({text[a.start : a.end] for a in window.applied[-1][1]})
        assert actions.last_report is not None
        assert f"guideline {guideline}" in actions.last_report.note_label.text()
        actions.last_report.close()
    assert "Monday" in suggested[0] and "Monday" not in suggested[1]
    assert "92" in suggested[1] and "Xavier Quell" in suggested[1]


def test_the_projects_site_lists_are_suggested_and_a_bad_list_is_said(
    qtbot: QtBot, tmp_path: Path, synthetic: list[Document]
) -> None:
    root = tmp_path / "p"
    project = _project(root, synthetic)
    project.site_lists = "site-lists.tsv"
    project.save()
    (root / "site-lists.tsv").write_text("DOCTOR\tzzkondouli\nCITY\tQqrandallstown\n", encoding="utf-8")
    text = "pt seen by zzkondouli. has a bakery in Qqrandallstown.\n"
    window = _Window(qtbot, Project.open(root), Document("s1", text))
    actions = window.actions
    actions.menu().aboutToShow.emit()
    with qtbot.waitSignal(actions.finished, timeout=60_000):
        actions.preannotate_document_action.trigger()
    suggested = {(a.type, text[a.start : a.end]) for a in window.applied[-1][1]}
    assert {("DOCTOR", "zzkondouli"), ("CITY", "Qqrandallstown")} <= suggested
    assert actions.last_report is not None
    assert "site lists site-lists.tsv" in actions.last_report.note_label.text()
    actions.last_report.close()
    (root / "site-lists.tsv").write_bytes(b"CITY\tGen\xe8ve\n")
    with qtbot.waitSignal(actions.failed, timeout=60_000) as failed:
        actions.preannotate_document_action.trigger()
    assert "site-lists.tsv" in failed.args[0] and "not UTF-8" in failed.args[0]


def test_site_lists_are_chosen_from_the_menu_checked_and_saved_with_the_project(
    qtbot: QtBot, tmp_path: Path, synthetic: list[Document], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "p"
    _project(root, synthetic)
    actions = _Window(qtbot, Project.open(root), None).actions
    assert actions.site_lists_status_action.text() == "In use: none"
    assert not actions.no_site_lists_action.isEnabled()
    good = root / "staff.tsv"
    good.write_text("DOCTOR\tzzkondouli\nHOSPITAL\tGBMC\n", encoding="utf-8")
    # The file chooser is the system's modal dialog: what it returns stands in for the user's pick.
    monkeypatch.setattr(
        "annotator.gui.model_actions.QFileDialog.getOpenFileName", lambda *args: (str(good), "")
    )
    with qtbot.waitSignal(actions.finished, timeout=5_000) as chosen:
        actions.site_lists_file_action.trigger()
    assert chosen.args[0] == "Site lists: 2 phrases from staff.tsv"
    assert actions.site_lists_status_action.text() == "In use: staff.tsv (2 phrases)"
    # Inside the project the path is kept relative: the project can move.
    assert 'site_lists = "staff.tsv"' in (root / "project.toml").read_text()
    bad = tmp_path / "bad.tsv"
    bad.write_text("SURGEON\tzzmarek\n", encoding="utf-8")
    with qtbot.waitSignal(actions.failed, timeout=5_000) as refused:
        actions.use_site_lists(bad)
    assert "Site lists not changed" in refused.args[0] and "bad.tsv" in refused.args[0]
    assert "zzmarek" not in refused.args[0]
    assert Project.open(root).site_lists == "staff.tsv"
    with qtbot.waitSignal(actions.finished, timeout=5_000):
        actions.no_site_lists_action.trigger()
    assert "site_lists" not in (root / "project.toml").read_text()
    assert actions.site_lists_status_action.text() == "In use: none"


def test_the_guideline_is_the_projects_choice_and_outlives_the_window(
    qtbot: QtBot, tmp_path: Path, synthetic: list[Document]
) -> None:
    root = tmp_path / "p"
    _project(root, synthetic)
    first = _Window(qtbot, Project.open(root), None).actions
    first.guideline_actions["safe-harbor"].trigger()
    assert 'guideline = "safe-harbor"' in (root / "project.toml").read_text()
    # The next session on this project starts with the gold's guideline checked.
    again = _Window(qtbot, Project.open(root), None).actions
    assert again.guideline == "safe-harbor" and again.guideline_actions["safe-harbor"].isChecked()
    assert not again.guideline_actions["i2b2-2014"].isChecked()


def test_a_guideline_that_cannot_be_saved_is_still_used_and_said(
    qtbot: QtBot, tmp_path: Path, synthetic: list[Document]
) -> None:
    project = _project(tmp_path / "p", synthetic)
    actions = _Window(qtbot, project, None).actions
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    project.root = blocker / "p"  # project.toml can no longer be written
    with qtbot.waitSignal(actions.failed, timeout=5_000) as failed:
        actions.guideline_actions["safe-harbor"].trigger()
    assert "not saved" in failed.args[0] and "a-file" in failed.args[0]
    assert actions.guideline == "safe-harbor" and project.guideline == "i2b2-2014"


def test_default_model_preannotates_until_the_project_has_its_own(
    qtbot: QtBot, tmp_path: Path, synthetic: list[Document]
) -> None:
    project = _project(tmp_path / "p", synthetic)
    target = synthetic[-1]
    window = _Window(qtbot, project, Document(target.doc_id, target.text))
    actions = window.actions
    actions.menu().aboutToShow.emit()
    assert actions.preannotate_document_action.isEnabled()
    assert actions.preannotate_document_action.text() == "Pre-annotate this document (bundled default model)"
    with qtbot.waitSignal(actions.finished, timeout=60_000) as finished:
        actions.preannotate_document_action.trigger()
    [(_, suggestions)] = window.applied
    assert suggestions and all(s.source is Source.MODEL for s in suggestions)
    # What it did, in the status line and in a report: counts per type, and what next.
    assert finished.args[0] == f"{len(suggestions)} suggestions added to {target.doc_id}"
    report = actions.last_report
    assert report is not None and report.isVisible()
    assert report.summary_label.text() == finished.args[0] + "."
    rows = report.row_texts()
    assert sum(int(row[1]) for row in rows) == len(suggestions)
    assert {row[0] for row in rows} == {s.type for s in suggestions}
    assert "bundled default model" in report.note_label.text()
    report.close()
    # Once the project has a model, it is the one used, and the menu no longer names the default.
    actions.model_path.parent.mkdir(parents=True, exist_ok=True)
    actions.model_path.write_bytes(default_model_path().read_bytes())
    actions.menu().aboutToShow.emit()
    assert actions.tagging_model == actions.model_path
    assert actions.preannotate_document_action.text() == "Pre-annotate this document"


def test_retrain_then_preannotate_keeps_human_work(
    qtbot: QtBot, tmp_path: Path, synthetic: list[Document]
) -> None:
    project = _project(tmp_path / "p", synthetic)
    target = synthetic[-1]
    document = Document(target.doc_id, target.text)
    human = target.annotations[0]
    document.add(human)
    window = _Window(qtbot, project, document)
    actions = window.actions

    with qtbot.waitSignal(actions.finished, timeout=60_000) as trained:
        actions.retrain_action.trigger()
    assert "retrained on 5 gold documents" in trained.args[0]
    assert actions.model_path.is_file() and not actions.busy

    with qtbot.waitSignal(actions.finished, timeout=60_000) as finished:
        actions.preannotate_document_action.trigger()
    [(applied_to, suggestions)] = window.applied
    assert applied_to is document
    assert suggestions and all(s.source is Source.MODEL and s.pending for s in suggestions)
    assert not any(s.overlaps(human) for s in suggestions)
    assert all(s.id not in document for s in suggestions)
    assert document.annotations == [human]  # the window, not the action, adds them
    overlapping = finished.args[0].split(", ")[1:]
    assert all(part.endswith("skipped: overlapping an existing annotation") for part in overlapping)

    # alice has opened the first source document: it is started and gets no pre-annotation file.
    started = project.document_ids()[0]
    project.annotations_dir("alice").mkdir(parents=True, exist_ok=True)
    (project.annotations_dir("alice") / f"{started}.xml").write_bytes(
        (project.source_dir / f"{started}.xml").read_bytes()
    )
    assert started not in not_started_documents(project, "alice")
    # bob has started another: its shared suggestions are the ones he was shown, and stay so
    # (they were rewritten, although alice had not started it).
    by_bob = project.document_ids()[1]
    project.annotations_dir("bob").mkdir(parents=True, exist_ok=True)
    (project.annotations_dir("bob") / f"{by_bob}.xml").write_bytes(
        (project.source_dir / f"{by_bob}.xml").read_bytes()
    )
    actions.menu().aboutToShow.emit()
    not_started = len(project.document_ids()) - 2
    assert (
        actions.preannotate_all_action.text()
        == f"Pre-annotate the {not_started} documents nobody has started"
    )
    actions.bias_actions[0.9].trigger()
    with qtbot.waitSignal(actions.finished, timeout=60_000) as done:
        actions.preannotate_all_action.trigger()
    written = sorted(p.stem for p in project.preannotations_dir.glob("*.xml"))
    assert written == [d for d in project.document_ids() if d not in (started, by_bob)]
    assert done.args[0].startswith(f"{len(written)} documents not started pre-annotated: ")
    report = actions.last_report
    assert report is not None
    assert (
        "2 documents someone has started keep the suggestions they were given" in report.summary_label.text()
    )
    assert [row[0] for row in report.row_texts()] == written
    pre = read_i2b2(project.preannotations_dir / f"{written[0]}.xml")
    assert len(pre) > 0 and all(a.source is Source.MODEL and a.pending for a in pre.annotations)


def test_retraining_with_the_synthetic_notes_is_the_projects_choice(
    qtbot: QtBot, tmp_path: Path, synthetic: list[Document]
) -> None:
    project = _project(tmp_path / "p", synthetic)
    window = _Window(qtbot, project, None)
    actions = window.actions
    actions.synthetic_scale = 0.01  # two patients of each style
    assert not actions.with_synthetic_action.isChecked()
    actions.with_synthetic_action.trigger()
    assert Project.open(project.root).train_with_synthetic  # saved for everyone who opens it
    with qtbot.waitSignal(actions.finished, timeout=60_000) as trained:
        actions.retrain_action.trigger()
    notes = len(generate_corpus(patients=2, seed=101, style="a").gold)
    assert trained.args[0].startswith("model retrained on 5 gold documents and ")
    assert int(trained.args[0].split(" and ")[1].split()[0]) > notes  # the three styles' notes
    # Opened again, the window shows the project's choice; unticked, it is forgotten.
    again = _Window(qtbot, Project.open(project.root), None).actions
    assert again.with_synthetic_action.isChecked()
    again.with_synthetic_action.trigger()
    assert not Project.open(project.root).train_with_synthetic


def test_cancelled_retraining_reports_and_writes_no_model(
    qtbot: QtBot, tmp_path: Path, synthetic: list[Document]
) -> None:
    window = _Window(qtbot, _project(tmp_path / "p", synthetic), None)
    actions = window.actions
    actions.training_iterations = 500
    with qtbot.waitSignal(actions.failed, timeout=60_000) as failed:
        actions.retrain_action.trigger()
        assert actions.busy
        dialog = actions._dialog
        assert dialog is not None
        button = dialog.findChild(QPushButton)
        assert button is not None
        button.click()  # the dialog's Cancel button
    assert "cancelled" in failed.args[0]
    assert not actions.model_path.exists() and not actions.busy


def test_retrain_without_gold_fails_cleanly(qtbot: QtBot, tmp_path: Path) -> None:
    project = Project(root=tmp_path / "bare", name="bare")
    (tmp_path / "bare").mkdir()
    window = _Window(qtbot, project, None)
    with qtbot.waitSignal(window.actions.failed, timeout=30_000) as failed:
        window.actions.retrain_action.trigger()
    assert "gold" in failed.args[0]
