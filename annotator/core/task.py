"""MAE / MedTator annotation tasks: the tags, their attributes and links, as a schema.

A task comes from a MAE DTD file (``<!ELEMENT AE ( #PCDATA ) >``), or from a MedTator
YAML or JSON schema (``etags:`` / ``rtags:``). It is read as text, never by an XML DTD
loader, so a task file cannot pull in external entities.

Extent tags become categories of the palette; the values of an attribute named ``TYPE``
or ``type`` become their types (MAE's ``<!ATTLIST NOUN type ( person | place ) >``), and a
tag without one is a category with a single type of its own name. Every other attribute
(``certainty``, ``severity``...) stays an attribute, with its value list and default, for
the attribute editor and for writing files MAE and MedTator open again.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from annotator.core.colours import shades
from annotator.core.schema import Category, Schema, TypeDef
from annotator.errors import SchemaError

TYPE_ATTRIBUTES = ("TYPE", "type")
# Okabe-Ito, then greys: distinguishable with the common colour-vision deficiencies.
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999", "#000000")
# The largest bundled or public task file is a few kilobytes.
MAX_TASK_BYTES = 16 * 1024 * 1024
TASK_SUFFIXES = (".dtd", ".yaml", ".yml", ".json")


@dataclass(frozen=True)
class TaskAttribute:
    """One attribute of a tag.

    Attributes
    ----------
    values: the allowed values (empty: free text).
    default: written on a new tag when nothing else is known.
    idref: a link argument (it holds the id of an extent tag).
    prefix: MAE's argument name for an IDREF (``agent`` gives ``agentID`` / ``agentText``).
    required: declared ``#REQUIRED`` (MedTator's ``require: REQUIRED``): MAE asks for it.
    """

    name: str
    values: tuple[str, ...] = ()
    default: str = ""
    idref: bool = False
    prefix: str = ""
    required: bool = False

    @property
    def argument(self) -> str:
        """The stem of a link argument's attributes (``agent`` -> ``agentID``)."""
        return self.prefix or self.name


@dataclass(frozen=True)
class TaskTag:
    """A tag of the task: an extent tag (``link`` False) or a link tag.

    ``id_prefix`` is the prefix the task file gives its ids (MAE's ``<!ATTLIST X id ID
    prefix="X">``, MedTator's ``id_prefix``), or "" to let :meth:`TaskDefinition.id_prefixes`
    choose one as MAE and MedTator do.
    """

    name: str
    link: bool = False
    attributes: tuple[TaskAttribute, ...] = ()
    non_consuming: bool = False
    id_prefix: str = ""

    def attribute(self, name: str) -> TaskAttribute | None:
        return next((a for a in self.attributes if a.name == name), None)

    @property
    def type_attribute(self) -> TaskAttribute | None:
        """The attribute whose values are the tag's types (``TYPE`` or ``type``), if any."""
        for name in TYPE_ATTRIBUTES:
            attribute = self.attribute(name)
            if attribute is not None and attribute.values:
                return attribute
        return None


@dataclass(frozen=True)
class TaskDefinition:
    """A task: its name (the root element of its files) and its tags, in file order."""

    name: str
    tags: tuple[TaskTag, ...]

    def tag(self, name: str) -> TaskTag | None:
        return next((t for t in self.tags if t.name == name), None)

    def id_prefixes(self) -> dict[str, str]:
        """Tag name -> the prefix of its ids, chosen as MedTator chooses them: the task
        file's, else the first letter of the name, lengthened one letter at a time while an
        earlier tag has it (``ADJ_ADV`` A, ``ACTION`` AC, ``ARGUMENTS`` AR)."""
        prefixes: dict[str, str] = {}
        taken: set[str] = set()
        for tag in self.tags:
            prefix = tag.id_prefix or tag.name[:1]
            while prefix in taken and len(prefix) < len(tag.name):
                prefix = tag.name[: len(prefix) + 1]
            taken.add(prefix)
            prefixes[tag.name] = prefix
        return prefixes

    @property
    def extent_tags(self) -> list[TaskTag]:
        return [t for t in self.tags if not t.link]

    @property
    def link_tags(self) -> list[TaskTag]:
        return [t for t in self.tags if t.link]


# -- DTD --------------------------------------------------------------------------------
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_TASK_NAME = re.compile(r"""<!ENTITY\s+name\s+["']([^"']+)["']\s*>""")
_ELEMENT = re.compile(r"<!ELEMENT\s+([\w.:-]+)\s*(\(\s*#PCDATA\s*\)|EMPTY)\s*>")
_ATTLIST = re.compile(r"<!ATTLIST\s+([\w.:-]+)\s+([\w.:-]+)\s*(.*?)>", re.DOTALL)
_VALUE_LIST = re.compile(r"\(([^)]*)\)")
_PREFIX = re.compile(r"""prefix\s*=\s*["']([^"']*)["']""")
_QUOTED = re.compile(r"""["']([^"']*)["']""")
_REFERENCE = re.compile(r"&([A-Za-z_][\w.:-]*);")
_PREDEFINED = frozenset(("lt", "gt", "amp", "apos", "quot"))


def parse_dtd(text: str, source: str = "<dtd>") -> TaskDefinition:
    """A task from the text of a MAE / MedTator DTD file."""
    text = _COMMENT.sub("", text)
    # A file cut short, or a declaration given twice, is a task file someone must fix: read
    # as it stands, it would silently lose tags or values.
    last = text.rfind("<!")
    if last != -1 and ">" not in text[last:]:
        raise SchemaError("the DTD ends inside a declaration (the file is cut short)", source)
    # Entities are never expanded (nothing is loaded, nothing multiplies): a value naming
    # one would be read as a type called "&types;".
    reference = next((r for r in _REFERENCE.findall(text) if r not in _PREDEFINED), None)
    if reference is not None:
        raise SchemaError(f"the DTD refers to entity {reference[:40]!r}, which is never expanded", source)
    declared = Counter((element, name) for element, name, _ in _ATTLIST.findall(text))
    twice = sorted(key for key, count in declared.items() if count > 1)
    if twice:
        raise SchemaError(f"the DTD declares attribute {twice[0][1]!r} of {twice[0][0]!r} twice", source)
    elements = {name: kind != "EMPTY" for name, kind in _ELEMENT.findall(text)}
    if not any(elements.values()):
        raise SchemaError("no extent tags (<!ELEMENT NAME ( #PCDATA ) >) in the DTD", source)
    attributes: dict[str, list[TaskAttribute]] = {name: [] for name in elements}
    non_consuming: set[str] = set()
    id_prefixes: dict[str, str] = {}
    for element, name, rest in _ATTLIST.findall(text):
        if element in elements and name == "id":
            prefix = _PREFIX.search(rest)
            id_prefixes[element] = prefix.group(1) if prefix else ""
        if element not in elements or name == "id":
            continue
        if name == "spans":
            non_consuming.add(element)
            continue
        values_match = _VALUE_LIST.search(rest)
        values = (
            tuple(v.strip() for v in values_match.group(1).split("|") if v.strip()) if values_match else ()
        )
        remainder = rest[values_match.end() :] if values_match else rest
        prefix_match = _PREFIX.search(remainder)
        without_prefix = _PREFIX.sub("", remainder)
        default_match = _QUOTED.search(without_prefix)
        attributes[element].append(
            TaskAttribute(
                name=name,
                values=values,
                default=default_match.group(1) if default_match else "",
                idref=bool(re.match(r"\s*IDREF\b", rest)),
                prefix=prefix_match.group(1) if prefix_match else "",
                required="#REQUIRED" in remainder,
            )
        )
    task_name = _TASK_NAME.search(text)
    tags = tuple(
        TaskTag(
            name,
            link=not extent,
            attributes=tuple(attributes[name]),
            non_consuming=name in non_consuming,
            id_prefix=id_prefixes.get(name, ""),
        )
        for name, extent in elements.items()
    )
    return TaskDefinition(task_name.group(1) if task_name else Path(source).stem, tags)


# -- MedTator YAML / JSON ---------------------------------------------------------------
def task_from_dict(data: object, source: str = "<task>") -> TaskDefinition:
    """A task from a MedTator schema structure (``name``, ``etags``, ``rtags``)."""
    if not isinstance(data, dict) or "name" not in data:
        raise SchemaError("not a MedTator schema (no 'name' at the top level)", source)
    tags: list[TaskTag] = []
    try:
        for link, key in ((False, "etags"), (True, "rtags")):
            for raw_tag in data.get(key) or []:
                tag_attributes = []
                for raw in raw_tag.get("attrs") or []:
                    vtype = str(raw.get("vtype", "text"))
                    tag_attributes.append(
                        TaskAttribute(
                            name=str(raw["name"]),
                            values=tuple(str(v) for v in raw.get("values") or ()) if vtype == "list" else (),
                            default=str(raw.get("default_value", "") or ""),
                            idref=vtype == "idref",
                            required=str(raw.get("require", "") or "").upper() == "REQUIRED",
                        )
                    )
                tags.append(
                    TaskTag(
                        str(raw_tag["name"]),
                        link=link,
                        attributes=tuple(tag_attributes),
                        non_consuming=bool(raw_tag.get("is_non_consuming", False)),
                        id_prefix=str(raw_tag.get("id_prefix", "") or ""),
                    )
                )
    except (KeyError, TypeError, AttributeError) as error:
        raise SchemaError(f"MedTator schema is missing or misusing field {error}", source) from None
    if not any(not t.link for t in tags):
        raise SchemaError("no entity tags (etags) in the MedTator schema", source)
    _check_names(str(data["name"]), tags, source)
    return TaskDefinition(str(data["name"]), tuple(tags))


def _check_names(task: str, tags: list[TaskTag], source: str) -> None:
    """A task names its files' root, each tag an element, each attribute an XML attribute:
    none may be empty, and a name given twice would make one of the two unreachable (the
    DTD reader refuses the same)."""
    if not task.strip():
        raise SchemaError("the MedTator schema has an empty name", source)
    seen: set[str] = set()
    for tag in tags:
        if not tag.name.strip():
            raise SchemaError("a tag of the MedTator schema has an empty name", source)
        if tag.name in seen:
            raise SchemaError(f"the MedTator schema declares tag {tag.name!r} twice", source)
        seen.add(tag.name)
        names = [a.name for a in tag.attributes]
        if any(not name.strip() for name in names):
            raise SchemaError(f"an attribute of tag {tag.name!r} has an empty name", source)
        twice = next((name for name in names if names.count(name) > 1), None)
        if twice is not None:
            raise SchemaError(
                f"the MedTator schema declares attribute {twice!r} of {tag.name!r} twice", source
            )


class _TaskYamlLoader(yaml.SafeLoader):
    """YAML's safe loader without aliases. MedTator schemas never use them, and a 33 KB file
    whose tags, attributes and values each repeat one alias 2,000 times read as 8 billion
    values (14 GB of memory in two minutes, unfinished)."""

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
            raise yaml.YAMLError(f"line {mark.line + 1}: an alias (*name), which a task file may not use")
        return super().compose_node(parent, index)  # type: ignore[no-any-return]


def read_task(path: str | Path) -> TaskDefinition:
    """Read a DTD, YAML or JSON task file."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_TASK_BYTES:
            raise SchemaError(f"the task file is over the {MAX_TASK_BYTES:,}-byte limit", path)
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SchemaError(f"cannot read task file: {error.strerror}", path) from None
    except UnicodeDecodeError:
        raise SchemaError("the task file is not UTF-8 text", path) from None
    suffix = path.suffix.lower()
    if suffix == ".dtd":
        return parse_dtd(text, str(path))
    try:
        data = json.loads(text) if suffix == ".json" else yaml.load(text, Loader=_TaskYamlLoader)
    except (json.JSONDecodeError, yaml.YAMLError) as error:
        first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise SchemaError(f"not a valid task file: {first_line}", path) from None
    except RecursionError:
        raise SchemaError("not a valid task file: lists or maps nested too deeply", path) from None
    return task_from_dict(data, str(path))


def task_file_name(task: TaskDefinition) -> str:
    """The name of the DTD written beside a task's files (``TASK.dtd``)."""
    return f"{task.name}.dtd"


def is_task_file(name: str | Path) -> bool:
    return Path(name).suffix.lower() in TASK_SUFFIXES


def task_to_dtd(task: TaskDefinition) -> str:
    """A DTD file for a task, in the layout MAE and MedTator write."""
    lines = [f'<!ENTITY name "{task.name}">', ""]
    taken: set[str] = set()
    for tag in task.tags:
        lines.append(f"<!ELEMENT {tag.name} {'EMPTY' if tag.link else '( #PCDATA )'} >")
        # The prefix MAE and MedTator give the tag themselves (its first letter, one more while
        # an earlier tag has it) is not declared again: MAE refuses a declared prefix any tag
        # already has, its own included ("prefix "N" is already being used").
        own = tag.name[:1]
        while own in taken and len(own) < len(tag.name):
            own = tag.name[: len(own) + 1]
        if tag.id_prefix and tag.id_prefix != own:
            lines.append(f'<!ATTLIST {tag.name} id ID prefix="{tag.id_prefix}" >')
        taken.add(tag.id_prefix or own)
        if tag.non_consuming:
            lines.append(f"<!ATTLIST {tag.name} spans #IMPLIED >")
        arguments = 0
        for attribute in tag.attributes:
            # A #REQUIRED attribute stays one: MAE asks the annotator for it.
            need = "#REQUIRED" if attribute.required else "#IMPLIED"
            if attribute.idref:
                # MAE and MedTator name link arguments argN; the prefix names their attributes.
                lines.append(
                    f'<!ATTLIST {tag.name} arg{arguments} IDREF prefix="{attribute.argument}" {need} >'
                )
                arguments += 1
                continue
            kind = f"( {' | '.join(attribute.values)} )" if attribute.values else "CDATA"
            default = f' "{attribute.default}"' if attribute.default else ""
            lines.append(f"<!ATTLIST {tag.name} {attribute.name} {kind} {need}{default} >")
        lines.append("")
    return "\n".join(lines)


def task_to_schema(task: TaskDefinition) -> Schema:
    """The palette of a task: its extent tags as categories, their type values as types.

    Keys are given in order (the first free letter of each type's name, else a digit),
    colours from a colour-blind-safe palette; a type value another tag already uses stays
    an attribute of the later tag (type names are unique in a schema).
    """
    taken_keys: set[str] = set()
    taken_types: set[str] = set()
    categories = []
    for number, tag in enumerate(task.extent_tags):
        color = PALETTE[number % len(PALETTE)]
        type_attribute = tag.type_attribute
        names = [v for v in type_attribute.values if v not in taken_types] if type_attribute else []
        if not names or (type_attribute and len(names) < len(type_attribute.values)):
            names = [tag.name] if tag.name not in taken_types else []
        types = []
        for name, shade in zip(names, shades(color, len(names)), strict=True):
            key = free_key(name, taken_keys)
            taken_types.add(name)
            types.append(TypeDef(name, tag.name, key, shade))
        if types:
            categories.append(Category(name=tag.name, color=color, types=tuple(types)))
    return Schema(name=task.name, title=task.name, categories=tuple(categories), task=task)


def free_key(name: str, taken: set[str]) -> str:
    """The first letter of ``name`` (else a digit) not yet taken; taken afterwards."""
    for char in [c.lower() for c in name if c.isalpha()] + list("1234567890"):
        if char not in taken:
            taken.add(char)
            return char
    return ""


def load_task_schema(path: str | Path) -> Schema:
    """A schema from a DTD, YAML or JSON task file."""
    return task_to_schema(read_task(path))
