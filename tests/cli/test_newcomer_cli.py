"""Issue 14, item by item: what a newcomer meets on the first day, through the real command.

Every test runs ``python -m annotator`` in a subprocess (see ``run_cli``) on a tiny synthetic
corpus; the hostile file names are in ``test_hostile_inputs.py``.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.cli.hostile_files import i2b2_xml, note_tags, write_entry
from tests.cli.test_hostile_inputs import REPO, changes, run_cli, snapshot

NO_DOCUMENTS = "no .xml documents directly in this folder (sub-folders are not searched)"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``annotator synth`` output for 2 patients (written in-process: only the reads are timed)."""
    from annotator.workflows.synth import SynthRequest, synthesize

    root = tmp_path_factory.mktemp("newcomer") / "corpus"
    synthesize(SynthRequest(root, patients=2, seed=3))
    return root


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def copy_of(corpus: Path, tmp_path: Path) -> Path:
    target = tmp_path / "corpus"
    shutil.copytree(corpus, target)
    return target


# -- 1. a folder without documents is refused by every scorer -----------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["evaluate", "--gold", "{root}", "--system", "{root}/annotator_a"],
        ["evaluate", "--mode", "i2b2", "--gold", "{root}", "--system", "{root}/annotator_a"],
        ["significance", "--gold", "{root}", "{root}/annotator_a", "{root}/annotator_b", "--shuffles", "5"],
    ],
    ids=["evaluate", "evaluate-i2b2", "significance"],
)
def test_folder_without_documents_is_refused(command: list[str], corpus: Path, home: Path) -> None:
    run = run_cli([part.format(root=corpus) for part in command], home)
    assert run.returncode == 1, run.describe()
    # The synthetic corpus is a project: the message names the folders that hold its notes.
    hint = f"this is a project; give {corpus / 'gold'} or {corpus / 'source'}"
    assert run.stderr_lines == [f"annotator {command[0]}: error: {corpus}: {NO_DOCUMENTS}: {hint}"], (
        run.describe()
    )
    assert run.stdout == ""


# -- 2. adjudicate into an existing gold folder says what it left alone --------------------------


def test_adjudicate_into_existing_gold_names_force(corpus: Path, tmp_path: Path, home: Path) -> None:
    root = copy_of(corpus, tmp_path)
    before = snapshot(root)
    run = run_cli(["adjudicate", root / "annotator_a", root / "annotator_b", "-o", root / "gold"], home)
    assert run.returncode == 1, run.describe()
    assert "nothing written" in run.stderr and "use --force to redo them" in run.stderr, run.describe()
    assert "0 written" in run.stdout, run.describe()
    assert changes(before, snapshot(root)) == []


# -- 3 and 4. validate: hints that name --write, the schema from the root, structural oddities ---


def test_validate_realign_hint_names_write(tmp_path: Path, home: Path) -> None:
    path = write_entry("utf16_offsets", tmp_path / "notes")
    run = run_cli(["validate", "--realign", path], home)
    assert run.returncode == 1, run.describe()
    assert "run validate --realign" not in run.stdout
    repairs = [line for line in run.stdout.splitlines() if "can realign to" in line]
    assert repairs and all(line.endswith("add --write to save it") for line in repairs), run.describe()


def test_validate_takes_the_schema_from_the_root_and_warns_on_oddities(tmp_path: Path, home: Path) -> None:
    tags = note_tags()
    tags[0] = ("P0", "PERSONNAME", "PATIENT", *tags[0][3:])
    tags[1] = ("P1", "DATE", "BIRTHDAY", *tags[1][3:])
    tags[2] = ("P2", "NAME", "HOSPITAL", *tags[2][3:])
    tags.append(("P3", "DATE", "DATE", 5, 5, ""))
    odd = tmp_path / "100-01.xml"
    odd.write_text(
        i2b2_xml(
            tags=tags,
            doctype="<!DOCTYPE deIdi2b2>\n",
            extra_root_children="<TEXT><![CDATA[second]]></TEXT>",
        ),
        encoding="utf-8",
    )
    foreign = tmp_path / "100-02.xml"
    foreign.write_text(i2b2_xml().replace("deIdi2b2", "Philter"), encoding="utf-8")
    run = run_cli(["validate", odd, foreign], home)
    assert run.returncode == 1, run.describe()
    out = run.stdout
    for expected in (
        "[tag P0 ",
        "tag <PERSONNAME> is not in schema i2b2-2014",
        "TYPE BIRTHDAY is not in schema i2b2-2014",
        "TYPE HOSPITAL belongs to LOCATION, not NAME",
        "[tag P3 5-5] warning: the tag covers no text",
        "warning: 2 TEXT elements",
        "warning: the file has a DOCTYPE",
        f"{foreign}: warning: the root element is <Philter>, not <deIdi2b2>",
        "2 file(s) checked: 3 error(s), 4 warning(s)",
    ):
        assert expected in out, run.describe()
    unchecked = run_cli(["validate", "--schema", "none", odd], home)
    assert unchecked.returncode == 0 and "0 error(s), 3 warning(s)" in unchecked.stdout, unchecked.describe()


# -- 5. one marker for undefined scores -----------------------------------------------------------


def test_undefined_scores_show_one_marker(tmp_path: Path, home: Path) -> None:
    for side in ("gold", "system"):
        folder = tmp_path / side
        folder.mkdir()
        (folder / "100-01.xml").write_text(i2b2_xml(tags=[]), encoding="utf-8")
    run = run_cli(["evaluate", "--gold", tmp_path / "gold", "--system", tmp_path / "system"], home)
    assert run.returncode == 0, run.describe()
    assert "n/a" in run.stdout and "nan" not in run.stdout, run.describe()
    page = tmp_path / "report.html"
    html_run = run_cli(
        ["evaluate", "--gold", tmp_path / "gold", "--system", tmp_path / "system", "--html", page], home
    )
    assert html_run.returncode == 0, html_run.describe()
    text = page.read_text(encoding="utf-8")
    assert ">n/a<" in text and ">nan<" not in text


def test_significance_prints_p_with_fixed_decimals(corpus: Path, home: Path) -> None:
    run = run_cli(
        [
            "significance",
            "--gold",
            corpus / "gold",
            corpus / "annotator_a",
            corpus / "annotator_b",
            "--shuffles",
            "20",
        ],
        home,
    )
    assert run.returncode == 0, run.describe()
    rows = [line.split() for line in run.stdout.splitlines() if line.endswith((" yes", " no"))]
    assert rows and all(re.fullmatch(r"\d\.\d{4}|n/a", row[-2]) for row in rows), run.stdout


# -- 6. progress bars count what they say ----------------------------------------------------------


def run_on_terminal(args: list[str | Path], timeout: float = 120) -> tuple[int, str]:
    """Run with stderr on a pseudo-terminal (so the bar is drawn) and return what it drew."""
    master, slave = pty.openpty()
    # A fresh pseudo-terminal is 0 columns wide, where tqdm draws nothing: make it 120 wide.
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "annotator", *map(str, args)],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env={**os.environ, "COLUMNS": "120"},
    )
    os.close(slave)
    drawn = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            drawn += chunk
        elif process.poll() is not None:
            break
    os.close(master)
    return process.wait(timeout=timeout), drawn.decode("utf-8", "replace")


def test_training_progress_is_a_percentage_that_moves_within_folds(corpus: Path, tmp_path: Path) -> None:
    args: list[str | Path] = [
        "train",
        corpus / "gold",
        "-o",
        tmp_path / "m.model",
        "--iterations",
        "3",
        "--cv",
        "2",
    ]
    code, drawn = run_on_terminal(args)
    assert code == 0, drawn
    assert "doc" not in drawn, drawn  # notes read and training iterations are not one unit
    percentages = set(re.findall(r"cross-validation and training:\s+(\d+)%", drawn))
    assert "100" in percentages and len(percentages) > 5, drawn  # not 2 jumps for 2 folds


# -- 7. --include-text in the terminal says what it does -------------------------------------------


def test_include_text_in_the_terminal_says_it_changes_nothing_there(corpus: Path, home: Path) -> None:
    run = run_cli(
        ["evaluate", "--gold", corpus / "gold", "--system", corpus / "annotator_a", "--include-text"], home
    )
    assert run.returncode == 0, run.describe()
    assert "--include-text only adds PHI text to --json and --html reports" in run.stderr


# -- 8. train refuses to overwrite a model ----------------------------------------------------------


def test_train_refuses_an_existing_model_without_force(corpus: Path, tmp_path: Path, home: Path) -> None:
    model = tmp_path / "old.model"
    model.write_bytes(b"an earlier model")
    run = run_cli(["train", corpus / "gold", "-o", model, "--iterations", "2"], home)
    assert run.returncode == 2, run.describe()
    assert run.stderr_lines == [
        f"annotator train: error: {model}: the model file exists already (use --force to overwrite)"
    ]
    assert model.read_bytes() == b"an earlier model"


# -- 9. a synthetic corpus opens in the GUI ------------------------------------------------------------


def test_synth_then_gui_opens_the_corpus(tmp_path: Path, home: Path) -> None:
    out = tmp_path / "corpus"
    made = run_cli(["synth", out, "--patients", "1"], home)
    assert made.returncode == 0, made.describe()
    assert (out / "project.toml").is_file() and sorted(p.name for p in (out / "source").iterdir())
    shot = tmp_path / "s.png"
    run = run_cli(["gui", out, "--screenshot", shot], home)
    assert run.returncode == 0, run.describe()
    assert shot.read_bytes().startswith(b"\x89PNG")


# -- 10. one vocabulary, one folder rule, every written file announced -------------------------------


def test_reports_are_announced_on_stderr(corpus: Path, tmp_path: Path, home: Path) -> None:
    csv_path = tmp_path / "r.csv"
    run = run_cli(
        ["evaluate", "--gold", corpus / "gold", "--system", corpus / "annotator_a", "--csv", csv_path], home
    )
    assert run.returncode == 0, run.describe()
    assert run.stderr_lines == [f"annotator: report written to {csv_path}"], run.describe()


def test_deidentify_takes_output_and_the_old_out_spelling(corpus: Path, tmp_path: Path, home: Path) -> None:
    helped = run_cli(["deidentify", "--help"], home)
    assert "-o OUT_DIR, --output OUT_DIR" in helped.stdout and "--out " not in helped.stdout
    run = run_cli(["deidentify", corpus / "gold", "--out", tmp_path / "deid"], home)
    assert run.returncode == 0, run.describe()
    assert sorted(p.name for p in (tmp_path / "deid").glob("*.xml"))


def test_convert_takes_output_as_an_option_or_as_the_second_word(
    corpus: Path, tmp_path: Path, home: Path
) -> None:
    optioned = run_cli(["convert", corpus / "gold", "-o", tmp_path / "a.jsonl", "--to", "jsonl"], home)
    worded = run_cli(["convert", corpus / "gold", tmp_path / "b.jsonl", "--to", "jsonl"], home)
    assert optioned.returncode == worded.returncode == 0, optioned.describe() + worded.describe()
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert optioned.stderr_lines == [f"annotator: 1 file(s) written to {tmp_path / 'a.jsonl'}"]
    both = run_cli(
        ["convert", corpus / "gold", tmp_path / "c.jsonl", "-o", tmp_path / "d.jsonl", "--to", "jsonl"], home
    )
    assert both.returncode == 2 and not (tmp_path / "c.jsonl").exists(), both.describe()


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("validate", "sub-folders included"),
        ("stats", "sub-folders are not searched"),
        ("iaa", "sub-folders are not searched"),
        ("train", "sub-folders are not searched"),
        ("evaluate", "sub-folders are not searched"),
    ],
)
def test_help_says_whether_a_command_recurses(command: str, says: str, home: Path) -> None:
    run = run_cli([command, "--help"], home)
    assert says in " ".join(run.stdout.split()), run.stdout


def test_stats_counts_two_folders_apart_then_together(corpus: Path, home: Path) -> None:
    run = run_cli(["stats", corpus / "gold", corpus / "annotator_a"], home)
    assert run.returncode == 0, run.describe()
    sections = [line for line in run.stdout.splitlines() if line.startswith("== ")]
    assert sections == [
        f"== {corpus / 'gold'}",
        f"== {corpus / 'annotator_a'}",
        "== all 2 paths together (a file named twice counts once)",
    ]


# -- 11. a file name is never an internal error ---------------------------------------------------------


def test_same_folder_twice_is_a_usage_error(corpus: Path, home: Path) -> None:
    run = run_cli(["iaa", corpus / "annotator_a", corpus / "annotator_a"], home)
    assert run.returncode == 2, run.describe()
    assert "the same annotator folder is given twice" in run.stderr


# -- 12. a long note parses up to the size cap ------------------------------------------------------------


def test_text_over_libxml_node_limit_parses(tmp_path: Path, home: Path) -> None:
    text = "Patient Alice Smith was seen. " * 400_000  # 12 MB, over libxml2's 10 MB text node
    path = tmp_path / "100-01.xml"
    path.write_text(
        i2b2_xml(text=text, tags=[("P0", "NAME", "PATIENT", 8, 19, "Alice Smith")]), encoding="utf-8"
    )
    run = run_cli(["stats", path], home)
    assert run.returncode == 0, run.describe()
    assert re.search(r"annotations\s+1\b", run.stdout), run.describe()


# -- 13 and 14. iaa per category and as HTML; HTML tables that fit, documents worst first ----------------


class _Tables(HTMLParser):
    """Tables of a page: whether each sits in a scrolling box, and its rows' cells."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, Any]] = []
        self._stack: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = dict(attrs).get("class") or ""
        if tag == "table":
            self.tables.append({"boxed": self._stack[-1:] == ["scroll"], "rows": []})
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th"):
            self._cell = []
        if tag == "div":
            self._stack.append(classes)

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self._stack:
            self._stack.pop()
        elif tag in ("td", "th") and self._cell is not None:
            self.tables[-1]["rows"][-1].append("".join(self._cell))  # type: ignore[index]
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _f1_column(rows: list[list[str]]) -> list[float]:
    index = rows[0].index("f1")
    return [float(row[index]) for row in rows[1:] if row[index] != "n/a"]


def test_evaluate_html_tables_scroll_in_their_box_and_documents_come_worst_first(
    corpus: Path, tmp_path: Path, home: Path
) -> None:
    page = tmp_path / "report.html"
    run = run_cli(
        ["evaluate", "--gold", corpus / "gold", "--system", corpus / "preannotated", "--html", page], home
    )
    assert run.returncode == 0, run.describe()
    text = page.read_text(encoding="utf-8")
    assert ".scroll{max-width:100%;overflow-x:auto" in text
    width = re.search(r"body\{[^}]*max-width:(\d+)em", text)
    assert width and int(width.group(1)) * 16 <= 1280  # the page body fits 1,280 px
    parser = _Tables()
    parser.feed(text)
    assert parser.tables and all(table["boxed"] for table in parser.tables)
    per_document = next(
        t["rows"] for t in parser.tables if t["rows"][0][0] == "document" and "note" in t["rows"][0]
    )
    f1 = _f1_column(per_document)  # type: ignore[arg-type]
    assert len(f1) > 3 and f1 == sorted(f1) and f1[0] < f1[-1]


def test_clean_verbose_lists_documents_worst_first(corpus: Path, home: Path) -> None:
    run = run_cli(["evaluate", "--gold", corpus / "gold", "--system", corpus / "preannotated", "-v"], home)
    assert run.returncode == 0, run.describe()
    tail = run.stdout.split("per document, worst first:\n", 1)[1].splitlines()
    rows = [line.split() for line in tail]
    f1 = _f1_column([rows[0], *rows[2:]])
    assert len(f1) > 3 and f1 == sorted(f1)


def test_iaa_per_category_and_html(corpus: Path, tmp_path: Path, home: Path) -> None:
    run = run_cli(["iaa", corpus / "annotator_a", corpus / "annotator_b", "--gold", corpus / "gold"], home)
    assert run.returncode == 0, run.describe()
    assert "F1 per category:" in run.stdout
    header = next(line for line in run.stdout.splitlines() if line.startswith("pair "))
    assert "DATE" in header and "NAME" in header
    page = tmp_path / "iaa.html"
    html_run = run_cli(["iaa", corpus / "annotator_a", corpus / "annotator_b", "--html", page], home)
    assert html_run.returncode == 0, html_run.describe()
    assert html_run.stderr_lines == [f"annotator: report written to {page}"]
    # The page names the folders it compared, and when it was made (issue 26).
    text = page.read_text(encoding="utf-8")
    assert f"annotator_a <b>{corpus / 'annotator_a'}</b>; annotator_b <b>{corpus / 'annotator_b'}</b>" in text
    assert re.search(r"generated \d{4}-\d\d-\d\d \d\d:\d\d", text)
    parser = _Tables()
    parser.feed(page.read_text(encoding="utf-8"))
    per_document = [t["rows"] for t in parser.tables if t["rows"][0][0] == "document"]
    assert per_document and all(_f1_column(rows) == sorted(_f1_column(rows)) for rows in per_document)  # type: ignore[arg-type]
