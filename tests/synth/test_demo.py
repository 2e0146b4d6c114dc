"""The bundled demo project: layout, freshness, and copying it to a user folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.core.annotation import Source
from annotator.core.project import Project
from annotator.core.schema import load_schema
from annotator.errors import StorageError
from annotator.io.i2b2 import read_i2b2
from annotator.synth.demo import DEMO_DIR, build_demo_project, default_demo_location, ensure_demo_project


def _xml_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.xml"))


def test_bundled_demo_project_layout() -> None:
    project = Project.open(DEMO_DIR)
    assert (project.name, project.schema, project.annotators) == ("Demo", "i2b2-2014", ["alice", "bob"])
    names = _xml_files(project.source_dir)
    assert 20 <= len(names) <= 50
    assert len({n[:3] for n in names}) == 10
    for folder in (
        project.preannotations_dir,
        project.gold_dir,
        project.annotations_dir("alice"),
        project.annotations_dir("bob"),
    ):
        assert _xml_files(folder) == names
    source = read_i2b2(project.source_dir / names[0])
    gold = read_i2b2(project.gold_dir / names[0])
    assert len(source) == 0 and len(gold) > 0 and source.text == gold.text
    alice = read_i2b2(project.annotations_dir("alice") / names[0])
    assert {a.annotator for a in alice} == {"alice"}
    model = read_i2b2(project.preannotations_dir / names[0])
    assert all(a.source is Source.MODEL and a.pending for a in model)


def test_bundled_demo_gold_has_every_type() -> None:
    project = Project.open(DEMO_DIR)
    types = {a.type for path in project.gold_dir.glob("*.xml") for a in read_i2b2(path)}
    assert types == {t.name for t in load_schema("i2b2-2014").types}


def test_bundled_demo_is_what_the_builder_makes(tmp_path: Path) -> None:
    build_demo_project(tmp_path / "fresh")
    bundled = sorted(p.relative_to(DEMO_DIR) for p in DEMO_DIR.rglob("*") if p.is_file())
    fresh = sorted(p.relative_to(tmp_path / "fresh") for p in (tmp_path / "fresh").rglob("*") if p.is_file())
    assert bundled == fresh
    for relative in bundled:
        assert (DEMO_DIR / relative).read_bytes() == (tmp_path / "fresh" / relative).read_bytes(), relative


def test_ensure_demo_project_copies_once(tmp_path: Path) -> None:
    dest = tmp_path / "demo"
    assert ensure_demo_project(dest) == dest
    project = Project.open(dest)
    assert project.annotators == ["alice", "bob"]
    note = dest / "gold" / _xml_files(dest / "gold")[0]
    note.write_bytes(note.read_bytes())  # a user's edit must survive the next call
    stamp = note.stat().st_mtime_ns
    assert ensure_demo_project(dest) == dest
    assert note.stat().st_mtime_ns == stamp
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_ensure_demo_project_into_empty_folder(tmp_path: Path) -> None:
    assert ensure_demo_project(tmp_path) == tmp_path
    assert (tmp_path / "project.toml").is_file()


def test_ensure_demo_project_refuses_a_foreign_folder(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("x", encoding="utf-8")
    with pytest.raises(StorageError, match="not a demo project"):
        ensure_demo_project(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


def test_default_location_respects_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_demo_location() == tmp_path / "phi-annotator" / "demo"
    assert ensure_demo_project() == tmp_path / "phi-annotator" / "demo"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/path")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_demo_location() == tmp_path / "home" / ".local" / "share" / "phi-annotator" / "demo"
