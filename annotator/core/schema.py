"""Tag sets as data: categories, types, colours and single-key shortcuts.

Schemas live in ``resources/schemas/*.toml``. A category is the XML element name (``NAME``),
a type its ``TYPE`` attribute (``PATIENT``). Type names are unique within a schema, so a
type alone tells its category.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

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
        keys: dict[str, str] = {}
        for category in self.categories:
            for type_def in category.types:
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


def schema_from_dict(data: dict[str, object], source: str = "<schema>") -> Schema:
    """Build a schema from the parsed TOML structure (see resources/schemas)."""
    try:
        categories = []
        for raw_category in data["category"]:  # type: ignore[attr-defined]
            color = str(raw_category["color"])
            raw_types = raw_category.get("type", [{"name": raw_category["name"]}])
            # A type without its own colour gets a shade of its category's, so that
            # types of one category can still be told apart.
            fallback = shades(color, len(raw_types))
            types = tuple(
                TypeDef(
                    name=str(raw_type["name"]),
                    category=str(raw_category["name"]),
                    key=str(raw_type.get("key", "")),
                    color=str(raw_type.get("color", fallback[i])),
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
    except (KeyError, TypeError) as error:
        raise SchemaError(f"schema is missing or misusing field {error}", source) from None


def read_schema(path: str | Path) -> Schema:
    """Read a schema TOML file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise SchemaError(f"cannot read schema: {error.strerror}", path) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise SchemaError(f"not a valid schema file: {error}", path) from None
    return schema_from_dict(data, str(path))


@cache
def load_schema(name: str = DEFAULT_SCHEMA) -> Schema:
    """A bundled schema by name (``i2b2-2014``, ``i2b2-2006``, ``cchmc-12``) or a file path.

    A path to a MAE DTD, a MedTator YAML/JSON task or a brat ``annotation.conf`` gives
    that task's palette.
    """
    # Imported here: annotator.core.task builds on this module's classes.
    from annotator.core.task import is_task_file, load_task_schema

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
    available = ", ".join(sorted(p.stem for p in SCHEMA_DIR.glob("*.toml")))
    raise SchemaError(f"unknown schema {name!r} (bundled: {available})")
