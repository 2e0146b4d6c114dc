"""Writing MAE / MedTator XML that MAE and MedTator open again.

The root is the task name (both tools refuse any other); a tag read from a file keeps its
attributes in their order, with the fields we edit (spans, text, type, comment and the
attributes in ``extra``) updated; a new tag gets the attribute set of the task's DTD (or of
its kind's tags in the file), with the DTD's defaults. Relations and document tags are
written as MAE writes links and non-consuming tags (:mod:`annotator.io.xml_items`);
``<META>`` and the tags' order come back from the document's
:class:`~annotator.io.mae_layout.MaeLayout`.
"""

from __future__ import annotations

from collections.abc import Iterable

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.relations import DocumentTag, Relation
from annotator.core.schema import Schema
from annotator.core.task import TYPE_ATTRIBUTES, TaskTag
from annotator.io.i2b2 import (
    annotation_attributes,
    cdata_section,
    check_xml_chars,
    element_line,
    xml_attribute,
)
from annotator.io.mae_layout import MaeLayout, OriginalTag, mae_layout
from annotator.io.realign import UnitMap, utf16_map
from annotator.io.xml_items import (
    TargetTexts,
    check_name,
    document_tag_to_xml,
    fragments_of,
    relation_element,
    relation_to_xml,
    xml_name,
)

DEFAULT_TASK = "PHI"
_PROVENANCE = ("source", "confidence", "annotator", "pending")


def document_to_mae(document: Document, task: str | None = None, schema: Schema | None = None) -> bytes:
    """MAE XML bytes for a document.

    Parameters
    ----------
    task:
        The root element (the task name); default the schema's task, else the root read.
    schema:
        A schema read from a task file: new tags get its attribute set and defaults.
    """
    task_definition = schema.task if schema is not None else None
    if (
        task is None
        and task_definition is None
        and document.is_pristine()
        and document.origin.format == "mae"
        and document.origin.raw
    ):
        return document.origin.raw
    check_xml_chars(document.text, document)
    layout = mae_layout(document)
    root = (
        task
        or (task_definition.name if task_definition is not None else None)
        or (layout.root_tag if layout is not None else None)
        or str(document.origin.layout.get("root_tag") or DEFAULT_TASK)
    )
    check_name(root, document)
    writer = _TagWriter(document, layout, schema)
    root_attributes = "".join(
        f' {name}="{xml_attribute(value)}"' for name, value in (layout.root_attributes if layout else ())
    )
    before, after = (layout.before, layout.after) if layout else _i2b2_elements(document)
    lines = ['<?xml version="1.0" encoding="UTF-8" ?>', f"<{root}{root_attributes}>"]
    lines.append(f"<TEXT>{cdata_section(document.text)}</TEXT>")
    lines.extend(before)
    lines.append("<TAGS>")
    lines.extend(writer.lines())
    lines.append("</TAGS>")
    lines.extend(after)
    lines.append(f"</{root}>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _i2b2_elements(document: Document) -> tuple[list[str], list[str]]:
    """The other elements of an i2b2 file (a MedTator file's ``<META>``, carried through
    i2b2), before and after its TAGS."""
    children = document.origin.layout.get("children") if document.origin.format == "i2b2" else None
    if not isinstance(children, list) or "TAGS" not in children:
        return [], []
    at = children.index("TAGS")
    return (
        [str(c) for c in children[:at] if c != "TEXT"],
        [str(c) for c in children[at + 1 :] if c != "TEXT"],
    )


def _element(tag: str, attributes: Iterable[tuple[str, str]]) -> str:
    body = " ".join(f'{name}="{xml_attribute(value)}"' for name, value in attributes)
    return f"<{tag} {body} />"


class _TagWriter:
    def __init__(self, document: Document, layout: MaeLayout | None, schema: Schema | None) -> None:
        self.document = document
        self.layout = layout
        self.task = schema.task if schema is not None else None
        self.units: UnitMap = utf16_map(document.text)
        self.fragments = fragments_of(document)
        self.texts = TargetTexts(document)

    def lines(self) -> list[str]:
        out = []
        written: set[str] = set()
        document = self.document
        relations = {r.id: r for r in document.relations}
        tags = {t.id: t for t in document.document_tags}
        heads = [a for a in document.annotations if a.id in self.fragments]
        for item_id in [
            *(self.layout.order if self.layout else ()),
            *(a.id for a in heads),
            *tags,
            *relations,
        ]:
            if item_id in written:
                continue
            written.add(item_id)
            if item_id in self.fragments:
                out.append(self._annotation(document.get(item_id)))
            elif item_id in tags:
                out.append(self._document_tag(tags[item_id]))
            elif item_id in relations:
                out.append(self._relation(relations[item_id]))
        return out

    def _relation(self, relation: Relation) -> str:
        kept = self.layout.items.get(relation.id) if self.layout is not None else None
        if kept is not None and kept.item == relation:
            return _element(kept.tag, kept.attributes)
        original = kept.attributes if kept is not None else ()
        pairs = relation_to_xml(relation, self.document, self.texts, original)
        return element_line(relation_element(relation), pairs, self.document)

    def _document_tag(self, tag: DocumentTag) -> str:
        kept = self.layout.items.get(tag.id) if self.layout is not None else None
        if kept is not None and kept.item == tag:
            return _element(kept.tag, kept.attributes)
        original = kept.attributes if kept is not None else ()
        return element_line(tag.tag, document_tag_to_xml(tag, self.document, True, original), self.document)

    def _spans(self, spans: list[tuple[int, int]]) -> str:
        return ",".join(
            f"{self.units.from_codepoint(start)}~{self.units.from_codepoint(end)}" for start, end in spans
        )

    def _annotation(self, annotation: Annotation) -> str:
        check_xml_chars(annotation.text + annotation.comment, self.document)
        check_name(annotation.tag, self.document)
        original = self.layout.originals.get(annotation.id) if self.layout is not None else None
        if original is not None and original.tag == annotation.tag:
            return element_line(annotation.tag, self._as_read(annotation, original), self.document)
        return element_line(annotation.tag, self._new(annotation), self.document)

    def _extra(self, annotation: Annotation) -> dict[str, str]:
        return {xml_name(name, self.document): value for name, value in annotation.extra}

    def _as_read(self, annotation: Annotation, original: OriginalTag) -> list[tuple[str, str]]:
        fragments = self.fragments[annotation.id]
        unchanged = tuple(fragments) == original.fragments
        stated = dict(original.attributes)
        text = stated.get("text", "") if unchanged else self.texts(annotation.id)
        extra = self._extra(annotation)
        provenance = dict(p for p in annotation_attributes(annotation) if p[0] in _PROVENANCE)
        out: list[tuple[str, str]] = []
        for name, value in original.attributes:
            if name == "id":
                out.append((name, annotation.id))
            elif name == "spans":
                out.append((name, original.spans if unchanged else self._spans(fragments)))
            elif name == "text":
                out.append((name, text))
            elif name == original.type_attribute:
                out.append((name, annotation.type))
            elif name in TYPE_ATTRIBUTES and not value:
                # An empty type attribute stays empty while the type is the tag's own name.
                keep_empty = original.type_attribute or annotation.type == annotation.tag
                out.append((name, "" if keep_empty else annotation.type))
            elif name == "comment":
                out.append((name, annotation.comment))
            elif name in extra:
                out.append((name, extra.pop(name)))
            elif name in provenance:
                out.append((name, provenance.pop(name)))
        names = {name for name, _ in out}
        if annotation.type != annotation.tag and not names & set(TYPE_ATTRIBUTES):
            # The task's own spelling (MAE's lower-case type), else TYPE.
            task_tag = self.task.tag(annotation.tag) if self.task is not None else None
            declared = task_tag.type_attribute if task_tag is not None else None
            out.append((declared.name if declared is not None else "TYPE", annotation.type))
        if annotation.comment and "comment" not in names:
            out.append(("comment", annotation.comment))
        out.extend(provenance.items())
        out.extend(extra.items())
        return out

    def _attribute_set(self, tag: str) -> tuple[list[str], TaskTag | None]:
        task_tag = self.task.tag(tag) if self.task is not None else None
        if task_tag is not None:
            return [a.name for a in task_tag.attributes if not a.idref], task_tag
        if self.layout is not None and tag in self.layout.attribute_sets:
            names = [n for n in self.layout.attribute_sets[tag] if n not in ("id", "spans", "text")]
            return names, None
        return ["TYPE", "comment"], None

    def _new(self, annotation: Annotation) -> list[tuple[str, str]]:
        names, task_tag = self._attribute_set(annotation.tag)
        extra = self._extra(annotation)
        provenance = dict(p for p in annotation_attributes(annotation) if p[0] in _PROVENANCE)
        out = [
            ("id", annotation.id),
            ("spans", self._spans(self.fragments[annotation.id])),
            ("text", self.texts(annotation.id)),
        ]
        type_name = next((n for n in names if n in TYPE_ATTRIBUTES), "")
        # A new tag in a MAE file gets every attribute of its kind, with the task's defaults,
        # as MAE gives it; a converted document gets the values it holds, no more (MAE and
        # MedTator read an attribute left out as its default).
        new_in_file = self.layout is not None
        for name in names:
            declared = task_tag.attribute(name) if task_tag is not None else None
            default = declared.default if declared is not None else ""
            if (
                not new_in_file
                and name not in extra
                and name not in provenance
                and name not in ("comment", type_name)
            ):
                continue
            if name == type_name:
                extra.pop(name, None)
                # A type named like its tag is "no type", unless the task lists it as a value
                # (the i2b2 task's DATE TYPE="DATE"): then it is written, not left empty.
                untyped = annotation.type == annotation.tag and annotation.type not in (
                    declared.values if declared is not None else ()
                )
                out.append((name, "" if untyped else annotation.type))
            elif name == "comment":
                # The annotator's comment, even when empty: a default would put words in it.
                out.append((name, annotation.comment))
            elif name in extra:
                out.append((name, extra.pop(name)))
            elif name in provenance:
                out.append((name, provenance.pop(name)))
            else:
                out.append((name, default))
        if not type_name and annotation.type != annotation.tag:
            out.append(("TYPE", annotation.type))
        if annotation.comment and "comment" not in names:
            # A task that declares no comment for this tag does not take the annotator's away.
            out.append(("comment", annotation.comment))
        out.extend(provenance.items())
        out.extend(extra.items())
        return out
