"""The task (DTD) written beside MAE files we write, so MAE and MedTator open them.

MedTator loads only the tags its task declares, and both tools refuse a file whose root is
not the task's name. The task is the one given (``--schema TASK.dtd``), with whatever the
documents hold that it does not declare added: every extent tag with its type and attribute
names, document tags (non-consuming), and every link, event, equivalence and
normalization element with its arguments.
"""

from __future__ import annotations

from collections.abc import Sequence

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.relations import NOTE_PREFIX, RelationKind
from annotator.core.schema import Schema
from annotator.core.task import TYPE_ATTRIBUTES, TaskAttribute, TaskDefinition, TaskTag
from annotator.io.i2b2 import annotation_attributes
from annotator.io.mae_layout import mae_layout
from annotator.io.mae_writer import DEFAULT_TASK
from annotator.io.xml_items import (
    EQUIVALENCE_ROLE,
    EVENT_TYPE,
    KIND_ATTRIBUTE,
    NOTE_ATTRIBUTE,
    TRIGGER,
    relation_element,
)

_PROVENANCE = ("source", "confidence", "annotator", "pending")


class _TagSpec:
    """What the documents put on one element, in first-seen order."""

    def __init__(self, link: bool) -> None:
        self.link = link
        self.non_consuming = False
        self.types: list[str] = []
        self.roles: list[str] = []
        self.names: list[str] = []

    def add_names(self, names: Sequence[str]) -> None:
        for name in names:
            if name not in self.names:
                self.names.append(name)


def root_of(document: Document) -> str:
    """The root element a document was read with ("" when none)."""
    layout = mae_layout(document)
    return layout.root_tag if layout is not None else str(document.origin.layout.get("root_tag") or "")


def task_name(documents: Sequence[Document], schema: Schema | None) -> str:
    """The root every file gets: the task's name, else the one root the documents share."""
    if schema is not None and schema.task is not None:
        return schema.task.name
    roots = {root_of(d) for d in documents}
    return roots.pop() if len(roots) == 1 and "" not in roots else DEFAULT_TASK


def task_for(documents: Sequence[Document], schema: Schema | None) -> TaskDefinition:
    """The task declaring every tag the documents hold (the schema's task first)."""
    specs: dict[str, _TagSpec] = {}
    for document in documents:
        _collect(document, specs)
    given = schema.task if schema is not None else None
    tags = list(given.tags) if given is not None else []
    declared = {t.name for t in tags}
    for index, tag in enumerate(tags):
        spec = specs.get(tag.name)
        if spec is not None:
            tags[index] = _extended(tag, spec)
    # Shorter names first: MedTator gives each tag the shortest prefix of its name no earlier
    # tag has, and loops for ever on a name an earlier tag took whole (PASS, then P).
    added = sorted((name for name in specs if name not in declared), key=len)
    tags += [_extended(TaskTag(name, link=specs[name].link), specs[name]) for name in added]
    return TaskDefinition(task_name(documents, schema), tuple(tags))


def _collect(document: Document, specs: dict[str, _TagSpec]) -> None:
    for annotation in document.annotations:
        spec = specs.setdefault(annotation.tag, _TagSpec(link=False))
        if annotation.type != annotation.tag and annotation.type not in spec.types:
            spec.types.append(annotation.type)
        names = ["comment"] if annotation.comment else []
        names += [n for n, _ in _provenance(annotation)]
        spec.add_names(names + [_xml(n) for n, _ in annotation.extra])
    for tag in document.document_tags:
        spec = specs.setdefault(tag.tag, _TagSpec(link=False))
        spec.non_consuming = True
        spec.add_names([_xml(n) for n, _ in tag.attributes] + (["comment"] if tag.comment else []))
    for relation in document.relations:
        spec = specs.setdefault(relation_element(relation), _TagSpec(link=True))
        spec.link = True
        roles = [TRIGGER] if relation.kind is RelationKind.EVENT else []
        if relation.kind is RelationKind.EQUIVALENCE:
            roles += [f"{EQUIVALENCE_ROLE}{n}" for n in range(len(relation.arguments))]
        else:
            roles += [a.role for a in relation.arguments]
        spec.roles += [r for r in roles if r not in spec.roles]
        names = [EVENT_TYPE] if relation.kind is RelationKind.EVENT else []
        names += (
            [KIND_ATTRIBUTE]
            if relation.kind in (RelationKind.EQUIVALENCE, RelationKind.NORMALIZATION)
            else []
        )
        spec.add_names(
            names + [_xml(n) for n, _ in relation.attributes] + (["comment"] if relation.comment else [])
        )


def _provenance(annotation: Annotation) -> list[tuple[str, str]]:
    return [p for p in annotation_attributes(annotation) if p[0] in _PROVENANCE]


def _xml(name: str) -> str:
    return NOTE_ATTRIBUTE + name[len(NOTE_PREFIX) :] if name.startswith(NOTE_PREFIX) else name


def _extended(tag: TaskTag, spec: _TagSpec) -> TaskTag:
    """A task tag with what the documents put on it and it does not declare."""
    attributes = list(tag.attributes)
    known = {a.name for a in attributes}
    arguments = {a.argument for a in attributes if a.idref}
    if spec.types and not known & set(TYPE_ATTRIBUTES):
        attributes.insert(0, TaskAttribute("TYPE", tuple(spec.types)))
        known.add("TYPE")
    next_argument = sum(1 for a in attributes if a.idref)
    for role in spec.roles:
        if role not in arguments:
            attributes.append(TaskAttribute(f"arg{next_argument}", idref=True, prefix=role))
            next_argument += 1
    for name in spec.names:
        if name not in known:
            attributes.append(TaskAttribute(name))
            known.add(name)
    return TaskTag(
        tag.name,
        link=tag.link or spec.link,
        attributes=tuple(attributes),
        non_consuming=tag.non_consuming or spec.non_consuming,
        id_prefix=tag.id_prefix,
    )
