"""Relations and document tags as JSON objects (JSONL files, the edit journal).

A relation: ``{"id", "type", "kind", "arguments": [{"role", "target"}], "trigger",
"attributes": [[name, value]], "comment"}``; a document tag: ``{"id", "tag",
"attributes", "comment"}``. Empty fields are left out. Attributes are pairs, so their order
survives.
"""

from __future__ import annotations

from typing import Any

from annotator.core.relations import Argument, DocumentTag, Relation, RelationKind

_KINDS = {kind.value: kind for kind in RelationKind}


def pairs_record(pairs: tuple[tuple[str, str], ...]) -> list[list[str]]:
    return [[name, value] for name, value in pairs]


def record_pairs(value: Any) -> tuple[tuple[str, str], ...]:
    """Attribute pairs from JSON (a list of pairs or an object); ValueError otherwise."""
    if value is None:
        return ()
    if isinstance(value, dict):
        return tuple((str(k), str(v)) for k, v in value.items())
    if not isinstance(value, list) or not all(isinstance(p, list) and len(p) == 2 for p in value):
        raise ValueError("attributes are not a list of [name, value] pairs")
    return tuple((str(name), str(item)) for name, item in value)


def relation_record(relation: Relation) -> dict[str, Any]:
    record: dict[str, Any] = {"id": relation.id, "type": relation.type, "kind": relation.kind.value}
    record["arguments"] = [{"role": a.role, "target": a.target} for a in relation.arguments]
    if relation.trigger:
        record["trigger"] = relation.trigger
    if relation.attributes:
        record["attributes"] = pairs_record(relation.attributes)
    if relation.comment:
        record["comment"] = relation.comment
    return record


def record_relation(record: Any) -> Relation:
    """A relation from its JSON object; ValueError when it is not one."""
    if not isinstance(record, dict) or "id" not in record or "type" not in record:
        raise ValueError("a relation needs an id and a type")
    kind = _KINDS.get(str(record.get("kind", "link")))
    arguments = record.get("arguments") or []
    if kind is None or not isinstance(arguments, list):
        raise ValueError("a relation needs a known kind and a list of arguments")
    try:
        parsed = tuple(Argument(str(a.get("role", "")), str(a["target"])) for a in arguments)
    except (AttributeError, KeyError, TypeError):
        raise ValueError("a relation argument needs a target") from None
    return Relation(
        id=str(record["id"]),
        type=str(record["type"]),
        kind=kind,
        arguments=parsed,
        trigger=str(record.get("trigger", "")),
        attributes=record_pairs(record.get("attributes")),
        comment=str(record.get("comment", "")),
    )


def document_tag_record(tag: DocumentTag) -> dict[str, Any]:
    record: dict[str, Any] = {"id": tag.id, "tag": tag.tag}
    if tag.attributes:
        record["attributes"] = pairs_record(tag.attributes)
    if tag.comment:
        record["comment"] = tag.comment
    return record


def record_document_tag(record: Any) -> DocumentTag:
    if not isinstance(record, dict) or "id" not in record or "tag" not in record:
        raise ValueError("a document tag needs an id and a tag")
    return DocumentTag(
        id=str(record["id"]),
        tag=str(record["tag"]),
        attributes=record_pairs(record.get("attributes")),
        comment=str(record.get("comment", "")),
    )
