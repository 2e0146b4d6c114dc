"""Every writing command killed while it publishes is finished by the plain re-run.

Each command is SIGKILLed at a chosen point of its publication (before the first move, half
way, after the last move: ``tests/cli/publish_killer.py``), then run again exactly as before,
without ``--force``: the re-run exits 0, its output equals an uninterrupted run's, and no
manifest or staging is left. Default run: half way, for three commands; ``-m slow``: every
command at every point.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from annotator.crf.tagger import CrfTagger
from annotator.io.i2b2 import read_i2b2
from annotator.synth.generator import generate_corpus, write_corpus

REPO = Path(__file__).resolve().parents[2]
Command = Callable[[Path], list[str]]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("kill-corpus")
    write_corpus(generate_corpus(patients=4, seed=5), root)
    tagger = CrfTagger(max_iterations=3)
    tagger.train([read_i2b2(p) for p in sorted((root / "gold").glob("*.xml"))][:8])
    tagger.save(root / "model.crf")
    return root


def commands(corpus: Path) -> dict[str, Command]:
    """Each writer, given the folder to write in (its outputs go inside it)."""
    return {
        "convert": lambda out: ["convert", str(corpus / "gold"), str(out / "brat"), "--to", "brat"],
        "preannotate": lambda out: ["preannotate", str(corpus / "model.crf"), str(corpus / "annotator_a"), "-o", str(out / "pre")],
        "synth": lambda out: ["synth", str(out / "synth"), "--patients", "3", "--seed", "3"],
        "adjudicate": lambda out: ["adjudicate", str(corpus / "annotator_a"), str(corpus / "annotator_b"), "-o", str(out / "gold")],
        "deidentify": lambda out: ["deidentify", str(corpus / "gold"), "-o", str(out / "deid"), "--seed", "5", "--map", str(out / "map.json"), "--review", str(out / "review.json")],
        "train": lambda out: ["train", str(corpus / "gold"), "-o", str(out / "model.crf"), "--iterations", "2"],
    }  # fmt: skip


def run(argv: list[str], kill_at: float | None = None) -> subprocess.CompletedProcess[str]:
    launcher = ["-m", "tests.cli.publish_killer"] if kill_at is not None else ["-m", "annotator"]
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "KILL_AT": str(kill_at)}
    return subprocess.run(
        [sys.executable, *launcher, *argv], capture_output=True, text=True, cwd=REPO, env=env, timeout=300
    )


def published(folder: Path) -> dict[str, bytes]:
    """Files under their final names, decision logs and models aside (they record a time)."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
        and not any(part.startswith(".") for part in p.relative_to(folder).parts)
        and p.suffix not in (".jsonl", ".crf")
    }


def leftovers(folder: Path) -> list[str]:
    """Manifests, staging folders, half-swapped folders: nothing of the job's machinery."""
    return sorted(
        str(p.relative_to(folder))
        for p in folder.rglob(".*")
        if p.name.endswith((".publish.json", ".tmp", ".old")) or p.name.startswith(".phi-annotator-staging-")
    )


@pytest.fixture(scope="module")
def references(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each command's output, uninterrupted (computed once, when first needed)."""
    return {}


def reference(
    name: str, corpus: Path, references: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    if name not in references:
        folder = tmp_path_factory.mktemp(f"reference-{name}")
        done = run(commands(corpus)[name](folder))
        assert done.returncode == 0, done.stderr
        references[name] = folder
    return references[name]


POINTS = (0.0, 0.5, 1.0)
DEFAULT = {("convert", 0.5), ("deidentify", 0.5), ("train", 0.5)}


def cases() -> list[object]:
    return [
        pytest.param(
            name, point, id=f"{name}-{point}", marks=[] if (name, point) in DEFAULT else [pytest.mark.slow]
        )
        for name in ("convert", "preannotate", "synth", "adjudicate", "deidentify", "train")
        for point in POINTS
    ]


@pytest.mark.parametrize(("name", "point"), cases())
def test_plain_rerun_finishes_a_job_killed_while_publishing(
    name: str,
    point: float,
    corpus: Path,
    references: dict[str, Path],
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    argv = commands(corpus)[name](tmp_path)
    killed = run(argv, kill_at=point)
    assert killed.returncode == -signal.SIGKILL, killed.stderr  # it did reach its publication
    assert leftovers(tmp_path), "a killed publication leaves its manifest for the next run"
    again = run(argv)
    assert again.returncode == 0, again.stderr
    assert "appeared" not in again.stderr and "exist already" not in again.stderr
    assert leftovers(tmp_path) == []
    if name == "train":  # a model records when it was made: whole and loadable is what compares
        CrfTagger.load(tmp_path / "model.crf")
    else:
        assert published(tmp_path) == published(reference(name, corpus, references, tmp_path_factory))


def test_force_never_calls_the_jobs_own_files_foreign(corpus: Path, tmp_path: Path) -> None:
    argv = commands(corpus)["convert"](tmp_path)
    assert run(argv, kill_at=0.5).returncode == -signal.SIGKILL
    again = run([*argv, "--force"])
    assert again.returncode == 0, again.stderr
    assert "appeared" not in again.stderr


def test_another_job_into_a_killed_jobs_output_needs_force(corpus: Path, tmp_path: Path) -> None:
    """The killed run is finished first; its files are then output like any other."""
    argv = commands(corpus)["convert"](tmp_path)
    assert run(argv, kill_at=0.5).returncode == -signal.SIGKILL
    other = run([argv[0], str(corpus / "annotator_a"), *argv[2:]])  # other notes, the same files
    assert other.returncode == 2
    assert "exist already (use --force" in other.stderr
