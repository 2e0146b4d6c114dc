"""Schemas as data: categories, unique types, keys, colours."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.core.schema import SCHEMA_DIR, load_schema, read_schema, schema_from_dict
from annotator.errors import SchemaError


def test_i2b2_2014_has_its_categories_and_types() -> None:
    schema = load_schema("i2b2-2014")
    assert schema.category_names == [
        "NAME",
        "PROFESSION",
        "LOCATION",
        "AGE",
        "DATE",
        "CONTACT",
        "ID",
        "OTHER",
    ]
    assert schema.category_of("DOCTOR") == "NAME"
    assert schema.is_valid("LOCATION", "HOSPITAL") and not schema.is_valid("NAME", "HOSPITAL")
    assert schema.type_for_key("d") is not None and schema.type_for_key("d").name == "DATE"  # type: ignore[union-attr]


@pytest.mark.parametrize("path", sorted(SCHEMA_DIR.glob("*.toml")), ids=lambda p: p.stem)
def test_every_bundled_schema_loads_with_unique_keys_and_colours(path: Path) -> None:
    schema = read_schema(path)
    keys = [t.key for t in schema.types if t.key]
    assert len(keys) == len(set(keys))
    assert all(t.color.startswith("#") and len(t.color) == 7 for t in schema.types)


def test_unknown_type_raises_a_schema_error() -> None:
    with pytest.raises(SchemaError, match="'NOPE' is not in schema i2b2-2014"):
        load_schema("i2b2-2014").category_of("NOPE")


def test_unknown_schema_lists_the_bundled_ones() -> None:
    with pytest.raises(SchemaError, match=r"bundled: .*i2b2-2014"):
        load_schema("no-such-schema")


@pytest.mark.parametrize("name", ["annotation.conf", "task.dtd", "schema.toml"])
def test_a_folder_named_as_a_schema_is_called_a_folder_not_unknown(tmp_path: Path, name: str) -> None:
    (tmp_path / name).mkdir()
    with pytest.raises(SchemaError, match="not a schema file") as raised:
        load_schema(str(tmp_path / name))
    assert raised.value.path is not None and Path(raised.value.path).name == name


def test_duplicate_type_names_are_refused() -> None:
    data: dict[str, object] = {
        "name": "x",
        "category": [
            {"name": "A", "color": "#000000", "type": [{"name": "T"}]},
            {"name": "B", "color": "#111111", "type": [{"name": "T"}]},
        ],
    }
    with pytest.raises(SchemaError, match="type T defined twice"):
        schema_from_dict(data)


def test_duplicate_keys_are_refused() -> None:
    data: dict[str, object] = {
        "name": "x",
        "category": [
            {"name": "A", "color": "#000000", "type": [{"name": "T", "key": "a"}, {"name": "U", "key": "a"}]}
        ],
    }
    with pytest.raises(SchemaError, match="key 'a' used by T and U"):
        schema_from_dict(data)


def test_a_category_without_types_is_its_own_type() -> None:
    schema = schema_from_dict({"name": "x", "category": [{"name": "AGE", "color": "#000000"}]})
    assert schema.category_of("AGE") == "AGE"


def test_broken_schema_file_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("name = [")
    with pytest.raises(SchemaError, match="not a valid schema file"):
        read_schema(path)
    path.write_text('name = "x"\n')
    with pytest.raises(SchemaError, match="field 'category' must be a list of tables"):
        read_schema(path)
    # A type given as a string read "misusing field string indices must be integers".
    path.write_text('name = "x"\n[[category]]\nname = "NAME"\ncolor = "#112233"\ntype = "A"\n')
    with pytest.raises(
        SchemaError, match=r"field 'type' must be a list of tables, each with a name \(\[\[type\]\]"
    ):
        read_schema(path)
    path.write_text('title = "x"\n[[category]]\nname = "NAME"\ncolor = "#112233"\n')
    with pytest.raises(SchemaError, match="schema is missing field 'name'"):
        read_schema(path)


@pytest.mark.parametrize(
    ("category", "type_name", "problem"),
    [
        # The category is the XML element a tag is written as: the writer refused it, so
        # every tag made with it in the window failed to save.
        ("NA ME<", "PATIENT", "category 'NA ME<' cannot name an XML element"),
        ("1NAME", "PATIENT", "category '1NAME' cannot name an XML element"),
        # The same rule as the TYPE of every reader (see type_problem).
        ("NAME", "PA\u202eTIENT", "type 'PA\\u202eTIENT': character U+202E cannot be in a type name"),
        ("NAME", "PA\x00TIENT", "type 'PA\\x00TIENT': character U+0000 cannot be in a type name"),
        ("NAME", " PATIENT", "type ' PATIENT': spaces around it"),
    ],
)
def test_names_no_file_can_hold_are_refused(
    tmp_path: Path, category: str, type_name: str, problem: str
) -> None:
    data: dict[str, object] = {
        "name": "x",
        "category": [{"name": category, "color": "#E69F00", "type": [{"name": type_name}]}],
    }
    with pytest.raises(SchemaError) as error:
        schema_from_dict(data, "x.toml")
    assert error.value.message == f"schema x: {problem}"
    assert error.value.path == "x.toml"
