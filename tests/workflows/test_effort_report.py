"""The effort report from hand-built histories: every count and every time checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from annotator.cli.main import main
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.io.edit_history import history_path
from annotator.io.i2b2 import write_i2b2
from annotator.io.workstate import WorkState
from annotator.workflows.effort import EffortRequest, effort_report

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "json-schemas" / "effort.schema.json"
LENGTHS = {"800-01": 2000, "800-02": 1000, "801-01": 500}


def tag(tag_id: str, type_: str, start: int, end: int, pending: bool = False) -> dict[str, Any]:
    return {"id": tag_id, "tag": "X", "type": type_, "start": start, "end": end, "pending": pending}


def _write(project: Project, folder: Path, doc_id: str, tags: list[tuple[str, str, int, int]]) -> None:
    document = Document(doc_id, "x" * LENGTHS[doc_id])
    for category, type_, start, end in tags:
        document.add(document.make_annotation(category, type_, start, end))
    write_i2b2(document, folder / f"{doc_id}.xml")


def _history(project: Project, annotator: str, doc_id: str, lines: list[dict[str, Any]]) -> None:
    path = history_path(project.state_dir, annotator, doc_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path) -> Project:
    project = Project.create(tmp_path / "p", "Effort", annotators=["alice", "bob"])
    for doc_id in LENGTHS:
        _write(project, project.source_dir, doc_id, [])
    _write(
        project,
        project.gold_dir,
        "800-01",
        [("DATE", "DATE", 0, 4), ("NAME", "DOCTOR", 10, 16), ("CONTACT", "PHONE", 30, 37)],
    )
    _write(project, project.gold_dir, "800-02", [("DATE", "DATE", 0, 4), ("NAME", "PATIENT", 10, 14)])
    bob = project.annotations_dir("bob")
    _write(
        project,
        bob,
        "800-01",
        [("DATE", "DATE", 0, 4), ("NAME", "DOCTOR", 10, 14), ("CONTACT", "PHONE", 30, 38)],
    )
    _write(project, bob, "800-02", [("DATE", "DATE", 0, 4)])
    # 800-01: S1 accepted, S2 widened, S3 rejected, a phone number tagged by hand.
    _history(
        project,
        "alice",
        "800-01",
        [
            {
                "op": "start",
                "at": 1000.0,
                "annotations": [
                    tag("S1", "DATE", 0, 4, True),
                    tag("S2", "DOCTOR", 10, 14, True),
                    tag("S3", "CITY", 20, 24, True),
                ],
            },
            {"op": "replace", "at": 1010.0, "id": "S1", "annotation": tag("S1", "DATE", 0, 4)},
            {"op": "replace", "at": 1020.0, "id": "S2", "annotation": tag("S2", "DOCTOR", 10, 16)},
            {"op": "remove", "at": 1030.0, "id": "S3"},
            {"op": "add", "at": 1040.0, "annotation": tag("H1", "PHONE", 30, 38)},
        ],
    )
    # 800-02: no suggestions; two tags by hand.
    _history(
        project,
        "alice",
        "800-02",
        [
            {"op": "start", "at": 2000.0, "annotations": []},
            {"op": "add", "at": 2010.0, "annotation": tag("H2", "DATE", 0, 4)},
            {"op": "add", "at": 2020.0, "annotation": tag("H3", "PATIENT", 10, 14)},
        ],
    )
    # 801-01 (no gold, no version of bob's): one suggestion accepted.
    _history(
        project,
        "alice",
        "801-01",
        [
            {"op": "start", "at": 3000.0, "annotations": [tag("S4", "AGE", 0, 2, True)]},
            {"op": "replace", "at": 3005.0, "id": "S4", "annotation": tag("S4", "AGE", 0, 2)},
        ],
    )
    state = WorkState.load(project)
    for doc_id, seconds in (("800-01", 120.0), ("800-02", 90.0), ("801-01", 30.0)):
        state.add_seconds(doc_id, "alice", seconds)
    state.save()
    return project


def test_counts_and_times_of_one_annotator(project: Project) -> None:
    report = effort_report(EffortRequest(project, resamples=200))
    assert [a["annotator"] for a in report["annotators"]] == ["alice"]  # bob kept no history
    alice = report["annotators"][0]
    assert (alice["documents"], alice["documents_with_suggestions"]) == (3, 2)
    assert (alice["characters"], alice["tags"]) == (3500, 6)
    assert alice["seconds"] == 240.0
    assert alice["seconds_per_document"] == pytest.approx(80.0)
    assert alice["seconds_per_1000_characters"] == pytest.approx(240_000 / 3500)
    assert alice["seconds_per_tag"] == pytest.approx(40.0)
    assert alice["suggestions"] == {
        "shown": 4,
        "accepted": 2,
        "changed": 1,
        "changed_boundary": 1,
        "changed_type": 0,
        "rejected": 1,
        "unreviewed": 0,
    }
    assert (alice["hand_made"], alice["missed_by_model"]) == (3, 1)  # 800-02 showed nothing to miss with
    by_type = {row["type"]: row for row in alice["by_type"]}
    assert sorted(by_type) == ["AGE", "CITY", "DATE", "DOCTOR", "PATIENT", "PHONE"]
    assert (by_type["DATE"]["shown"], by_type["DATE"]["accepted"], by_type["DATE"]["hand_made"]) == (1, 1, 1)
    assert (by_type["DOCTOR"]["changed"], by_type["DOCTOR"]["changed_boundary"]) == (1, 1)
    assert (by_type["CITY"]["shown"], by_type["CITY"]["rejected"]) == (1, 1)
    assert (by_type["PHONE"]["hand_made"], by_type["PHONE"]["missed_by_model"]) == (1, 1)
    assert (by_type["PATIENT"]["hand_made"], by_type["PATIENT"]["missed_by_model"]) == (1, 0)


def test_agreement_by_origin_with_gold_and_the_other_annotator(project: Project) -> None:
    alice = effort_report(EffortRequest(project, resamples=200))["annotators"][0]
    gold = alice["agreement"]["gold"]
    # Suggestions kept: DATE and the widened DOCTOR are gold; 801-01 has no gold.
    assert (gold["suggestion"]["matched"], gold["suggestion"]["total"]) == (2, 2)
    # By hand: the phone number is one character too long; both tags of 800-02 are gold.
    assert (gold["hand"]["matched"], gold["hand"]["total"]) == (2, 3)
    other = alice["agreement"]["other_annotators"]
    assert (other["suggestion"]["matched"], other["suggestion"]["total"]) == (1, 2)
    assert (other["hand"]["matched"], other["hand"]["total"]) == (2, 3)
    assert other["hand"]["rate"] == pytest.approx(2 / 3)


def test_documents_with_and_without_suggestions_compared(project: Project) -> None:
    alice = effort_report(EffortRequest(project, resamples=200))["annotators"][0]
    speed = alice["with_and_without_suggestions"]["seconds_per_1000_characters"]
    assert speed["with_suggestions"]["documents"] == 2
    assert speed["with_suggestions"]["mean"] == pytest.approx(60.0)  # 120 s / 2,000 and 30 s / 500
    assert speed["with_suggestions"]["interval"] == pytest.approx([60.0, 60.0])
    assert speed["without_suggestions"] == {"documents": 1, "mean": pytest.approx(90.0), "interval": None}
    assert speed["difference"]["mean"] == pytest.approx(-30.0)
    assert speed["difference"]["interval"] is None  # one document without: no interval
    f1 = alice["with_and_without_suggestions"]["gold_f1"]
    assert f1["with_suggestions"]["mean"] == pytest.approx(2 / 3)  # 2 of 3 tags match 3 gold tags
    assert f1["without_suggestions"]["mean"] == pytest.approx(1.0)


def test_per_document_rows(project: Project) -> None:
    rows = {r["doc_id"]: r for r in effort_report(EffortRequest(project, resamples=200))["documents"]}
    assert (rows["800-01"]["shown"], rows["800-01"]["accepted"], rows["800-01"]["rejected"]) == (3, 1, 1)
    assert (rows["800-01"]["seconds"], rows["800-01"]["tags"], rows["800-01"]["hand_made"]) == (120.0, 3, 1)
    assert rows["800-02"]["gold_f1"] == pytest.approx(1.0)
    assert rows["801-01"]["gold_f1"] is None


def test_cli_json_matches_its_schema_and_html_has_no_note_text(
    project: Project, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "effort.html"
    assert main(["report", "effort", str(project.root), "--json", "--html", str(page)]) == 0
    data = json.loads(capsys.readouterr().out)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)
    bad = json.loads(json.dumps(data))
    bad["annotators"][0]["suggestions"]["acepted"] = bad["annotators"][0]["suggestions"].pop("accepted")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema, cls=jsonschema.Draft202012Validator)
    html = page.read_text(encoding="utf-8")
    assert "What became of the suggestions" in html and "xxxx" not in html
    assert "66.7% (2/3)" in html  # alice's hand-made tags against gold


def test_cli_terminal_table_and_existing_html_refused(
    project: Project, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "effort", str(project.root)]) == 0
    out = capsys.readouterr().out
    assert "alice" in out and "0:04:00" in out  # 240 s of active time
    page = tmp_path / "exists.html"
    page.write_text("mine", encoding="utf-8")
    assert main(["report", "effort", str(project.root), "--html", str(page)]) == 2
    assert page.read_text(encoding="utf-8") == "mine"
    assert "--force" in capsys.readouterr().err


def test_a_project_without_histories_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = Project.create(tmp_path / "p", "Empty", annotators=["alice"])
    assert main(["report", "effort", str(project.root)]) == 0
    assert "no edit histories yet" in capsys.readouterr().out


def test_the_demo_projects_report_matches_the_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from annotator.synth.demo import ensure_demo_project

    demo = ensure_demo_project(tmp_path / "demo")
    assert main(["report", "effort", str(demo), "--json", "--resamples", "200"]) == 0
    data = json.loads(capsys.readouterr().out)
    jsonschema.validate(
        data, json.loads(SCHEMA.read_text(encoding="utf-8")), cls=jsonschema.Draft202012Validator
    )
    assert [a["annotator"] for a in data["annotators"]] == ["alice", "bob"]
    assert all(a["documents"] == len(Project.open(demo).document_ids()) for a in data["annotators"])


def test_a_damaged_history_is_named_and_left_out(
    project: Project, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = history_path(project.state_dir, "alice", "800-02")
    path.write_text(
        '{"op": "start", "annotations": []}\nnot json\n{"op": "remove", "id": "x"}\n', encoding="utf-8"
    )
    page = tmp_path / "effort.html"
    assert main(["report", "effort", str(project.root), "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "left out, unreadable history: alice/800-02: line 2 of the edit history is damaged" in out
    assert "alice/800-02" in page.read_text(encoding="utf-8")
    report = effort_report(EffortRequest(project, resamples=200))
    assert report["annotators"][0]["documents"] == 2  # 800-01 and 801-01 still counted


def test_with_json_a_damaged_history_leaves_the_output_one_json_document(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    """The left-out line followed the JSON on stdout: no JSON reader could read the report."""
    path = history_path(project.state_dir, "alice", "800-02")
    path.write_text(
        '{"op": "start", "annotations": []}\nnot json\n{"op": "remove", "id": "x"}\n', encoding="utf-8"
    )
    assert main(["report", "effort", str(project.root), "--json", "--resamples", "200"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["unreadable_histories"] == [
        "alice/800-02: line 2 of the edit history is damaged"
    ]
    assert "left out, unreadable history: alice/800-02: " in captured.err


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ('{"op": "add", "annotation": {"id": "T1", "type": "DATE", "start": NaN, "end": 4}}', "ValueError"),
        ('{"op": "add", "annotation": "a tag"}', "TypeError"),
        ('{"op": "add", "annotation": ' + "[" * 5000 + "]" * 5000 + "}", ""),
    ],
    ids=["nan-offset", "tag-is-a-string", "nested-5000-deep"],
)
def test_a_history_line_of_the_wrong_shape_is_named_and_left_out(
    project: Project, line: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """JSON, but not what the window writes: it stopped the report with an internal error."""
    path = history_path(project.state_dir, "alice", "800-02")
    path.write_text('{"op": "start", "at": 0, "annotations": []}\n' + line + "\n", encoding="utf-8")
    assert main(["report", "effort", str(project.root)]) == 0
    out = capsys.readouterr().out
    assert "left out, unreadable history: alice/800-02: " in out
    assert kind in out
    report = effort_report(EffortRequest(project, resamples=200))
    assert report["annotators"][0]["documents"] == 2
