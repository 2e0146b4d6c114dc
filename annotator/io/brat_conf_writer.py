"""The ``annotation.conf`` for brat files we write: everything they use, declared so that
brat's own ``verify_annotations`` finds nothing wrong.

Entities are grouped under their category (``!NAME`` with ``DOCTOR``, ``PATIENT`` below
it); every event type lists the roles its events use, with the types of what they name;
every relation type each pair of roles it is used with; equivalence types are symmetric and
transitive; every attribute the types it is put on and the values it takes. ``<OVERLAP>``
lets any annotations overlap, as they may in the files we read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from annotator.core.brat_conf import parse_brat_conf_text
from annotator.core.document import Document
from annotator.core.schema import Schema
from annotator.errors import SchemaError
from annotator.io.brat import BINARY, brat_label, document_to_brat, shared_types
from annotator.io.brat_ann import (
    AttributeLine,
    EquivalenceLine,
    EventLine,
    RelationLine,
    TextBound,
    parse_ann,
)

# A value brat's configuration parser takes: no space, comma, bar or macro brackets.
_SAFE_VALUE = re.compile(r"^[^\s,|<>]+$")
_ROLE_NUMBER = re.compile(r"^(.*?)\d*$")


class _Collected:
    """What the written files use, in first-seen order."""

    def __init__(self) -> None:
        self.categories: dict[str, list[str]] = {}
        self.labels: dict[str, str] = {}  # T label -> category
        self.events: dict[str, dict[str, list[str]]] = {}  # type -> role -> argument types
        self.repeated: set[tuple[str, str]] = set()
        self.triggers: list[str] = []
        self.relations: dict[tuple[str, str, str], tuple[list[str], list[str]]] = {}
        self.equivalences: dict[str, list[str]] = {}
        self.attributes: dict[str, tuple[list[str], list[str]]] = {}

    def add_document(self, document: Document, schema: Schema | None) -> None:
        _, ann = document_to_brat(document, schema)
        records = [record for _, record in parse_ann(ann.decode("utf-8"))]
        shared = shared_types(document)
        for annotation in document.annotations:
            self.labels.setdefault(brat_label(annotation, schema, shared), annotation.tag)
        types: dict[str, str] = {}
        for record in records:
            if isinstance(record, TextBound | EventLine | RelationLine):
                types[record.id] = record.type
        for record in records:
            if isinstance(record, EventLine):
                self._event(record, types)
            elif isinstance(record, RelationLine):
                (role1, target1), (role2, target2) = record.arguments
                first, second = self.relations.setdefault((record.type, role1, role2), ([], []))
                _add(first, types.get(target1, ""))
                _add(second, types.get(target2, ""))
            elif isinstance(record, EquivalenceLine):
                members = self.equivalences.setdefault(record.type, [])
                for member in record.members:
                    _add(members, types.get(member, ""))
            elif isinstance(record, AttributeLine):
                targets, values = self.attributes.setdefault(record.type, ([], []))
                _add(targets, types.get(record.target, ""))
                _add(values, BINARY if record.value is None else record.value)

    def _event(self, record: EventLine, types: dict[str, str]) -> None:
        roles = self.events.setdefault(record.type, {})
        _add(self.triggers, types.get(record.trigger, ""))
        counts: dict[str, int] = {}
        for role, target in record.arguments:
            match = _ROLE_NUMBER.match(role)
            plain = match.group(1) if match is not None and match.group(1) else role
            counts[plain] = counts.get(plain, 0) + 1
            _add(roles.setdefault(plain, []), types.get(target, ""))
        self.repeated.update((record.type, role) for role, count in counts.items() if count > 1)


def _add(items: list[str], item: str) -> None:
    if item and item not in items:
        items.append(item)


def _kinds(items: list[str]) -> str:
    return "|".join(items) or "<ANY>"


def brat_conf_for(documents: Sequence[Document], schema: Schema | None = None) -> str:
    """An ``annotation.conf`` declaring what the documents, written as brat, use."""
    found = _Collected()
    for document in documents:
        found.add_document(document, schema)
    event_types = [*found.events, *(t for t in found.triggers if t not in found.events)]
    lines = ["[entities]"]
    lines += _entities(found, set(event_types))
    lines += ["", "[relations]", "<OVERLAP>\tArg1:<ANY>, Arg2:<ANY>, <OVL-TYPE>:<ANY>"]
    for (relation_type, role1, role2), (first, second) in found.relations.items():
        lines.append(f"{relation_type}\t{role1}:{_kinds(first)}, {role2}:{_kinds(second)}")
    for equivalence_type, members in found.equivalences.items():
        kinds = _kinds(members)
        lines.append(f"{equivalence_type}\tArg1:{kinds}, Arg2:{kinds}, <REL-TYPE>:symmetric-transitive")
    lines += ["", "[events]"]
    for event_type in event_types:
        roles = found.events.get(event_type, {})
        arguments = ", ".join(
            f"{role}{'*' if (event_type, role) in found.repeated else '?'}:{_kinds(kinds)}"
            for role, kinds in roles.items()
        )
        lines.append(f"{event_type}\t{arguments}".rstrip())
    lines += ["", "[attributes]"]
    for name, (targets, values) in found.attributes.items():
        declared = [v for v in values if v != BINARY and _SAFE_VALUE.match(v)]
        value_list = f", Value:{'|'.join(declared)}" if declared else ""
        lines.append(f"{name}\tArg:{_kinds(targets)}{value_list}")
    return "\n".join(lines) + "\n"


def _entities(found: _Collected, event_types: set[str]) -> list[str]:
    tree: dict[str, list[str]] = {}
    for label, category in found.labels.items():
        if label not in event_types:
            tree.setdefault(category, []).append(label)
    lines = []
    for category, labels in tree.items():
        children = [label for label in labels if label != category]
        if not children:
            lines.append(category)
            continue
        lines.append(category if category in labels else f"!{category}")
        lines.extend(f"\t{label}" for label in children)
    return lines


def covers(original: str, documents: Sequence[Document], schema: Schema | None = None) -> bool:
    """Whether an ``annotation.conf`` declares every entity, relation, event and attribute
    (with each value) the documents use, written as brat: then it is written as it was,
    with the types, values and constraints nobody used yet (the palette brat shows)."""
    try:
        declared = parse_brat_conf_text(original)
        needed = parse_brat_conf_text(brat_conf_for(documents, schema))
    except SchemaError:
        return False
    for section in ("entities", "relations", "events"):
        names = {t.name for t in declared.terms(section)}
        if section == "entities":
            names |= {t.name for t in declared.terms("events")}
        if not {t.name for t in needed.terms(section) if not t.abstract} <= names | {"<OVERLAP>"}:
            return False
    values = {t.name: _declared_values(t.arguments) for t in declared.terms("attributes")}
    for term in needed.terms("attributes"):
        if term.name not in values:
            return False
        wanted = _declared_values(term.arguments)
        if wanted and not wanted <= values[term.name]:
            return False
    return True


def _declared_values(arguments: list[str]) -> set[str]:
    return {v for a in arguments if a.startswith("Value:") for v in a[len("Value:") :].split("|")}
