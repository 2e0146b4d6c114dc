"""Hostile project.toml and identity.json: refused on one line, written as valid TOML, kept whole."""

from __future__ import annotations

import datetime
import json
import math
import tomllib
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.document import Document
from annotator.core.project import PROJECT_FILE, Project, toml_dumps
from annotator.errors import InputError, UsageError
from annotator.io.i2b2 import write_i2b2
from annotator.io.workstate import identity_path, load_identity
from annotator.session.workspace import Workspace

TEXT = "Patient John Smith was seen on 2090-01-02.\n"

# The offscreen platform's warning about size hints (as in tests/gui): not a widget's fault.
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


@pytest.fixture(autouse=True)
def _user_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The identity file goes to the test's folder, never the real home.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def small_project(root: Path, annotators: list[str] | None = None) -> Project:
    project = Project.create(root, "Tiny", annotators=annotators or ["alice"])
    write_i2b2(Document("100-01", TEXT), project.source_dir / "100-01.xml")
    return project


def snapshot(folder: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(folder)): p.read_bytes() if p.is_file() else None for p in sorted(folder.rglob("*"))
    }


def remember(name: str) -> None:
    identity_path().parent.mkdir(parents=True, exist_ok=True)
    identity_path().write_text(json.dumps({"annotator": name}), encoding="utf-8")


def one_line_error(err: str, *named: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "internal error" not in err
    for text in named:
        assert text in lines[0], err


# -- 1. names that would leave the project ---------------------------------------------------


@pytest.mark.parametrize("name", ["OUTSIDE_ABS", "../../evil", "..", "a/b", ".hidden"])
def test_remembered_name_that_is_no_folder_name_is_refused(tmp_path: Path, name: str) -> None:
    # The same rule as --annotator: the remembered name becomes annotations/<name>/.
    remember(str(tmp_path / "OUTSIDE") if name == "OUTSIDE_ABS" else name)
    with pytest.raises(InputError) as caught:
        load_identity()
    assert caught.value.path == str(identity_path())
    assert "\n" not in str(caught.value)


def test_gui_with_remembered_outside_path_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = small_project(tmp_path / "p")
    outside = tmp_path / "OUTSIDE"
    remember(str(outside))
    before = snapshot(project.root)
    code = main(["gui", str(project.root), "--screenshot", str(tmp_path / "x.png")])
    assert code == 1
    one_line_error(capsys.readouterr().err, "identity.json", "--annotator")
    # Old code made OUTSIDE/100-01.xml and listed the absolute path in project.toml.
    assert not outside.exists()
    assert snapshot(project.root) == before
    # The way out the message names: --annotator replaces the remembered name.
    assert (
        main(["gui", str(project.root), "--annotator", "bob", "--screenshot", str(tmp_path / "x.png")]) == 0
    )
    assert load_identity() == "bob"
    # A screenshot is a look: it lists no one in project.toml; opening the project does.
    assert snapshot(project.root) == before
    Workspace.open(project.root, "bob")
    assert Project.open(project.root).annotators == ["alice", "bob"]


@pytest.mark.parametrize("name", ["../../../escaped_ann", "/tmp/abs", "..", "", "a\\b", "x\x1b[31m"])
def test_project_toml_with_escaping_annotator_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    project = small_project(tmp_path / "p")
    config = project.root / PROJECT_FILE
    config.write_text(f'name = "x"\nannotators = [{json.dumps(name)}, "bob"]\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        Project.open(project.root)
    assert caught.value.path == str(config)
    before = snapshot(tmp_path)
    assert main(["queue", str(project.root), "--annotator", "bob"]) == 1
    one_line_error(capsys.readouterr().err, str(config), "annotator name")
    assert snapshot(tmp_path) == before


def test_add_annotator_refuses_a_path(tmp_path: Path) -> None:
    # Whoever passes the name, it never makes a folder outside annotations/.
    project = small_project(tmp_path / "p")
    before = snapshot(tmp_path)
    with pytest.raises(UsageError):
        project.add_annotator("../../escaped")
    assert snapshot(tmp_path) == before
    assert project.annotators == ["alice"]


# -- 2. valid TOML whatever the characters ----------------------------------------------------

HOSTILE = 'Corpus 😀 𝄞 "quoted" back\\slash \\u0041 tab\tnl\nnul\x00 esc\x1b del\x7f \u2028 \x85 é'


def test_names_round_trip_through_project_toml(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "p", HOSTILE, annotators=["bob😀", "zoë", "o'neil"])
    project.add_annotator("𝒜lice")
    # Old code wrote json.dumps escapes: "\ud83d\ude00" is not TOML, the next open failed.
    text = (project.root / PROJECT_FILE).read_text(encoding="utf-8")
    assert tomllib.loads(text)["name"] == HOSTILE
    reopened = Project.open(project.root)
    assert reopened.name == HOSTILE
    assert reopened.annotators == ["bob😀", "zoë", "o'neil", "𝒜lice"]
    assert (project.root / "annotations" / "𝒜lice").is_dir()


def test_gui_annotator_with_emoji_reopens(tmp_path: Path) -> None:
    project = small_project(tmp_path / "p")
    for _ in range(2):
        Workspace.open(project.root, "bob😀")  # what the window does on opening the project
    assert Project.open(project.root).annotators == ["alice", "bob😀"]
    assert (
        main(["gui", str(project.root), "--annotator", "bob😀", "--screenshot", str(tmp_path / "a.png")]) == 0
    )


def test_file_written_by_older_versions_with_surrogate_escapes_opens(tmp_path: Path) -> None:
    # Projects saved before the fix hold pair escapes; they open as meant, and an escaped
    # backslash before "ud83d" stays the text it was.
    root = tmp_path / "p"
    root.mkdir()
    (root / PROJECT_FILE).write_text(
        'name = "Corpus \\ud83d\\ude00"\nschema = "i2b2-2014"\nannotators = ["bob\\uD83D\\uDE00"]\n'
        'preannotations = "preannotated"\n',
        encoding="utf-8",
    )
    project = Project.open(root)
    assert (project.name, project.annotators) == ("Corpus 😀", ["bob😀"])
    project.save()
    assert tomllib.loads((root / PROJECT_FILE).read_text(encoding="utf-8"))["name"] == "Corpus 😀"


def test_toml_dumps_reads_back_equal() -> None:
    data = {
        "name": HOSTILE,
        "": "empty key",
        "key with space": [1, -2, 3.5, 1e300, -0.0, True, False],
        'quote"key': {"inner": ["a", ["b", {"c": "😀"}]], "empty": {}},
        "when": datetime.datetime(2024, 1, 2, 3, 4, 5, 678, tzinfo=datetime.UTC),
        "local": datetime.datetime(2024, 1, 2, 3, 4, 5),
        "day": datetime.date(2024, 1, 2),
        "time": datetime.time(3, 4, 5),
        "big": 2**70,
        "inf": math.inf,
        "table": {"x": 1, "sub": {"y": "z", "deeper": {"w": []}}, "after": "plain"},
        "items": [{"a": 1}, {"b": "2"}],
    }
    assert tomllib.loads(toml_dumps(data)) == data
    assert math.isnan(tomllib.loads(toml_dumps({"n": math.nan}))["n"])


def test_a_name_toml_cannot_hold_is_refused_and_nothing_written(tmp_path: Path) -> None:
    # A lone surrogate (an undecodable byte of an argument) is no character: no valid TOML.
    project = small_project(tmp_path / "p")
    before = snapshot(tmp_path)
    project.name = "bad \udcff"
    with pytest.raises(UsageError) as caught:
        project.save()
    assert "\n" not in str(caught.value)
    assert snapshot(tmp_path) == before


# -- 3. unknown keys and tables survive a save -----------------------------------------------


def test_unknown_keys_and_tables_are_kept(tmp_path: Path) -> None:
    root = tmp_path / "p"
    Project.create(root, "x", annotators=["alice"])
    (root / PROJECT_FILE).write_text(
        'name = "x"\nschema = "i2b2-2014"\nannotators = ["alice"]\nfoo = "keep me"\n'
        "future_count = 3\n\n[extra]\na = 1\n\n[extra.sub]\nb = [1, 2]\n\n[[rounds]]\nn = 1\n\n[[rounds]]\nn = 2\n",
        encoding="utf-8",
    )
    project = Project.open(root)
    project.add_annotator("bob")  # saves project.toml
    data = tomllib.loads((root / PROJECT_FILE).read_text(encoding="utf-8"))
    assert data == {
        "name": "x",
        "schema": "i2b2-2014",
        "annotators": ["alice", "bob"],
        "foo": "keep me",
        "future_count": 3,
        "extra": {"a": 1, "sub": {"b": [1, 2]}},
        "rounds": [{"n": 1}, {"n": 2}],
    }


def test_gui_keeps_unknown_keys(tmp_path: Path) -> None:
    project = small_project(tmp_path / "p")
    config = project.root / PROJECT_FILE
    config.write_text(
        config.read_text(encoding="utf-8") + 'foo = "keep me"\n\n[extra]\na = 1\n', encoding="utf-8"
    )
    Workspace.open(project.root, "bob")  # the window lists bob in project.toml on opening it
    data = tomllib.loads(config.read_text(encoding="utf-8"))
    assert (data["foo"], data["extra"], data["annotators"]) == ("keep me", {"a": 1}, ["alice", "bob"])


@pytest.mark.parametrize("text", ["name = {a = 1}\n", 'name = "x"\nschema = ["x"]\n', "schema = 5\n"])
def test_name_and_schema_must_be_strings(tmp_path: Path, text: str) -> None:
    # Old code saved str() of the table back as the name: the table was lost.
    (tmp_path / PROJECT_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        Project.open(tmp_path)
    assert caught.value.path == str(tmp_path / PROJECT_FILE)


# -- 4. nesting deep enough to exhaust the stack ------------------------------------------------


@pytest.mark.parametrize(
    "text", ["name = " + "[" * 5000 + "]" * 5000, "x = " + "{a = " * 3000 + "1" + "}" * 3000]
)
def test_deeply_nested_project_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    project = small_project(tmp_path / "p")
    config = project.root / PROJECT_FILE
    config.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="nested too deeply"):
        Project.open(project.root)
    # The project folder: --annotator is remembered (in the config folder) before it opens.
    before = snapshot(project.root)
    assert main(["queue", str(project.root), "--annotator", "alice"]) == 1
    one_line_error(capsys.readouterr().err, str(config), "nested too deeply")
    assert (
        main(["gui", str(project.root), "--annotator", "alice", "--screenshot", str(tmp_path / "x.png")]) == 1
    )
    one_line_error(capsys.readouterr().err, str(config), "nested too deeply")
    assert snapshot(project.root) == before


def test_a_project_file_linked_to_nothing_is_refused(tmp_path: Path) -> None:
    # exists() follows the link: the project opened as a plain folder, its settings and
    # annotators silently gone (the queue then listed nothing to do).
    (tmp_path / PROJECT_FILE).symlink_to(tmp_path / "moved" / PROJECT_FILE)
    with pytest.raises(InputError) as error:
        Project.open(tmp_path)
    assert error.value.message == "a symbolic link to nothing (its target is missing, or it loops)"
    assert error.value.path == str(tmp_path / PROJECT_FILE)
