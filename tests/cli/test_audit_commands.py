"""Hostile use of the commands that read annotated corpora, found by an audit.

One folder named for two roles, folders that share no document, option values a gold file or
the machine's memory cannot hold: each is refused on one line naming the path, with exit 1 or
2, no traceback, no note text, and nothing on disk changed. Every run is the real command in a
subprocess (see :func:`tests.cli.test_hostile_inputs.run_cli`).
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from tests.cli.hostile_files import MARKER
from tests.cli.test_hostile_inputs import Run, assert_clean_failure, run_cli, snapshot


@pytest.fixture(scope="module")
def corpus_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny synthetic corpus (2 patients), every note carrying the marker."""
    from annotator.synth.generator import generate_corpus, write_corpus

    root = tmp_path_factory.mktemp("audit-corpus")
    write_corpus(generate_corpus(patients=2, seed=1), root)
    for path in root.rglob("*.xml"):
        data = path.read_bytes()
        path.write_bytes(data.replace(b"]]></TEXT>", f" {MARKER}\n]]></TEXT>".encode(), 1))
    return root


@pytest.fixture
def corpus(tmp_path: Path, corpus_template: Path) -> Path:
    root = tmp_path / "work"
    shutil.copytree(corpus_template, root)
    return root


def refused(args: list[str | Path], root: Path, name: str | Path, home: Path) -> Run:
    """Run ``args``; it must fail cleanly, naming ``name``, with nothing under ``root`` changed."""
    before = snapshot(root)
    run = run_cli(args, home)
    assert_clean_failure(run, str(name), before, snapshot(root))
    return run


def split_patients(corpus: Path) -> tuple[Path, Path]:
    """Two folders with no file name in common: patient 100's notes, and the others'."""
    first, second = corpus / "first", corpus / "second"
    for target in (first, second):
        target.mkdir()
    for path in sorted((corpus / "annotator_a").glob("*.xml")):
        shutil.copy(path, first if path.name.startswith("100-") else second)
    return first, second


# -- one folder named for two roles -----------------------------------------------------------


def test_evaluate_refuses_gold_as_system(corpus: Path, tmp_path: Path) -> None:
    # Another spelling of the same folder: a perfect score of gold against itself is no result.
    for mode in ("clean", "i2b2"):
        args: list[str | Path] = ["evaluate", "--gold", corpus / "gold", "--system", f"{corpus / 'gold'}/."]
        run = refused([*args, "--mode", mode], corpus, corpus / "gold", tmp_path / "home")
        assert "--gold and --system" in run.stderr


def test_significance_refuses_one_folder_twice(corpus: Path, tmp_path: Path) -> None:
    a = corpus / "annotator_a"
    run = refused(["significance", "--gold", corpus / "gold", a, a], corpus, a, tmp_path / "home")
    assert "SYS_A and SYS_B" in run.stderr
    gold = corpus / "gold"
    run = refused(["significance", "--gold", gold, gold, a], corpus, gold, tmp_path / "home")
    assert "--gold and SYS_A" in run.stderr


def test_iaa_refuses_an_annotator_folder_as_gold(corpus: Path, tmp_path: Path) -> None:
    a, b = corpus / "annotator_a", corpus / "annotator_b"
    run = refused(["iaa", a, b, "--gold", a], corpus, a, tmp_path / "home")
    assert "--gold" in run.stderr


def test_iaa_names_the_folder_given_twice(corpus: Path, tmp_path: Path) -> None:
    a = corpus / "annotator_a"
    run = refused(["iaa", a, a], corpus, a, tmp_path / "home")
    assert "given twice" in run.stderr


def test_adjudicate_refuses_an_annotator_folder_as_suggestions(corpus: Path, tmp_path: Path) -> None:
    a, b = corpus / "annotator_a", corpus / "annotator_b"
    args: list[str | Path] = ["adjudicate", a, b, "-o", tmp_path / "gold", "--suggestions", b]
    refused(args, corpus, b, tmp_path / "home")
    assert not (tmp_path / "gold").exists()


def test_batch_deidentify_refuses_one_folder_for_maps_and_reviews(corpus: Path, tmp_path: Path) -> None:
    # Both are written as part-NNNNN.json: the audit map used to replace the leak review.
    private = tmp_path / "private"
    args: list[str | Path] = ["batch", "deidentify", corpus / "gold", "-o", tmp_path / "out"]
    args += ["--map-dir", private, "--review-dir", private, "--on-leak", "mask", "--workers", "1"]
    run = refused(args, corpus, private, tmp_path / "home")
    assert "--map-dir and --review-dir" in run.stderr
    assert not private.exists() and not (tmp_path / "out").exists()


def test_batch_evaluate_refuses_gold_as_system(corpus: Path, tmp_path: Path) -> None:
    gold = corpus / "gold"
    args: list[str | Path] = ["batch", "evaluate", "--gold", gold, "--system", gold, "--workers", "1"]
    refused(args, corpus, gold, tmp_path / "home")


# -- folders that share no document ------------------------------------------------------------


def test_adjudicate_refuses_folders_without_a_common_document(corpus: Path, tmp_path: Path) -> None:
    # It used to exit 0 with "0 documents", as if the job were done.
    first, second = split_patients(corpus)
    args: list[str | Path] = ["adjudicate", first, second, "-o", tmp_path / "gold", "--adjudicator", "qa"]
    run = refused(args, corpus, first, tmp_path / "home")
    assert run.returncode == 1 and "no document" in run.stderr
    assert not (tmp_path / "gold").exists()


def test_iaa_refuses_folders_without_a_common_document(corpus: Path, tmp_path: Path) -> None:
    first, second = split_patients(corpus)
    run = refused(["iaa", first, second], corpus, first, tmp_path / "home")
    assert run.returncode == 1 and "in common" in run.stderr


def test_iaa_with_gold_still_compares_annotators_of_different_notes(corpus: Path, tmp_path: Path) -> None:
    # Annotators given different notes share none, but each is still scored against gold.
    first, second = split_patients(corpus)
    run = run_cli(["iaa", first, second, "--gold", corpus / "gold", "--json"], tmp_path / "home")
    assert run.returncode == 0, run.describe()


def test_significance_names_a_system_without_a_common_document(corpus: Path, tmp_path: Path) -> None:
    # The message used to blame "0 document(s)" whose TEXT differs.
    first, second = split_patients(corpus)
    args: list[str | Path] = ["significance", "--gold", first, corpus / "annotator_b", second]
    run = refused([*args, "--shuffles", "10"], corpus, second, tmp_path / "home")
    assert "no document in common" in run.stderr and "TEXT" not in run.stderr


def test_official_mode_refuses_folders_without_a_common_document(corpus: Path, tmp_path: Path) -> None:
    # The official script scores only documents both sides have: all-nan tables, exit 0, before.
    first, second = split_patients(corpus)
    args: list[str | Path] = ["evaluate", "--gold", first, "--system", second, "--mode", "i2b2"]
    run = refused(args, corpus, second, tmp_path / "home")
    assert run.returncode == 1 and run.stdout == ""


# -- option values that cannot be honoured -------------------------------------------------------


def test_adjudicator_name_a_gold_file_cannot_hold(corpus: Path, tmp_path: Path) -> None:
    # It used to be reported as a character "at offset 1" of the first document.
    a, b = corpus / "annotator_a", corpus / "annotator_b"
    args: list[str | Path] = ["adjudicate", a, b, "-o", tmp_path / "gold", "--adjudicator", "q\x01a"]
    refused(args, corpus, "--adjudicator", tmp_path / "home")
    assert not (tmp_path / "gold").exists()


def test_effort_report_refuses_resamples_beyond_memory(corpus: Path, tmp_path: Path) -> None:
    # A billion resamples used to be accepted, and drew one (resamples x documents) matrix as
    # soon as histories were there: MemoryError, exit 3, or the machine's memory. Refused first.
    refused(
        ["report", "effort", corpus, "--resamples", "1000000000"], corpus, "--resamples", tmp_path / "home"
    )


def test_bootstrap_in_blocks_draws_what_one_matrix_draws() -> None:
    import numpy as np

    from annotator.evaluation.effort import BOOTSTRAP_BLOCK, bootstrap_difference_interval

    first = list(np.random.default_rng(1).random(7))
    second = list(np.random.default_rng(2).random(5))
    resamples = BOOTSTRAP_BLOCK // 5 + 3  # more rows than one block holds
    rng = np.random.default_rng(0)
    a, b = np.asarray(first), np.asarray(second)
    means_a = a[rng.integers(0, len(a), size=(resamples, len(a)))].mean(axis=1)
    diffs = means_a - b[rng.integers(0, len(b), size=(resamples, len(b)))].mean(axis=1)
    tail = (1 - 0.95) / 2
    expected = (float(np.quantile(diffs, tail)), float(np.quantile(diffs, 1 - tail)))
    assert bootstrap_difference_interval(first, second, resamples, seed=0) == expected


# -- outputs that are not plain files ------------------------------------------------------------


def test_reports_never_replace_a_fifo(corpus: Path, tmp_path: Path) -> None:
    # Reports are renamed into place: a FIFO (or, for root, /dev/full) became a plain file.
    fifo = corpus / "report.csv"
    os.mkfifo(fifo)
    a, b = corpus / "annotator_a", corpus / "annotator_b"
    home = tmp_path / "home"
    refused(["evaluate", "--gold", corpus / "gold", "--system", a, "--csv", fifo], corpus, fifo, home)
    refused(["iaa", a, b, "--html", fifo], corpus, fifo, home)
    refused(["train", corpus / "gold", "-o", fifo, "--force", "--iterations", "2"], corpus, fifo, home)
    refused(["preannotate", "default", a / "100-01.xml", "-o", fifo, "--force"], corpus, fifo, home)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


# -- small inputs of ours that are not plain files ---------------------------------------------


@pytest.mark.parametrize("name", ["project.toml", ".annotator/state.json", "allow.json"])
def test_a_fifo_in_place_of_a_small_input_is_refused_without_waiting(
    name: str, corpus: Path, tmp_path: Path
) -> None:
    # Opened, a FIFO waits for a writer forever: the command hung (and /dev/zero never ends).
    (corpus / "project.toml").write_text('name = "audit"\n', encoding="utf-8")
    fifo = corpus / name
    fifo.parent.mkdir(exist_ok=True)
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    if name == "allow.json":
        args: list[str | Path] = ["deidentify", corpus / "gold", "-o", corpus / "out", "--allow", fifo]
    else:
        args = ["report", "effort", corpus]
    run = refused(args, corpus, fifo, tmp_path / "home")
    assert "is a pipe, socket or device" in run.stderr


def test_a_fifo_in_place_of_an_edit_history_is_left_out_without_waiting(corpus: Path, tmp_path: Path) -> None:
    (corpus / "project.toml").write_text('name = "audit"\n', encoding="utf-8")
    history = corpus / ".annotator" / "history" / "qa"
    history.mkdir(parents=True)
    os.mkfifo(history / "100-01.jsonl")
    run = run_cli(["report", "effort", corpus], tmp_path / "home")
    assert run.returncode == 0, run.describe()
    assert "left out, unreadable history: qa/100-01: " in run.stdout


def test_reports_never_replace_a_link(corpus: Path, tmp_path: Path) -> None:
    # For root, --csv /dev/stdout replaced the system's link to /proc/self/fd/1 with a file.
    (corpus / "kept.csv").write_text("kept\n")
    link = corpus / "report.csv"
    link.symlink_to("kept.csv")
    a = corpus / "annotator_a"
    run = refused(
        ["evaluate", "--gold", corpus / "gold", "--system", a, "--csv", link], corpus, link, tmp_path / "home"
    )
    assert "link" in run.stderr and link.is_symlink()
