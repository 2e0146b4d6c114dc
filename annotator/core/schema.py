"""Tag sets as data: categories, types, colours and single-key shortcuts.

Schemas live in ``resources/schemas/*.toml``. A category is the XML element name (``NAME``),
a type its ``TYPE`` attribute (``PATIENT``). Type names are unique within a schema, so a
type alone tells its category.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree

from annotator.core.colours import shades
from annotator.core.resources import resource_path
from annotator.errors import SchemaError

if TYPE_CHECKING:
    from annotator.core.task import TaskDefinition

SCHEMA_DIR = resource_path("schemas")
DEFAULT_SCHEMA = "i2b2-2014"


@dataclass(frozen=True)
class TypeDef:
    """One PHI type, with the key that tags a selection with it."""

    name: str
    category: str
    key: str
    color: str
    description: str = ""


@dataclass(frozen=True)
class Category:
    name: str
    color: str
    types: tuple[TypeDef, ...]
    description: str = ""


# Far above any real tag set (i2b2 2014 has 30 types; MedTator's and brat's samples at most
# a few dozen), far below what makes the window crawl.
MAX_TYPES = 1000
MAX_NAME = 100


@dataclass(frozen=True)
class Schema:
    """A tag set.

    Attributes
    ----------
    name: short identifier (``i2b2-2014``).
    title: a human-readable title.
    categories: in display order.
    task: the MAE / MedTator task behind a schema read from a DTD, YAML or JSON task file.
    """

    name: str
    title: str
    categories: tuple[Category, ...]
    # The MAE / MedTator task this schema was read from (its attributes, links, root name).
    task: TaskDefinition | None = field(default=None, compare=False)
    _types: dict[str, TypeDef] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._check_size()
        keys: dict[str, str] = {}
        for category in self.categories:
            if not _names_an_element(category.name):
                raise SchemaError(
                    f"schema {self.name}: category {category.name!r} cannot name an XML element"
                )
            for type_def in category.types:
                problem = type_name_problem(type_def.name)
                if problem is not None:
                    raise SchemaError(f"schema {self.name}: type {type_def.name!r}: {problem}")
                if type_def.name in self._types:
                    raise SchemaError(f"schema {self.name}: type {type_def.name} defined twice")
                if type_def.key and type_def.key in keys:
                    raise SchemaError(
                        f"schema {self.name}: key {type_def.key!r} used by "
                        f"{keys[type_def.key]} and {type_def.name}"
                    )
                self._types[type_def.name] = type_def
                if type_def.key:
                    keys[type_def.key] = type_def.name

    def _check_size(self) -> None:
        """A schema the window can show: a 200 KB task file of 30,000 types, or of one type
        named with 200,000 characters, took the window 40 s and 2-12 GB to lay out."""
        count = sum(len(c.types) for c in self.categories)
        if count > MAX_TYPES:
            raise SchemaError(
                f"schema {self.name[:MAX_NAME]}: {count:,} types, over the {MAX_TYPES:,} a schema may hold"
            )
        names = [c.name for c in self.categories] + [t.name for c in self.categories for t in c.types]
        for name in [self.name, self.title, *names]:
            if len(name) > MAX_NAME:
                raise SchemaError(
                    f"a name in schema {self.name[:MAX_NAME]!r} has {len(name):,} characters, over the {MAX_NAME}"
                    " a schema name, category or type may have"
                )

    @property
    def types(self) -> list[TypeDef]:
        return list(self._types.values())

    @property
    def category_names(self) -> list[str]:
        return [c.name for c in self.categories]

    def type_def(self, type_name: str) -> TypeDef:
        try:
            return self._types[type_name]
        except KeyError:
            raise SchemaError(f"type {type_name!r} is not in schema {self.name}") from None

    def has_type(self, type_name: str) -> bool:
        return type_name in self._types

    def category_of(self, type_name: str) -> str:
        return self.type_def(type_name).category

    def is_valid(self, tag: str, type_name: str) -> bool:
        """True when ``type_name`` exists and belongs to category ``tag``."""
        type_def = self._types.get(type_name)
        return type_def is not None and type_def.category == tag

    def type_for_key(self, key: str) -> TypeDef | None:
        for type_def in self._types.values():
            if type_def.key == key:
                return type_def
        return None

    def color_of(self, type_name: str) -> str:
        type_def = self._types.get(type_name)
        return type_def.color if type_def else "#999999"


def _names_an_element(name: str) -> bool:
    """A category is the element its tags are written as (``<NAME ...>``): one the writers
    refuse would make every tag of it unsavable. lxml decides, as for the files' readers."""
    if name.startswith("{"):  # lxml's namespaced form, never a plain element name
        return False
    try:
        etree.Element(name)
    except ValueError:
        return False
    return True


# Control, format (bidi overrides, zero-width), line and paragraph separators: no TYPE holds
# one, since every format writes a type as a visible label (the readers use this rule too).
_INVISIBLE_CATEGORIES = frozenset(("Cc", "Cf", "Zl", "Zp"))


def type_name_problem(name: str) -> str | None:
    for char in name:
        if unicodedata.category(char) in _INVISIBLE_CATEGORIES:
            return f"character U+{ord(char):04X} cannot be in a type name"
    if name != name.strip():
        return "spaces around it"
    return None


_HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")


def _colour(value: object, owner: object, source: str) -> str:
    """A ``#rrggbb`` colour, else a SchemaError: the colour goes into the window's style
    sheets, where ``red; } * { x`` would restyle everything (and crashed the shade search)."""
    if not isinstance(value, str) or not _HEX_COLOUR.fullmatch(value):
        raise SchemaError(f"{str(owner)[:MAX_NAME]}: colour {str(value)[:40]!r} is not #rrggbb", source)
    return value


def _tables(value: object, field: str, source: str) -> list[dict[str, Any]]:
    """A field that must be an array of tables ([[category]], type = [{ name = ... }])."""
    if not isinstance(value, list) or not value or not all(isinstance(item, dict) for item in value):
        raise SchemaError(
            f"field {field!r} must be a list of tables, each with a name ([[{field}]] or "
            f"{field} = [{{ name = ... }}])",
            source,
        )
    return value


def schema_from_dict(data: dict[str, object], source: str = "<schema>") -> Schema:
    """Build a schema from the parsed TOML structure (see resources/schemas)."""
    try:
        categories = []
        for raw_category in _tables(data.get("category"), "category", source):
            color = _colour(raw_category["color"], raw_category["name"], source)
            raw_types = _tables(raw_category.get("type", [{"name": raw_category["name"]}]), "type", source)
            if len(raw_types) > MAX_TYPES:  # said before thousands of shades are searched for
                raise SchemaError(
                    f"{len(raw_types):,} types in one category, over the {MAX_TYPES:,} a schema may hold",
                    source,
                )
            # A type without its own colour gets a shade of its category's, so that
            # types of one category can still be told apart.
            fallback = shades(color, len(raw_types))
            types = tuple(
                TypeDef(
                    name=str(raw_type["name"]),
                    category=str(raw_category["name"]),
                    key=str(raw_type.get("key", "")),
                    color=_colour(raw_type.get("color", fallback[i]), raw_type["name"], source),
                    description=str(raw_type.get("description", "")),
                )
                for i, raw_type in enumerate(raw_types)
            )
            categories.append(
                Category(
                    name=str(raw_category["name"]),
                    color=color,
                    types=types,
                    description=str(raw_category.get("description", "")),
                )
            )
        return Schema(
            name=str(data["name"]), title=str(data.get("title", data["name"])), categories=tuple(categories)
        )
    except KeyError as error:
        raise SchemaError(f"schema is missing field {error}", source) from None
    except TypeError as error:
        raise SchemaError(f"schema is misusing a field ({error})", source) from None
    except SchemaError as error:
        if error.path is None:  # raised by the Schema itself: name the file it came from
            raise SchemaError(error.message, source) from None
        raise


def read_schema(path: str | Path) -> Schema:
    """Read a schema TOML file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise SchemaError(f"cannot read schema: {error.strerror}", path) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise SchemaError(f"not a valid schema file: {error}", path) from None
    except RecursionError:
        raise SchemaError("not a valid schema file: tables or arrays nested too deeply", path) from None
    return schema_from_dict(data, str(path))


@cache
def load_schema(name: str = DEFAULT_SCHEMA) -> Schema:
    """A bundled schema by name (``i2b2-2014``, ``i2b2-2006``, ``cchmc-12``) or a file path.

    A path to a MAE DTD, a MedTator YAML/JSON task or a brat ``annotation.conf`` gives
    that task's palette.
    """
    # Imported here: annotator.core.task builds on this module's classes.
    from annotator.core.task import is_task_file, load_task_schema

    try:
        if is_task_file(name) and Path(name).is_file():
            return load_task_schema(name)
        if Path(name).name == "annotation.conf" and Path(name).is_file():
            from annotator.core.brat_conf import read_brat_conf

            return read_brat_conf(name)
        candidate = SCHEMA_DIR / f"{name}.toml"
        if candidate.is_file():
            return read_schema(candidate)
        if Path(name).is_file():
            return read_schema(name)
    except SchemaError as error:
        if error.path is None:  # raised by the Schema itself: name the file it came from
            raise SchemaError(error.message, name) from None
        raise
    if Path(name).exists():
        # A folder, a pipe or a device where a schema file was named: say so, not "unknown".
        raise SchemaError("not a schema file (a folder or a special file)", name)
    available = ", ".join(sorted(p.stem for p in SCHEMA_DIR.glob("*.toml")))
    raise SchemaError(f"unknown schema {name!r} (bundled: {available})")
