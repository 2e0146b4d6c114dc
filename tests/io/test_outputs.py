"""The output planner: refuses to overwrite inputs or existing output, publishes all or nothing."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from annotator.errors import StorageError, UsageError
from annotator.io.outputs import FolderMode, OutputPlan, plan_files, plan_folder, publishing
from annotator.io.publish import Step, manifest_path


def test_plan_files_refuses_existing_outputs_without_force(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_text("old")
    targets = [tmp_path / "a.xml", tmp_path / "b.xml"]
    with pytest.raises(UsageError, match=r"1 output file\(s\) exist already \(use --force"):
        plan_files(targets)
    plan = plan_files(targets, force=True)
    assert plan.replacing == (tmp_path / "a.xml",)
    plan.publish_text(tmp_path / "a.xml", "new")
    assert (tmp_path / "a.xml").read_text() == "new"


def test_plan_files_never_overwrites_an_input_even_with_force(tmp_path: Path) -> None:
    source = tmp_path / "in.xml"
    source.write_text("input")
    with pytest.raises(UsageError, match="would overwrite an input file"):
        plan_files([tmp_path / "." / "in.xml"], inputs=[source], force=True)
    assert source.read_text() == "input"


def test_publishing_an_unplanned_file_is_a_programming_error(tmp_path: Path) -> None:
    plan = plan_files([tmp_path / "a.txt"])
    with pytest.raises(ValueError, match="not an output of this plan"):
        plan.publish_text(tmp_path / "b.txt", "x")
    assert not (tmp_path / "b.txt").exists()


@pytest.mark.parametrize(
    ("mode", "message"), [(FolderMode.MERGE, "write into it anyway"), (FolderMode.REPLACE, "replace it")]
)
def test_plan_folder_refuses_a_non_empty_folder_without_force(
    tmp_path: Path, mode: FolderMode, message: str
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    plan_folder(out, mode=mode)  # empty: fine
    (out / "old.xml").write_text("x")
    with pytest.raises(UsageError, match=message):
        plan_folder(out, mode=mode)
    assert plan_folder(out, mode=mode, force=True).replacing == (out,)


@pytest.mark.parametrize("relation", ["same", "inside", "around"])
def test_plan_folder_refuses_to_write_into_or_around_a_protected_folder(
    tmp_path: Path, relation: str
) -> None:
    gold = tmp_path / "data" / "gold"
    gold.mkdir(parents=True)
    out = {"same": gold, "inside": gold / "export", "around": tmp_path / "data"}[relation]
    with pytest.raises(UsageError, match="around"):
        plan_folder(out, mode=FolderMode.REPLACE, force=True, protected=[gold])


def test_plan_folder_refuses_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(UsageError, match="not a folder"):
        plan_folder(tmp_path / "f", mode=FolderMode.MERGE, force=True)


def test_a_replaced_folder_is_swapped_in_only_on_success(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.xml").write_text("old")
    plan = plan_folder(out, mode=FolderMode.REPLACE, force=True)
    with pytest.raises(RuntimeError), publishing(plan) as staged:
        (staged(out) / "new.xml").write_text("new")
        raise RuntimeError("the job failed half-way")
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging folder left behind
    assert [p.name for p in out.iterdir()] == ["old.xml"]
    with publishing(plan) as staged:
        (staged(out) / "new.xml").write_text("new")
    assert [p.name for p in out.iterdir()] == ["new.xml"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_plan_files_refuses_a_target_inside_an_input_folder(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.mkdir()
    with pytest.raises(UsageError, match="inside an input folder"):
        plan_files([gold / "deeper" / "model.crf"], inputs=[gold], force=True)
    assert list(gold.iterdir()) == []


class Killed(BaseException):
    """Stands for SIGKILL in-process: nothing after it runs, no handler catches it."""


def _publish_killed_after(
    monkeypatch: pytest.MonkeyPatch, moves: int, plan: OutputPlan, files: dict[str, str]
) -> None:
    real = Step.run
    done = [0]

    def run(step: Step) -> None:
        if step.kind == "move" and done[0] == moves:
            raise Killed
        real(step)
        done[0] += step.kind == "move"

    with monkeypatch.context() as patch:
        patch.setattr(Step, "run", run)
        with pytest.raises(Killed), publishing(plan) as staged:
            for name, text in files.items():
                staged(plan.anchor / name).write_text(text)


def test_the_same_job_finishes_a_killed_publication_and_owns_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    files = {"a.xml": "A", "b.xml": "B", "c.xml": "C"}
    targets = [out / name for name in files]
    _publish_killed_after(monkeypatch, 1, plan_files(targets, job="job-1"), files)
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == ["a.xml"]
    assert manifest_path(out).exists()
    # Another job sees a file that exists; the same job, run again, owns it and finishes.
    with pytest.raises(UsageError, match="1 output file"):
        plan_files(targets, job="job-2")
    plan = plan_files(targets, job="job-1")
    with publishing(plan) as staged:
        for name, text in files.items():
            staged(out / name).write_text(text)
    assert {p.name: p.read_text() for p in out.iterdir()} == files  # no manifest, no staging
    assert not manifest_path(out).exists()


def test_a_killed_publication_is_rolled_forward_before_another_job_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    files = {"a.xml": "A", "b.xml": "B"}
    _publish_killed_after(monkeypatch, 1, plan_files([out / n for n in files], job="job-1"), files)
    plan = plan_files([out / "c.xml", out / "d.xml"], job="job-2")  # other files: no clash
    with publishing(plan) as staged:
        staged(out / "c.xml").write_text("C")
        staged(out / "d.xml").write_text("D")
    assert sorted(p.name for p in out.iterdir()) == ["a.xml", "b.xml", "c.xml", "d.xml"]


def test_of_two_jobs_planned_together_the_second_to_publish_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "model.crf"
    first, second = plan_files([out], job="one"), plan_files([out], job="two")  # both: nothing there
    with publishing(first) as staged:
        staged(out).write_text("first")
    with pytest.raises(UsageError, match="appeared while this job ran"), publishing(second) as staged:
        staged(out).write_text("second")
    assert out.read_text() == "first"


def test_private_files_are_published_with_the_folder_or_not_at_all(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    out = tmp_path / "export"
    plan = plan_folder(out, mode=FolderMode.REPLACE, private=[blocker / "map.json"])
    with pytest.raises(StorageError, match="cannot"), publishing(plan) as staged:
        (staged(out) / "note.xml").write_text("note")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]  # no export, no staging, no lock
    review = tmp_path / "private" / "review.json"
    plan = plan_folder(out, mode=FolderMode.REPLACE, private=[review])
    with publishing(plan) as staged:
        (staged(out) / "note.xml").write_text("note")
        staged(review).write_text("findings")
    assert (out / "note.xml").read_text() == "note" and review.read_text() == "findings"


def test_a_manifest_never_moves_a_file_that_was_not_staged(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "precious.txt").write_text("keep")
    record = {"job": "", "steps": [["move", "precious.txt", "out/stolen.txt"]]}
    manifest_path(out).write_text(json.dumps(record))
    with (
        pytest.raises(StorageError, match="damaged manifest"),
        publishing(plan_folder(out, mode=FolderMode.MERGE)),
    ):
        pass
    assert (tmp_path / "precious.txt").read_text() == "keep"


def test_a_jobs_identity_is_its_request_force_aside_and_paths_resolved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from annotator.deid.leakcheck import LeakCheckOptions
    from annotator.io.publish import job_identity
    from annotator.workflows.deidentify import DeidentifyRequest

    monkeypatch.chdir(tmp_path)
    words = frozenset({"foley", "blake", "staples"})
    relative = DeidentifyRequest(Path("gold"), Path("out"), leak_options=LeakCheckOptions(ignore=words))
    absolute = DeidentifyRequest(
        tmp_path / "gold", tmp_path / "out", leak_options=LeakCheckOptions(ignore=words), force=True
    )
    assert job_identity(relative) == job_identity(absolute)
    assert job_identity(relative) != job_identity(DeidentifyRequest(Path("gold"), Path("out2")))


def test_a_jobs_identity_is_the_same_in_every_process(tmp_path: Path) -> None:
    """Set order changes with Python's hash seed; the identity of a re-run must not."""
    import os
    import subprocess
    import sys

    script = (
        "from pathlib import Path; from annotator.deid.leakcheck import LeakCheckOptions; "
        "from annotator.io.publish import job_identity; from annotator.workflows.deidentify import DeidentifyRequest; "
        "print(job_identity(DeidentifyRequest(Path('g'), Path('o'), "
        "leak_options=LeakCheckOptions(ignore=frozenset({'foley', 'blake', 'staples', 'murphy'})))))"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2", "3")
    }  # fmt: skip
    assert len(seen) == 1


@pytest.mark.parametrize("folder_mode", [None, FolderMode.MERGE, FolderMode.REPLACE])
def test_a_failed_job_leaves_no_folder_it_made_on_the_way(
    tmp_path: Path, folder_mode: FolderMode | None
) -> None:
    out = tmp_path / "new" / "deeper" / "out"
    plan = plan_files([out / "a.xml"]) if folder_mode is None else plan_folder(out, mode=folder_mode)
    with pytest.raises(RuntimeError), publishing(plan) as staged:
        staged(out / "a.xml").parent.mkdir(parents=True, exist_ok=True)
        staged(out / "a.xml").write_text("half")
        raise RuntimeError("a bad input half way")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_job_keeps_a_folder_someone_else_filled(tmp_path: Path) -> None:
    out = tmp_path / "new" / "out.xml"
    plan = plan_files([out])
    with pytest.raises(RuntimeError), publishing(plan):
        (tmp_path / "new" / "theirs.txt").write_text("kept")
        raise RuntimeError("a bad input")
    assert (tmp_path / "new" / "theirs.txt").read_text() == "kept"


def test_a_link_or_a_pipe_is_no_place_for_an_output(tmp_path: Path) -> None:
    # Outputs are renamed into place: a link or a pipe at the path would be replaced, not
    # written to (for root, a device too).
    real = tmp_path / "report.csv"
    real.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    with pytest.raises(UsageError, match="is a symbolic link"):
        plan_files([link], force=True)
    with pytest.raises(UsageError, match="device, pipe or socket"):
        plan_files([pipe], force=True)
    with pytest.raises(UsageError, match="is a symbolic link"):
        plan_folder(tmp_path / "out", mode=FolderMode.MERGE, private=[link])
    assert link.is_symlink() and real.read_text() == "old\n" and stat.S_ISFIFO(pipe.stat().st_mode)


def test_planning_many_files_resolves_each_path_a_few_times_not_once_per_pair(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every target was checked against every input: 2,434 notes took minutes to plan.
    notes = tmp_path / "notes"
    notes.mkdir()
    inputs = [notes / f"{i:03d}-01.xml" for i in range(400)]
    for path in inputs:
        path.write_text("<x/>")
    targets = [tmp_path / "out" / path.name for path in inputs]
    calls = 0
    resolve = Path.resolve

    def counted(self: Path, strict: bool = False) -> Path:
        nonlocal calls
        calls += 1
        return resolve(self, strict)

    monkeypatch.setattr(Path, "resolve", counted)
    plan_files(targets, inputs=inputs)
    assert calls < 10 * len(inputs)
    with pytest.raises(UsageError):
        plan_files([*targets[:10], inputs[200], *targets[10:]], inputs=inputs)


def test_the_current_folder_as_output_publishes_beside_it_by_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    plan = plan_folder(Path("."), mode=FolderMode.MERGE)
    assert plan.anchor == here
    with publishing(plan) as staged:
        staged(Path("a.txt")).write_text("x", encoding="utf-8")
    assert (here / "a.txt").read_text(encoding="utf-8") == "x"
    assert not manifest_path(plan.anchor).exists()


@pytest.mark.parametrize("given", [".", "..", "../here"])
def test_a_replaced_folder_is_never_the_current_folder_or_one_holding_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    with pytest.raises(UsageError, match="is the current folder or holds it"):
        plan_folder(Path(given), mode=FolderMode.REPLACE, force=True)
    assert here.is_dir()
