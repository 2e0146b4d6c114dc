"""The output guard, through every command that writes: hostile places to write to.

Each writer is run for real with its output (the folder, the file, the audit map, the report,
the screenshot) put where it must not go: onto an input file, inside an input folder, into a
read-only folder; and with every folder name holding bytes that are not UTF-8. The rule: exit
1 or 2 with one line naming the place, or (for names that are merely odd) success with the
names escaped; never exit 3, never a traceback, inputs byte-identical, nothing left behind.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from annotator.crf.tagger import CrfTagger
from annotator.io.i2b2 import read_i2b2
from annotator.synth.generator import generate_corpus, write_corpus
from tests.cli.test_hostile_inputs import Run, assert_no_leak, changes, run_cli, snapshot

BAD_BYTES = b"\xff\xfe"


@dataclass(frozen=True)
class Writer:
    """A command and where its output goes: ``args(work, inputs, out)``."""

    args: Callable[[Path, dict[str, Path], Path], list[str | Path]]
    #: "folder" (the output is a folder) or the suffix of the file it writes
    kind: str
    #: the input folder whose file (or inside which) the output is put
    input: str | None
    slow: bool = False


def _deid(option: str) -> Callable[[Path, dict[str, Path], Path], list[str | Path]]:
    return lambda w, i, out: ["deidentify", i["gold"], "-o", w / "deid", option, out]


WRITERS: dict[str, Writer] = {
    "convert": Writer(lambda w, i, out: ["convert", i["gold"], "-o", out, "--to", "brat"], "folder", "gold"),
    "preannotate": Writer(
        lambda w, i, out: ["preannotate", w / "model.crf", i["annotator_a"], "-o", out], "folder", "annotator_a"
    ),
    "synth": Writer(lambda w, i, out: ["synth", out, "--patients", "2"], "folder", None),
    "adjudicate": Writer(
        lambda w, i, out: ["adjudicate", i["annotator_a"], i["annotator_b"], "-o", out], "folder", "annotator_b"
    ),
    "deidentify": Writer(lambda w, i, out: ["deidentify", i["gold"], "-o", out], "folder", "gold"),
    "deidentify-map": Writer(_deid("--map"), ".json", "gold"),
    "deidentify-review": Writer(_deid("--review"), ".json", "gold"),
    "train": Writer(lambda w, i, out: ["train", i["gold"], "-o", out, "--iterations", "2"], ".crf", "gold"),
    "evaluate-csv": Writer(
        lambda w, i, out: ["evaluate", "--gold", i["gold"], "--system", i["annotator_a"], "--csv", out],
        ".csv",
        "gold",
    ),
    "evaluate-html": Writer(
        lambda w, i, out: ["evaluate", "--gold", i["gold"], "--system", i["annotator_a"], "--html", out],
        ".html",
        "annotator_a",
    ),
    "iaa-csv": Writer(lambda w, i, out: ["iaa", i["annotator_a"], i["annotator_b"], "--csv", out], ".csv", "annotator_b"),
    "iaa-html": Writer(
        lambda w, i, out: ["iaa", i["annotator_a"], i["annotator_b"], "--html", out], ".html", "annotator_a"
    ),
    "gui-screenshot": Writer(
        lambda w, i, out: ["gui", i["annotator_a"], "--annotator", "qa", "--screenshot", out], ".png", "annotator_a", True
    ),
    "batch-preannotate": Writer(
        lambda w, i, out: ["batch", "preannotate", w / "model.crf", i["annotator_a"], "-o", out, "--workers", "1"],
        "folder",
        "annotator_a",
        True,
    ),
    "batch-deidentify": Writer(
        lambda w, i, out: ["batch", "deidentify", i["gold"], "-o", out, "--workers", "1"], "folder", "gold", True
    ),
}  # fmt: skip
FOLDERS = ("gold", "annotator_a", "annotator_b")
# The default run: every writer in two places, every place for a few writers; -m slow: all.
DEFAULT = {
    *((name, "inside-input") for name in WRITERS),
    *((name, "onto-input") for name in WRITERS),
    ("convert", "read-only"), ("adjudicate", "read-only"), ("synth", "read-only"), ("train", "read-only"),
    ("preannotate", "non-utf8"), ("adjudicate", "non-utf8"), ("iaa-csv", "non-utf8"), ("deidentify", "non-utf8"),
}  # fmt: skip
PLACES = ("onto-input", "inside-input", "read-only", "non-utf8")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("guard-corpus")
    write_corpus(generate_corpus(patients=2, seed=1), root)
    tagger = CrfTagger(max_iterations=2)
    tagger.train([read_i2b2(p) for p in sorted((root / "gold").glob("*.xml"))])
    tagger.save(root / "model.crf")
    return root


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """A folder nobody can create files in; as root (whom permissions do not bind), immutable."""
    folder.chmod(0o555)
    immutable = os.geteuid() == 0
    if immutable and subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
        folder.chmod(0o755)
        pytest.skip("running as root where chattr +i is not possible: no folder is read-only to root")
    try:
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)


def cases() -> Iterator[object]:
    for name, writer in WRITERS.items():
        for place in PLACES:
            if writer.input is None and place in ("onto-input", "inside-input"):
                continue  # synth reads nothing
            slow = writer.slow or (name, place) not in DEFAULT
            yield pytest.param(name, place, id=f"{name}-{place}", marks=[pytest.mark.slow] if slow else [])


def _named(run: Run, name: str) -> None:
    assert run.returncode in (1, 2), run.describe()
    assert len(run.stderr_lines) == 1, "want exactly one line on stderr\n" + run.describe()
    assert name in run.stderr_lines[0], f"the error does not name {name}\n" + run.describe()
    assert "internal error" not in run.stderr, run.describe()


@pytest.mark.parametrize(("name", "place"), list(cases()))
def test_output_in_a_hostile_place(name: str, place: str, template: Path, tmp_path: Path) -> None:
    writer = WRITERS[name]
    work = tmp_path / "work"
    subprocess.run(["cp", "-a", str(template), str(work)], check=True)
    inputs = {folder: work / folder for folder in FOLDERS}
    suffix = "" if writer.kind == "folder" else writer.kind
    if place == "non-utf8":
        for folder in FOLDERS:
            renamed = Path(os.fsdecode(os.fsencode(work / folder) + BAD_BYTES))
            (work / folder).rename(renamed)
            inputs[folder] = renamed
        out = Path(os.fsdecode(os.fsencode(work / "out") + BAD_BYTES + suffix.encode()))
    elif place == "onto-input":
        assert writer.input is not None
        out = next(iter(sorted(inputs[writer.input].glob("*.xml"))))
    elif place == "inside-input":
        assert writer.input is not None
        out = inputs[writer.input] / f"out{suffix}"
    else:
        (work / "ro").mkdir()
        out = work / "ro" if writer.kind == "folder" else work / "ro" / f"out{suffix}"
    args = writer.args(work, inputs, out)
    before = snapshot(work)
    with read_only(work / "ro") if place == "read-only" else contextlib.nullcontext():
        run = run_cli(args, tmp_path / "home", timeout=240)
        after = snapshot(work)
    assert_no_leak(run)
    assert run.returncode != 3 and "internal error" not in run.stderr, run.describe()
    if place == "non-utf8":
        printed = run.stdout + run.stderr
        assert "\ufffd" not in printed, "an undecodable byte was printed raw\n" + run.describe()
        if run.returncode != 0:
            _named(run, "\\xff\\xfe")
            assert changes(before, after) == [], run.describe()
        else:
            assert [c for c in changes(before, after) if not c.startswith("created")] == [], run.describe()
        return
    _named(
        run, {"read-only": f"{os.sep}ro", "onto-input": out.name, "inside-input": writer.input or ""}[place]
    )
    assert changes(before, after) == [], run.describe()


READERS: dict[str, Callable[[dict[str, Path]], list[str | Path]]] = {
    "stats": lambda i: ["stats", i["gold"], i["annotator_a"]],
    "validate": lambda i: ["validate", i["gold"], "--json"],
    "evaluate": lambda i: ["evaluate", "--gold", i["gold"], "--system", i["annotator_a"], "--json"],
    "evaluate-i2b2": lambda i: ["evaluate", "--gold", i["gold"], "--system", i["annotator_a"], "--mode", "i2b2", "-v"],
    "iaa": lambda i: ["iaa", i["annotator_a"], i["annotator_b"], "--gold", i["gold"]],
    "significance": lambda i: ["significance", "--gold", i["gold"], i["annotator_a"], i["annotator_b"], "--shuffles", "20"],
    "consistency": lambda i: ["consistency", i["gold"], "--json"],
}  # fmt: skip


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[] if n in ("iaa", "evaluate") else [pytest.mark.slow]) for n in READERS]
)
def test_reader_of_folders_whose_names_are_not_utf8(name: str, template: Path, tmp_path: Path) -> None:
    work = tmp_path / "work"
    subprocess.run(["cp", "-a", str(template), str(work)], check=True)
    inputs = {}
    for folder in FOLDERS:
        inputs[folder] = Path(os.fsdecode(os.fsencode(work / folder) + BAD_BYTES))
        (work / folder).rename(inputs[folder])
    before = snapshot(work)
    run = run_cli(READERS[name](inputs), tmp_path / "home")
    assert_no_leak(run)
    assert run.returncode in (0, 1), run.describe()  # a finding (consistency) is exit 1
    assert "internal error" not in run.stderr and "\ufffd" not in run.stdout + run.stderr, run.describe()
    assert changes(before, snapshot(work)) == []
