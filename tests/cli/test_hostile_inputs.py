"""Hostile inputs at the command line: every subcommand, run for real in a subprocess.

The rule under test (SPEC §9-10): bad input gives ONE line on stderr naming the file and the
problem, exit 1 (bad input) or 2 (usage), no traceback, no note text, and nothing on disk
changes (inputs byte-identical with the same mtime, no partial outputs). ``validate`` is the
exception that proves it: it reports one line per problem on stdout, each naming its file.

The default run covers a representative subset; ``-m slow`` runs every command against every
entry of the zoo in :mod:`tests.cli.hostile_files`.
"""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli.hostile_files import (
    HOSTILE_NAME,
    MARKER,
    MODEL_ZOO,
    OTHER_FORMAT_ZOO,
    PASSWD_MARKER,
    ZOO,
    ZooEntry,
    many_attributes,
    stacked_tags,
    write_clean,
    write_entry,
    write_hostile_model,
    write_other_format,
)

REPO = Path(__file__).resolve().parents[2]
# The Qt offscreen platform plugin prints this itself; it is not ours to silence.
QT_NOISE = frozenset({"This plugin does not support propagateSizeHints()"})
VERSION_FOLDERS = ("gold", "annotator_a", "annotator_b", "preannotated")
TIMEOUT = 60
# Messages name the file; a few that are about a whole document (the leak check) name its id.
HOSTILE_ID = Path(HOSTILE_NAME).stem
GUI_TIMEOUT = 25
MEMORY_LIMIT = 2 * 1024**3

# Offsets that cannot fit any note: every reader refuses them.
IMPOSSIBLE_OFFSETS = ("offset_negative", "offset_beyond", "offset_start_after_end")
# Tags that do not match TEXT: convert refuses them on purpose (it would move them).
MISALIGNED = ("text_mismatch", "utf16_offsets", "crlf_offsets")


# -- running the real command -----------------------------------------------------------------


@dataclass
class Run:
    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def stderr_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.strip() and line.strip() not in QT_NOISE]

    def describe(self) -> str:
        return (
            f"annotator {' '.join(self.args)}\nexit {self.returncode} after {self.seconds:.1f} s\n"
            f"stderr: {self.stderr[-2000:]!r}\nstdout: {self.stdout[-1000:]!r}"
        )


def _limit_memory() -> None:
    # A reader that streams /dev/zero must hit a MemoryError, not the machine's RAM.
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_cli(args: list[str | Path], home: Path, timeout: float = TIMEOUT, limit_memory: bool = False) -> Run:
    """``python -m annotator ARGS`` with stdin closed, offscreen Qt and a private HOME."""
    argv = [str(a) for a in args]
    env = dict(os.environ)
    env.update(
        QT_QPA_PLATFORM="offscreen",
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        XDG_CACHE_HOME=str(home / ".cache"),
        PYTHONDONTWRITEBYTECODE="1",
        COLUMNS="200",
    )
    started = time.monotonic()
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "annotator", *argv],
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
            preexec_fn=_limit_memory if limit_memory else None,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"annotator {' '.join(argv)} did not finish within {timeout} s (waiting for input?)")
    return Run(
        argv,
        completed.returncode,
        completed.stdout.decode("utf-8", "replace"),
        completed.stderr.decode("utf-8", "replace"),
        time.monotonic() - started,
    )


# -- the state of the disk --------------------------------------------------------------------

Signature = tuple[object, ...]


def snapshot(root: Path) -> dict[str, Signature]:
    """Every path under ``root`` with its kind; files with size, mtime and a digest."""
    found: dict[str, Signature] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath) / name
            info = path.lstat()
            key = path.relative_to(root).as_posix()
            if stat.S_ISLNK(info.st_mode):
                found[key] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                found[key] = ("dir",)
            elif not stat.S_ISREG(info.st_mode):  # a FIFO or device: never open it here
                found[key] = ("special", stat.S_IFMT(info.st_mode))
            else:
                found[key] = ("file", info.st_size, info.st_mtime_ns, _digest(path))
    return found


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def changes(before: dict[str, Signature], after: dict[str, Signature]) -> list[str]:
    out = [f"removed or changed: {k}" for k, v in before.items() if after.get(k) != v]
    out += [f"created: {k}" for k in after.keys() - before.keys()]
    return sorted(out)


# -- what a run must look like ------------------------------------------------------------------


def assert_no_leak(run: Run) -> None:
    text = run.stdout + run.stderr
    assert "Traceback" not in text, run.describe()
    assert MARKER not in text, "note text in the output\n" + run.describe()
    assert PASSWD_MARKER not in text, "/etc/passwd content in the output\n" + run.describe()


def assert_clean_failure(
    run: Run, name: str, before: dict[str, Signature], after: dict[str, Signature]
) -> None:
    """Exit 1 or 2, one stderr line naming ``name``, nothing leaked, nothing on disk changed."""
    assert_no_leak(run)
    assert run.returncode in (1, 2), run.describe()
    lines = run.stderr_lines
    assert len(lines) == 1, "want exactly one line on stderr\n" + run.describe()
    assert name in lines[0], f"the error does not name {name}\n" + run.describe()
    assert "internal error" not in lines[0], run.describe()
    assert changes(before, after) == [], run.describe()


def assert_success(run: Run, before: dict[str, Signature], after: dict[str, Signature]) -> None:
    """Exit 0, nothing leaked, every input still as it was (outputs may be new)."""
    assert_no_leak(run)
    assert run.returncode == 0, run.describe()
    assert [c for c in changes(before, after) if not c.startswith("created")] == [], run.describe()


def check(
    expect: str, run: Run, name: str, before: dict[str, Signature], after: dict[str, Signature]
) -> None:
    if expect == "fail":
        assert_clean_failure(run, name, before, after)
    elif expect == "pass":
        assert_success(run, before, after)
    else:  # "either": going on is allowed, but a refusal must be a clean one
        assert_no_leak(run)
        if run.returncode == 0:
            assert_success(run, before, after)
        else:
            assert_clean_failure(run, name, before, after)


# -- fixtures -----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def corpus_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny synthetic corpus (2 patients) whose every note carries the marker."""
    from annotator.synth.generator import generate_corpus, write_corpus

    root = tmp_path_factory.mktemp("hostile-corpus")
    write_corpus(generate_corpus(patients=2, seed=1), root)
    for path in root.rglob("*.xml"):
        data = path.read_bytes()
        # Appended after every tag, so offsets stay right and all versions keep one TEXT.
        path.write_bytes(data.replace(b"]]></TEXT>", f" {MARKER}\n]]></TEXT>".encode(), 1))
    return root


@pytest.fixture(scope="session")
def model_file(corpus_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("model-home")
    model = tmp_path_factory.mktemp("model") / "tagger.model"
    run = run_cli(["train", corpus_template / "gold", "-o", model, "--iterations", "3"], home)
    assert run.returncode == 0, run.describe()
    return model


@dataclass
class Sandbox:
    """A copy of the corpus (``root``) and a private HOME outside it (for the GUI's identity)."""

    root: Path
    home: Path

    def __truediv__(self, name: str) -> Path:
        return self.root / name


@pytest.fixture
def work(tmp_path: Path, corpus_template: Path) -> Sandbox:
    root = tmp_path / "work"
    shutil.copytree(corpus_template, root, symlinks=True)
    return Sandbox(root, tmp_path / "home")


# -- folder commands: one hostile file among good ones ----------------------------------------

# Where the hostile file goes: the folder each command reads last (or the system side).
TARGET = {
    "evaluate": "annotator_a",
    "evaluate-i2b2": "annotator_a",
    "evaluate-gold": "gold",
    "adjudicate-suggestions": "preannotated",
    "iaa": "annotator_b",
    "significance": "annotator_b",
    "adjudicate": "annotator_b",
}
FOLDER_COMMANDS = (
    "stats",
    "convert",
    "evaluate",
    "iaa",
    "significance",
    "adjudicate",
    "consistency",
    "train",
    "preannotate",
    "deidentify",
)
# Other ways in to the same readers: the gold side, the official-script mode, suggestions.
FOLDER_VARIANTS = (*FOLDER_COMMANDS, "evaluate-gold", "evaluate-i2b2", "adjudicate-suggestions")


def folder_args(command: str, w: Sandbox, model: Path) -> list[str | Path]:
    table: dict[str, list[str | Path]] = {
        "stats": ["stats", w / "gold"],
        "convert": ["convert", w / "gold", w / "out", "--to", "jsonl"],
        "evaluate": [
            "evaluate",
            "--gold",
            w / "gold",
            "--system",
            w / "annotator_a",
            "--csv",
            w / "report.csv",
        ],
        "iaa": ["iaa", w / "annotator_a", w / "annotator_b", "--gold", w / "gold", "--csv", w / "iaa.csv"],
        "significance": [
            "significance",
            "--gold",
            w / "gold",
            w / "annotator_a",
            w / "annotator_b",
            "--shuffles",
            "20",
        ],
        "adjudicate": [
            "adjudicate",
            w / "annotator_a",
            w / "annotator_b",
            "-o",
            w / "out",
            "--adjudicator",
            "qa",
        ],
        "evaluate-i2b2": ["evaluate", "--gold", w / "gold", "--system", w / "annotator_a", "--mode", "i2b2"],
        "evaluate-gold": ["evaluate", "--gold", w / "gold", "--system", w / "annotator_a", "--json"],
        "adjudicate-suggestions": [
            "adjudicate",
            w / "annotator_a",
            w / "annotator_b",
            "-o",
            w / "out",
            "--suggestions",
            w / "preannotated",
        ],
        "consistency": ["consistency", w / "gold"],
        "train": ["train", w / "gold", "-o", w / "out.model", "--iterations", "3"],
        "preannotate": ["preannotate", model, w / "gold", "-o", w / "out"],
        "deidentify": ["deidentify", w / "gold", "-o", w / "out", "--map", w / "map.json"],
    }
    return table[command]


def place(entry: ZooEntry, w: Sandbox, target: str) -> None:
    """The hostile file in ``target``; a clean twin (same doc id) in the other versions."""
    for folder in VERSION_FOLDERS:
        if entry.kind == "ok":
            write_entry(entry.name, w / folder)  # legitimate: every version holds the same bytes
        else:
            write_clean(w / folder)
    if entry.kind != "ok":
        write_entry(entry.name, w / target)


# Files the official i2b2 script crashes on (it reads every file as UTF-8, every name ending
# in xml as a file): i2b2 mode stops with one line naming the file, as the script cannot score.
OFFICIAL_CRASHES = ("latin1_declared", "utf16_with_bom", "folder_named_xml")
# An element beside TEXT and TAGS: formats without a place for it refuse it, naming the file.
ELEMENTS_REFUSED = ("xinclude_sibling",)


def folder_expectation(command: str, entry: ZooEntry) -> str:
    if command == "evaluate-i2b2" and entry.name in (*IMPOSSIBLE_OFFSETS, "duplicate_ids"):
        return "either"  # the official script does not look at ids or offset sanity
    if command == "evaluate-i2b2" and entry.name in OFFICIAL_CRASHES:
        return "fail"
    if command == "convert" and entry.name in ELEMENTS_REFUSED:
        return "fail"
    if entry.kind == "bad":
        return "fail"
    if entry.kind in ("ok", "skip"):
        return "pass"
    if command == "convert" and entry.name in MISALIGNED:
        return "fail"
    return "either"


# Open bugs, keyed by test id parts ("command", "entry"); see scratch/qa-bugs.md.
FOLDER_BUGS: dict[tuple[str, str], str] = {}

# A representative slice for the default run; every entry kind and most commands appear.
FOLDER_DEFAULT: tuple[tuple[str, str], ...] = (
    ("stats", "truncated"),
    ("stats", "offset_negative"),
    ("convert", "binary"),
    ("convert", "text_mismatch"),
    ("convert", "cdata_terminator"),
    ("evaluate", "billion_laughs"),
    ("evaluate", "offset_beyond"),
    ("evaluate", "folder_named_xml"),
    ("iaa", "external_entity_http"),
    ("iaa", "duplicate_ids"),
    ("significance", "latin1_undeclared"),
    ("adjudicate", "offset_negative"),
    ("adjudicate", "missing_text"),
    ("adjudicate", "utf8_with_bom"),
    ("consistency", "deeply_nested"),
    ("train", "huge_file"),
    ("train", "offset_start_after_end"),
    ("preannotate", "long_attribute"),
    ("preannotate", "offset_beyond"),
    ("deidentify", "external_entity_file"),
    ("deidentify", "brat_ann"),
    ("evaluate-gold", "control_character"),
    ("evaluate-i2b2", "external_entity_file"),
    ("evaluate-i2b2", "offset_negative"),
    ("adjudicate-suggestions", "truncated"),
)


# ...and every zoo entry once more, dealt round the commands, so each is run by default.
FOLDER_DEFAULT += tuple((FOLDER_COMMANDS[i % len(FOLDER_COMMANDS)], name) for i, name in enumerate(ZOO))


def _cases(
    default: tuple[tuple[str, str], ...], commands: tuple[str, ...], bugs: dict[tuple[str, str], str]
) -> Iterator[object]:
    chosen = set(default)
    for command in commands:
        for name in ZOO:
            marks: list[pytest.MarkDecorator] = []
            if (command, name) not in chosen:
                marks.append(pytest.mark.slow)
            if (command, name) in bugs:
                marks.append(pytest.mark.xfail(reason=bugs[(command, name)], strict=True))
            yield pytest.param(command, name, marks=marks, id=f"{command}-{name}")


@pytest.mark.parametrize(
    ("command", "entry_name"), list(_cases(FOLDER_DEFAULT, FOLDER_VARIANTS, FOLDER_BUGS))
)
def test_folder_with_one_hostile_file(command: str, entry_name: str, work: Sandbox, model_file: Path) -> None:
    entry = ZOO[entry_name]
    place(entry, work, TARGET.get(command, "gold"))
    before = snapshot(work.root)
    run = run_cli(folder_args(command, work, model_file), work.home)
    # Both files of a link loop are the hostile entry: either may be named.
    name = HOSTILE_ID[:-1] if entry_name == "symlink_loop" else HOSTILE_ID
    check(folder_expectation(command, entry), run, name, before, snapshot(work.root))


# -- file commands: the hostile file named directly --------------------------------------------

FILE_COMMANDS = ("stats", "convert", "preannotate", "gui")


def file_args(command: str, path: Path, w: Sandbox, model: Path) -> list[str | Path]:
    table: dict[str, list[str | Path]] = {
        "stats": ["stats", path],
        "convert": ["convert", path, w / "out", "--to", "jsonl"],
        "preannotate": ["preannotate", model, path, "-o", w / "out.xml"],
        "gui": ["gui", path, "--annotator", "qa", "--screenshot", w / "shot.png"],
    }
    return table[command]


def file_expectation(command: str, entry: ZooEntry) -> str:
    if command == "convert" and entry.name in ELEMENTS_REFUSED:
        return "fail"
    if entry.kind in ("bad", "skip"):
        return "fail"
    if entry.kind == "ok":
        return "pass"
    if command == "convert" and entry.name in MISALIGNED:
        return "fail"
    return "either"


FILE_BUGS: dict[tuple[str, str], str] = {}

FILE_DEFAULT = (
    ("stats", "external_entity_file"),
    ("stats", "utf16_with_bom"),
    ("stats", "symlink_loop"),
    ("convert", "crlf_offsets"),
    ("convert", "latin1_declared"),
    ("convert", "folder_named_xml"),
    ("preannotate", "xinclude"),
    ("preannotate", "utf16_without_bom"),
    ("gui", "malformed"),
)


@pytest.mark.parametrize(("command", "entry_name"), list(_cases(FILE_DEFAULT, FILE_COMMANDS, FILE_BUGS)))
def test_hostile_file_named_directly(command: str, entry_name: str, work: Sandbox, model_file: Path) -> None:
    entry = ZOO[entry_name]
    path = write_entry(entry_name, work / "single")
    before = snapshot(work.root)
    timeout = GUI_TIMEOUT if command == "gui" else TIMEOUT
    run = run_cli(file_args(command, path, work, model_file), work.home, timeout=timeout)
    check(file_expectation(command, entry), run, HOSTILE_ID, before, snapshot(work.root))


# -- validate: one line per problem ---------------------------------------------------------------


def _validate_lines(run: Run) -> list[str]:
    return [line for line in run.stdout.splitlines() if line.strip() and " file(s) checked: " not in line]


# Named on the command line, these are no file at all: a usage error before any check (below).
NO_FILE = frozenset({"symlink_loop"})


@pytest.mark.parametrize("schema", [False, True], ids=["no-schema", "schema"])
def test_validate_reports_every_zoo_file(schema: bool, work: Sandbox) -> None:
    paths: dict[str, Path] = {}
    for name, entry in ZOO.items():
        if entry.kind != "skip" and name not in NO_FILE:
            paths[name] = write_entry(name, work / "zoo" / name)
    before = snapshot(work.root)
    run = run_cli(["validate", *paths.values(), *(["--schema", "i2b2-2014"] if schema else [])], work.home)
    assert_no_leak(run)
    assert run.returncode == 1, run.describe()
    assert run.stderr_lines == [], run.describe()
    assert changes(before, snapshot(work.root)) == []
    lines = _validate_lines(run)
    by_path = {name: [line for line in lines if line.startswith(f"{path}: ")] for name, path in paths.items()}
    assert sum(len(v) for v in by_path.values()) == len(lines), "a line names no file\n" + run.describe()
    for name, entry in ZOO.items():
        if entry.kind == "skip" or name in NO_FILE:
            continue
        errors = [line for line in by_path[name] if ": warning: " not in line and "] warning: " not in line]
        must_flag = entry.kind in ("bad", "flagged") and (
            schema or name not in ("unknown_type", "unknown_category")
        )
        if must_flag:
            assert errors, f"{name}: validate reported no error\n" + "\n".join(lines)
            if entry.expect:
                assert any(entry.expect.lower() in line.lower() for line in errors), f"{name}: {errors}"
        elif entry.kind == "ok":
            assert errors == [], f"{name}: a legitimate file was reported\n" + "\n".join(errors)


@pytest.mark.parametrize("name", [n for n, e in ZOO.items() if e.kind != "skip"])
@pytest.mark.slow
def test_validate_one_hostile_file(name: str, work: Sandbox) -> None:
    path = write_entry(name, work / "single")
    before = snapshot(work.root)
    run = run_cli(["validate", path, "--realign"], work.home)
    assert_no_leak(run)
    assert changes(before, snapshot(work.root)) == [], "validate --realign without --write changed a file"
    if name in NO_FILE:  # named on the command line, a path to nothing is a usage error
        assert run.returncode == 2 and "a symbolic link to nothing" in run.stderr, run.describe()
        return
    lines = _validate_lines(run)
    assert all(line.startswith(f"{path}: ") for line in lines), run.describe()
    if ZOO[name].kind == "bad" or (
        ZOO[name].kind == "flagged" and name not in ("unknown_type", "unknown_category")
    ):
        assert run.returncode == 1, run.describe()
        assert lines, run.describe()
    elif ZOO[name].kind == "ok":
        assert run.returncode == 0, run.describe()


def test_validate_folder_with_one_bad_file_names_only_that_file(work: Sandbox) -> None:
    write_entry("duplicate_ids", work / "gold")
    before = snapshot(work.root)
    run = run_cli(["validate", work / "gold"], work.home)
    assert_no_leak(run)
    assert run.returncode == 1, run.describe()
    lines = _validate_lines(run)
    assert lines and all(line.startswith(f"{work / 'gold' / HOSTILE_NAME}: ") for line in lines), (
        run.describe()
    )
    assert changes(before, snapshot(work.root)) == []


# -- wrong paths: missing, empty, a file for a folder, a folder for a file ------------------------


def path_args(command: str, folder: Path, w: Sandbox, model: Path) -> list[str | Path]:
    """``command`` reading ``folder`` where it expects its (main) input folder."""
    other = w / "annotator_a"
    table: dict[str, list[str | Path]] = {
        "validate": ["validate", folder],
        "stats": ["stats", folder],
        "convert": ["convert", folder, w / "out", "--to", "jsonl"],
        "evaluate": ["evaluate", "--gold", folder, "--system", folder],
        "iaa": ["iaa", folder, other],
        "significance": ["significance", "--gold", folder, other, folder, "--shuffles", "20"],
        "adjudicate": ["adjudicate", folder, other, "-o", w / "out"],
        "consistency": ["consistency", folder],
        "train": ["train", folder, "-o", w / "out.model", "--iterations", "3"],
        "preannotate": ["preannotate", model, folder, "-o", w / "out"],
        "deidentify": ["deidentify", folder, "-o", w / "out"],
        "gui": ["gui", folder, "--annotator", "qa", "--screenshot", w / "shot.png"],
    }
    return table[command]


ALL_COMMANDS = ("validate", *FOLDER_COMMANDS, "gui")
EMPTY_FOLDER_BUGS: dict[str, str] = {}
EMPTY_DEFAULT = ("validate", "stats", "iaa", "adjudicate", "consistency", "deidentify")


def _path_cases(default: tuple[str, ...], bugs: dict[str, str]) -> Iterator[object]:
    for command in ALL_COMMANDS:
        marks: list[pytest.MarkDecorator] = []
        if command not in default:
            marks.append(pytest.mark.slow)
        if command in bugs:
            marks.append(pytest.mark.xfail(reason=bugs[command], strict=True))
        yield pytest.param(command, marks=marks, id=command)


@pytest.mark.parametrize("command", list(_path_cases(EMPTY_DEFAULT, EMPTY_FOLDER_BUGS)))
def test_empty_folder_is_refused(command: str, work: Sandbox, model_file: Path) -> None:
    empty = work / "empty"
    empty.mkdir()
    if command == "iaa":
        args: list[str | Path] = ["iaa", empty, work / "empty2"]
        (work / "empty2").mkdir()
    elif command == "adjudicate":
        (work / "empty2").mkdir()
        args = ["adjudicate", empty, work / "empty2", "-o", work / "out"]
    else:
        args = path_args(command, empty, work, model_file)
    before = snapshot(work.root)
    run = run_cli(args, work.home)
    assert_clean_failure(run, "empty", before, snapshot(work.root))


@pytest.mark.parametrize("command", list(_path_cases(("stats", "evaluate", "adjudicate", "deidentify"), {})))
def test_missing_folder_is_refused(command: str, work: Sandbox, model_file: Path) -> None:
    missing = work / "no-such-folder"
    before = snapshot(work.root)
    run = run_cli(path_args(command, missing, work, model_file), work.home)
    assert_clean_failure(run, "no-such-folder", before, snapshot(work.root))


# evaluate is not here: it scores two files as well as two folders (as the official scorer does).
FOLDER_ONLY = ("iaa", "significance", "adjudicate", "consistency", "train", "deidentify")


@pytest.mark.parametrize(
    "command",
    [pytest.param(c, marks=[] if c in ("iaa", "train") else [pytest.mark.slow]) for c in FOLDER_ONLY],
)
def test_file_where_folder_expected_is_refused(command: str, work: Sandbox, model_file: Path) -> None:
    file = work / "gold" / "100-01.xml"
    before = snapshot(work.root)
    run = run_cli(path_args(command, file, work, model_file), work.home)
    assert_clean_failure(run, "100-01.xml", before, snapshot(work.root))


def test_mismatched_text_between_versions_stops_adjudication(work: Sandbox) -> None:
    path = work / "annotator_b" / "100-02.xml"
    data = path.read_bytes()
    path.write_bytes(data.replace(b"<![CDATA[", b"<![CDATA[Addendum. ", 1))
    before = snapshot(work.root)
    run = run_cli(["adjudicate", work / "annotator_a", work / "annotator_b", "-o", work / "out"], work.home)
    assert_clean_failure(run, "100-02", before, snapshot(work.root))


@pytest.mark.slow
@pytest.mark.parametrize("command", ["evaluate", "iaa"])
def test_mismatched_text_between_versions_is_reported(command: str, work: Sandbox) -> None:
    """Scoring skips the pair and says which document, on one stderr line, never silently."""
    path = work / "annotator_a" / "100-02.xml"
    path.write_bytes(path.read_bytes().replace(b"<![CDATA[", b"<![CDATA[Addendum. ", 1))
    before = snapshot(work.root)
    if command == "evaluate":
        args: list[str | Path] = ["evaluate", "--gold", work / "gold", "--system", work / "annotator_a"]
    else:
        args = ["iaa", work / "gold", work / "annotator_a"]
    run = run_cli(args, work.home)
    assert_no_leak(run)
    assert run.returncode in (0, 1), run.describe()
    assert any("100-02" in line for line in run.stderr_lines), run.describe()
    assert changes(before, snapshot(work.root)) == []


def test_convert_refuses_to_overwrite_its_input(work: Sandbox) -> None:
    before = snapshot(work.root)
    run = run_cli(["convert", work / "gold", work / "gold", "--to", "i2b2", "--force"], work.home)
    assert_clean_failure(run, "gold", before, snapshot(work.root))


@pytest.mark.slow
def test_gui_document_that_is_hostile_in_a_good_folder(work: Sandbox) -> None:
    write_entry("truncated", work / "gold")
    before = snapshot(work.root)
    args: list[str | Path] = [
        "gui",
        work / "gold",
        "--document",
        "900-01",
        "--annotator",
        "qa",
        "--screenshot",
        work / "shot.png",
    ]
    run = run_cli(args, work.home, timeout=GUI_TIMEOUT)
    assert_no_leak(run)
    assert run.returncode in (1, 2), run.describe()
    assert len(run.stderr_lines) == 1 and HOSTILE_NAME in run.stderr_lines[0], run.describe()
    assert not (work / "shot.png").exists()
    assert [c for c in changes(before, snapshot(work.root)) if "900-01" in c] == [], run.describe()


# -- preannotate with a hostile model file --------------------------------------------------------

SPECIAL_MODELS = ("fifo", "dev_zero", "huge_sparse")


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            name,
            marks=[
                *([] if name in ("not_a_zip", "crf_truncated", "huge_sparse") else [pytest.mark.slow]),
            ],
        )
        for name in MODEL_ZOO
    ],
)
def test_preannotate_refuses_a_hostile_model(name: str, work: Sandbox, model_file: Path) -> None:
    # Special and huge files stay outside the snapshot, which would otherwise read them.
    special = name in SPECIAL_MODELS
    model = write_hostile_model(name, model_file, work.root.parent / "models" if special else work / "models")
    before = snapshot(work.root)
    run = run_cli(
        ["preannotate", model, work / "gold", "-o", work / "out"], work.home, timeout=10, limit_memory=special
    )
    assert_clean_failure(run, model.name, before, snapshot(work.root))


# -- site lists ------------------------------------------------------------------------------------

# Lists hold PHI: a refusal names the file and the line, never a phrase (the marker).
SITE_LIST_ZOO: dict[str, bytes] = {
    "binary": b"\x00\x01\xff\xfe" * 64,
    "latin1": "DOCTOR\tZZSECRET G\xe9rard\n".encode("latin-1"),
    "columns_swapped": b"ZZSECRET\tDOCTOR\n",
    "too_many_columns": b"DOCTOR\tZZSECRET\t001\textra\n",
    "phrase_too_long": b"DOCTOR\t" + b"ZZSECRET " * 12 + b"\n",
    "comments_only": b"# ZZSECRET\n\n",
}
SPECIAL_LISTS = ("fifo", "huge_sparse")


@pytest.mark.parametrize("command", ["preannotate", "deidentify"])
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=[] if n in ("columns_swapped", "fifo") else [pytest.mark.slow])
        for n in (*SITE_LIST_ZOO, *SPECIAL_LISTS)
    ],
)
def test_a_hostile_site_list_is_refused_cleanly(
    command: str, name: str, work: Sandbox, model_file: Path
) -> None:
    # Special and huge files stay outside the snapshot, which would otherwise read them.
    folder = work.root.parent / "lists" if name in SPECIAL_LISTS else work / "lists"
    folder.mkdir(exist_ok=True)
    lists = folder / "site-lists.tsv"
    if name == "fifo":
        os.mkfifo(lists)
    elif name == "huge_sparse":
        with lists.open("wb") as handle:
            handle.truncate(64 * 1024 * 1024)
    else:
        lists.write_bytes(SITE_LIST_ZOO[name])
    before = snapshot(work.root)
    args: list[str | Path] = (
        ["preannotate", model_file, work / "gold", "-o", work / "out", "--site-lists", lists]
        if command == "preannotate"
        else ["deidentify", work / "gold", "-o", work / "out", "--site-lists", lists]
    )
    run = run_cli(args, work.home, timeout=20, limit_memory=name in SPECIAL_LISTS)
    assert_clean_failure(run, "site-lists.tsv", before, snapshot(work.root))


# -- convert from the other formats ----------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            n, marks=[] if n in ("mae_external_entity", "brat_offsets_beyond") else [pytest.mark.slow]
        )
        for n in OTHER_FORMAT_ZOO
    ],
)
def test_convert_refuses_hostile_files_of_other_formats(name: str, work: Sandbox) -> None:
    source = work / "incoming"
    format_name = write_other_format(name, source)
    before = snapshot(work.root)
    run = run_cli(["convert", source, work / "out", "--from", format_name, "--to", "i2b2"], work.home)
    assert_clean_failure(run, "900", before, snapshot(work.root))


# -- file names that are not PPP-RR ----------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [pytest.param(c, marks=[] if c == "deidentify" else [pytest.mark.slow]) for c in FOLDER_COMMANDS],
)
def test_file_name_that_is_not_ppp_rr(command: str, work: Sandbox, model_file: Path) -> None:
    """``notes final.xml`` among PPP-RR files: handled as its own patient, or refused cleanly."""
    for folder in VERSION_FOLDERS:
        write_clean(work / folder).rename(work / folder / "notes final.xml")
    before = snapshot(work.root)
    run = run_cli(folder_args(command, work, model_file), work.home)
    check("either", run, "notes final", before, snapshot(work.root))


# -- outputs that cannot be written: a folder where a file goes, a path under a file ---------------


def output_cases() -> Iterator[object]:
    def case(name: str, default: bool = False, bug: str = "") -> object:
        marks: list[pytest.MarkDecorator] = [] if default else [pytest.mark.slow]
        if bug:
            marks.append(pytest.mark.xfail(reason=bug, strict=True))
        return pytest.param(name, marks=marks, id=name)

    yield case("evaluate-csv-is-folder", default=True)
    yield case("evaluate-html-under-file")
    yield case("iaa-csv-is-folder")
    yield case("deidentify-map-is-folder", default=True)
    yield case("deidentify-out-under-file")
    yield case("adjudicate-out-is-file", default=True)
    yield case("train-out-under-file")
    yield case("convert-out-under-file")
    yield case("preannotate-out-is-file")
    yield case("gui-screenshot-is-folder")


@pytest.mark.parametrize("case", list(output_cases()))
def test_unwritable_output_is_refused_cleanly(case: str, work: Sandbox, model_file: Path) -> None:
    w = work
    a_file = w / "gold" / "100-01.xml"
    (w / "taken").mkdir()
    table: dict[str, tuple[list[str | Path], str]] = {
        "evaluate-csv-is-folder": (
            ["evaluate", "--gold", w / "gold", "--system", w / "annotator_a", "--csv", w / "taken"],
            "taken",
        ),
        "evaluate-html-under-file": (
            ["evaluate", "--gold", w / "gold", "--system", w / "annotator_a", "--html", a_file / "r.html"],
            "100-01.xml",
        ),
        "iaa-csv-is-folder": (["iaa", w / "annotator_a", w / "annotator_b", "--csv", w / "taken"], "taken"),
        "deidentify-map-is-folder": (
            ["deidentify", w / "gold", "-o", w / "deid", "--map", w / "taken"],
            "taken",
        ),
        "deidentify-out-under-file": (["deidentify", w / "gold", "-o", a_file / "deid"], "100-01.xml"),
        "deidentify-review-is-folder": (
            ["deidentify", w / "gold", "-o", w / "deid", "--review", w / "taken"],
            "taken",
        ),
        "adjudicate-out-is-file": (
            ["adjudicate", w / "annotator_a", w / "annotator_b", "-o", a_file],
            "100-01.xml",
        ),
        "train-out-under-file": (
            ["train", w / "gold", "-o", a_file / "m.model", "--iterations", "2"],
            "100-01.xml",
        ),
        "convert-out-under-file": (["convert", w / "gold", a_file / "out", "--to", "jsonl"], "100-01.xml"),
        "preannotate-out-is-file": (
            ["preannotate", model_file, w / "annotator_a", "-o", a_file],
            "100-01.xml",
        ),
        "gui-screenshot-is-folder": (
            ["gui", a_file, "--annotator", "qa", "--screenshot", w / "taken"],
            "taken",
        ),
    }
    args, name = table[case]
    before = snapshot(w.root)
    run = run_cli(args, w.home, timeout=GUI_TIMEOUT if case.startswith("gui") else TIMEOUT)
    assert_clean_failure(run, name, before, snapshot(w.root))


# -- no network: references to a local listener must never connect ------------------------------

NETWORK_ENTRIES = ("external_entity_http", "parameter_entity", "doctype_external_dtd", "xinclude_sibling")


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.setblocking(False)
    yield server
    server.close()


def _connections(server: socket.socket) -> int:
    count = 0
    while True:
        try:
            connection, _ = server.accept()
        except BlockingIOError:
            return count
        connection.close()
        count += 1


def _pointed_at(entry: str, folder: Path, port: int) -> Path:
    path = write_entry(entry, folder)
    data = path.read_bytes().replace(b"127.0.0.1:9/", f"127.0.0.1:{port}/".encode())
    data = data.replace(b"file:///etc/passwd", f"http://127.0.0.1:{port}/include".encode())
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(c, marks=[] if c in ("validate", "stats") else [pytest.mark.slow])
        for c in ("validate", "stats", "convert", "gui")
    ],
)
def test_no_network_access_for_remote_references(
    command: str, work: Sandbox, listener: socket.socket
) -> None:
    port = listener.getsockname()[1]
    paths = [_pointed_at(name, work / "net" / name, port) for name in NETWORK_ENTRIES]
    runs: list[Run] = []
    if command == "validate":
        runs.append(run_cli(["validate", *paths], work.home))
    for path in paths:
        if command == "stats":
            runs.append(run_cli(["stats", path], work.home))
        elif command == "convert":
            runs.append(run_cli(["convert", path, path.parent / "out", "--to", "i2b2"], work.home))
        elif command == "gui" and ZOO[path.parent.name].kind == "ok":
            runs.append(
                run_cli(
                    ["gui", path, "--annotator", "qa", "--screenshot", path.parent / "s.png"],
                    work.home,
                    GUI_TIMEOUT,
                )
            )
    for run in runs:
        assert_no_leak(run)
        assert run.returncode in (0, 1, 2), run.describe()
    assert _connections(listener) == 0, "a command connected to a URL named in an input file"


# -- special files named directly: a FIFO, a character device ----------------------------------


def _special(kind: str, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / HOSTILE_NAME
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path


@pytest.mark.parametrize(
    ("command", "kind"),
    [
        pytest.param(
            command,
            kind,
            marks=[
                *(
                    []
                    if (command, kind) in (("stats", "fifo"), ("validate", "devzero"))
                    else [pytest.mark.slow]
                ),
            ],
            id=f"{command}-{kind}",
        )
        for command in ("validate", "stats", "convert", "preannotate")
        for kind in ("fifo", "devzero")
    ],
)
def test_special_file_named_directly_is_refused(
    command: str, kind: str, work: Sandbox, model_file: Path
) -> None:
    path = _special(kind, work / "special")
    table: dict[str, list[str | Path]] = {
        "validate": ["validate", path],
        "stats": ["stats", path],
        "convert": ["convert", path, work / "out", "--to", "jsonl"],
        "preannotate": ["preannotate", model_file, path, "-o", work / "out.xml"],
    }
    before = snapshot(work.root)
    run = run_cli(table[command], work.home, timeout=8, limit_memory=True)
    if command == "validate":
        assert_no_leak(run)
        assert run.returncode == 1, run.describe()
        lines = _validate_lines(run)
        assert lines and all(line.startswith(f"{path}: ") for line in lines), run.describe()
        assert changes(before, snapshot(work.root)) == []
    else:
        assert_clean_failure(run, HOSTILE_NAME, before, snapshot(work.root))


def test_special_files_in_a_folder_are_named_never_opened(work: Sandbox) -> None:
    # Skipped, the note they stand for would be lost without a word; opened, a pipe waits
    # forever and /dev/zero never ends.
    _special("fifo", work / "gold")
    (work / "gold" / "900-02.xml").symlink_to("/dev/zero")
    before = snapshot(work.root)
    run = run_cli(["stats", work / "gold"], work.home, timeout=20, limit_memory=True)
    assert_clean_failure(run, HOSTILE_ID, before, snapshot(work.root))
    assert "is a pipe, socket or device, not a file" in run.stderr, run.describe()


# -- legitimate oddities survive a round trip ------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=[] if n == "cdata_terminator" else [pytest.mark.slow])
        for n, e in ZOO.items()
        if e.kind == "ok"
    ],
)
def test_legitimate_oddity_converts_to_an_equal_document(name: str, work: Sandbox) -> None:
    from annotator.io.i2b2 import read_i2b2

    source = write_entry(name, work / "odd")
    run = run_cli(["convert", source, work / "out", "--to", "i2b2"], work.home)
    assert_no_leak(run)
    assert run.returncode == 0, run.describe()
    written = list((work / "out").rglob("*.xml"))
    assert len(written) == 1, run.describe()
    original, converted = read_i2b2(source), read_i2b2(written[0])
    assert converted.text == original.text
    assert [(a.tag, a.type, a.start, a.end, a.text) for a in converted.annotations] == [
        (a.tag, a.type, a.start, a.end, a.text) for a in original.annotations
    ]
    check_run = run_cli(["validate", written[0], "--schema", "i2b2-2014"], work.home)
    assert check_run.returncode == 0, check_run.describe()


# -- the adjudication window on folders holding a hostile file -----------------------------------


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            n,
            marks=[] if n == "offset_negative" else [pytest.mark.slow],
        )
        for n in ("malformed", "offset_negative", "offset_start_after_end", "duplicate_ids", "huge_file")
    ],
)
def test_gui_adjudicate_refuses_a_hostile_version(name: str, work: Sandbox) -> None:
    place(ZOO[name], work, "annotator_b")
    before = snapshot(work.root)
    args: list[str | Path] = [
        "gui",
        "--adjudicate",
        work / "annotator_a",
        work / "annotator_b",
        "-o",
        work / "gold-out",
        "--screenshot",
        work / "shot.png",
    ]
    run = run_cli(args, work.home, timeout=GUI_TIMEOUT)
    assert_clean_failure(run, HOSTILE_ID, before, snapshot(work.root))


# -- hostile schema and mapping files (TOML) --------------------------------------------------------

TOML_ZOO = {
    "not_toml": b"this is = = not toml [[[\n",
    "wrong_shape": b'[map]\n"NAME/PATIENT" = 5\n',
    "empty": b"",
    "binary": bytes(range(256)),
}


def toml_cases() -> Iterator[object]:
    for option in (
        "validate-schema",
        "convert-schema",
        "train-schema",
        "train-mapping",
        "evaluate-map",
        "iaa-map",
    ):
        for name in TOML_ZOO:
            marks: list[pytest.MarkDecorator] = []
            if (option, name) not in (("validate-schema", "not_toml"), ("evaluate-map", "wrong_shape")):
                marks.append(pytest.mark.slow)
            yield pytest.param(option, name, marks=marks, id=f"{option}-{name}")


@pytest.mark.parametrize(("option", "name"), list(toml_cases()))
def test_hostile_schema_or_mapping_file(option: str, name: str, work: Sandbox) -> None:
    toml = work / "config" / f"hostile-{name}.toml"
    toml.parent.mkdir()
    toml.write_bytes(TOML_ZOO[name])
    w = work
    table: dict[str, list[str | Path]] = {
        "validate-schema": ["validate", w / "gold", "--schema", toml],
        "convert-schema": ["convert", w / "gold", w / "out", "--to", "jsonl", "--schema", toml],
        "train-schema": ["train", w / "gold", "-o", w / "out.model", "--schema", toml],
        "train-mapping": ["train", w / "gold", "-o", w / "out.model", "--mapping", toml],
        "evaluate-map": ["evaluate", "--gold", w / "gold", "--system", w / "annotator_a", "--map", toml],
        "iaa-map": ["iaa", w / "annotator_a", w / "annotator_b", "--map", toml],
    }
    before = snapshot(w.root)
    run = run_cli(table[option], w.home)
    assert_clean_failure(run, toml.name, before, snapshot(w.root))


# -- file names with control characters -----------------------------------------------------------


@pytest.mark.parametrize("command", ["stats", "validate"])
def test_control_characters_in_file_names_are_escaped(command: str, work: Sandbox) -> None:
    folder = work / "named"
    folder.mkdir()
    truncated = _utf8_truncated()
    (folder / "900-01\nannotator stats: error: forged.xml").write_bytes(truncated)
    (folder / "900-02\x1b[2J\x1b[31m.xml").write_bytes(truncated)
    before = snapshot(work.root)
    run = run_cli([command, folder], work.home)
    assert_no_leak(run)
    assert "\x1b" not in run.stdout + run.stderr, run.describe()
    if command == "stats":
        assert_clean_failure(run, "900-01", before, snapshot(work.root))
    else:
        assert run.returncode == 1, run.describe()
        lines = _validate_lines(run)
        assert len(lines) == 2 and all(line.startswith(f"{folder}/900-0") for line in lines), run.describe()


def _utf8_truncated() -> bytes:
    return b"<deIdi2b2><TEXT><![CDATA[" + MARKER.encode()


# -- deeply nested JSON where the tool reads JSON -------------------------------------------------

DEEP_JSON = "[" * 100_000 + "]" * 100_000 + "\n"


@pytest.mark.parametrize(
    "where",
    [
        pytest.param(
            w,
            marks=[] if w in ("convert-jsonl", "deidentify-allow") else [pytest.mark.slow],
        )
        for w in (
            "convert-jsonl",
            "deidentify-allow",
            "model-metadata",
            "gui-state",
            "gui-identity",
            "gui-lock",
        )
    ],
)
def test_deeply_nested_json_is_refused(where: str, work: Sandbox, model_file: Path) -> None:
    import zipfile

    if where == "convert-jsonl":
        target = work / "incoming" / "900.jsonl"
        target.parent.mkdir()
        target.write_text(DEEP_JSON)
        args: list[str | Path] = ["convert", target.parent, work / "out", "--from", "jsonl", "--to", "i2b2"]
    elif where == "deidentify-allow":
        target = work / "allow.json"
        target.write_text(DEEP_JSON)
        args = ["deidentify", work / "gold", "-o", work / "deid", "--allow", target]
    elif where == "model-metadata":
        target = work / "deep.model"
        with zipfile.ZipFile(model_file) as source, zipfile.ZipFile(target, "w") as archive:
            archive.writestr("metadata.json", DEEP_JSON)
            archive.writestr("model.crfsuite", source.read("model.crfsuite"))
        args = ["preannotate", target, work / "gold", "-o", work / "out"]
    elif where == "gui-state":
        target = work / "gold" / ".annotator" / "state.json"
        target.parent.mkdir()
        target.write_text(DEEP_JSON)
        args = ["gui", work / "gold", "--annotator", "qa", "--screenshot", work / "shot.png"]
    elif where == "gui-lock":
        target = work / "gold" / ".100-01.xml.lock"
        target.write_text(DEEP_JSON)
        args = [
            "gui",
            work / "gold",
            "--annotator",
            "qa",
            "--document",
            "100-01",
            "--screenshot",
            work / "shot.png",
        ]
    else:
        target = work.home / ".config" / "phi-annotator" / "identity.json"
        target.parent.mkdir(parents=True)
        target.write_text(DEEP_JSON)
        args = ["gui", work / "gold", "--screenshot", work / "shot.png"]
    before = snapshot(work.root)
    run = run_cli(args, work.home, timeout=GUI_TIMEOUT)
    # An unreadable lock is reported, not fatal (the document opens read-only): either is fine.
    check("either" if where == "gui-lock" else "fail", run, target.name, before, snapshot(work.root))


def test_validate_realign_write_never_touches_a_bad_file(work: Sandbox) -> None:
    """--write repairs offsets only; files that do not even read stay byte-identical."""
    # A tag beyond the end whose text occurs in the note is exactly what --realign repairs.
    paths = [
        write_entry(name, work / "zoo" / name)
        for name, entry in ZOO.items()
        if entry.kind == "bad" and name != "offset_beyond" and name not in NO_FILE
    ]
    before = snapshot(work.root)
    run = run_cli(["validate", "--realign", "--write", *paths], work.home)
    assert_no_leak(run)
    assert run.returncode == 1, run.describe()
    assert changes(before, snapshot(work.root)) == [], run.describe()


def test_validate_realign_write_repairs_java_and_crlf_offsets(work: Sandbox) -> None:
    """The flagged offset files are the ones --write may change, and then they validate."""
    paths = [write_entry(name, work / "zoo" / name) for name in ("utf16_offsets", "crlf_offsets")]
    run = run_cli(["validate", "--realign", "--write", *paths], work.home)
    assert_no_leak(run)
    again = run_cli(["validate", *paths], work.home)
    assert again.returncode == 0, run.describe() + "\n" + again.describe()


# -- --force with a bad input must not clear the old output first --------------------------------


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(c, marks=[] if c == "deidentify" else [pytest.mark.slow])
        for c in ("convert", "adjudicate", "preannotate", "deidentify")
    ],
)
def test_force_with_a_bad_input_keeps_the_old_output(command: str, work: Sandbox, model_file: Path) -> None:
    place(ZOO["truncated"], work, TARGET.get(command, "gold"))
    out = work / "out"
    out.mkdir()
    (out / "100-01.xml").write_bytes((work / "gold" / "100-01.xml").read_bytes())
    (out / "keep-me.xml").write_text("an earlier export\n")
    args = [*folder_args(command, work, model_file), "--force"]
    before = snapshot(work.root)
    run = run_cli(args, work.home)
    assert_clean_failure(run, HOSTILE_ID, before, snapshot(work.root))


# -- work that must stay linear in the input -------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(
            c,
            marks=[*([] if c == "stats" else [pytest.mark.slow])],
        )
        for c in ("stats", "validate", "convert")
    ],
)
def test_tag_with_many_attributes_is_handled_quickly(command: str, work: Sandbox) -> None:
    (work / "single").mkdir()
    path = many_attributes(work / "single")
    args: list[str | Path] = [command, path]
    if command == "convert":
        args += [work / "out", "--to", "jsonl"]
    before = snapshot(work.root)
    run = run_cli(args, work.home, timeout=10)
    if command == "validate":  # validate reports on stdout, one line per problem
        assert_no_leak(run)
        assert run.returncode in (0, 1), run.describe()
        assert all(line.startswith(f"{path}: ") for line in _validate_lines(run)), run.describe()
        assert changes(before, snapshot(work.root)) == []
        return
    check("either", run, HOSTILE_ID, before, snapshot(work.root))


@pytest.mark.parametrize("count", [1_000])
def test_validate_output_stays_linear_for_stacked_tags(count: int, work: Sandbox) -> None:
    (work / "single").mkdir()
    path = stacked_tags(work / "single", count)
    before = snapshot(work.root)
    run = run_cli(["validate", path], work.home, timeout=20)
    assert_no_leak(run)
    assert run.returncode in (0, 1), run.describe()
    lines = _validate_lines(run)
    assert len(lines) <= count + 10, f"{len(lines)} lines for {count} stacked tags"
    assert changes(before, snapshot(work.root)) == []


# -- hostile file names through every subcommand (issue 14) ---------------------------------------

# Bytes that are not UTF-8, a newline that would forge an output line, a terminal escape that
# would clear the screen, a right-to-left override that would reorder what follows.
# Undecodable names stop most commands (a document id must be text), so the other three are
# also tried on their own: then every command runs to its end and prints what it prints.
HOSTILE_FILE_NAMES = {
    "all": (
        b"900-01\xff\xfe.xml",
        b"900-02\nFORGED LINE.xml",
        b"900-03\x1b[2J\x1b[31m.xml",
        "900-04\u202egnp.xml".encode(),
    ),
    "printable-bytes": (
        b"900-02\nFORGED LINE.xml",
        b"900-03\x1b[2J\x1b[31m.xml",
        "900-04\u202egnp.xml".encode(),
    ),
}
# Each subcommand on the corpus whose every folder holds the hostile names; gui renders offscreen.
NAME_COMMANDS = (*FOLDER_COMMANDS, "evaluate-i2b2", "validate", "validate-json", "gui", "batch-evaluate")
SLOW_NAME_COMMANDS = frozenset({"batch-evaluate", "gui"})


def name_args(command: str, w: Sandbox, model: Path) -> list[str | Path]:
    if command == "validate":
        return ["validate", w.root]
    if command == "validate-json":  # file paths inside JSON strings
        return ["validate", w.root, "--json"]
    if command == "evaluate-i2b2":
        return ["evaluate", "--mode", "i2b2", "-v", "--gold", w / "gold", "--system", w / "annotator_a"]
    if command == "gui":
        return ["gui", w / "annotator_a", "--screenshot", w / "shot.png"]
    if command == "batch-evaluate":
        return ["batch", "evaluate", "--gold", w / "gold", "--system", w / "annotator_a", "--workers", "1"]
    return folder_args(command, w, model)


@pytest.mark.parametrize("names", list(HOSTILE_FILE_NAMES))
@pytest.mark.parametrize(
    "command",
    [
        pytest.param(c, marks=[pytest.mark.slow] if c in SLOW_NAME_COMMANDS else [], id=c)
        for c in NAME_COMMANDS
    ],
)
def test_hostile_file_names_are_never_printed_raw(
    command: str, names: str, work: Sandbox, model_file: Path
) -> None:
    clean = next((work / "gold").glob("*.xml"))
    for folder in VERSION_FOLDERS:
        for name in HOSTILE_FILE_NAMES[names]:
            shutil.copyfile(work / folder / clean.name, os.path.join(os.fsencode(work / folder), name))
    run = run_cli(name_args(command, work, model_file), work.home, timeout=120)
    assert_no_leak(run)
    assert run.returncode in (0, 1), run.describe()  # never 3 (internal error), never a usage error
    printed = run.stdout + run.stderr
    assert "internal error" not in printed, run.describe()
    assert "\x1b" not in printed and "\u202e" not in printed, run.describe()
    assert "\ufffd" not in printed, run.describe()  # undecodable bytes are shown as \xff, not lost
    assert not any(line.startswith("FORGED LINE") for line in printed.splitlines()), run.describe()
