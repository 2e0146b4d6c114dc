"""brat's ``annotation.conf``, read as brat reads it, and as a schema.

Sections ``[entities]`` (older configurations call it ``[spans]``), ``[relations]``,
``[events]`` and ``[attributes]``; in each, one term per line, indented (any whitespace, one
character per level) under its parent, ``!`` before an abstract term that only groups
others, ``|`` between a term's names (the first is the one files use), then its arguments
(``Theme+:Protein|<EVENT>``). ``<NAME>=VALUE`` defines a macro used later in its section as
``<NAME>``; ``<ENTITY>``, ``<EVENT>``, ``<RELATION>``, ``<ANY>`` are brat's wildcards.

As a schema (the tag palette), each top-level entity or event is a category: its
non-abstract descendants (and itself, unless abstract) are its types, since both entities
and event triggers are tagged on the text. Relations, events and attributes stay in the
parsed configuration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from annotator.core.colours import shades
from annotator.core.schema import Category, Schema, TypeDef
from annotator.core.task import PALETTE, free_key
from annotator.errors import SchemaError

CONF_NAME = "annotation.conf"
SECTIONS = ("entities", "relations", "events", "attributes")
_ALIASES = {"spans": "entities"}
_MACRO = re.compile(r"^<([a-zA-Z_-]+)>=\s*(.*?)\s*$")
_LINE = re.compile(r"^(\s*)(\S+)(?:\s+(.*))?$")
_SEPARATOR = re.compile(r"^\s*-+\s*$")


@dataclass
class ConfTerm:
    """One line of a section: the term, its depth, whether it is abstract, its arguments."""

    name: str
    depth: int
    abstract: bool = False
    arguments: list[str] = field(default_factory=list)
    children: list[ConfTerm] = field(default_factory=list)

    def walk(self) -> list[ConfTerm]:
        """This term and every term under it, depth first, parents before children.

        Without recursion: a hostile configuration indented 3,000 levels deep overflowed
        Python's stack."""
        found: list[ConfTerm] = []
        pending = [self]
        while pending:
            term = pending.pop()
            found.append(term)
            pending.extend(reversed(term.children))
        return found


@dataclass
class BratConf:
    """An ``annotation.conf``: each section as a forest of terms."""

    sections: dict[str, list[ConfTerm]] = field(default_factory=dict)

    def roots(self, section: str) -> list[ConfTerm]:
        return self.sections.get(section, [])

    def terms(self, section: str) -> list[ConfTerm]:
        return [t for root in self.roots(section) for t in root.walk()]


def parse_brat_conf_text(text: str, source: str = CONF_NAME) -> BratConf:
    """Parse the text of an ``annotation.conf`` as brat's ``projectconfig`` does."""
    conf = BratConf()
    section = ""
    lines: dict[str, list[str]] = {}
    for raw in text.split("\n"):
        header = re.match(r"^\s*\[(.*)\]\s*$", raw)
        if header:
            section = _ALIASES.get(header.group(1), header.group(1))
            lines.setdefault(section, [])
        elif section:
            lines[section].append(raw)
    for name, section_lines in lines.items():
        if name in SECTIONS:
            conf.sections[name] = _read_hierarchy(section_lines, source)
    if not conf.terms("entities") and not conf.terms("events"):
        raise SchemaError("no [entities] (or [spans]) in the brat configuration", source)
    return conf


def _read_hierarchy(lines: list[str], source: str) -> list[ConfTerm]:
    roots: list[ConfTerm] = []
    last_at_depth: dict[int, ConfTerm] = {}
    macros: dict[str, str] = {}
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#") or _SEPARATOR.match(line):
            continue
        macro = _MACRO.match(line)
        if macro:
            macros[f"<{macro.group(1)}>"] = macro.group(2)
            continue
        for name, value in macros.items():
            line = line.replace(name, value)
        match = _LINE.match(line)
        if match is None:  # pragma: no cover - _LINE matches any non-blank line
            continue
        indent, terms, arguments = match.groups()
        name = terms.split("|")[0]
        abstract = name.startswith("!")
        term = ConfTerm(
            name.lstrip("!"),
            len(indent),
            abstract,
            [a.strip() for a in (arguments or "").split(",") if a.strip()],
        )
        if term.depth == 0:
            roots.append(term)
        else:
            parent = last_at_depth.get(term.depth - 1)
            if parent is None:
                raise SchemaError(f"{term.name!r} is indented with no parent above it", source)
            parent.children.append(term)
        last_at_depth[term.depth] = term
    return roots


def brat_conf_to_schema(conf: BratConf, name: str = "brat") -> Schema:
    """The palette of a configuration: top-level entities and events as categories."""
    keys: set[str] = set()
    seen: set[str] = set()
    categories = []
    roots = [*conf.roots("entities"), *conf.roots("events")]
    for number, root in enumerate(roots):
        color = PALETTE[number % len(PALETTE)]
        names = [t.name for t in root.walk() if not t.abstract and t.name not in seen]
        seen.update(names)
        types = tuple(
            TypeDef(n, root.name, free_key(n, keys), shade)
            for n, shade in zip(names, shades(color, len(names)), strict=True)
        )
        if types:
            categories.append(Category(root.name, color, types))
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
