"""brat's ``annotation.conf`` as a schema, and a schema as an ``annotation.conf``.

``[entities]`` lists the labels, a tab of indentation per level: a top-level entity with
children is a category whose leaves are its types; one without children is a category with
a single type of its own name (``!Name`` marks an abstract entity, never a type). The other
sections (``[relations]``, ``[events]``, ``[attributes]``) are kept as text and written back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from annotator.core.colours import shades
from annotator.core.schema import Category, Schema, TypeDef
from annotator.core.task import PALETTE, free_key
from annotator.errors import SchemaError

CONF_NAME = "annotation.conf"
_SECTIONS = ("entities", "relations", "events", "attributes")


@dataclass
class BratConf:
    """The sections of an ``annotation.conf``: entity tree lines and the others verbatim."""

    entities: list[tuple[int, str]] = field(default_factory=list)
    other: dict[str, list[str]] = field(default_factory=dict)


def parse_brat_conf_text(text: str, source: str = CONF_NAME) -> BratConf:
    conf = BratConf()
    section = ""
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            continue
        if section == "entities":
            depth = len(line) - len(line.lstrip("\t"))
            name = line.strip().split()[0]
            conf.entities.append((depth, name))
        elif section:
            conf.other.setdefault(section, []).append(line)
    if not conf.entities:
        raise SchemaError("no [entities] in the brat configuration", source)
    return conf


def brat_conf_to_schema(conf: BratConf, name: str = "brat") -> Schema:
    groups: list[tuple[str, list[str]]] = []
    for depth, entity in conf.entities:
        if depth == 0 or not groups:
            groups.append((entity.lstrip("!"), []))
        elif not entity.startswith("!"):
            groups[-1][1].append(entity)
    keys: set[str] = set()
    seen: set[str] = set()
    categories = []
    for number, (category, children) in enumerate(groups):
        color = PALETTE[number % len(PALETTE)]
        names = [c for c in (children or [category]) if c not in seen]
        seen.update(names)
        types = tuple(
            TypeDef(n, category, free_key(n, keys), shade)
            for n, shade in zip(names, shades(color, len(names)), strict=True)
        )
        if types:
            categories.append(Category(category, color, types))
    return Schema(name=name, title=name, categories=tuple(categories))


def read_brat_conf(path: str | Path) -> Schema:
    """A schema from a brat ``annotation.conf``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SchemaError(f"cannot read brat configuration: {error.strerror}", path) from None
    except UnicodeDecodeError:
        raise SchemaError("the brat configuration is not UTF-8 text", path) from None
    return brat_conf_to_schema(parse_brat_conf_text(text, str(path)), path.parent.name or "brat")


def schema_to_brat_conf(schema: Schema, relations: Sequence[str] = (), events: Sequence[str] = ()) -> str:
    """An ``annotation.conf`` for a schema (categories with their types as children).

    Relation and event types found in the documents are declared with any entity arguments,
    so brat loads the kept lines without complaint.
    """
    lines = ["[entities]"]
    for category in schema.categories:
        type_names = [t.name for t in category.types]
        if type_names == [category.name]:
            lines.append(category.name)
            continue
        lines.append(f"!{category.name}" if category.name not in type_names else category.name)
        lines.extend(f"\t{name}" for name in type_names if name != category.name)
    lines += ["", "[relations]", "<OVERLAP>\tArg1:<ANY>, Arg2:<ANY>, <OVL-TYPE>:<ANY>"]
    lines += [f"{name}\tArg1:<ANY>, Arg2:<ANY>" for name in relations]
    lines += ["", "[events]"]
    lines += [f"{name}\tArg*:<ANY>" for name in events]
    lines += ["", "[attributes]", ""]
    return "\n".join(lines)
