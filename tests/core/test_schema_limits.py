"""Hostile tag sets: each is one line naming its file, never an internal error or a runaway window.

A fuzzing pass found a 200 KB task file of 30,000 types (or of one type named with 200,000
characters) took the window 40 s and 2-12 GB; a colour like ``red; } * { x`` crashed the
shade search (and would have gone into the style sheets); TOML, JSON or YAML nested
thousands deep, and a brat configuration indented 3,000 levels, overflowed Python's stack;
and an unrelated deeply nested ``results.json`` two folders above the notes crashed
``stats``, which looks there for a task file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.brat_conf import parse_brat_conf_text
from annotator.core.document import Document
from annotator.core.schema import MAX_NAME, MAX_TYPES, load_schema
from annotator.errors import SchemaError
from annotator.io.i2b2 import write_i2b2


def _toml_schema(path: Path, category: str) -> Path:
    path.write_text(f'name = "x"\ntitle = "x"\n{category}\n', encoding="utf-8")
    return path


def _refused(path: Path, needle: str) -> None:
    load_schema.cache_clear()
    with pytest.raises(SchemaError) as error:
        load_schema(str(path))
    assert error.value.path == str(path)
    assert needle in error.value.message


def test_a_type_name_over_the_limit_is_refused_in_every_kind_of_schema_file(tmp_path: Path) -> None:
    long = "T" * (MAX_NAME + 1)
    toml = _toml_schema(
        tmp_path / "s.toml", f'[[category]]\nname = "NAME"\ncolor = "#56B4E9"\ntype = [{{ name = "{long}" }}]'
    )
    task = tmp_path / "task.json"
    task.write_text(json.dumps({"name": "T", "etags": [{"name": long}]}), encoding="utf-8")
    conf_folder = tmp_path / "brat"
    conf_folder.mkdir()
    conf = conf_folder / "annotation.conf"
    conf.write_text(f"[entities]\n{long}\n", encoding="utf-8")
    for path in (toml, task, conf):
        _refused(path, f"has {MAX_NAME + 1} characters, over the {MAX_NAME}")


def test_more_types_than_the_limit_are_refused(tmp_path: Path) -> None:
    many = MAX_TYPES + 1
    task = tmp_path / "task.json"
    task.write_text(
        json.dumps({"name": "T", "etags": [{"name": f"T{i}"} for i in range(many)]}), encoding="utf-8"
    )
    _refused(task, f"{many:,} types, over the {MAX_TYPES:,}")
    types = ", ".join(f'{{ name = "T{i}" }}' for i in range(many))
    toml = _toml_schema(
        tmp_path / "s.toml", f'[[category]]\nname = "NAME"\ncolor = "#56B4E9"\ntype = [{types}]'
    )
    _refused(toml, f"{many:,} types in one category")


def test_a_schema_at_the_limits_loads(tmp_path: Path) -> None:
    task = tmp_path / "task.json"
    names = [f"T{i}" for i in range(MAX_TYPES - 1)] + ["N" * MAX_NAME]
    task.write_text(json.dumps({"name": "T", "etags": [{"name": n} for n in names]}), encoding="utf-8")
    load_schema.cache_clear()
    assert len(load_schema(str(task)).types) == MAX_TYPES


@pytest.mark.parametrize("colour", ["red; } * { x", "#zzzzzz", "#12345", "56B4E9", "#56B4E9 "])
def test_a_colour_that_is_not_rrggbb_is_refused(tmp_path: Path, colour: str) -> None:
    category = _toml_schema(tmp_path / "c.toml", f'[[category]]\nname = "NAME"\ncolor = "{colour}"')
    _refused(category, f"NAME: colour {colour!r} is not #rrggbb")
    typed = _toml_schema(
        tmp_path / "t.toml",
        f'[[category]]\nname = "NAME"\ncolor = "#56B4E9"\ntype = [{{ name = "PATIENT", color = "{colour}" }}]',
    )
    _refused(typed, f"PATIENT: colour {colour!r} is not #rrggbb")


def test_files_nested_thousands_deep_are_refused(tmp_path: Path) -> None:
    depth = 5000
    toml = tmp_path / "deep.toml"
    toml.write_text('name = "x"\nx = ' + "[" * depth + "]" * depth + "\n", encoding="utf-8")
    _refused(toml, "nested too deeply")
    task = tmp_path / "deep.json"
    task.write_text('{"name": "T", "etags": ' + "[" * depth + "]" * depth + "}", encoding="utf-8")
    _refused(task, "nested too deeply")
    yaml_task = tmp_path / "deep.yaml"
    yaml_task.write_text("name: T\netags: " + "[" * depth + "]" * depth + "\n", encoding="utf-8")
    _refused(yaml_task, "nested too deeply")


def test_a_brat_configuration_thousands_of_levels_deep_reads_in_order() -> None:
    depth = 3000
    text = "[entities]\n" + "".join("\t" * level + f"E{level}\n" for level in range(depth)) + "Other\n"
    conf = parse_brat_conf_text(text)
    assert [t.name for t in conf.terms("entities")] == [f"E{level}" for level in range(depth)] + ["Other"]


def test_a_brat_tree_walks_parents_before_children_in_file_order() -> None:
    conf = parse_brat_conf_text("[entities]\nA\n\tA1\n\t\tA11\n\tA2\nB\n\tB1\n")
    assert [t.name for t in conf.terms("entities")] == ["A", "A1", "A11", "A2", "B", "B1"]


def test_a_stray_deeply_nested_json_near_the_notes_is_not_a_task(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "data" / "notes"
    notes.mkdir(parents=True)
    write_i2b2(Document("100-01", "Seen today."), notes / "100-01.xml")
    (tmp_path / "results.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert main(["stats", str(notes)]) == 0, capsys.readouterr().err
